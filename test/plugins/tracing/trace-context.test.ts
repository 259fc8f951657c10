/**
 * W3C trace context: parsing `traceparent` / `tracestate` as the spec says, random ids, and the
 * caller's trace continued through every transport (REST, the OpenAI endpoint with the real
 * `openai` client, MCP over Streamable HTTP) into `/traces` and the execution index; outgoing
 * calls of engine components (OpenAI, Anthropic) and the platform client carry the current span.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import OpenAI from "openai";
import { NOOP_TRACER, RemoteSpan, remoteParentOf, traceHeaders } from "svc/plugin";
import { createContainer, parseTraceparent, parseTracestate } from "svc/internal";
import enginePlugin, { Agent, ComponentTool, OpenAIChatGenerator } from "svc/engine";
import mcpPlugin from "svc/mcp";
import { openaiPlugin } from "svc/openai";
import objectStorePlugin from "svc/object-store";
import platformPlugin from "svc/platform";
import tracingPlugin, { SvcTracer, TraceBuffer, type WireTrace } from "../../../plugins/tracing/index.js";
import monitoringPlugin from "../../../plugins/monitoring/index.js";
import { newSpanId, newTraceId } from "../../../plugins/tracing/ids.js";
import { AnthropicChatGenerator } from "../../../plugins/engine/components/anthropic-chat-generator.js";
import { SerperDevWebSearch } from "../../../plugins/engine/components/serper-dev-web-search.js";
import { ChatMessage } from "../../../plugins/engine/dataclasses/chat-message.js";
import { startAnthropicFixture } from "../../fixtures/anthropic-server.js";
import { startSerperFixture } from "../../fixtures/serper-server.js";
import { startOpenAIFixture } from "../../fixtures/openai-server.js";
import { startPlatformFixture } from "../../fixtures/platform-server.js";
import { startKernel } from "../../helpers/kernel.js";
import { sleep } from "../../helpers/http.js";
import { startPipelineKernel, wrapper, type PipelineKernel } from "../../helpers/pipelines.js";
import { httpClient, text } from "../mcp/fixtures.js";
import { OPERATOR_TOKEN, flatten } from "./tracing-helpers.js";

const TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
const SPAN = "00f067aa0ba902b7";
const PARENT = `00-${TRACE}-${SPAN}-01`;
const HEX32 = /^[0-9a-f]{32}$/;
const HEX16 = /^[0-9a-f]{16}$/;

test("traceparent: valid values, and the invalid ones the spec says to ignore", () => {
  const p = parseTraceparent(PARENT)!;
  assert.ok(p instanceof RemoteSpan);
  assert.equal([p.traceId, p.spanId, p.traceFlags, p.sampled], [TRACE, SPAN, 1, true]);
  assert.is(parseTraceparent(`00-${TRACE}-${SPAN}-00`)!.sampled, false);
  assert.is(parseTraceparent(`00-${TRACE}-${SPAN}-03`)!.traceFlags, 3, "level 2: the random flag is kept");
  assert.is(parseTraceparent(`00-${TRACE}-${SPAN}-ff`)!.traceFlags, 3, "flags this version does not define are not passed on");
  const invalid = [
    "",
    `00-${"0".repeat(32)}-${SPAN}-01`, // all-zero trace id
    `00-${TRACE}-${"0".repeat(16)}-01`, // all-zero span id
    `00-${TRACE.slice(1)}-${SPAN}-01`, // short trace id
    `00-${TRACE}-${SPAN}0-01`, // long span id
    `00-${TRACE}-${SPAN}-1`, // short flags
    `00-${TRACE.toUpperCase()}-${SPAN}-01`, // upper case
    `00-${TRACE}-${SPAN.toUpperCase()}-01`,
    `ff-${TRACE}-${SPAN}-01`, // forbidden version
    `00-${TRACE}-${SPAN}-01-extra`, // version 00 is exactly 55 characters
    `0g-${TRACE}-${SPAN}-01`,
    `00_${TRACE}_${SPAN}_01`,
    `cc-${TRACE}-${SPAN}-01x`, // a future version's extra part must follow a dash
  ];
  for (const value of invalid) assert.is(parseTraceparent(value), undefined, value);
  assert.is(parseTraceparent([PARENT, PARENT]), undefined, "the header sent twice");
  assert.is(parseTraceparent(`${PARENT}, ${PARENT}`), undefined, "the header sent twice, joined");
  // A future version is read leniently: the four known fields, anything after a dash ignored.
  const future = parseTraceparent(`cc-${TRACE}-${SPAN}-01-what-the-future-holds`)!;
  assert.equal([future.traceId, future.spanId, future.sampled], [TRACE, SPAN, true]);
  assert.is(parseTraceparent(`01-${TRACE}-${SPAN}-01`)!.traceId, TRACE);
});

test("tracestate: kept with a valid traceparent, malformed members left out, dropped when too long", () => {
  assert.is(parseTraceparent(PARENT, "rojo=00f067aa0ba902b7,congo=t61rcWkgMzE")!.traceState, "rojo=00f067aa0ba902b7,congo=t61rcWkgMzE");
  assert.is(parseTracestate(" rojo=1 , ,Bad=2,t@vendor=x, rojo=3,novalue="), "rojo=3,t@vendor=x", "invalid keys and empty values are left out; a repeated key keeps its place, with its last value");
  assert.is(parseTracestate(["a=1", "b=2"]), "a=1,b=2", "several headers are one list");
  assert.is(parseTracestate(`a=${"x".repeat(600)}`), undefined);
  assert.is(parseTracestate(Array.from({ length: 40 }, (_, i) => `k${i}=v`).join(",")), Array.from({ length: 32 }, (_, i) => `k${i}=v`).join(","));
  assert.is(remoteParentOf({ traceparent: "garbage", tracestate: "a=1" }), undefined, "no tracestate without a valid traceparent");
  assert.is(remoteParentOf({}), undefined);
});

test("outgoing headers: the span's ids and flags, tracestate passed on, nothing without a tracer", () => {
  const tracer = new SvcTracer({ buffer: new TraceBuffer(10), includeFrameworkSpans: true, excludedSpans: [], showTracebacks: false });
  const child = tracer.startSpan("child", {}, parseTraceparent(`00-${TRACE}-${SPAN}-00`, "vendor=abc"));
  assert.equal(traceHeaders(child), { traceparent: `00-${TRACE}-${child.spanId}-00`, tracestate: "vendor=abc" }, "an unsampled caller stays unsampled");
  const grandchild = tracer.startSpan("grandchild", {}, child);
  assert.equal(traceHeaders(grandchild), { traceparent: `00-${TRACE}-${grandchild.spanId}-00`, tracestate: "vendor=abc" });
  const root = tracer.startSpan("root");
  assert.equal(traceHeaders(root), { traceparent: `00-${root.traceId}-${root.spanId}-03` }, "own traces: sampled, random trace id (level 2)");
  assert.is(traceHeaders(NOOP_TRACER.startSpan("x")), undefined);
  assert.is(traceHeaders(undefined), undefined);
});

test("ids are random: well formed, unique, and sharing no prefix", () => {
  const traces = Array.from({ length: 2000 }, newTraceId);
  const spans = Array.from({ length: 2000 }, newSpanId);
  assert.ok(traces.every((t) => HEX32.test(t)) && spans.every((s) => HEX16.test(s)));
  assert.is(new Set(traces).size, traces.length);
  assert.is(new Set(spans).size, spans.length);
  // A counter would share a long prefix between neighbours; random ids share about none.
  const shared = (a: string, b: string) => [...a].findIndex((c, i) => c !== b[i]);
  const longest = Math.max(...traces.slice(1).map((t, i) => shared(t, traces[i]!)));
  assert.ok(longest < 8, `neighbouring trace ids share ${longest} leading digits`);
  assert.ok(Math.max(...spans.slice(1).map((s, i) => shared(s, spans[i]!))) < 8);
});

const ECHO = wrapper(
  `runApi(input: Record<string, unknown>) { return input; }`,
  `async runChatCompletion() { return "hello"; }`,
);

interface Kernel extends PipelineKernel {
  traces(): Promise<WireTrace[]>;
  /** The finished trace with this id and root span name (waits for it). */
  trace(traceId: string, rootName: string): Promise<WireTrace>;
  executions(): Promise<any[]>;
}

