import { test } from "uvu";
import * as assert from "uvu/assert";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import tracingPlugin from "../../../plugins/tracing/index.js";
import monitoringPlugin from "../../../plugins/monitoring/index.js";
import { startPipelineKernel, tempDir, wrapper, withPipelineKernel } from "../../helpers/pipelines.js";
import { OPERATOR_TOKEN, flatten, tagsOf, withTracingKernel, type TracingKernel } from "./tracing-helpers.js";

const deployOk = async (k: TracingKernel, name: string, source: string) => {
  const res = await k.deploy({ name, files: { "pipeline_wrapper.ts": source }, save_files: false });
  assert.is(res.status, 200, JSON.stringify(res.body));
};

const ECHO = wrapper(`runApi(input: Record<string, unknown>) { return input; }`);

/** A wrapper that awaits before running an engine pipeline, passing only `ctx.signal` along. */
const ENGINE_WRAPPER = `import { BasePipelineWrapper, type RunContext } from "svc";
import { Pipeline, PromptBuilder } from "svc/engine";
export class PipelineWrapper extends BasePipelineWrapper {
  private pipeline!: Pipeline;
  setup() {
    this.pipeline = new Pipeline().addComponent("prompt", new PromptBuilder({ template: "Hello {{ name }}" }));
  }
  async runApi(input: { name: string }, ctx: RunContext) {
    await new Promise((r) => setTimeout(r, 1));
    const out = await this.pipeline.run({ prompt: { name: input.name } }, { signal: ctx.signal });
    return out.prompt.prompt;
  }
}
`;

test("a REST run is one trace: root svc.pipeline.run with pipeline, transport, payload shapes and outcome", () =>
  withTracingKernel(async (k) => {
    await deployOk(k, "echo", ECHO);
    assert.is((await k.run("echo", { question: "hi", top_k: 3 })).status, 200);
    const t = await k.trace("svc.pipeline.run");
    assert.is(t.kind, "run");
    assert.is(t.state, "ok");
    assert.is(t.entrypoint, "echo");
    assert.match(t.trace_id, /^[0-9a-f]{32}$/);
    assert.match(t.root_span!.span_id, /^[0-9a-f]{16}$/);
    const tags = tagsOf(t.root_span!);
    assert.is(tags["svc.pipeline.name"], "echo");
    assert.is(tags["svc.transport"], "rest");
    assert.is(tags["svc.success"], "true");
    assert.is(tags["svc.payload.values"], '["question=str(2)","top_k=int"]');
    assert.is(t.tags[0]!.key, "svc.pipeline.name", "priority order");
    assert.is(t.root_span!.running, false);
    assert.is(t.span_count, 1);
  }));

test("engine spans nest below the run span when the wrapper passes ctx.signal (after an await)", () =>
  withTracingKernel(async (k) => {
    await deployOk(k, "hello", ENGINE_WRAPPER);
    const res = await k.run("hello", { name: "Ada" });
    assert.equal(res.body, { result: "Hello Ada" });
    const t = await k.trace("svc.pipeline.run", (t) => t.entrypoint === "hello");
    const names = flatten(t.root_span).map((s) => s.name);
    assert.equal(names, ["svc.pipeline.run", "haystack.pipeline.run", "haystack.component.run"]);
    assert.is(t.span_count, 3);
    const component = flatten(t.root_span)[2]!;
    assert.is(tagsOf(component)["haystack.component.name"], "prompt");
  }));

test("a YAML pipeline's engine spans nest below its run span", () =>
  withTracingKernel(async (k) => {
    const yaml = `components:
  add:
    type: AddFixedValue
    init_parameters: {add: 2}
  double:
    type: Double
connections:
  - sender: add.result
    receiver: double.value
inputs:
  value: add.value
outputs:
  doubled: double.value
`;
    const res = await fetch(`${k.url}/deploy-yaml`, { method: "POST", body: JSON.stringify({ name: "calc", source_code: yaml, save_file: false }) });
    assert.is(res.status, 200);
    assert.equal((await k.run("calc", { value: 1 })).body, { result: { double: { value: 6 } } });
    const t = await k.trace("svc.pipeline.run", (t) => t.entrypoint === "calc");
    const pipeline = t.root_span!.children[0]!;
    assert.is(pipeline.name, "haystack.pipeline.run");
    assert.equal(pipeline.children.map((c) => tagsOf(c)["haystack.component.name"]), ["add", "double"]);
  }));

