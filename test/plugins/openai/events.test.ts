import { test } from "uvu";
import * as assert from "uvu/assert";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import {
  createChatCompletionEvent,
  createDetailsTag,
  createMessageEvent,
  createNotificationEvent,
  createReplaceEvent,
  createSourceEvent,
  createStatusEvent,
  defaultOnToolCallEnd,
  defaultOnToolCallStart,
  type NotificationType,
} from "svc";
import { Component, StreamingChunk, output, socket, streamingGenerator } from "svc/engine";
import * as v from "valibot";
import { repoRoot } from "../../helpers/cli.js";
import { chatWrapper, rawChat, userMessage, withChatKernel } from "./chat-helpers.js";

test("event helpers return { event: { type, data } } with Open WebUI's exact payloads", () => {
  assert.equal(createStatusEvent("Working"), { event: { type: "status", data: { description: "Working", done: false, hidden: false } } });
  assert.equal(createStatusEvent("Done", true, true), { event: { type: "status", data: { description: "Done", done: true, hidden: true } } });
  assert.equal(createMessageEvent("more"), { event: { type: "message", data: { content: "more" } } });
  assert.equal(createReplaceEvent("all new"), { event: { type: "replace", data: { content: "all new" } } });
  assert.equal(createNotificationEvent("hi"), { event: { type: "notification", data: { type: "info", content: "hi" } } });
  for (const type of ["info", "success", "warning", "error"] as const) assert.is(createNotificationEvent("x", type).event.data.type, type);
  assert.throws(() => createNotificationEvent("x", "fatal" as NotificationType), /type must be one of info, success, warning, error; got "fatal"/);
  assert.throws(() => createStatusEvent(undefined as unknown as string), /'description' must be a string/);
  assert.throws(() => createMessageEvent(null as unknown as string), /'content' must be a string, got null/);
  const source = { source: { name: "Doc", url: "https://example.com" }, document: ["text ü"], metadata: [{ source: "Doc", nested: { a: [1] } }] };
  assert.equal(createSourceEvent(source), { event: { type: "source", data: source } });
  assert.throws(() => createSourceEvent([] as never), /must be an object/);
  assert.equal(createChatCompletionEvent({ a: 1 }), { event: { type: "chat:completion", data: { a: 1 } } });
});

test("createDetailsTag renders the <details> block Open WebUI shows", () => {
  assert.is(createDetailsTag("Summary", "Body"), '<details done="true">\n<summary>Summary</summary>\n\nBody\n</details>\n\n');
  assert.is(createDetailsTag("S", "B", true), '<details done="true" open>\n<summary>S</summary>\n\nB\n</details>\n\n');
  assert.is(createDetailsTag("a < b", "B", { type: 'get"weather' }), '<details type="get&quot;weather" done="true">\n<summary>a &lt; b</summary>\n\nB\n</details>\n\n');
});

test("default tool-call callbacks: a status, then a done status and details, or a hidden status and an error toast", () => {
  assert.equal(defaultOnToolCallStart("get_weather", {}, null), createStatusEvent("Calling 'get_weather' tool..."));
  assert.is(defaultOnToolCallStart("", {}, null), undefined);
  const [status, details] = defaultOnToolCallEnd("get_weather", { city: "Berlin" }, "sunny", false);
  assert.equal(status, createStatusEvent("Called 'get_weather' tool", true));
  assert.is(
    details,
    `<details type="get_weather" done="true">\n<summary>Tool call result for 'get_weather'</summary>\n\n\`\`\`\nArguments:\n{\n  "city": "Berlin"\n}\n\nResponse:\nsunny\n\`\`\`\n</details>\n\n`,
  );
  assert.match(defaultOnToolCallEnd("t", {}, "has ``` inside", false)[1] as string, /^````\n[^]*\n````\n<\/details>/m);
  assert.equal(defaultOnToolCallEnd("get_weather", {}, "boom", true), [
    createStatusEvent("Called 'get_weather' tool", true, true),
    createNotificationEvent("Error calling 'get_weather' tool", "error"),
  ]);
});

