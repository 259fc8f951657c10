import { test } from "uvu";
import * as assert from "uvu/assert";
import OpenAI from "openai";
import parsePrometheusTextFormat from "parse-prometheus-text-format";
import { createContainer } from "svc/internal";
import { TRACE_ACCESS, type KernelOptions } from "svc/plugin";
import limitsPlugin from "../../../plugins/limits/index.js";
import managementPlugin from "../../../plugins/management/index.js";
import mcpPlugin from "../../../plugins/mcp/index.js";
import metricsPlugin from "../../../plugins/metrics/index.js";
import { openaiPlugin } from "../../../plugins/openai/index.js";
import runApiPlugin from "../../../plugins/run-api/index.js";
import { tempDir } from "../../helpers/pipelines.js";
import { startKernel, type TestKernel } from "../../helpers/kernel.js";
import { httpClient } from "../mcp/fixtures.js";
import { OPERATOR, operatorPolicy } from "../monitoring/helpers.js";
import { chatWrapper } from "../openai/chat-helpers.js";

/** Counts the runs of `key` executing at once (on globalThis: the wrapper is loaded as its own module). */
const COUNTING = (key: string, members = "") =>
  chatWrapper(`${members}
  async runApi(input: { ms?: number }, ctx: any) {
    const g = ((globalThis as any)[${JSON.stringify(key)}] ??= { now: 0, most: 0, aborted: 0 });
    g.now++;
    g.most = Math.max(g.most, g.now);
    try {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, input.ms ?? 300);
        ctx.signal.addEventListener("abort", () => { clearTimeout(timer); g.aborted++; resolve(); }, { once: true });
      });
      return "done";
    } finally {
      g.now--;
    }
  }
  async *runChatCompletion(_m: string, _msgs: unknown, _b: unknown, ctx: any) {
    for (let i = 0; !ctx.signal.aborted; i++) { yield "tick "; await sleep(100); }
  }`);

const stats = (key: string) => (globalThis as any)[key] as { now: number; most: number; aborted: number };

async function withLimits(fn: (k: TestKernel) => Promise<void>, settings: KernelOptions["settings"] = {}) {
  const container = createContainer();
  container.register(TRACE_ACCESS, { useValue: operatorPolicy });
  const k = await startKernel({
    container,
    settings: { pipelinesDir: tempDir("svc-limits-"), ...settings },
    plugins: [limitsPlugin(), managementPlugin(), runApiPlugin(), openaiPlugin(), mcpPlugin(), metricsPlugin()],
  });
  try {
    await fn(k);
  } finally {
    await k.close();
  }
}

const post = async (url: string, body: unknown) => {
  const res = await fetch(url, { method: "POST", body: JSON.stringify(body) });
  return { status: res.status, headers: res.headers, body: (await res.json()) as any };
};
const deploy = (k: TestKernel, name: string, source: string, extra: Record<string, unknown> = {}) =>
  post(`${k.url}/deploy_files`, { name, files: { "pipeline_wrapper.ts": source }, save_files: false, ...extra });

async function metric(k: TestKernel, name: string, pipeline: string): Promise<number> {
  const text = await (await fetch(`${k.url}/metrics`, { headers: OPERATOR })).text();
  const family = (parsePrometheusTextFormat(text) as { name: string; metrics: { labels?: Record<string, string>; value?: string }[] }[]).find((f) => f.name === name);
  return Number(family?.metrics.find((m) => m.labels?.pipeline === pipeline)?.value ?? 0);
}