test("SERVICE_TRACING_INCLUDE_FRAMEWORK_SPANS=false keeps engine spans out of the buffer", () =>
  withTracingKernel(
    async (k) => {
      await deployOk(k, "hello", ENGINE_WRAPPER);
      await k.run("hello", { name: "Ada" });
      const t = await k.trace("svc.pipeline.run", (t) => t.entrypoint === "hello");
      assert.equal(flatten(t.root_span).map((s) => s.name), ["svc.pipeline.run"]);
      assert.is(t.span_count, 1);
    },
    { tracingIncludeFrameworkSpans: false },
  ));

test("SERVICE_TRACING_EXCLUDED_SPANS drops a span; its children attach to the nearest kept ancestor", () =>
  withTracingKernel(
    async (k) => {
      await deployOk(k, "hello", ENGINE_WRAPPER);
      await k.run("hello", { name: "Ada" });
      const t = await k.trace("svc.pipeline.run", (t) => t.entrypoint === "hello");
      assert.equal(flatten(t.root_span).map((s) => s.name), ["svc.pipeline.run", "haystack.component.run"]);
    },
    { tracingExcludedSpans: ["haystack.pipeline.run"] },
  ));

test("failures: error type and message; an HttpError adds its status; tracebacks only when enabled", () =>
  withTracingKernel(
    async (k) => {
      await deployOk(k, "boom", wrapper(`runApi(input: { http?: boolean }) { if (input.http) throw new HttpError(422, "no answer found"); throw new TypeError("bad thing"); }`));
      assert.is((await k.run("boom", {})).status, 500);
      assert.is((await k.run("boom", { http: true })).status, 422);
      const plain = await k.trace("svc.pipeline.run", (t) => tagsOf(t)["svc.error.type"] === "TypeError");
      assert.is(plain.state, "failed");
      const tags = tagsOf(plain.root_span!);
      assert.is(tags["svc.success"], "false");
      assert.is(tags["svc.error.message"], "bad thing");
      assert.ok(tags["svc.error.stack"]?.includes("TypeError: bad thing"));
      const http = await k.trace("svc.pipeline.run", (t) => tagsOf(t)["svc.error.type"] === "HttpError");
      assert.is(tagsOf(http)["svc.http.status_code"], "422");
      assert.is(tagsOf(http)["svc.error.message"], "no answer found");
    },
    { showTracebacks: true },
  ));

test("without SERVICE_SHOW_TRACEBACKS there is no stack tag", () =>
  withTracingKernel(async (k) => {
    await deployOk(k, "boom", wrapper(`runApi() { throw new Error("nope"); }`));
    await k.run("boom", {});
    const t = await k.trace("svc.pipeline.run", (t) => t.state === "failed");
    assert.is(tagsOf(t.root_span!)["svc.error.stack"], undefined);
  }));

test("a streamed run: the span lasts until the stream ends and gets streaming tags from the stream hook", () =>
  withTracingKernel(async (k) => {
    await deployOk(k, "count", wrapper(`async *runApi() { for (const n of [3, 2, 1]) { yield String(n); await new Promise((r) => setTimeout(r, 5)); } }`));
    await deployOk(k, "events", wrapper(`runApi() { return sse(["a", "b"]); }`));
    const res = await fetch(`${k.url}/count/run`, { method: "POST", body: "{}" });
    assert.is(await res.text(), "321");
    const t = await k.trace("svc.pipeline.run", (t) => t.entrypoint === "count");
    const tags = tagsOf(t.root_span!);
    assert.is(tags["svc.response.streaming"], "true");
    assert.is(tags["svc.response.stream_type"], "plain");
    assert.is(tags["svc.stream.items"], "3");
    assert.ok(Number(tags["svc.stream.first_item_ms"]) >= 0);
    assert.is(tags["svc.success"], "true");
    assert.ok(t.root_span!.duration_ms >= 10, "the span covers the stream");

    await (await fetch(`${k.url}/events/run`, { method: "POST", body: "{}" })).text();
    const sse = await k.trace("svc.pipeline.run", (t) => t.entrypoint === "events");
    assert.is(tagsOf(sse.root_span!)["svc.response.stream_type"], "sse");
  }));