/** A component that streams a tool call, its result and text, like an Agent would. */
class FakeAgent extends Component {
  static override readonly type = "test.FakeAgent";
  protected inputSpecs() {
    return { question: socket(v.string()), streaming_callback: socket(v.nullable(v.function()), { default: null }) };
  }
  protected outputSpecs() {
    return { answer: output(v.string()) };
  }
  async run(inputs: { question: string; streaming_callback: ((c: StreamingChunk) => Promise<void>) | null }) {
    const cb = inputs.streaming_callback!;
    await cb(new StreamingChunk({ index: 0, tool_calls: [{ index: 0, id: "call_1", tool_name: "get_weather", arguments: '{"city":"Berlin"}' }] }));
    const origin = { tool_name: "get_weather", arguments: { city: "Berlin" } };
    await cb(new StreamingChunk({ index: 0, tool_call_result: { result: "sunny", origin, error: false } }));
    await cb(new StreamingChunk({ content: `Sunny in Berlin.` }));
    return { answer: "Sunny in Berlin." };
  }
}

test("the default callbacks work with streamingGenerator", async () => {
  const items: unknown[] = [];
  for await (const item of streamingGenerator({
    pipeline: new FakeAgent({}),
    pipelineRunArgs: { question: "?" },
    onToolCallStart: defaultOnToolCallStart,
    onToolCallEnd: defaultOnToolCallEnd,
  })) {
    items.push(item);
  }
  assert.equal(items[0], createStatusEvent("Calling 'get_weather' tool..."));
  assert.instance(items[1], StreamingChunk);
  assert.equal(items[2], createStatusEvent("Called 'get_weather' tool", true));
  assert.match(items[3] as string, /^<details type="get_weather" done="true">/);
  assert.is(items.length, 6);
});

test("UI events travel in chat streams as data: {\"event\": …}; they do not count for the finish logic", () =>
  withChatKernel(async (k) => {
    await k.deployChat(
      "ui",
      chatWrapper(`  async *runChatCompletion() {
    yield createStatusEvent("Searching...");
    yield createSourceEvent({ source: { name: "Doc" }, document: ["d"], metadata: [{ source: "Doc" }] });
    yield "Answer";
    yield createDetailsTag("More", "details");
    yield createNotificationEvent("Done!", "success");
    yield { toEventDict: () => ({ type: "replace", data: { content: "Replaced" } }) };
    yield { type: "message", data: { content: " appended" } };
  }`),
    );
    const raw = await rawChat(k.url, { model: "ui", messages: userMessage("x"), stream: true });
    const frames = raw.text.split("\n\n").filter(Boolean);
    assert.is(frames[0], 'data: {"event":{"type":"status","data":{"description":"Searching...","done":false,"hidden":false}}}');
    assert.is(frames[1], 'data: {"event":{"type":"source","data":{"source":{"name":"Doc"},"document":["d"],"metadata":[{"source":"Doc"}]}}}');
    assert.equal(raw.json[2].choices[0].delta, { role: "assistant", content: "Answer" }, "the role goes with the first chunk, not an event");
    assert.equal(raw.json[3].choices[0].delta, { content: createDetailsTag("More", "details") });
    assert.equal(raw.json[4], { event: { type: "notification", data: { type: "success", content: "Done!" } } });
    assert.equal(raw.json[5], { event: { type: "replace", data: { content: "Replaced" } } });
    assert.equal(raw.json[6], { event: { type: "message", data: { content: " appended" } } });
    assert.is(raw.json[7].choices[0].finish_reason, "stop");
    assert.is(frames.at(-1), "data: [DONE]");
    assert.is(raw.events.length, 9);

    // Only events: still a closing chunk, so OpenAI clients see a finish reason.
    await k.deployChat("only", chatWrapper(`  *runChatCompletion() { yield createStatusEvent("hi", true); }`));
    const only = await rawChat(k.url, { model: "only", messages: userMessage("x"), stream: true });
    assert.equal(only.json[0], createStatusEvent("hi", true));
    assert.equal(only.json[1].choices[0], { index: 0, delta: { role: "assistant", content: "" }, logprobs: null, finish_reason: "stop" });
    assert.is(only.events.at(-1)!.data, "[DONE]");

    // The openai client passes events through as items of the stream.
    const stream = await k.client.chat.completions.create({ model: "ui", messages: userMessage("x"), stream: true });
    const seen: any[] = [];
    for await (const chunk of stream) seen.push(chunk);
    assert.equal(seen[0], { event: createStatusEvent("Searching...").event });
  }));