async function withKernel(fn: (k: Kernel) => Promise<void>): Promise<void> {
  const k = await startPipelineKernel({
    settings: { operatorToken: OPERATOR_TOKEN },
    plugins: [tracingPlugin(), monitoringPlugin(), enginePlugin(), openaiPlugin(), mcpPlugin()],
  });
  const auth = { authorization: `Bearer ${OPERATOR_TOKEN}` };
  const traces = async () => ((await (await fetch(`${k.url}/traces?limit=100`, { headers: auth })).json()) as { traces: WireTrace[] }).traces;
  const trace = async (traceId: string, rootName: string) => {
    for (let i = 0; i < 250; i++) {
      const found = (await traces()).find((t) => t.trace_id === traceId && t.root_span?.name === rootName && t.state !== "running");
      if (found) return found;
      await sleep(20);
    }
    throw new Error(`no finished trace ${traceId} with root ${rootName}`);
  };
  const executions = async () => ((await (await fetch(`${k.url}/executions?limit=100`, { headers: auth })).json()) as { executions: any[] }).executions;
  try {
    await fn({ ...k, traces, trace, executions });
  } finally {
    await k.close();
  }
}

async function executionWith(k: Kernel, traceId: string): Promise<any> {
  for (let i = 0; i < 250; i++) {
    const found = (await k.executions()).find((r) => r.trace_id === traceId && r.status !== "running");
    if (found) return found;
    await sleep(20);
  }
  throw new Error(`no execution under trace ${traceId}`);
}