test("a stream that fails midway ends its span failed", () =>
  withTracingKernel(async (k) => {
    await deployOk(k, "midway", wrapper(`async *runApi() { yield "a"; throw new Error("broke midway"); }`));
    try {
      await (await fetch(`${k.url}/midway/run`, { method: "POST", body: "{}" })).text();
    } catch {
      // the server cuts a plain stream that fails midway
    }
    const t = await k.trace("svc.pipeline.run", (t) => t.entrypoint === "midway");
    assert.is(t.state, "failed");
    assert.is(tagsOf(t.root_span!)["svc.error.message"], "broke midway");
  }));

test("OpenAI chat: svc.openai.run with operation and stream tags; a streamed chat lasts until [DONE]", () =>
  withTracingKernel(async (k) => {
    const chat = `import { BasePipelineWrapper } from "svc";
export class PipelineWrapper extends BasePipelineWrapper {
  async *runChatCompletion() { yield "Hel"; yield "lo"; }
}
`;
    await deployOk(k, "talk", chat);
    const body = { model: "talk", messages: [{ role: "user", content: "hi" }] };
    const plain = await fetch(`${k.url}/v1/chat/completions`, { method: "POST", body: JSON.stringify(body) });
    assert.is(plain.status, 200);
    await plain.json();
    const streamed = await fetch(`${k.url}/v1/chat/completions`, { method: "POST", body: JSON.stringify({ ...body, stream: true }) });
    assert.match(await streamed.text(), /\[DONE\]/);
    const s = await k.trace("svc.openai.run", (t) => tagsOf(t)["svc.openai.stream_requested"] === "true");
    assert.is(s.kind, "openai");
    const tags = tagsOf(s.root_span!);
    assert.is(tags["svc.openai.operation"], "run_chat_completion");
    assert.is(tags["svc.transport"], "openai");
    assert.is(tags["svc.response.stream_type"], "sse");
    assert.is(tags["svc.stream.items"], "3", "2 words and the closing chunk");
    const n = await k.trace("svc.openai.run", (t) => tagsOf(t)["svc.openai.stream_requested"] === "false");
    assert.is(tagsOf(n.root_span!)["svc.success"], "true");
  }));

test("deploy and undeploy spans; a failed deploy is a failed trace", () =>
  withTracingKernel(async (k) => {
    await deployOk(k, "echo", ECHO);
    assert.is((await fetch(`${k.url}/undeploy/echo`, { method: "POST" })).status, 200);
    const bad = await k.deploy({ name: "broken", files: { "pipeline_wrapper.ts": "export const nothing = 1;" }, save_files: false });
    assert.is(bad.status, 422);
    const d = await k.trace("svc.deploy", (t) => t.entrypoint === "echo");
    assert.is(d.kind, "deploy");
    assert.is(tagsOf(d)["svc.transport"], "runtime");
    const u = await k.trace("svc.undeploy");
    assert.is(u.kind, "undeploy");
    assert.is(u.entrypoint, "echo");
    const failed = await k.trace("svc.deploy", (t) => t.entrypoint === "broken");
    assert.is(failed.state, "failed");
  }));

test("startup deploy: one trace with every deploy nested below it", async () => {
  const dir = join(tempDir(), "pipelines");
  for (const name of ["one", "two"]) {
    mkdirSync(join(dir, name), { recursive: true });
    writeFileSync(join(dir, name, "pipeline_wrapper.ts"), ECHO);
  }
  await withTracingKernel(
    async (k) => {
      await k.kernel.deployer.deployAll();
      const t = await k.trace("svc.startup.deploy");
      assert.is(t.kind, "deploy");
      assert.equal(t.root_span!.children.map((c) => [c.name, tagsOf(c)["svc.pipeline.name"]]), [
        ["svc.deploy", "one"],
        ["svc.deploy", "two"],
      ]);
      assert.is(tagsOf(t.root_span!)["svc.transport"], "startup");
    },
    { pipelinesDir: dir },
  );
});

