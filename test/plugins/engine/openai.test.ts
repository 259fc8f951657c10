/**
 * @module OpenAIChatGenerator and OpenAIGenerator against the loopback OpenAI fixture: replies and
 * meta, streaming chunks, tool calls, credentials, server errors, time-outs and aborts. The fixture
 * itself is checked once with the real `openai` client.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import OpenAI from "openai";
import { Logger, NOOP_TRACER } from "svc/plugin";
import { ChatMessage } from "../../../plugins/engine/dataclasses/chat-message.js";
import type { StreamingChunk } from "../../../plugins/engine/dataclasses/streaming-chunk.js";
import type { ComponentContext } from "../../../plugins/engine/component.js";
import { OpenAIChatGenerator } from "../../../plugins/engine/components/openai-chat-generator.js";
import { OpenAIGenerator } from "../../../plugins/engine/components/openai-generator.js";
import { startOpenAIFixture, type OpenAIFixture } from "../../fixtures/openai-server.js";
import { withEnv } from "../../helpers/env.js";

const KEY = "test-key";
const apiKey = { type: "env_var", env_vars: ["TEST_OPENAI_KEY"], strict: true };
const ctx = (extra: Partial<ComponentContext> = {}): ComponentContext => ({ name: "llm", signal: new AbortController().signal, tracer: NOOP_TRACER, ...extra });
const hi = [ChatMessage.fromUser("hi")];

/** Sets env vars for the duration of `fn` (tests share one process), then restores them. */

/** A fixture expecting KEY, with TEST_OPENAI_KEY set to it; always closed. */
async function withFixture(fn: (f: OpenAIFixture) => Promise<void>): Promise<void> {
  const fixture = await startOpenAIFixture({ apiKey: KEY });
  try {
    await withEnv({ TEST_OPENAI_KEY: KEY }, () => fn(fixture));
  } finally {
    await fixture.close();
  }
}

const chat = (f: OpenAIFixture, init: Record<string, unknown> = {}) => new OpenAIChatGenerator({ api_base_url: f.url, api_key: apiKey, ...init });

/** The rejection of a promise that must reject. */
const rejects = (promise: Promise<unknown>): Promise<Error> =>
  promise.then(() => assert.unreachable("expected a rejection") as never, (err: Error) => err);

test("the fixture speaks the protocol the openai client uses", () =>
  withFixture(async (f) => {
    const client = new OpenAI({ baseURL: f.url, apiKey: KEY, maxRetries: 0 });
    assert.is((await client.models.list()).data[0]!.id, "gpt-4o-mini");
    const completion = await client.chat.completions.create({ model: "m", messages: [{ role: "user", content: "ping" }] });
    assert.is(completion.choices[0]!.message.content, "ping");
    assert.is(completion.usage!.completion_tokens, 1);
    const stream = await client.chat.completions.create({ model: "m", messages: [{ role: "user", content: "a b c" }], stream: true, stream_options: { include_usage: true } });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    assert.is(chunks.map((c) => c.choices[0]?.delta.content ?? "").join(""), "a b c");
    assert.equal(chunks.at(-1)!.usage, { prompt_tokens: 3, completion_tokens: 3, total_tokens: 6 });
    const wrong = new OpenAI({ baseURL: f.url, apiKey: "nope", maxRetries: 0 });
    const err = await rejects(wrong.chat.completions.create({ model: "m", messages: [] }));
    assert.ok(err instanceof OpenAI.AuthenticationError);
    assert.match(err.message, /Incorrect API key provided: nope/);
  }));

test("a plain reply carries text and meta; the request has model, messages and generation kwargs", () =>
  withFixture(async (f) => {
    const llm = chat(f, { model: "gpt-test", generation_kwargs: { temperature: 0.2, max_tokens: 50 } });
    llm.warmUp();
    const { replies } = await llm.run({ messages: [ChatMessage.fromSystem("be brief"), ChatMessage.fromUser("hello there")], generation_kwargs: { max_tokens: 9 } }, ctx());
    assert.equal(replies.map((r) => [r.role, r.text]), [["assistant", "hello there"]]);
    assert.equal(replies[0]!.meta, { model: "gpt-test", index: 0, finish_reason: "stop", usage: { prompt_tokens: 4, completion_tokens: 2, total_tokens: 6 } });
    const { model, messages, temperature, max_tokens, stream } = f.requests[0]!.body;
    // Run-time generation kwargs win over init ones, key by key.
    assert.equal({ model, messages, temperature, max_tokens, stream }, {
      model: "gpt-test", messages: [{ role: "system", content: "be brief" }, { role: "user", content: "hello there" }], temperature: 0.2, max_tokens: 9, stream: false,
    });
    assert.is(f.requests[0]!.headers.authorization, `Bearer ${KEY}`);
    assert.equal(await llm.run({ messages: [] }, ctx()), { replies: [] });
  }));