test("SERVICE_OPENAI_UI_EVENTS=false drops UI events from chat streams", () =>
  withChatKernel(
    async (k) => {
      await k.deployChat("ui", chatWrapper(`  async *runChatCompletion() { yield createStatusEvent("s"); yield "text"; yield createNotificationEvent("n"); }`));
      const raw = await rawChat(k.url, { model: "ui", messages: userMessage("x"), stream: true });
      assert.not.ok(raw.text.includes('"event"'));
      assert.equal(
        raw.json.map((c) => c.choices[0].delta.content),
        ["text", ""],
      );
      // Plain OpenAI clients can then read every chunk's choices.
      const stream = await k.client.chat.completions.create({ model: "ui", messages: userMessage("x"), stream: true });
      let text = "";
      for await (const chunk of stream) text += chunk.choices[0]!.delta.content ?? "";
      assert.is(text, "text");
    },
    { settings: { openaiUiEvents: false } },
  ));

test("the ui_events_demo example streams events without an API key and survives Open WebUI's side requests", async () => {
  const saved = process.env.UI_EVENTS_DEMO_DELAY_MS;
  process.env.UI_EVENTS_DEMO_DELAY_MS = "0";
  try {
    await withChatKernel(async (k) => {
      await k.deployChat("ui_events_demo", readFileSync(join(repoRoot, "pipelines", "ui_events_demo", "pipeline_wrapper.ts"), "utf8"));
      const raw = await rawChat(k.url, { model: "ui_events_demo", messages: userMessage("What is svc?"), stream: true, chat_id: "c1", session_id: "s1", id: "m1" });
      assert.is(raw.status, 200);
      const types = raw.json.filter((c) => c.event).map((c) => c.event.type);
      assert.equal(types, ["status", "source", "status", "notification", "status"]);
      const text = raw.json.filter((c) => c.choices).map((c) => c.choices[0].delta.content ?? "").join("");
      assert.match(text, /You asked: "What is svc\?"/);
      assert.match(text, /<details done="true">\n<summary>How this answer was made<\/summary>/);
      assert.is(raw.events.at(-1)!.data, "[DONE]");

      // Title generation: not streamed, Open WebUI's extra keys, a "### Task:" prompt.
      const sideRequest = {
        model: "ui_events_demo",
        messages: userMessage("### Task:\nGenerate a concise, 3-5 word title with an emoji summarizing the chat history.\n### Chat History:\n..."),
        stream: false as const,
        background_tasks: { title_generation: true },
        features: {},
        chat_id: "c1",
      };
      const title = await k.client.chat.completions.create(sideRequest);
      assert.equal(JSON.parse(title.choices[0]!.message.content!), { title: "svc UI events demo" });
      // A plain non-streaming question is drained: text only, no events.
      const plain = await k.client.chat.completions.create({ model: "ui_events_demo", messages: userMessage("Hi") });
      assert.match(plain.choices[0]!.message.content!, /^You asked: "Hi"/);
    });
  } finally {
    if (saved === undefined) delete process.env.UI_EVENTS_DEMO_DELAY_MS;
    else process.env.UI_EVENTS_DEMO_DELAY_MS = saved;
  }
});

test.run();
