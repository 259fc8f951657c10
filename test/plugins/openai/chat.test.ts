import { test } from "uvu";
import * as assert from "uvu/assert";
import OpenAI from "openai";
import { chatWrapper, rawChat, userMessage, withChatKernel } from "./chat-helpers.js";

const ECHO = chatWrapper(`  runChatCompletion(model: string, messages: any[]) { return \`Echo: \${getLastUserMessage(messages)}\`; }`);
const ID = /^[\w-]+-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

test("non-streaming: the SPEC §2.7 body, through the openai client and on the wire", () =>
  withChatKernel(async (k) => {
    await k.deployChat("echo", ECHO);
    const completion = await k.client.chat.completions.create({ model: "echo", messages: userMessage("hi there") });
    assert.is(completion.choices[0]!.message.content, "Echo: hi there");
    assert.is(completion.object, "chat.completion");

    const res = await fetch(`${k.url}/chat/completions`, { method: "POST", body: JSON.stringify({ model: "echo", messages: userMessage("hi") }) });
    assert.is(res.status, 200);
    assert.match(res.headers.get("content-type")!, /^application\/json/);
    const body = (await res.json()) as any;
    assert.equal(Object.keys(body).sort(), ["choices", "created", "id", "model", "object", "usage"]);
    assert.match(body.id, ID);
    assert.ok(body.id.startsWith("echo-"));
    assert.ok(Number.isInteger(body.created) && Math.abs(body.created - Date.now() / 1000) < 5);
    assert.is(body.model, "echo");
    assert.equal(body.choices, [{ index: 0, message: { role: "assistant", content: "Echo: hi" }, finish_reason: "stop", logprobs: null }]);
    assert.equal(body.usage, { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 });
  }));

test("streaming: chat.completion.chunk events, the role first, a closing stop chunk, then [DONE]", () =>
  withChatKernel(async (k) => {
    await k.deployChat("words", chatWrapper(`  async *runChatCompletion() { for (const w of ["Redis ", "is ", "fast"]) { yield w; await sleep(2); } }`));
    const stream = await k.client.chat.completions.create({ model: "words", messages: userMessage("?"), stream: true });
    const chunks: OpenAI.ChatCompletionChunk[] = [];
    for await (const chunk of stream) chunks.push(chunk);
    assert.is(chunks.map((c) => c.choices[0]?.delta.content ?? "").join(""), "Redis is fast");
    assert.is(chunks[0]!.choices[0]!.delta.role, "assistant");
    assert.ok(chunks.slice(1).every((c) => c.choices[0]!.delta.role === undefined), "the role only in the first delta");
    assert.equal(chunks.at(-1)!.choices[0]!.delta, { content: "" });
    assert.is(chunks.at(-1)!.choices[0]!.finish_reason, "stop");
    assert.ok(chunks.slice(0, -1).every((c) => c.choices[0]!.finish_reason === null));
    assert.is(new Set(chunks.map((c) => c.id)).size, 1, "one id for the whole response");
    assert.ok(chunks.every((c) => c.object === "chat.completion.chunk" && c.model === "words"));

    const raw = await rawChat(k.url, { model: "words", messages: userMessage("?"), stream: true }, "/chat/completions");
    assert.is(raw.headers.get("content-type"), "text/event-stream; charset=utf-8");
    assert.is(raw.events.at(-1)!.data, "[DONE]");
    assert.ok(raw.text.endsWith("data: [DONE]\n\n"));
    assert.is(raw.events.length, 5);
    assert.ok(raw.events.every((e) => e.event === undefined), "plain data: events");
    assert.equal(Object.keys(raw.json[0]).sort(), ["choices", "created", "id", "model", "object", "system_fingerprint", "usage"]);
    assert.equal(raw.json[0].choices[0], { index: 0, delta: { role: "assistant", content: "Redis " }, logprobs: null, finish_reason: null });
  }));

test("a string answered with stream: true is a one-chunk stream; an iterable with stream: false is drained", () =>
  withChatKernel(async (k) => {
    await k.deployChat("echo", ECHO);
    const raw = await rawChat(k.url, { model: "echo", messages: userMessage("x"), stream: true });
    assert.equal(
      raw.json.map((c) => [c.choices[0].delta, c.choices[0].finish_reason]),
      [
        [{ role: "assistant", content: "Echo: x" }, null],
        [{ content: "" }, "stop"],
      ],
    );
    assert.is(raw.events.at(-1)!.data, "[DONE]");

    await k.deployChat(
      "mixed",
      chatWrapper(`  async *runChatCompletion() {
    yield createStatusEvent("working");
    yield "Hello";
    yield new StreamingChunk({ content: ", " });
    yield new StreamingChunk({ index: 0, reasoning: { reasoning_text: "hmm" } });
    yield new StreamingChunk({ index: 0, tool_calls: [{ index: 0, id: "call_1", tool_name: "lookup", arguments: "{}" }] });
    yield { content: "world" };
    yield new StreamingChunk({ content: "", finish_reason: "stop", meta: { usage: { prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 } } });
    yield new StreamingChunk({ content: "!", meta: { usage: { prompt_tokens: 2, completion_tokens: 1 } } });
  }`),
    );
    const completion = await k.client.chat.completions.create({ model: "mixed", messages: userMessage("x") });
    assert.is(completion.choices[0]!.message.content, "Hello, world!");
    assert.is(completion.choices[0]!.finish_reason, "stop");
    assert.equal(completion.usage, { prompt_tokens: 9, completion_tokens: 4, total_tokens: 13 });
  }));