test("REST, the OpenAI endpoint and MCP continue the caller's trace: /traces and the execution index", () =>
  withKernel(async (k) => {
    assert.is((await k.deploy({ name: "echo", files: { "pipeline_wrapper.ts": ECHO }, save_files: false })).status, 200);

    // POST /{name}/run
    const rest = await fetch(`${k.url}/echo/run`, { method: "POST", headers: { traceparent: PARENT, tracestate: "rojo=1" }, body: JSON.stringify({ q: 1 }) });
    assert.is(rest.status, 200);
    const r = await k.trace(TRACE, "svc.pipeline.run");
    assert.is(r.root_span!.parent_span_id, SPAN, "the run span's parent is the caller's span");
    assert.ok(HEX16.test(r.root_span!.span_id) && r.root_span!.span_id !== SPAN);
    const restRecord = await executionWith(k, TRACE);
    assert.is(restRecord.transport, "rest");

    // The OpenAI endpoint, with the real client.
    const chatTrace = newTraceId();
    const chatSpan = newSpanId();
    const client = new OpenAI({ baseURL: `${k.url}/v1`, apiKey: "unused", defaultHeaders: { traceparent: `00-${chatTrace}-${chatSpan}-01` }, maxRetries: 0 });
    const completion = await client.chat.completions.create({ model: "echo", messages: [{ role: "user", content: "hi" }] });
    assert.is(completion.choices[0]!.message.content, "hello");
    const o = await k.trace(chatTrace, "svc.openai.run");
    assert.is(o.root_span!.parent_span_id, chatSpan);
    assert.is((await executionWith(k, chatTrace)).transport, "openai");

    // MCP tools/call over Streamable HTTP: the call span joins the caller's trace, the run below it.
    const mcpTrace = newTraceId();
    const mcpSpan = newSpanId();
    const { client: mcp, transport } = await httpClient(k.url, { traceparent: `00-${mcpTrace}-${mcpSpan}-01` });
    try {
      assert.match(text(await mcp.callTool({ name: "echo", arguments: { q: 2 } })), /"q":\s*2/);
    } finally {
      await mcp.close();
      await transport.close();
    }
    const m = await k.trace(mcpTrace, "svc.mcp.call_tool");
    assert.is(m.root_span!.parent_span_id, mcpSpan);
    const [call, run] = flatten(m.root_span);
    assert.is(run!.name, "svc.mcp.run");
    assert.is(run!.parent_span_id, call!.span_id);
    assert.is((await executionWith(k, mcpTrace)).transport, "mcp");
  }));