test("streaming: role chunk, text chunks with start and index, usage chunk, rebuilt reply", () =>
  withFixture(async (f) => {
    const received: StreamingChunk[] = [];
    const llm = chat(f, { streaming_callback: () => assert.unreachable("the run-time callback wins") });
    const { replies } = await llm.run({ messages: [ChatMessage.fromUser("one two three")], streaming_callback: async (c: StreamingChunk) => void received.push(c) }, ctx());
    assert.is(f.requests[0]!.body.stream, true);
    assert.equal(f.requests[0]!.body.stream_options, { include_usage: true });
    const [role, ...rest] = received;
    assert.equal([role!.index, role!.content, role!.start], [null, "", false]);
    const text = rest.filter((c) => c.content !== "").map((c) => [c.content, c.index, c.start]);
    assert.equal(text, [["one ", 0, true], ["two ", 0, false], ["three", 0, false]]);
    for (const c of received) assert.equal(c.component_info, { type: OpenAIChatGenerator.type, name: "llm" });
    assert.is(received.at(-2)!.finish_reason, "stop");
    assert.equal(received.at(-1)!.meta.usage, { prompt_tokens: 3, completion_tokens: 3, total_tokens: 6 });
    assert.is(received.at(-1)!.index, null);
    const { text: replyText, meta } = replies[0]!;
    assert.equal([replyText, meta.finish_reason, meta.model, meta.index], ["one two three", "stop", "gpt-5-mini", 0]);
    assert.equal(meta.usage, { prompt_tokens: 3, completion_tokens: 3, total_tokens: 6 });
    assert.type(meta.completion_start_time, "string");
  }));

const weather = { name: "weather", description: "Weather for a city", parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } };
const clock = { toolSpec: { name: "clock", description: "The time", parameters: { type: "object", properties: {} } } };

test("tool calls: tools sent as functions (strict on request), calls parsed from the reply", () =>
  withFixture(async (f) => {
    f.script({ toolCalls: [{ id: "call_1", name: "weather", arguments: { city: "Paris" } }] });
    const llm = chat(f, { tools: [weather, clock] });
    const { replies } = await llm.run({ messages: hi, tools_strict: true }, ctx());
    const tools = f.requests[0]!.body.tools;
    assert.equal(tools.map((t: any) => [t.type, t.function.name, t.function.strict]), [["function", "weather", true], ["function", "clock", true]]);
    assert.is(tools[0].function.parameters.additionalProperties, false);
    assert.is(weather.parameters.hasOwnProperty("additionalProperties"), false, "the spec itself is not changed");
    assert.is(replies[0]!.text, null);
    assert.equal(replies[0]!.toolCalls, [{ id: "call_1", tool_name: "weather", arguments: { city: "Paris" } }]);
    assert.is(replies[0]!.meta.finish_reason, "tool_calls");
    await llm.run({ messages: hi, tools: [clock] }, ctx());
    assert.equal(f.requests[1]!.body.tools.map((t: any) => [t.function.name, t.function.strict]), [["clock", undefined]]);
    assert.throws(() => new OpenAIChatGenerator({ tools: [weather, weather] }), /Duplicate tool names found: weather/);
  }));

test("streamed tool-call deltas are mapped per tool index and assembled; malformed arguments are skipped", () =>
  withFixture(async (f) => {
    f.script({ toolCalls: [{ id: "call_a", name: "weather", arguments: { city: "Paris", unit: "celsius" } }, { id: "call_b", name: "clock", arguments: {} }] });
    const received: StreamingChunk[] = [];
    const llm = chat(f, { tools: [weather, clock] });
    const { replies } = await llm.run({ messages: hi, streaming_callback: (c: StreamingChunk) => void received.push(c) }, ctx());
    const tool = received.filter((c) => c.tool_calls?.length);
    assert.ok(tool.length > 4, "arguments arrive in fragments");
    assert.equal(tool.filter((c) => c.start).map((c) => [c.index, c.tool_calls![0]!.tool_name, c.tool_calls![0]!.id]), [[0, "weather", "call_a"], [1, "clock", "call_b"]]);
    assert.ok(tool.every((c) => c.index === c.tool_calls![0]!.index));
    assert.is(received.find((c) => c.finish_reason)!.finish_reason, "tool_calls");
    assert.equal(replies[0]!.toolCalls, [
      { id: "call_a", tool_name: "weather", arguments: { city: "Paris", unit: "celsius" } },
      { id: "call_b", tool_name: "clock", arguments: {} },
    ]);
    const lines: string[] = [];
    f.script({ toolCalls: [{ id: "call_x", name: "weather", arguments: "{not json" }] });
    const bad = await llm.run({ messages: hi }, ctx({ log: new Logger("WARNING", (l) => lines.push(l)) }));
    assert.equal(bad.replies[0]!.toolCalls, []);
    assert.match(lines.join("\n"), /malformed JSON string for tool call arguments.*call_x/);
  }));

