import { test } from "uvu";
import * as assert from "uvu/assert";
import parsePrometheusTextFormat from "parse-prometheus-text-format";
import { createContainer } from "svc/internal";
import { TRACE_ACCESS } from "svc/plugin";
import { defaultPluginSpecs } from "../../../cli/default-plugins.js";
import { loadLauncherSettings } from "../../../cli/cli-settings.js";
import metricsPlugin from "../../../plugins/metrics/index.js";
import { openaiPlugin } from "../../../plugins/openai/index.js";
import { withPipelineKernel, type PipelineKernel } from "../../helpers/pipelines.js";
import { OPERATOR, operatorPolicy } from "../monitoring/helpers.js";
import { chatWrapper } from "../openai/chat-helpers.js";
import mcpPlugin from "svc/mcp";
import { httpClient, sseClient } from "../mcp/fixtures.js";
import { sleep } from "../../helpers/http.js";

const WRAPPER = chatWrapper(`  runApi(input: any) { if (input.fail) throw new Error("broken"); return "ok"; }
  async *runChatCompletion() { yield "a"; yield "b"; }`);

interface Sample {
  labels?: Record<string, string>;
  value?: string;
  count?: string;
}
interface Family {
  name: string;
  type: string;
  metrics: Sample[];
}

async function scrape(k: PipelineKernel): Promise<Map<string, Family>> {
  const res = await fetch(`${k.url}/metrics`, { headers: OPERATOR });
  assert.is(res.status, 200);
  assert.match(res.headers.get("content-type")!, /^text\/plain; version=0\.0\.4/);
  const families = parsePrometheusTextFormat(await res.text()) as Family[];
  return new Map(families.map((f) => [f.name, f]));
}

/** The value of the sample of `name` whose labels include `labels` (0 when there is none). */
function value(families: Map<string, Family>, name: string, labels: Record<string, string>): number {
  const sample = families.get(name)?.metrics.find((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v));
  return Number(sample?.value ?? sample?.count ?? 0);
}

async function withMetrics(fn: (k: PipelineKernel) => Promise<void>, options: Omit<Parameters<typeof withPipelineKernel>[1] & {}, "container"> = {}) {
  const container = createContainer();
  container.register(TRACE_ACCESS, { useValue: operatorPolicy });
  await withPipelineKernel(fn, { plugins: [openaiPlugin(), metricsPlugin()], container, ...options });
}

/**
 * The +Inf bucket of a histogram: the parser drops a histogram's labels when `le` comes first, as
 * prom-client writes it, so this is a count only while the histogram has one label set.
 */
function infCount(families: Map<string, Family>, name: string): number {
  return Number((families.get(name)?.metrics[0] as { buckets?: Record<string, string> } | undefined)?.buckets?.["+Inf"] ?? 0);
}

test("GET /metrics: a Prometheus parser reads it; counters rise by exactly the runs made", () =>
  withMetrics(async (k) => {
    assert.is((await fetch(`${k.url}/metrics`)).status, 401, "operator access, like /traces");
    assert.is((await k.deploy({ name: "m", files: { "pipeline_wrapper.ts": WRAPPER }, save_files: false })).status, 200);
    const before = await scrape(k);
    const run = { pipeline: "m", transport: "rest" };
    for (let i = 0; i < 3; i++) assert.is((await k.run("m", {})).status, 200);
    assert.is((await k.run("m", { fail: true })).status, 500);
    for (let i = 0; i < 2; i++) {
      const res = await fetch(`${k.url}/v1/chat/completions`, { method: "POST", body: JSON.stringify({ model: "m", stream: true, messages: [{ role: "user", content: "x" }] }) });
      await res.text();
    }
    const after = await scrape(k);
    const delta = (name: string, labels: Record<string, string>) => value(after, name, labels) - value(before, name, labels);
    assert.is(delta("svc_runs_total", { ...run, outcome: "succeeded" }), 3);
    assert.is(delta("svc_runs_total", { ...run, outcome: "failed" }), 1);
    assert.is(delta("svc_runs_total", { pipeline: "m", transport: "openai", outcome: "succeeded" }), 2);
    assert.is(delta("svc_http_requests_total", { route: "/:name/run", method: "POST", status: "200" }), 3);
    assert.is(delta("svc_http_requests_total", { route: "/:name/run", method: "POST", status: "500" }), 1);
    // One stream label set here: the +Inf bucket is the count.
    assert.is(infCount(after, "svc_stream_first_item_seconds") - infCount(before, "svc_stream_first_item_seconds"), 2, "one first item per stream");
    assert.is(value(after, "svc_runs_in_flight", run), 0);
    assert.is(value(after, "svc_streams_in_flight", { pipeline: "m", transport: "openai" }), 0);
    assert.is(value(after, "svc_pipelines_deployed", {}), 1);
    assert.is(value(after, "svc_deploys_total", { action: "deploy", kind: "files", outcome: "succeeded" }), 1);
    assert.is(after.get("svc_http_request_duration_seconds")?.type, "HISTOGRAM");
    assert.ok(after.has("process_cpu_user_seconds_total"), "Node's process metrics");
    await fetch(`${k.url}/no/such/thing/here`);
    const unmatched = await scrape(k);
    assert.is(value(unmatched, "svc_http_requests_total", { route: "unmatched", status: "404" }), 1, "raw paths never become labels");
  }));