test("tool-call and reasoning deltas from engine StreamingChunks; usage from meta.usage; the source's finish reason", () =>
  withChatKernel(async (k) => {
    await k.deployChat(
      "agent",
      chatWrapper(`  async *runChatCompletion() {
    yield new StreamingChunk({ index: 0, reasoning: { reasoning_text: "The user wants weather." } });
    yield new StreamingChunk({ index: 0, tool_calls: [{ index: 0, id: "call_1", tool_name: "get_weather", arguments: '{"ci' }] });
    yield new StreamingChunk({ index: 0, tool_calls: [{ index: 0, arguments: 'ty":"Paris"}' }] });
    yield new StreamingChunk({ index: 0, tool_call_result: { result: "sunny", origin: { tool_name: "get_weather", arguments: { city: "Paris" } }, error: false } });
    yield new StreamingChunk({ finish_reason: "tool_call_results" });
    yield new StreamingChunk({ content: "Sunny in Paris." });
    yield new StreamingChunk({ content: "", finish_reason: "tool_calls" });
    yield new StreamingChunk({ meta: { usage: { prompt_tokens: 12, completion_tokens: 5, total_tokens: 17 } } });
  }`),
    );
    const stream = await k.client.chat.completions.create({ model: "agent", messages: userMessage("Weather in Paris?"), stream: true });
    const chunks: any[] = [];
    for await (const chunk of stream) chunks.push(chunk);
    assert.equal(chunks[0].choices[0].delta, { role: "assistant", content: null, reasoning_content: "The user wants weather." });
    assert.equal(chunks[1].choices[0].delta, {
      content: null,
      tool_calls: [{ index: 0, id: "call_1", type: "function", function: { name: "get_weather", arguments: '{"ci' } }],
    });
    assert.equal(chunks[2].choices[0].delta.tool_calls, [{ index: 0, type: "function", function: { arguments: 'ty":"Paris"}' } }]);
    assert.equal(chunks[3].choices[0].delta, { content: "Sunny in Paris." });
    assert.is(chunks[4].choices[0].finish_reason, "tool_calls");
    assert.equal(chunks[5].choices, [], "usage alone comes in a chunk without choices");
    assert.equal(chunks[5].usage, { prompt_tokens: 12, completion_tokens: 5, total_tokens: 17 });
    assert.is(chunks.length, 6, "a source that gave a finish reason gets no extra stop chunk; empty chunks are skipped");

    // The SDK's stream helper assembles the same stream into one message.
    const helper = k.client.chat.completions.stream({ model: "agent", messages: userMessage("?") });
    const final = await helper.finalChatCompletion();
    assert.equal(final.choices[0]!.message.tool_calls, [{ id: "call_1", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } }] as any);
    assert.is(final.choices[0]!.message.content, "Sunny in Paris.");
  }));

test("a ChatCompletion returned by the wrapper passes through, and streams as one chunk", () =>
  withChatKernel(async (k) => {
    await k.deployChat(
      "full",
      chatWrapper(`  runChatCompletion(model: string) {
    return { id: "custom-1", object: "chat.completion", created: 1, model, choices: [{ index: 0, message: { role: "assistant", content: "ready-made" }, finish_reason: "length", logprobs: null }], usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 } };
  }`),
    );
    const completion = await k.client.chat.completions.create({ model: "full", messages: userMessage("x") });
    assert.is(completion.id, "custom-1");
    assert.is(completion.choices[0]!.finish_reason, "length");
    const raw = await rawChat(k.url, { model: "full", messages: userMessage("x"), stream: true });
    assert.is(raw.json.length, 1);
    assert.equal(raw.json[0].choices[0].delta, { role: "assistant", content: "ready-made" });
    assert.is(raw.json[0].choices[0].finish_reason, "length");
    assert.equal(raw.json[0].usage, { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 });
    assert.is(raw.events.at(-1)!.data, "[DONE]");
  }));

