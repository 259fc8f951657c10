import { test } from "uvu";
import * as assert from "uvu/assert";
import OpenAI from "openai";
import { definePlugin, type KernelOptions, type KernelPlugin, type StreamInfo } from "svc/plugin";
import { openaiSettings } from "../../../plugins/openai/settings.js";
import { registerResponseRoutes } from "../../../plugins/openai/responses.js";
import { withPipelineKernel, type PipelineKernel } from "../../helpers/pipelines.js";
import { openRequest, until } from "../../helpers/http.js";

const underTest = (): KernelPlugin => definePlugin({ name: "responses-under-test", settings: openaiSettings, setup: (k) => void registerResponseRoutes(k) });

/** A kernel with the Responses routes and an openai client pointed at it. */
const withResponses = (fn: (k: PipelineKernel, client: OpenAI) => Promise<void>, plugins: KernelPlugin[] = [], settings?: KernelOptions["settings"]) =>
  withPipelineKernel((k) => fn(k, new OpenAI({ apiKey: "test-key", baseURL: `${k.url}/v1`, maxRetries: 0 })), { plugins: [underTest(), ...plugins], settings });

/** A wrapper with the given members; `StreamingChunk` and `HttpError` are in scope. */
const source = (members: string) => `import { BasePipelineWrapper, HttpError } from "svc";
import { StreamingChunk } from "svc/engine";
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
export class PipelineWrapper extends BasePipelineWrapper {
  ${members}
}
`;

const deploy = async (k: PipelineKernel, name: string, members: string) => {
  const res = await k.deploy({ name, files: { "pipeline_wrapper.ts": source(members) }, save_files: false });
  assert.is(res.status, 200, JSON.stringify(res.body));
};

/** Parses an SSE body: named events with their data; comments (heartbeats) skipped. */
function parseSse(text: string): { event?: string; data: string }[] {
  const events: { event?: string; data: string }[] = [];
  for (const block of text.split("\n\n")) {
    let event: string | undefined;
    const data: string[] = [];
    for (const line of block.split("\n")) {
      if (line.startsWith("event: ")) event = line.slice(7);
      else if (line.startsWith("data: ")) data.push(line.slice(6));
    }
    if (event !== undefined || data.length) events.push({ event, data: data.join("\n") });
  }
  return events;
}