test("invalid traceparent values start a new random trace; requests without one get unrelated random traces", () =>
  withKernel(async (k) => {
    assert.is((await k.deploy({ name: "echo", files: { "pipeline_wrapper.ts": ECHO }, save_files: false })).status, 200);
    const invalid = [`00-${"0".repeat(32)}-${SPAN}-01`, `00-${TRACE.toUpperCase()}-${SPAN}-01`, `ff-${TRACE}-${SPAN}-01`, `00-${TRACE}-${SPAN}-1`];
    for (const [i, traceparent] of invalid.entries()) {
      const res = await fetch(`${k.url}/echo/run`, { method: "POST", headers: { traceparent }, body: JSON.stringify({ invalid: i }) });
      assert.is(res.status, 200);
    }
    for (const i of [1, 2]) assert.is((await fetch(`${k.url}/echo/run`, { method: "POST", body: JSON.stringify({ plain: i }) })).status, 200);
    let runs: WireTrace[] = [];
    for (let i = 0; i < 250 && runs.length < 6; i++) {
      runs = (await k.traces()).filter((t) => t.root_span?.name === "svc.pipeline.run" && t.state !== "running");
      if (runs.length < 6) await sleep(20);
    }
    assert.is(runs.length, 6);
    const ids = runs.map((t) => t.trace_id);
    assert.ok(ids.every((id) => HEX32.test(id) && id !== TRACE && id.toLowerCase() !== TRACE), ids.join());
    assert.is(new Set(ids).size, 6, "every request its own trace");
    assert.ok(runs.every((t) => t.root_span!.parent_span_id === null), "no parent outside the trace");
    const [a, b] = ids.slice(-2) as [string, string];
    assert.ok(a.slice(0, 8) !== b.slice(0, 8), `unrelated ids: ${a} ${b}`);
  }));

const generatorYaml = (url: string) => `components:
  llm:
    type: haystack.components.generators.openai.OpenAIGenerator
    init_parameters:
      api_key: {type: env_var, env_vars: [TEST_TRACE_OPENAI_KEY], strict: true}
      model: gpt-4o-mini
      api_base_url: ${url}
connections: []
inputs:
  prompt: llm.prompt
outputs:
  replies: llm.replies
`;

test("an engine OpenAI generator's call carries the traceparent of its component span", async () => {
  const llm = await startOpenAIFixture();
  process.env.TEST_TRACE_OPENAI_KEY = "sk-test";
  try {
    await withKernel(async (k) => {
      await k.kernel.deployer.deploy({ kind: "yaml", name: "gen", source: generatorYaml(llm.url) });
      const res = await fetch(`${k.url}/gen/run`, { method: "POST", headers: { traceparent: PARENT, tracestate: "rojo=1" }, body: JSON.stringify({ prompt: "hi" }) });
      assert.is(res.status, 200, await res.clone().text());
      const t = await k.trace(TRACE, "svc.pipeline.run");
      const component = flatten(t.root_span).find((s) => s.name === "haystack.component.run")!;
      const sent = llm.requests.find((r) => r.path === "/v1/chat/completions")!;
      assert.is(sent.headers.traceparent, `00-${TRACE}-${component.span_id}-01`);
      assert.is(sent.headers.tracestate, "rojo=1");
    });
  } finally {
    delete process.env.TEST_TRACE_OPENAI_KEY;
    await llm.close();
  }
});

test("the Anthropic generator's call carries the traceparent of its span (a caller's header of its own wins)", async () => {
  const server = await startAnthropicFixture({ apiKey: "test-key" });
  const saved = process.env.ANTHROPIC_BASE_URL;
  process.env.ANTHROPIC_BASE_URL = server.url;
  try {
    const tracer = new SvcTracer({ includeFrameworkSpans: true, excludedSpans: [], showTracebacks: false });
    const span = tracer.startSpan("haystack.component.run", {}, parseTraceparent(PARENT));
    const llm = new AnthropicChatGenerator({ model: "claude-test", api_key: { type: "env_var", env_vars: ["TEST_TRACE_ANTHROPIC_KEY"], strict: false } });
    process.env.TEST_TRACE_ANTHROPIC_KEY = "test-key";
    const ctx = { name: "llm", signal: new AbortController().signal, tracer, span };
    await llm.run({ messages: [ChatMessage.fromUser("hi")] }, ctx);
    assert.is(server.requests.at(-1)!.headers.traceparent, `00-${TRACE}-${span.spanId}-01`);
    await llm.run({ messages: [ChatMessage.fromUser("hi")], generation_kwargs: { extra_headers: { traceparent: `00-${TRACE}-${SPAN}-00` } } }, ctx);
    assert.is(server.requests.at(-1)!.headers.traceparent, `00-${TRACE}-${SPAN}-00`);
    await llm.run({ messages: [ChatMessage.fromUser("hi")] }, { name: "llm", signal: new AbortController().signal, tracer: NOOP_TRACER });
    assert.is(server.requests.at(-1)!.headers.traceparent, undefined, "nothing without a tracer");
  } finally {
    if (saved === undefined) delete process.env.ANTHROPIC_BASE_URL;
    else process.env.ANTHROPIC_BASE_URL = saved;
    delete process.env.TEST_TRACE_ANTHROPIC_KEY;
    await server.close();
  }
});