test("extra keys (Open WebUI's chat_id, features, background_tasks, …) are accepted and reach the wrapper in body", () =>
  withChatKernel(async (k) => {
    await k.deployChat("body", chatWrapper(`  runChatCompletion(model: string, messages: any[], body: any) { return JSON.stringify({ model, messages, body }); }`));
    const request = {
      model: "body",
      messages: [{ role: "system", content: "be brief" }, { role: "user", content: [{ type: "text", text: "hi" }] }],
      stream: false,
      features: { web_search: false },
      session_id: "s1",
      chat_id: "c1",
      id: "m1",
      background_tasks: { title_generation: true, tags_generation: true },
      temperature: 0.2,
    };
    const res = await fetch(`${k.url}/v1/chat/completions`, { method: "POST", body: JSON.stringify(request) });
    assert.is(res.status, 200);
    const seen = JSON.parse(((await res.json()) as any).choices[0].message.content);
    assert.is(seen.model, "body");
    assert.equal(seen.messages, request.messages);
    assert.equal(seen.body, request);
  }));

test("errors: 400 without model or messages, 404 unknown model, 501 without a chat method, 500 when the wrapper throws", () =>
  withChatKernel(async (k) => {
    await k.deployChat("apionly", chatWrapper(`  runApi() { return 1; }`));
    await k.deployChat("throws", chatWrapper(`  runChatCompletion() { throw new Error("boom"); }`));
    await k.deployChat("teapot", chatWrapper(`  runChatCompletion() { throw new HttpError(429, "slow down"); }`));
    await k.deployChat("number", chatWrapper(`  runChatCompletion() { return 42; }`));
    await k.deployChat("early", chatWrapper(`  async *runChatCompletion() { throw new Error("failed before the first chunk"); }`));

    for (const body of [{ messages: [] }, { model: "throws" }, { model: 1, messages: [] }, { model: "throws", messages: "hi" }]) {
      const res = await fetch(`${k.url}/v1/chat/completions`, { method: "POST", body: JSON.stringify(body) });
      assert.is(res.status, 400, JSON.stringify(body));
      assert.is(((await res.json()) as any).error.type, "invalid_request_error");
    }
    const expect = async (model: string, status: number, message: string, stream = false) => {
      try {
        await k.client.chat.completions.create({ model, messages: userMessage("x"), stream });
        assert.unreachable(`${model} should fail`);
      } catch (error) {
        assert.instance(error, OpenAI.APIError, String(error));
        const e = error as InstanceType<typeof OpenAI.APIError>;
        assert.is(e.status, status, `${model}: ${e.message}`);
        assert.is((e.error as any).message, message);
        assert.is((e.error as any).code, status);
        assert.ok(e.message.includes(message));
      }
    };
    await expect("nope", 404, "Pipeline 'nope' not found or not a pipeline wrapper");
    await expect("apionly", 501, "Chat endpoint not implemented for this model");
    await expect("throws", 500, "Pipeline execution failed: boom");
    await expect("throws", 500, "Pipeline execution failed: boom", true);
    await expect("teapot", 429, "slow down");
    await expect("early", 500, "Pipeline execution failed: failed before the first chunk", true);
    await expect("early", 500, "Pipeline execution failed: failed before the first chunk");
    await expect("number", 500, "Unsupported response type from completion: number (return a string, a ChatCompletion or an (async) iterable of chunks)");
    assert.ok(k.logs.some((l) => l.includes("Pipeline execution failed: boom")), "the failure is logged");
  }));

test("a failure after the first byte: an error event the openai client raises, and no [DONE]", () =>
  withChatKernel(async (k) => {
    await k.deployChat("midway", chatWrapper(`  async *runChatCompletion() { yield "partial "; await sleep(5); throw new Error("lost the model"); }`));
    const raw = await rawChat(k.url, { model: "midway", messages: userMessage("x"), stream: true });
    assert.is(raw.status, 200);
    assert.is(raw.json[0].choices[0].delta.content, "partial ");
    assert.equal(raw.json.at(-1), { error: { message: "Pipeline execution failed: lost the model", type: "server_error", code: 500 } });
    assert.not.ok(raw.events.some((e) => e.data === "[DONE]"));

    const stream = await k.client.chat.completions.create({ model: "midway", messages: userMessage("x"), stream: true });
    let text = "";
    try {
      for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? "";
      assert.unreachable("the stream should raise");
    } catch (error) {
      assert.instance(error, OpenAI.APIError);
      assert.match((error as Error).message, /Pipeline execution failed: lost the model/);
    }
    assert.is(text, "partial ");
    assert.ok(k.logs.some((l) => l.includes("failed after the first byte") && l.includes("lost the model")));
  }));

test("both paths answer; other methods get 405", () =>
  withChatKernel(async (k) => {
    await k.deployChat("echo", ECHO);
    for (const path of ["/chat/completions", "/v1/chat/completions"]) {
      const res = await fetch(`${k.url}${path}`, { method: "POST", body: JSON.stringify({ model: "echo", messages: userMessage("p") }) });
      assert.is(((await res.json()) as any).choices[0].message.content, "Echo: p");
    }
    const get = await fetch(`${k.url}/v1/chat/completions`);
    assert.is(get.status, 405);
  }));

test.run();