test("GET /traces: newest first, limit default/cap/validation, has_more and config", () =>
  withTracingKernel(
    async (k) => {
      await deployOk(k, "echo", ECHO);
      for (let i = 0; i < 5; i++) await k.run("echo", { i });
      const all = await k.traces("?limit=100");
      assert.is(all.status, 200);
      assert.equal(all.body.config, { buffer_capacity: 4, fetch_limit: 3, slow_component_ms: 1000, scope: "process" });
      assert.is(all.body.traces.length, 3, "capped at min(100, max limit 3, capacity 4)");
      assert.is(all.body.has_more, true);
      const payloads = all.body.traces.map((t: any) => tagsOf(t)["svc.payload.values"]);
      assert.equal(payloads, ['["i=int"]', '["i=int"]', '["i=int"]']);
      const starts = all.body.traces.map((t: any) => t.start_time_ms);
      assert.equal(starts, [...starts].sort((a: number, b: number) => b - a), "newest first");
      assert.is((await k.traces()).body.traces.length, 2, "SERVICE_TRACING_DEFAULT_LIMIT");
      const one = await k.traces("?limit=1");
      assert.is(one.body.traces.length, 1);
      assert.is(one.body.has_more, true);
      for (const bad of ["0", "-1", "1.5", "abc", "", "1e2"]) {
        const res = await k.traces(`?limit=${bad}`);
        assert.is(res.status, 400, `limit=${bad}`);
        assert.is(res.body.error.code, 400);
      }
      assert.is((await k.traces("?limit=2&limit=3")).status, 400, "limit given twice");
    },
    { tracingBufferCapacity: 4, tracingMaxLimit: 3, tracingDefaultLimit: 2 },
  ));

test("GET /traces needs operator access: 401 without a token, 403 with a wrong one", () =>
  withTracingKernel(async (k) => {
    const none = await fetch(`${k.url}/traces`);
    assert.is(none.status, 401);
    const wrong = await fetch(`${k.url}/traces`, { headers: { authorization: "Bearer nope" } });
    assert.is(wrong.status, 403);
    assert.is(((await wrong.json()) as any).error.type, "permission_error");
  }));

test("payload values: opt-in, with secrets redacted by key name", () =>
  withTracingKernel(
    async (k) => {
      await deployOk(k, "echo", ECHO);
      await k.run("echo", { api_key: "sk-123", keyword: "cats", nested: { password: "p", max_tokens: 5 }, q: "hi" });
      const t = await k.trace("svc.pipeline.run", (t) => t.entrypoint === "echo");
      const values = JSON.parse(tagsOf(t.root_span!)["svc.payload.values"]!);
      assert.equal(values, ["api_key=[redacted]", "keyword=cats", 'nested={"max_tokens":5,"password":"[redacted]"}', "q=hi"]);
    },
    { tracingIncludePayloadValues: true },
  ));

test("GET /traces is documented in the OpenAPI document, its span tree as a recursive schema", () =>
  withTracingKernel(async (k) => {
    const doc = (await (await fetch(`${k.url}/openapi.json`)).json()) as any;
    const op = doc.paths["/traces"].get;
    assert.is(op.operationId, "get_traces");
    const text = JSON.stringify(op);
    assert.ok(text.includes('"children":{"type":"array","items":{"$ref":"#/components/schemas/'), text.slice(0, 300));
  }));

test("with monitoring: the execution record carries the run's trace id, behind the same operator access", async () => {
  const k = await startPipelineKernel({ settings: { operatorToken: OPERATOR_TOKEN }, plugins: [tracingPlugin(), monitoringPlugin()] });
  try {
    const res = await k.deploy({ name: "echo", files: { "pipeline_wrapper.ts": ECHO }, save_files: false });
    assert.is(res.status, 200);
    await k.run("echo", { q: 1 });
    const auth = { authorization: `Bearer ${OPERATOR_TOKEN}` };
    assert.is((await fetch(`${k.url}/executions`)).status, 401);
    const executions = (await (await fetch(`${k.url}/executions`, { headers: auth })).json()) as any;
    const traces = (await (await fetch(`${k.url}/traces`, { headers: auth })).json()) as any;
    const run = traces.traces.find((t: any) => t.root_span.name === "svc.pipeline.run");
    assert.is(executions.executions[0].trace_id, run.trace_id);
  } finally {
    await k.close();
  }
});

test("SERVICE_TRACING_ENABLED=false: no GET /traces", () =>
  withPipelineKernel(
    async (k) => {
      const res = await fetch(`${k.url}/traces`, { headers: { authorization: "Bearer x" } });
      assert.is(res.status, 404);
    },
    { settings: { tracingEnabled: false }, plugins: [tracingPlugin()] },
  ));

test.run();