test("deploys: counted by action, kind and outcome, failures too, each with its duration", () =>
  withMetrics(async (k) => {
    const before = await scrape(k);
    for (const name of ["d1", "d2"]) assert.is((await k.deploy({ name, files: { "pipeline_wrapper.ts": WRAPPER }, save_files: false })).status, 200);
    // With one label set so far, the parser's +Inf bucket is that set's count (see above).
    const deployed = await scrape(k);
    assert.is(deployed.get("svc_deploy_duration_seconds")?.type, "HISTOGRAM");
    assert.is(infCount(deployed, "svc_deploy_duration_seconds"), 2, "each deploy is timed");
    const broken = await k.deploy({ name: "d3", files: { "pipeline_wrapper.ts": "export class Nope {" }, save_files: false });
    assert.ok(broken.status >= 400, "a wrapper that does not compile is refused");
    assert.is((await fetch(`${k.url}/undeploy/d1`, { method: "POST" })).status, 200);
    const after = await scrape(k);
    const delta = (labels: Record<string, string>) => value(after, "svc_deploys_total", labels) - value(before, "svc_deploys_total", labels);
    assert.is(delta({ action: "deploy", kind: "files", outcome: "succeeded" }), 2);
    assert.is(delta({ action: "deploy", kind: "files", outcome: "failed" }), 1);
    assert.is(delta({ action: "undeploy", outcome: "succeeded" }), 1);
    assert.is(value(after, "svc_pipelines_deployed", {}), 1);
  }));

test("MCP sessions: open by transport and opened in total, both transports, rising by exactly the sessions made", () =>
  withMetrics(
    async (k) => {
      const sessions = (f: Map<string, Family>, transport: string) => ({
        open: value(f, "svc_mcp_sessions_open", { transport }),
        opened: value(f, "svc_mcp_sessions_opened_total", { transport }),
      });
      const before = await scrape(k);
      assert.equal(sessions(before, "streamable-http"), { open: 0, opened: 0 });
      const a = await httpClient(k.url);
      const b = await httpClient(k.url);
      const sse = await sseClient(k.url);
      try {
        const during = await scrape(k);
        assert.equal(sessions(during, "streamable-http"), { open: 2, opened: 2 });
        assert.equal(sessions(during, "sse"), { open: 1, opened: 1 });
        await a.transport.terminateSession();
        await a.client.close();
        await sse.close();
        let after = await scrape(k);
        // The SSE session ends when the server sees its stream close.
        for (let i = 0; i < 100 && value(after, "svc_mcp_sessions_open", { transport: "sse" }) > 0; i++) {
          await sleep(50);
          after = await scrape(k);
        }
        assert.equal(sessions(after, "streamable-http"), { open: 1, opened: 2 });
        assert.equal(sessions(after, "sse"), { open: 0, opened: 1 });
      } finally {
        await a.client.close();
        await b.client.close();
        await sse.close();
      }
    },
    { plugins: [metricsPlugin(), mcpPlugin()], settings: { mcpStateful: true } },
  ));

test("svc run loads svc:metrics by default; --without-metrics (SERVICE_METRICS_ENABLED=false) leaves it out", () => {
  const names = (sources: Parameters<typeof loadLauncherSettings>[0]) => defaultPluginSpecs(loadLauncherSettings(sources)).map((s) => s.use);
  assert.ok(names({}).includes("svc:metrics"));
  assert.not.ok(names({ flags: { metricsEnabled: false } }).includes("svc:metrics"));
  assert.not.ok(names({ env: { SERVICE_METRICS_ENABLED: "false" } }).includes("svc:metrics"));
});

test.run();
