import { test } from "uvu";
import * as assert from "uvu/assert";
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { createServer as createTcpServer, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import { trace } from "@opentelemetry/api";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import tracingPlugin from "../../../plugins/tracing/index.js";
import { startGrpcCollector, startHttpCollector, type CollectedSpan } from "../../fixtures/otlp-collector.js";
import { startPipelineKernel, wrapper, type PipelineKernel } from "../../helpers/pipelines.js";
import { OPERATOR_TOKEN } from "./tracing-helpers.js";
import { repoRoot } from "../../helpers/cli.js";

const OTEL_VARS = [
  "OTEL_EXPORTER_OTLP_ENDPOINT",
  "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
  "OTEL_EXPORTER_OTLP_PROTOCOL",
  "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL",
  "OTEL_SERVICE_NAME",
  "OTEL_TRACES_SAMPLER",
  "OTEL_TRACES_SAMPLER_ARG",
  "OTEL_BSP_SCHEDULE_DELAY",
  "OTEL_EXPORTER_OTLP_TIMEOUT",
];

const ECHO = wrapper(`runApi(input: Record<string, unknown>) { if (input.fail) throw new Error("asked to fail"); return input; }`);

/** A kernel with tracing, started with the given OTEL_* environment (restored afterwards). */
async function withOtelKernel(env: Record<string, string>, fn: (k: PipelineKernel) => Promise<void>): Promise<void> {
  const saved = Object.fromEntries(OTEL_VARS.map((k) => [k, process.env[k]]));
  for (const k of OTEL_VARS) delete process.env[k];
  Object.assign(process.env, { OTEL_BSP_SCHEDULE_DELAY: "50", ...env });
  let k: PipelineKernel | undefined;
  try {
    k = await startPipelineKernel({ settings: { operatorToken: OPERATOR_TOKEN }, plugins: [tracingPlugin()] });
    const res = await k.deploy({ name: "echo", files: { "pipeline_wrapper.ts": ECHO }, save_files: false });
    assert.is(res.status, 200);
    await fn(k);
  } finally {
    await k?.close();
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  }
}

const runSpans = (spans: CollectedSpan[]) => spans.filter((s) => s.name === "svc.pipeline.run");

async function localTraceIds(k: PipelineKernel): Promise<string[]> {
  const res = await fetch(`${k.url}/traces?limit=100`, { headers: { authorization: `Bearer ${OPERATOR_TOKEN}` } });
  return ((await res.json()) as any).traces.map((t: any) => t.trace_id);
}

test("http/protobuf (the default): spans reach the collector with attributes, status, service name and the local ids", async () => {
  const collector = await startHttpCollector();
  try {
    await withOtelKernel({ OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, OTEL_SERVICE_NAME: "svc-under-test" }, async (k) => {
      assert.is((await k.run("echo", { q: "hi" })).status, 200);
      assert.is((await k.run("echo", { fail: true })).status, 500);
      await collector.waitFor((spans) => runSpans(spans).length >= 2);
      const [ok, failed] = runSpans(collector.spans);
      assert.is(ok!.attributes["svc.pipeline.name"], "echo");
      assert.is(ok!.attributes["svc.transport"], "rest");
      assert.is(ok!.attributes["svc.success"], true);
      assert.equal(ok!.attributes["svc.payload.values"], ["q=str(2)"]);
      assert.is(ok!.serviceName, "svc-under-test");
      assert.is(ok!.scope, "svc");
      assert.is(failed!.statusCode, 2, "error status");
      assert.is(failed!.attributes["svc.error.message"], "asked to fail");
      assert.ok(failed!.events.includes("exception"));
      assert.ok(collector.contentTypes.every((t) => t === "application/x-protobuf"), collector.contentTypes.join());
      const local = await localTraceIds(k);
      assert.ok(local.includes(ok!.traceId) && local.includes(failed!.traceId), "the buffer shows the exported trace ids");
      const deploy = collector.spans.find((s) => s.name === "svc.deploy")!;
      assert.is(deploy.attributes["svc.pipeline.name"], "echo");
    });
  } finally {
    await collector.close();
  }
});

test("a caller's traceparent: the collector gets the run under the caller's trace and span; an unsampled caller's run is kept local only", async () => {
  const collector = await startHttpCollector();
  const trace = "4bf92f3577b34da6a3ce929d0e0e4736";
  const unsampled = "5cf92f3577b34da6a3ce929d0e0e4737";
  const span = "00f067aa0ba902b7";
  let local: string[] = [];
  try {
    await withOtelKernel({ OTEL_EXPORTER_OTLP_ENDPOINT: collector.url }, async (k) => {
      const send = (traceparent: string) => fetch(`${k.url}/echo/run`, { method: "POST", headers: { traceparent, tracestate: "rojo=1" }, body: "{}" });
      assert.is((await send(`00-${trace}-${span}-01`)).status, 200);
      assert.is((await send(`00-${unsampled}-${span}-00`)).status, 200);
      assert.is((await k.run("echo", { after: true })).status, 200);
      await collector.waitFor((spans) => runSpans(spans).length >= 2);
      local = await localTraceIds(k);
    });
    // Closed: the SDK has flushed everything it had.
    const runs = runSpans(collector.spans);
    const continued = runs.find((s) => s.traceId === trace)!;
    assert.ok(continued, runs.map((s) => s.traceId).join());
    assert.is(continued.parentSpanId, span);
    assert.is(continued.traceState, "rojo=1");
    assert.not.ok(collector.spans.some((s) => s.traceId === unsampled), "parent-based sampling: the caller did not sample");
    assert.is(runs.length, 2, "the sampled caller's run and the run without a caller");
    assert.ok(local.includes(trace) && local.includes(unsampled), "the local buffer records both");
  } finally {
    await collector.close();
  }
});

test("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT with the full /v1/traces path; the service name defaults to svc", async () => {
  const collector = await startHttpCollector();
  try {
    await withOtelKernel({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${collector.url}/v1/traces` }, async (k) => {
      await k.run("echo", { q: 1 });
      await collector.waitFor((spans) => runSpans(spans).length >= 1);
      assert.is(runSpans(collector.spans)[0]!.serviceName, "svc");
    });
  } finally {
    await collector.close();
  }
});

test("grpc protocol: spans reach a gRPC collector, children under their parents", async () => {
  const collector = await startGrpcCollector();
  try {
    await withOtelKernel({ OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: "grpc" }, async (k) => {
      k.kernel.tracer.startSpan("outer").end();
      await k.run("echo", { q: "grpc" });
      await collector.waitFor((spans) => runSpans(spans).length >= 1);
      const run = runSpans(collector.spans)[0]!;
      assert.is(run.attributes["svc.pipeline.name"], "echo");
      assert.is(run.parentSpanId, "", "a root span");
    });
  } finally {
    await collector.close();
  }
});

test("the sampler variables are honoured: always_off exports nothing, the local buffer still records", async () => {
  const collector = await startHttpCollector();
  let local: string[] = [];
  try {
    await withOtelKernel({ OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, OTEL_TRACES_SAMPLER: "always_off" }, async (k) => {
      await k.run("echo", { q: "x" });
      local = await localTraceIds(k);
    });
    // The kernel is closed: the SDK flushed whatever it had.
    assert.is(collector.spans.length, 0);
    assert.ok(local.length >= 1);
  } finally {
    await collector.close();
  }
});

test("a collector that is down, or that never answers, neither blocks requests nor crashes; shutdown ends", async () => {
  const closed = await startHttpCollector();
  const deadUrl = closed.url;
  await closed.close();
  await withOtelKernel({ OTEL_EXPORTER_OTLP_ENDPOINT: deadUrl }, async (k) => {
    for (let i = 0; i < 5; i++) assert.is((await k.run("echo", { i })).status, 200);
    await new Promise((r) => setTimeout(r, 200)); // let an export attempt fail
    assert.is((await k.run("echo", { after: true })).status, 200);
  });

  // A collector that accepts connections and never answers.
  const sockets = new Set<Socket>();
  const silent = createTcpServer((s) => sockets.add(s));
  await new Promise<void>((r) => silent.listen(0, "127.0.0.1", r));
  try {
    await withOtelKernel(
      { OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${(silent.address() as AddressInfo).port}`, OTEL_EXPORTER_OTLP_TIMEOUT: "60000" },
      async (k) => {
        for (let i = 0; i < 5; i++) assert.is((await k.run("echo", { i })).status, 200);
      },
    );
  } finally {
    for (const s of sockets) s.destroy();
    await new Promise<void>((r) => silent.close(() => r()));
  }
});

test("an unsupported protocol is reported and export is off; the server works", async () => {
  await withOtelKernel({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:9", OTEL_EXPORTER_OTLP_PROTOCOL: "carrier-pigeon" }, async (k) => {
    assert.ok(k.logs.some((l) => l.includes("unsupported OTLP protocol 'carrier-pigeon'")));
    assert.is((await k.run("echo", {})).status, 200);
  });
});

test("a tracer provider the host registered first is used as it is", async () => {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  trace.setGlobalTracerProvider(provider);
  try {
    await withOtelKernel({}, async (k) => {
      await k.run("echo", { q: "host" });
      assert.ok(k.logs.some((l) => l.includes("host's OpenTelemetry tracer provider")));
      const spans = exporter.getFinishedSpans();
      const run = spans.find((s) => s.name === "svc.pipeline.run")!;
      assert.ok(run, spans.map((s) => s.name).join());
      assert.is(run.attributes["svc.pipeline.name"], "echo");
      assert.ok((await localTraceIds(k)).includes(run.spanContext().traceId));
    });
  } finally {
    await provider.shutdown();
    trace.disable();
  }
});

test("without OTEL variables the OpenTelemetry packages are never loaded", async () => {
  const plugin = fileURLToPath(new URL("../../../plugins/tracing/index.js", import.meta.url));
  const script = `
    import { createRequire } from "node:module";
    import { createKernel } from "@svc-serve/svc/plugin";
    const { default: tracingPlugin } = await import(${JSON.stringify(plugin)});
    const kernel = await createKernel({ plugins: [tracingPlugin()], settings: { host: "0.0.0.0", logLevel: "ERROR" } });
    kernel.tracer.startSpan("svc.pipeline.run").end();
    const loaded = Object.keys(createRequire(import.meta.url).cache).filter((k) => k.includes("@opentelemetry"));
    await kernel.close();
    console.log(JSON.stringify(loaded));
  `;
  const env = { ...process.env };
  for (const k of OTEL_VARS) delete env[k];
  const out = execFileSync(process.execPath, ["--input-type=module", "-e", script], { cwd: repoRoot, env, encoding: "utf8" });
  assert.equal(JSON.parse(out.trim()), []);
});

test.run();