const post = (k: PipelineKernel, body: unknown, path = "/v1/responses") =>
  fetch(`${k.url}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

/** Checks that a stream's events are numbered 0, 1, 2, … (`sequence_number`) and drops the numbers for comparisons. */
function numbered<T extends { sequence_number?: number }>(events: T[]): Omit<T, "sequence_number">[] {
  assert.equal(events.map((e) => e.sequence_number), events.map((_, i) => i), "sequence_number counts the events from 0");
  return events.map(({ sequence_number: _, ...rest }) => rest);
}

const rawStream = async (k: PipelineKernel, body: Record<string, unknown>) => {
  const res = await post(k, { stream: true, ...body });
  assert.is(res.status, 200);
  assert.is(res.headers.get("content-type"), "text/event-stream; charset=utf-8");
  const events = parseSse(await res.text()).map((e) => ({ event: e.event, data: JSON.parse(e.data) }));
  const data = numbered(events.map((e) => e.data));
  return events.map((e, i) => ({ event: e.event, data: data[i] }));
};

const ZERO_USAGE = { input_tokens: 0, input_tokens_details: { cached_tokens: 0 }, output_tokens: 0, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 0 };

test("non-streaming, string input: one user message item in, a Responses object out", () =>
  withResponses(async (k, client) => {
    await deploy(k, "echo", `runResponse(model: string, input: unknown[]) { return model + ":" + JSON.stringify(input); }`);
    const response = await client.responses.create({ model: "echo", input: "hi there" });
    assert.match(response.id, /^resp_[0-9a-f]{32}$/);
    assert.is(response.object, "response");
    assert.is(response.status, "completed");
    assert.is(response.model, "echo");
    assert.ok(Number.isInteger(response.created_at) && Math.abs(response.created_at - Date.now() / 1000) < 60);
    assert.is(response.output_text, 'echo:[{"type":"message","role":"user","content":"hi there"}]');
    assert.is(response.output.length, 1);
    const [item] = response.output as any[];
    assert.match(item.id, /^msg_[0-9a-f]{32}$/);
    assert.equal(item, { id: item.id, type: "message", status: "completed", role: "assistant", content: [{ type: "output_text", text: response.output_text, annotations: [] }] });
    assert.equal(response.usage, ZERO_USAGE);
    assert.is(response.error, null);
    assert.is(response.incomplete_details, null);
    // The exact key set on the wire (the client adds output_text).
    const raw = await (await post(k, { model: "echo", input: "x" }, "/responses")).json();
    assert.equal(Object.keys(raw), ["id", "object", "created_at", "status", "model", "output", "usage", "error", "incomplete_details"]);
  }));

test("non-streaming, item-array input passes through; null input is []; a drained stream is one message with its usage", () =>
  withResponses(async (k, client) => {
    await deploy(k, "echo", `runResponse(_m: string, input: unknown[]) { return JSON.stringify(input); }`);
    const items = [
      { role: "system", type: "message", content: [{ type: "input_text", text: "Be brief." }] },
      { role: "user", type: "message", content: [{ type: "input_text", text: "hello" }] },
    ] as const;
    assert.equal(JSON.parse((await client.responses.create({ model: "echo", input: items as any })).output_text), items);
    assert.is(await (await post(k, { model: "echo", input: null })).json().then((r: any) => r.output[0].content[0].text), "[]");
    assert.is(await (await post(k, { model: "echo" })).json().then((r: any) => r.output[0].content[0].text), "[]");
    await deploy(
      k,
      "drained",
      `async *runResponse() {
    yield "Hello, ";
    yield { event: { type: "status", data: { description: "skipped", done: false, hidden: false } } };
    yield new StreamingChunk({ content: "world", meta: { usage: { prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 } } });
  }`,
    );
    const drained = await client.responses.create({ model: "drained", input: "x", stream: false });
    assert.is(drained.output_text, "Hello, world");
    assert.is(drained.output.length, 1);
    assert.equal(drained.usage, { input_tokens: 7, input_tokens_details: { cached_tokens: 0 }, output_tokens: 3, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 10 });
  }));

test("streaming with the openai client: events in order, the final response holds the text", () =>
  withResponses(async (k, client) => {
    await deploy(k, "stream", `async *runResponse() { for (const part of ["Hel", "lo", "", " you"]) { await sleep(5); yield new StreamingChunk({ content: part }); } }`);
    const stream = await client.responses.create({ model: "stream", input: "hi", stream: true });
    const events: any[] = [];
    for await (const event of stream) events.push(event);
    assert.equal(
      events.map((e) => e.type),
      [
        "response.created",
        "response.in_progress",
        "response.output_item.added",
        "response.content_part.added",
        "response.output_text.delta",
        "response.output_text.delta",
        "response.output_text.delta",
        "response.output_text.done",
        "response.content_part.done",
        "response.output_item.done",
        "response.completed",
      ],
    );
    assert.equal(events.filter((e) => e.type === "response.output_text.delta").map((e) => e.delta), ["Hel", "lo", " you"]);
    const completed = events.at(-1).response;
    assert.is(completed.status, "completed");
    assert.is(completed.id, events[0].response.id);
    assert.is(completed.output[0].content[0].text, "Hello you");
    assert.equal(completed.usage, ZERO_USAGE);
    // The SDK's stream helper accumulates the same events into the final response.
    const helper = client.responses.stream({ model: "stream", input: "hi" });
    assert.is((await helper.finalResponse()).output_text, "Hello you");
  }));

test("streaming: exact wire payloads; a plain string with stream:true is a one-delta stream", () =>
  withResponses(async (k) => {
    await deploy(k, "plain", `runResponse() { return "Just text"; }`);
    const events = await rawStream(k, { model: "plain", input: "q" });
    const response = events[0]!.data.response;
    const msg = events[2]!.data.item.id;
    assert.match(msg, /^msg_[0-9a-f]{32}$/);
    const base = { id: response.id, object: "response", created_at: response.created_at, model: "plain", usage: null, error: null, incomplete_details: null };
    const inProgress = { ...base, status: "in_progress", output: [] };
    const part = { type: "output_text", text: "Just text", annotations: [] };
    const done = { id: msg, type: "message", status: "completed", role: "assistant", content: [part] };
    const at = { item_id: msg, output_index: 0, content_index: 0 };
    assert.equal(events, [
      { event: "response.created", data: { type: "response.created", response: inProgress } },
      { event: "response.in_progress", data: { type: "response.in_progress", response: inProgress } },
      { event: "response.output_item.added", data: { type: "response.output_item.added", output_index: 0, item: { id: msg, type: "message", status: "in_progress", role: "assistant", content: [] } } },
      { event: "response.content_part.added", data: { type: "response.content_part.added", ...at, part: { type: "output_text", text: "", annotations: [] } } },
      { event: "response.output_text.delta", data: { type: "response.output_text.delta", ...at, delta: "Just text" } },
      { event: "response.output_text.done", data: { type: "response.output_text.done", ...at, text: "Just text" } },
      { event: "response.content_part.done", data: { type: "response.content_part.done", ...at, part } },
      { event: "response.output_item.done", data: { type: "response.output_item.done", output_index: 0, item: done } },
      { event: "response.completed", data: { type: "response.completed", response: { ...base, status: "completed", output: [done], usage: ZERO_USAGE } } },
    ]);
  }));

const agentish = `async *runResponse() {
    yield new StreamingChunk({ index: 0, reasoning: { reasoning_text: "Think" } });
    yield new StreamingChunk({ index: 0, reasoning: { reasoning_text: "ing" } });
    yield new StreamingChunk({ content: "Checking." });
    yield new StreamingChunk({ index: 1, tool_calls: [{ index: 0, id: "call_1", tool_name: "weather", arguments: '{"ci' }] });
    yield new StreamingChunk({ index: 1, tool_calls: [{ index: 0, arguments: 'ty":"Paris"}' }] });
    yield new StreamingChunk({ index: 1, tool_calls: [{ index: 1, id: "call_2", tool_name: "clock", arguments: "{}" }] });
  }`;

test("reasoning and function-call items from StreamingChunks", () =>
  withResponses(async (k, client) => {
    await deploy(k, "agent", agentish);
    const streamed: any[] = [];
    for await (const event of await client.responses.create({ model: "agent", input: "weather?", stream: true })) streamed.push(event);
    const events: any[] = numbered(streamed);
    assert.equal(
      events.map((e) => e.type),
      [
        "response.created",
        "response.in_progress",
        "response.output_item.added",
        "response.reasoning_summary_part.added",
        "response.reasoning_summary_text.delta",
        "response.reasoning_summary_text.delta",
        "response.reasoning_summary_text.done",
        "response.reasoning_summary_part.done",
        "response.output_item.done",
        "response.output_item.added",
        "response.content_part.added",
        "response.output_text.delta",
        "response.output_text.done",
        "response.content_part.done",
        "response.output_item.done",
        "response.output_item.added",
        "response.function_call_arguments.delta",
        "response.function_call_arguments.delta",
        "response.function_call_arguments.done",
        "response.output_item.done",
        "response.output_item.added",
        "response.function_call_arguments.delta",
        "response.function_call_arguments.done",
        "response.output_item.done",
        "response.completed",
      ],
    );
    const added = events.filter((e) => e.type === "response.output_item.added");
    assert.equal(added.map((e) => [e.output_index, e.item.type, e.item.status]), [
      [0, "reasoning", "in_progress"],
      [1, "message", "in_progress"],
      [2, "function_call", "in_progress"],
      [3, "function_call", "in_progress"],
    ]);
    assert.match(added[0].item.id, /^rs_[0-9a-f]+$/);
    assert.match(added[2].item.id, /^fc_[0-9a-f]+$/);
    assert.equal(added[2].item, { id: added[2].item.id, type: "function_call", status: "in_progress", call_id: "call_1", name: "weather", arguments: "" });
    const argsDone = events.find((e) => e.type === "response.function_call_arguments.done");
    assert.equal(argsDone, { type: "response.function_call_arguments.done", item_id: added[2].item.id, output_index: 2, arguments: '{"city":"Paris"}' });
    const output = events.at(-1).response.output;
    assert.equal(output[0], { id: added[0].item.id, type: "reasoning", status: "completed", summary: [{ type: "summary_text", text: "Thinking" }] });
    assert.is(output[1].content[0].text, "Checking.");
    assert.equal(output.slice(2).map((o: any) => [o.call_id, o.name, o.arguments, o.status]), [
      ["call_1", "weather", '{"city":"Paris"}', "completed"],
      ["call_2", "clock", "{}", "completed"],
    ]);
    // Without streaming the same items make up the output.
    const response = await client.responses.create({ model: "agent", input: "weather?" });
    assert.equal(response.output.map((o) => o.type), ["reasoning", "message", "function_call", "function_call"]);
    assert.is(response.output_text, "Checking.");
  }));

test("a UI event is a named SSE event of its own and leaves the items alone", () =>
  withResponses(async (k) => {
    await deploy(
      k,
      "ui",
      `async *runResponse() {
    yield { event: { type: "status", data: { description: "Searching", done: false, hidden: false } } };
    yield "Found it";
    yield { event: { type: "notification", data: { type: "info", content: "done" } } };
    yield " here";
  }`,
    );
    const res = await post(k, { model: "ui", input: "q", stream: true });
    const text = await res.text();
    assert.ok(text.includes('event: status\ndata: {"type":"status","data":{"description":"Searching","done":false,"hidden":false},"sequence_number":2}\n\n'), text);
    const events = parseSse(text);
    assert.equal(
      events.map((e) => e.event),
      [
        "response.created",
        "response.in_progress",
        "status",
        "response.output_item.added",
        "response.content_part.added",
        "response.output_text.delta",
        "notification",
        "response.output_text.delta",
        "response.output_text.done",
        "response.content_part.done",
        "response.output_item.done",
        "response.completed",
      ],
    );
    assert.equal(JSON.parse(events[6]!.data), { type: "notification", data: { type: "info", content: "done" }, sequence_number: 6 });
    const completed = JSON.parse(events.at(-1)!.data).response;
    assert.is(completed.output.length, 1);
    assert.is(completed.output[0].content[0].text, "Found it here");
  }));

test("SERVICE_OPENAI_UI_EVENTS=false drops UI events from the stream", async () => {
  await withResponses(
    async (k) => {
      await deploy(k, "ui", `async *runResponse() { yield { event: { type: "status", data: { description: "x", done: true, hidden: false } } }; yield "text"; }`);
      const events = await rawStream(k, { model: "ui", input: "q" });
      assert.not.ok(events.some((e) => e.event === "status"));
      assert.is(events.at(-1)!.data.response.output[0].content[0].text, "text");
    },
    [],
    { openaiUiEvents: false } as KernelOptions["settings"],
  );
});

test("a mid-stream failure finalises the open item, then response.failed; the stream ends normally", () =>
  withResponses(async (k, client) => {
    await deploy(k, "fails", `async *runResponse() { yield "partial"; await sleep(5); throw new TypeError("the model went away"); }`);
    const events: any[] = [];
    for await (const event of await client.responses.create({ model: "fails", input: "q", stream: true })) events.push(event);
    assert.equal(events.map((e) => e.type).slice(-4), ["response.output_text.done", "response.content_part.done", "response.output_item.done", "response.failed"]);
    const failed = events.at(-1).response;
    assert.is(failed.status, "failed");
    assert.equal(failed.error, { code: "server_error", message: "the model went away" }, "OpenAI's error object, not the exception's class");
    assert.is(failed.output[0].content[0].text, "partial");
    assert.ok(k.logs.some((l) => l.includes("the model went away")), "failure logged");
    // A plain reader sees a complete, cleanly ended body.
    const raw = await rawStream(k, { model: "fails", input: "q" });
    assert.is(raw.at(-1)!.event, "response.failed");
  }));

test("errors before streaming: 404, 501, 500 and 400, raised by the openai client with our message", () =>
  withResponses(async (k, client) => {
    await deploy(k, "chatonly", `runChatCompletion() { return "hi"; }`);
    await deploy(k, "boom", `runResponse() { throw new Error("kaput"); }`);
    await deploy(k, "teapot", `async runResponse() { throw new HttpError(418, "short and stout"); }`);
    const failure = async (model: string, stream: boolean) => {
      try {
        await client.responses.create({ model, input: "q", stream });
      } catch (error) {
        assert.instance(error, OpenAI.APIError);
        return { status: (error as InstanceType<typeof OpenAI.APIError>).status, message: (error as Error).message };
      }
      throw new Error(`${model} did not fail`);
    };
    for (const stream of [false, true]) {
      const missing = await failure("nobody", stream);
      assert.is(missing.status, 404);
      assert.match(missing.message, "Pipeline 'nobody' not found");
      const notImplemented = await failure("chatonly", stream);
      assert.is(notImplemented.status, 501);
      assert.match(notImplemented.message, "Responses endpoint not implemented for this model");
      const boom = await failure("boom", stream);
      assert.is(boom.status, 500);
      assert.match(boom.message, "Pipeline execution failed: kaput");
      assert.is((await failure("teapot", stream)).status, 418);
    }
    const body = await (await post(k, { model: "boom", input: "q" })).json();
    assert.equal(body, { error: { message: "Pipeline execution failed: kaput", type: "server_error", code: 500 } });
    const noModel = await post(k, { input: "q" });
    assert.is(noModel.status, 400);
    assert.match((await noModel.json()).error.message, "model");
    assert.is((await post(k, { model: "boom", input: 42 })).status, 400);
  }));

test("extra request keys reach the wrapper's body; the call and its items go through the run and stream hooks", () => {
  const seen: { run: string[]; streams: unknown[] } = { run: [], streams: [] };
  const observer = definePlugin({
    name: "observer",
    setup(k) {
      k.hooks.run.tap((call, next) => {
        seen.run.push(`${call.transport}:${call.method}:${call.pipeline}`);
        return next(call);
      });
      k.hooks.stream.tap({
        start: (info) => void seen.streams.push(info),
        item: (item) => (typeof item === "string" ? item.toUpperCase() : undefined),
      });
    },
  });
  return withResponses(
    async (k, client) => {
      await deploy(k, "body", `runResponse(_m: string, _i: unknown, body: Record<string, unknown>) { return JSON.stringify(body); }`);
      await deploy(k, "shout", `async *runResponse() { yield "quiet"; }`);
      const params = { model: "body", input: "q", instructions: "Be brief.", temperature: 0.2, chat_id: "c-1", features: { web_search: false }, background_tasks: { title_generation: true } };
      const body = JSON.parse((await client.responses.create(params as any)).output_text);
      assert.equal(body, params);
      assert.equal(seen.run, ["openai:runResponse:body"]);
      const events = await rawStream(k, { model: "shout", input: "q" });
      assert.is(events.at(-1)!.data.response.output[0].content[0].text, "QUIET");
      assert.is(seen.streams.length, 1);
      const { requestId, call, ...info } = seen.streams[0] as StreamInfo;
      assert.equal(info, { pipeline: "shout", transport: "openai", kind: "response.event" });
      assert.type(requestId, "string");
      assert.is(call.method, "runResponse", "the stream's taps get the run's call");
      assert.is(call.requestId, requestId);
    },
    [observer],
  );
});

test("a returned or yielded Response object is sent as is", () =>
  withResponses(async (k, client) => {
    const own = { id: "resp_custom", object: "response", created_at: 1, status: "completed", model: "own", output: [], usage: null, error: null, incomplete_details: null, extra: true };
    await deploy(k, "own", `runResponse() { return ${JSON.stringify(own)}; }`);
    assert.equal(await (await post(k, { model: "own", input: "q" })).json(), own);
    await deploy(
      k,
      "ownstream",
      `async *runResponse() {
    const g = globalThis as any;
    try { yield "a"; yield ${JSON.stringify(own)}; yield "never"; } finally { g.__ownClosed = true; }
  }`,
    );
    const streamed: any[] = [];
    for await (const event of await client.responses.create({ model: "ownstream", input: "q", stream: true })) streamed.push(event);
    const events: any[] = numbered(streamed);
    assert.equal(events.at(-1), { type: "response.completed", response: own });
    assert.is(events.filter((e) => e.type === "response.completed").length, 1);
    assert.ok(events.some((e) => e.type === "response.output_item.done"), "the open message is finalised first");
    assert.not.ok(JSON.stringify(events).includes("never"));
    await until(() => (globalThis as any).__ownClosed === true, 2000, "generator closed");
    delete (globalThis as any).__ownClosed;
  }));

/** Sends a Responses request on a raw socket and hands back the request, to disconnect it. */
const openResponses = (k: PipelineKernel, body: Record<string, unknown>) => {
  const req = openRequest(`${k.url}/v1/responses`, { method: "POST", headers: { "content-type": "application/json" } });
  req.on("error", () => undefined);
  req.end(JSON.stringify(body));
  return req;
};

test("a client disconnect before the first byte aborts ctx.signal at once", () =>
  withResponses(async (k) => {
    await deploy(
      k,
      "slow",
      `async runResponse(_m: string, _i: unknown, _b: unknown, ctx: { signal: AbortSignal }) {
    const g = globalThis as any;
    g.__slow = { started: Date.now() };
    ctx.signal.addEventListener("abort", () => (g.__slow.abortedAt = Date.now()));
    await new Promise<void>((resolve) => { const t = setTimeout(resolve, 60_000); ctx.signal.addEventListener("abort", () => { clearTimeout(t); resolve(); }); });
    return "too late";
  }`,
    );
    for (const stream of [false, true]) {
      const req = openResponses(k, { model: "slow", input: "q", stream });
      await until(() => (globalThis as any).__slow?.started !== undefined, 3000, "wrapper started");
      const disconnected = Date.now();
      req.destroy();
      // The wrapper would wait a minute: only the disconnect can abort it this soon.
      await until(() => (globalThis as any).__slow.abortedAt !== undefined, 10_000, "ctx.signal aborted");
      assert.ok((globalThis as any).__slow.abortedAt >= disconnected, "aborted after the disconnect");
      delete (globalThis as any).__slow;
    }
  }));

test("a client disconnect mid-stream aborts ctx.signal and closes the wrapper's generator", () =>
  withResponses(async (k) => {
    await deploy(
      k,
      "endless",
      `async *runResponse(_m: string, _i: unknown, _b: unknown, ctx: { signal: AbortSignal }) {
    const g = globalThis as any;
    g.__endless = { chunks: 0 };
    ctx.signal.addEventListener("abort", () => (g.__endless.abortedAt = Date.now()));
    try {
      for (;;) { g.__endless.chunks++; yield "tick "; await sleep(20); }
    } finally { g.__endless.closedAt = Date.now(); }
  }`,
    );
    const req = openResponses(k, { model: "endless", input: "q", stream: true });
    let disconnected = 0;
    req.on("response", (res) => {
      let seen = "";
      res.on("data", (chunk: Buffer) => {
        seen += chunk.toString();
        if (!disconnected && seen.includes("response.output_text.delta")) {
          disconnected = Date.now();
          req.destroy();
        }
      });
    });
    await until(() => (globalThis as any).__endless?.closedAt !== undefined, 3000, "generator closed");
    const state = (globalThis as any).__endless;
    assert.ok(state.abortedAt - disconnected < 100, `aborted ${state.abortedAt - disconnected} ms after the disconnect`);
    assert.ok(state.closedAt - disconnected < 150, `closed ${state.closedAt - disconnected} ms after the disconnect`);
    const chunks = state.chunks;
    await new Promise((r) => setTimeout(r, 60));
    assert.is(state.chunks, chunks, "no chunk pulled after the close");
    delete (globalThis as any).__endless;
  }));

test.run();