test("an Agent's tool (a web search) calls out under its tool span, the model under the generator's", async () => {
  const [llm, serper] = await Promise.all([startOpenAIFixture(), startSerperFixture("serper-key")]);
  const saved = { url: process.env.SERPERDEV_BASE_URL, key: process.env.SERPERDEV_API_KEY };
  Object.assign(process.env, { SERPERDEV_BASE_URL: serper.url, SERPERDEV_API_KEY: "serper-key", TEST_TRACE_OPENAI_KEY: "sk-test" });
  try {
    serper.answer({ organic: [{ title: "t", link: "https://example.org/a", snippet: "s", position: 1 }] });
    llm.script([{ toolCalls: [{ id: "call_1", name: "web_search", arguments: { query: "q" } }] }, { content: "Done." }]);
    const agent = new Agent({
      chat_generator: new OpenAIChatGenerator({ api_key: { type: "env_var", env_vars: ["TEST_TRACE_OPENAI_KEY"] }, api_base_url: llm.url }),
      tools: [new ComponentTool({ component: new SerperDevWebSearch(), name: "web_search", description: "Search the web" })],
    });
    const buffer = new TraceBuffer(10);
    const tracer = new SvcTracer({ buffer, includeFrameworkSpans: true, excludedSpans: [], showTracebacks: false });
    const span = tracer.startSpan("haystack.component.run", {}, parseTraceparent(PARENT));
    await agent.run({ messages: [ChatMessage.fromUser("search")] }, { name: "agent", signal: new AbortController().signal, tracer, span });
    span.end();
    const spans = buffer.all()[0]!.spans;
    const toolSpan = spans.find((s) => s.name === "haystack.agent.step.tool")!;
    assert.is(serper.requests.at(-1)!.headers.traceparent, `00-${TRACE}-${toolSpan.spanId}-01`);
    const modelCalls = llm.requests.filter((r) => r.path === "/v1/chat/completions").map((r) => String(r.headers.traceparent));
    assert.is(modelCalls.length, 2);
    const ids = new Set(spans.map((s) => s.spanId));
    for (const header of modelCalls) {
      const [, trace, parent] = header.split("-");
      assert.is(trace, TRACE);
      assert.ok(ids.has(parent!), `the model call's parent ${parent} is a span of the run`);
    }
  } finally {
    for (const [name, value] of [["SERPERDEV_BASE_URL", saved.url], ["SERPERDEV_API_KEY", saved.key]] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    delete process.env.TEST_TRACE_OPENAI_KEY;
    await Promise.all([llm.close(), serper.close()]);
  }
});

test("the platform client sends the traceparent of the MCP tool call's span", async () => {
  const platform = await startPlatformFixture();
  const k = await startKernel({
    container: createContainer(),
    settings: { operatorToken: OPERATOR_TOKEN, platformApiKey: "alice-key", platformApiUrl: platform.url, platformWorkspace: "default", platformTools: ["list_pipelines"] },
    plugins: [tracingPlugin(), mcpPlugin(), objectStorePlugin(), platformPlugin()],
  });
  const { client, transport } = await httpClient(k.url, { traceparent: PARENT, tracestate: "rojo=1" });
  try {
    const mark = platform.requests.length;
    assert.not.ok((await client.callTool({ name: "list_pipelines", arguments: {} })).isError);
    const sent = platform.requests.slice(mark);
    assert.ok(sent.length >= 1);
    let call: WireTrace | undefined;
    for (let i = 0; i < 250 && !call; i++) {
      const res = await fetch(`${k.url}/traces?limit=100`, { headers: { authorization: `Bearer ${OPERATOR_TOKEN}` } });
      call = ((await res.json()) as { traces: WireTrace[] }).traces.find((t) => t.trace_id === TRACE && t.state !== "running");
      if (!call) await sleep(20);
    }
    assert.is(call!.root_span!.name, "svc.mcp.call_tool");
    assert.is(call!.root_span!.parent_span_id, SPAN);
    for (const r of sent) {
      assert.is(r.traceparent, `00-${TRACE}-${call!.root_span!.span_id}-01`);
      assert.is(r.tracestate, "rojo=1");
    }
  } finally {
    await client.close();
    await transport.close();
    await k.close();
    await platform.close();
  }
});

test.run();