test("max_concurrency 2 under 10 concurrent calls: never more than 2 at once; the queue's overflow gets 429 with Retry-After", () =>
  withLimits(
    async (k) => {
      assert.is((await deploy(k, "two", COUNTING("__limitsTwo", "  static maxConcurrency = 2;"))).status, 200);
      const answers = await Promise.all(Array.from({ length: 10 }, () => post(`${k.url}/two/run`, { ms: 300 })));
      const statuses = answers.map((a) => a.status).sort();
      assert.equal(statuses, [200, 200, 200, 200, 200, 200, 200, 429, 429, 429], "2 run, 5 wait, 3 are refused");
      assert.is(stats("__limitsTwo").most, 2);
      const refused = answers.find((a) => a.status === 429)!;
      assert.ok(Number(refused.headers.get("retry-after")) >= 1);
      assert.equal(refused.body.error.code, 429);
      assert.match(refused.body.error.message, "Pipeline 'two' is at its limit of 2 concurrent run(s)");
      assert.is(await metric(k, "svc_limit_rejected_total", "two"), 3);
      assert.is(await metric(k, "svc_limit_max_concurrency", "two"), 2);
    },
    { limitsMaxQueue: 5 },
  ));

test("timeout_seconds from the deploy request: the run's signal is aborted and the client gets 504 long before the run would end", () =>
  withLimits(async (k) => {
    assert.is((await deploy(k, "slow", COUNTING("__limitsSlow"), { timeout_seconds: 1 })).status, 200);
    const started = Date.now();
    const answer = await post(`${k.url}/slow/run`, { ms: 5000 });
    const elapsed = Date.now() - started;
    assert.is(answer.status, 504);
    assert.equal(answer.body.error, { message: "Pipeline 'slow' did not finish within its time limit of 1 s", type: "server_error", code: 504 });
    assert.ok(elapsed >= 950 && elapsed < 4000, `answered after ${elapsed} ms`);
    assert.is(stats("__limitsSlow").aborted, 1, "the wrapper saw its signal aborted");
    assert.is(await metric(k, "svc_limit_timeouts_total", "slow"), 1);
    // Shorter runs are untouched.
    assert.equal((await post(`${k.url}/slow/run`, { ms: 10 })).body, { result: "done" });
  }));

test("a streamed chat that runs past its time limit ends with an error event the openai client raises", () =>
  withLimits(
    async (k) => {
      assert.is((await deploy(k, "ticker", COUNTING("__limitsTicker"))).status, 200);
      const client = new OpenAI({ baseURL: `${k.url}/v1`, apiKey: "none", maxRetries: 0 });
      const stream = await client.chat.completions.create({ model: "ticker", stream: true, messages: [{ role: "user", content: "go" }] });
      const seen: string[] = [];
      try {
        for await (const chunk of stream) seen.push(chunk.choices[0]?.delta?.content ?? "");
        assert.unreachable("the stream must fail");
      } catch (error) {
        assert.match((error as Error).message, "did not finish within its time limit of 1 s");
      }
      assert.ok(seen.includes("tick "), "chunks before the time limit arrived");
    },
    { limitsDefaultTimeoutSeconds: 1 },
  ));

test("limits hold on MCP tool calls too, and bad limit values are refused at deploy", () =>
  withLimits(
    async (k) => {
      assert.is((await deploy(k, "solo", COUNTING("__limitsSolo"), { max_concurrency: 1 })).status, 200);
      const { client } = await httpClient(k.url);
      try {
        const calls = await Promise.all([1, 2].map(() => client.callTool({ name: "solo", arguments: { ms: 300 } })));
        const refused = calls.filter((c) => c.isError);
        assert.is(refused.length, 1);
        assert.match((refused[0]!.content as { text: string }[])[0]!.text, "is at its limit of 1 concurrent run(s)");
      } finally {
        await client.close();
      }
      const zero = await deploy(k, "bad", COUNTING("__limitsBad"), { max_concurrency: 0 });
      assert.is(zero.status, 400);
      assert.match(zero.body.error.message, "max_concurrency");
      const wrapper = await deploy(k, "bad", COUNTING("__limitsBad", `  static timeoutSeconds = "soon";`));
      assert.is(wrapper.status, 400);
      assert.match(wrapper.body.error.message, 'PipelineWrapper.timeoutSeconds must be a number of seconds above 0, got "soon"');
      assert.is((await fetch(`${k.url}/bad/run`, { method: "POST", body: "{}" })).status, 404, "nothing half-deployed");
    },
    { limitsMaxQueue: 0 },
  ));

test.run();