test("a missing API key fails before any request, naming the variable to set", () =>
  withFixture(async (f) => {
    await withEnv({ OPENAI_API_KEY: undefined, TEST_OPENAI_KEY: undefined }, async () => {
      const byDefault = await rejects(new OpenAIChatGenerator({ api_base_url: f.url }).run({ messages: hi }, ctx()));
      assert.match(byDefault.message, /OpenAIChatGenerator 'llm' has no OpenAI API key: set the environment variable OPENAI_API_KEY/);
      const configured = await rejects(chat(f).run({ messages: hi }, ctx()));
      assert.match(configured.message, /TEST_OPENAI_KEY/);
    });
    assert.is(f.requests.length, 0);
    // The key is read at run time: setting it after construction is enough.
    const llm = new OpenAIChatGenerator({ api_base_url: f.url });
    await withEnv({ OPENAI_API_KEY: KEY }, async () => assert.is((await llm.run({ messages: hi }, ctx())).replies[0]!.text, "hi"));
  }));

test("401, 400 and 500 answers surface with the server's message; 5xx is retried max_retries times", () =>
  withFixture(async (f) => {
    await withEnv({ TEST_OPENAI_KEY: "wrong-key" }, async () => {
      const err = await rejects(chat(f).run({ messages: hi }, ctx()));
      assert.match(err.message, /OpenAIChatGenerator 'llm': the OpenAI API answered 401: Incorrect API key provided: wrong-key/);
      assert.is((err as Error & { status?: number }).status, 401);
    });
    f.script({ status: 400, error: { message: "Invalid value for 'temperature'.", code: "invalid_value" } });
    assert.match((await rejects(chat(f).run({ messages: hi }, ctx()))).message, /answered 400: Invalid value for 'temperature'\./);
    f.script({ status: 500, error: { message: "The server had an error.", type: "server_error" } });
    const before = f.requests.length;
    assert.match((await rejects(chat(f, { max_retries: 0 }).run({ messages: hi }, ctx()))).message, /answered 500: The server had an error\./);
    assert.is(f.requests.length - before, 1);
    f.script({ status: 503, error: { message: "overloaded", type: "server_error" } });
    assert.is((await chat(f, { max_retries: 1 }).run({ messages: hi }, ctx())).replies[0]!.text, "hi");
  }));

test("a hanging endpoint fails with a time-out error within the retry budget", () =>
  withFixture(async (f) => {
    f.script(() => ({ hang: true }));
    // The fixture never answers: only the time-out ends each attempt.
    const err = await rejects(chat(f, { timeout: 0.5, max_retries: 2 }).run({ messages: hi }, ctx()));
    assert.match(err.message, /OpenAIChatGenerator 'llm': the OpenAI API at http:\/\/127\.0\.0\.1:\d+\/v1 timed out \(no answer within 0\.5 s\)/);
    assert.is(f.requests.length, 3, "the first attempt and max_retries (2) retries");
  }));

test("a body that stalls after the headers fails with a time-out error, streamed or not", () =>
  withFixture(async (f) => {
    f.script([{ content: "never finished", stallAfterChunks: 2 }, { stallAfterChunks: 0 }]);
    const received: StreamingChunk[] = [];
    const llm = chat(f, { timeout: 0.3 });
    assert.match((await rejects(llm.run({ messages: hi, streaming_callback: (c: StreamingChunk) => void received.push(c) }, ctx()))).message, /timed out/);
    assert.is(received.length, 2);
    assert.match((await rejects(llm.run({ messages: hi }, ctx()))).message, /timed out \(no answer within 0\.3 s\)/);
  }));

test("aborting the signal stops the request, in flight or while streaming", () =>
  withFixture(async (f) => {
    f.script({ hang: true });
    const controller = new AbortController();
    const started = Date.now();
    setTimeout(() => controller.abort(new Error("client disconnected")), 100);
    const err = await rejects(chat(f).run({ messages: hi }, ctx({ signal: controller.signal })));
    assert.is(err.message, "client disconnected");
    // The fixture hangs and the default time-out is 30 s: only the abort can end the call this soon.
    assert.ok(Date.now() - started < 15_000, `took ${Date.now() - started} ms`);
    const streaming = new AbortController();
    f.script({ content: "a b c d e f g h" });
    const chunks: StreamingChunk[] = [];
    const stopAfterTwo = (c: StreamingChunk) => void (chunks.push(c) === 2 && streaming.abort(new Error("stop")));
    assert.is((await rejects(chat(f).run({ messages: hi, streaming_callback: stopAfterTwo }, ctx({ signal: streaming.signal })))).message, "stop");
    assert.ok(chunks.length < 5, "no partial reply is returned as complete");
    assert.is((await rejects(chat(f).run({ messages: hi }, ctx({ signal: AbortSignal.abort(new Error("already")) })))).message, "already");
  }));

test("OPENAI_BASE_URL is the default endpoint; an unreachable one fails clearly", () =>
  withFixture(async (f) => {
    await withEnv({ OPENAI_BASE_URL: f.url }, async () => {
      const { replies } = await new OpenAIChatGenerator({ api_key: apiKey }).run({ messages: [ChatMessage.fromUser("via env")] }, ctx());
      assert.is(replies[0]!.text, "via env");
    });
    const gone = await startOpenAIFixture();
    await gone.close(); // a port nobody listens on any more
    const err = await rejects(new OpenAIChatGenerator({ api_key: apiKey, api_base_url: gone.url, max_retries: 0 }).run({ messages: hi }, ctx()));
    assert.match(err.message, /could not reach the OpenAI API at http:\/\/127\.0\.0\.1:\d+\/v1: connect ECONNREFUSED/);
  }));

test("OpenAIGenerator: prompt and system prompt in, reply texts and meta out, streaming too", () =>
  withFixture(async (f) => {
    const gen = new OpenAIGenerator({ api_base_url: f.url, api_key: apiKey, system_prompt: "You are terse." });
    assert.equal(Object.keys(gen.inputSockets), ["prompt", "system_prompt", "streaming_callback", "generation_kwargs"]);
    assert.equal(Object.keys(gen.outputSockets), ["replies", "meta"]);
    const result = await gen.run({ prompt: "what is up", generation_kwargs: { n: 2 } }, ctx({ name: "gen" }));
    assert.equal(result.replies, ["what is up", "what is up"]);
    assert.equal(result.meta.map((m) => [m.index, m.finish_reason]), [[0, "stop"], [1, "stop"]]);
    assert.equal(f.requests[0]!.body.messages, [{ role: "system", content: "You are terse." }, { role: "user", content: "what is up" }]);
    const chunks: StreamingChunk[] = [];
    const streamed = await gen.run({ prompt: "x y", system_prompt: "other", streaming_callback: (c: StreamingChunk) => void chunks.push(c) }, ctx({ name: "gen" }));
    assert.equal(streamed.replies, ["x y"]);
    assert.equal(streamed.meta[0]!.usage, { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 });
    assert.equal(chunks[0]!.component_info, { type: "haystack.components.generators.openai.OpenAIGenerator", name: "gen" });
    assert.is(f.requests[1]!.body.messages[0].content, "other");
  }));

test("declared types, aliases and sockets", () => {
  assert.equal([OpenAIChatGenerator.type, ...OpenAIChatGenerator.aliases], ["haystack.components.generators.chat.openai.OpenAIChatGenerator", "OpenAIChatGenerator"]);
  assert.equal([OpenAIGenerator.type, ...OpenAIGenerator.aliases], ["haystack.components.generators.openai.OpenAIGenerator", "OpenAIGenerator"]);
  const llm = new OpenAIChatGenerator();
  const inputs = llm.inputSockets;
  assert.equal(Object.keys(inputs), ["messages", "streaming_callback", "generation_kwargs", "tools", "tools_strict"]);
  assert.ok(inputs.messages!.mandatory);
  assert.ok(["streaming_callback", "generation_kwargs", "tools", "tools_strict"].every((n) => !inputs[n]!.mandatory && inputs[n]!.default === null));
  assert.equal(llm.outputSockets.replies!.type, { kind: "list", item: { kind: "named", name: "ChatMessage" } });
  // Defaults included, as Haystack's to_dict writes them.
  assert.equal(llm.toDict(), {
    type: OpenAIChatGenerator.type,
    // Every init parameter, as Haystack's to_dict writes them: those without a default as null.
    init_parameters: {
      api_key: { type: "env_var", env_vars: ["OPENAI_API_KEY"], strict: true },
      model: "gpt-5-mini",
      tools_strict: false,
      api_base_url: null,
      organization: null,
      generation_kwargs: {},
      timeout: null,
      max_retries: null,
      streaming_callback: null,
      http_client_kwargs: null,
      tools: null,
    },
  });
  assert.throws(() => new OpenAIChatGenerator({ timeout: "soon" }), /timeout/);
});

test.run();
