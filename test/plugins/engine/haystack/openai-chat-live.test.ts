/**
 * @module Port of the `test_live_*` cases of Haystack's test/components/generators/chat/test_openai.py
 * and test_openai_async.py. Haystack runs them against the real OpenAI API; here they run against
 * the loopback OpenAI fixture in its `likeOpenAI` mode, which rejects what the API rejects (strict
 * schemas left open, json_object without "json", bad image or file parts, stream_options without
 * stream), answers the dated model snapshot and the full usage. Each script is what the model
 * answers (text, JSON, tool calls); what the assertions check is svc's side: the request built,
 * the completion or the SSE chunks parsed, tool-call arguments reassembled, meta and usage mapped.
 * Haystack's pydantic `response_format` is written as the JSON schema it stands for (svc has no
 * pydantic), the image is sent at its file size (svc does not resize images).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { ChatMessage, OpenAIChatGenerator, Secret, Tool, Toolset, type StreamingChunk } from "svc/engine";
import { startOpenAIFixture, type OpenAIFixture, type Reply } from "../../../fixtures/openai-server.js";
import { loggedContext } from "../../../helpers/env.js";
import { repoRoot } from "../../../helpers/cli.js";
import { rejects } from "../../../helpers/rejects.js";
import { tools } from "./openai-chat-tools.js";

const KEY = "sk-live-fixture";
const ctx = () => loggedContext("llm").ctx;
type Replies = { replies: ChatMessage[] };

/** One run of a gpt-4.1-nano generator against a fresh fixture that answers `script`. */
async function live(script: Reply | Reply[], init: Record<string, unknown>, inputs: Record<string, unknown>): Promise<{ replies: ChatMessage[]; body: any; fixture: OpenAIFixture }> {
  const fixture = await startOpenAIFixture({ apiKey: KEY, likeOpenAI: true });
  try {
    fixture.script(script);
    const generator = new OpenAIChatGenerator({ model: "gpt-4.1-nano", api_key: Secret.fromToken(KEY), api_base_url: fixture.url, max_retries: 0, ...init });
    const { replies } = (await generator.run(inputs as never, ctx())) as Replies;
    assert.is(fixture.requests.length, 1);
    return { replies, body: fixture.requests[0]!.body, fixture };
  } finally {
    await fixture.close();
  }
}

const capital = [ChatMessage.fromUser("What's the capital of France")];

for (const name of ["test_live_run", "test_live_run_async"]) {
  test(name, async () => {
    const { replies, body } = await live({ content: "The capital of France is Paris." }, { generation_kwargs: { n: 1 } }, { messages: capital });
    assert.is(replies.length, 1);
    const message = replies[0]!;
    assert.ok(message.text!.includes("Paris"));
    assert.ok(String(message.meta.model).includes("gpt-4.1-nano"));
    assert.is(message.meta.model, "gpt-4.1-nano-2025-04-14"); // the snapshot answered, not the alias asked for
    assert.is(message.meta.finish_reason, "stop");
    assert.ok((message.meta.usage as { prompt_tokens: number }).prompt_tokens > 0);
    assert.equal([body.model, body.n, body.stream, "stream_options" in body], ["gpt-4.1-nano", 1, false, false]);
  });
}

const calendarEvent = {
  type: "json_schema",
  json_schema: {
    name: "CalendarEvent",
    strict: true,
    schema: {
      properties: { event_name: { title: "Event Name", type: "string" }, event_date: { title: "Event Date", type: "string" }, event_location: { title: "Event Location", type: "string" } },
      required: ["event_name", "event_date", "event_location"],
      title: "CalendarEvent",
      type: "object",
      additionalProperties: false,
    },
  },
};

test("test_live_run_with_response_format_pydantic_model", async () => {
  const messages = [ChatMessage.fromUser("The marketing summit takes place on October12th at the Hilton Hotel downtown.")];
  const answer = '{"event_name":"Marketing Summit","event_date":"October 12th","event_location":"Hilton Hotel downtown"}';
  const { replies, body } = await live({ content: answer }, { generation_kwargs: { response_format: calendarEvent } }, { messages });
  assert.is(replies.length, 1);
  const msg = JSON.parse(replies[0]!.text!);
  assert.ok(msg.event_name.toLowerCase().includes("marketing summit"));
  assert.type(msg.event_date, "string");
  assert.type(msg.event_location, "string");
  assert.equal(body.response_format, calendarEvent);
});

const askJson = [ChatMessage.fromUser('Answer in JSON: What\'s the capital of France? Please respond with a JSON object with the key "city". For example: {"city": "Paris"}')];

for (const streaming of [false, true]) {
  test(`test_live_run_with_response_format_json_object${streaming ? "_streaming" : ""}`, async () => {
    let called = false;
    const callback = streaming ? { streaming_callback: () => void (called = true) } : {};
    const { replies, body } = await live({ content: '{"city": "Paris"}' }, { generation_kwargs: { response_format: { type: "json_object" } }, ...callback }, { messages: askJson });
    assert.is(replies.length, 1);
    assert.ok(JSON.parse(replies[0]!.text!).city.toLowerCase().includes("paris"));
    assert.is(replies[0]!.meta.finish_reason, "stop");
    assert.is(called, streaming);
    assert.equal([body.response_format, body.stream], [{ type: "json_object" }, streaming]);
  });
}

const capitalCity = {
  type: "json_schema",
  json_schema: {
    name: "CapitalCity",
    strict: true,
    schema: {
      title: "CapitalCity",
      type: "object",
      properties: { city: { title: "City", type: "string" }, country: { title: "Country", type: "string" } },
      required: ["city", "country"],
      additionalProperties: false,
    },
  },
};

for (const streaming of [false, true]) {
  test(`test_live_run_with_response_format_json_schema${streaming ? "_streaming" : ""}`, async () => {
    let called = false;
    const callback = streaming ? { streaming_callback: () => void (called = true) } : {};
    const question = [ChatMessage.fromUser("What's the capital of France?")];
    const { replies, body } = await live({ content: '{"city":"Paris","country":"France"}' }, { generation_kwargs: { response_format: capitalCity }, ...callback }, { messages: question });
    assert.is(replies.length, 1);
    const msg = JSON.parse(replies[0]!.text!);
    assert.ok(msg.city.includes("Paris"));
    assert.type(msg.country, "string");
    assert.ok(msg.country.includes("France"));
    assert.is(replies[0]!.meta.finish_reason, "stop");
    assert.is(called, streaming);
    assert.equal(body.response_format, capitalCity);
  });
}

/** Haystack's counting callback (the sync `Callback` class, the async closure). */
const counting = () => {
  const seen = { counter: 0, responses: "" };
  return { seen, callback: async (chunk: StreamingChunk) => void ((seen.counter += 1), (seen.responses += chunk.content || "")) };
};

test("test_live_run_streaming", async () => {
  const { seen, callback } = counting();
  const { replies, body } = await live({ content: "The capital of France is Paris." }, { streaming_callback: callback, generation_kwargs: { stream_options: { include_usage: true } } }, { messages: [ChatMessage.fromUser("What's the capital of France?")] });
  assert.is(replies.length, 1);
  const metadata = replies[0]!.meta;
  assert.ok(replies[0]!.text!.includes("Paris"));
  assert.ok(String(metadata.model).includes("gpt-4.1-nano"));
  assert.is(metadata.finish_reason, "stop");
  const usage = metadata.usage as Record<string, any>;
  assert.ok(usage.prompt_tokens > 0 && usage.completion_tokens > 0);
  assert.type(usage.completion_tokens_details, "object");
  assert.type(usage.prompt_tokens_details, "object");
  assert.ok(seen.counter > 1);
  assert.ok(seen.responses.includes("Paris"));
  assert.equal([body.stream, body.stream_options], [true, { include_usage: true }]);
});

test("test_live_run_streaming_async", async () => {
  const { seen, callback } = counting();
  const before = Date.now();
  const { replies } = await live({ content: "Paris is the capital of France." }, { streaming_callback: callback, generation_kwargs: { stream_options: { include_usage: true } } }, { messages: [ChatMessage.fromUser("What's the capital of France?")] });
  assert.is(replies.length, 1);
  const message = replies[0]!;
  assert.ok(message.text!.includes("Paris"));
  assert.ok(message.meta.model);
  assert.is(message.meta.finish_reason, "stop");
  assert.ok(seen.counter > 1);
  assert.ok(seen.responses.includes("Paris"));
  const start = Date.parse(String(message.meta.completion_start_time));
  assert.ok(start >= before - 1000 && start <= Date.now(), String(message.meta.completion_start_time));
  const usage = message.meta.usage as Record<string, number>;
  assert.ok(usage.prompt_tokens! > 0 && usage.completion_tokens! > 0 && usage.total_tokens! > 0);
});

const toolNames = (body: any) => body.tools.map((t: any) => t.function.name);

test("test_live_run_with_tools_streaming", async () => {
  const chunks: StreamingChunk[] = [];
  const script = { toolCalls: [{ name: "weather", arguments: { city: "Paris" } }, { name: "weather", arguments: { city: "Berlin" } }] };
  const { replies, body } = await live(script, { tools: tools(), streaming_callback: (c: StreamingChunk) => void chunks.push(c), generation_kwargs: { stream_options: { include_usage: true } } }, { messages: [ChatMessage.fromUser("What's the weather like in Paris and Berlin?")] });
  assert.is(replies.length, 1);
  const message = replies[0]!;
  assert.equal(message.texts, []);
  assert.not.ok(message.text);
  assert.is(message.toolCalls.length, 2);
  assert.ok(message.toolCalls.every((c) => c.tool_name === "weather"));
  const cities = message.toolCalls.map((c) => String(c.arguments.city).toLowerCase());
  assert.ok(cities.some((c) => c.includes("berlin")));
  assert.ok(cities.some((c) => c.includes("paris")));
  assert.ok(message.toolCalls.every((c) => typeof c.id === "string" && c.id.startsWith("call_")));
  assert.is(message.meta.finish_reason, "tool_calls");
  // The arguments arrived in fragments, each tool's first delta naming it.
  assert.ok(chunks.filter((c) => c.tool_calls?.length).length > 4);
  assert.equal(toolNames(body), ["weather", "message_extractor"]);
  assert.equal(body.tools[1].function.parameters.required, ["messages"]);
});

for (const [name, asToolset] of [["test_live_run_with_toolset", true], ["test_live_run_with_tools_async", false]] as const) {
  test(name, async () => {
    const given = asToolset ? new Toolset(tools()) : tools();
    const { replies, body } = await live({ toolCalls: [{ name: "weather", arguments: { city: "Paris" } }] }, { tools: given }, { messages: [ChatMessage.fromUser("What's the weather like in Paris?")] });
    assert.is(replies.length, 1);
    const message = replies[0]!;
    assert.equal(message.texts, []);
    assert.not.ok(message.text);
    const call = message.toolCall!;
    assert.is(call.tool_name, "weather");
    assert.equal(Object.keys(call.arguments), ["city"]);
    assert.ok(String(call.arguments.city).toLowerCase().includes("paris"));
    assert.is(message.meta.finish_reason, "tool_calls");
    assert.equal(toolNames(body), ["weather", "message_extractor"]);
  });
}

const testFile = (path: string) => readFileSync(join(repoRoot, "test/fixtures/haystack-files", path));

test("test_live_run_multimodal", async () => {
  const image = { image: { base64_image: testFile("images/apple.jpg").toString("base64"), mime_type: "image/jpeg", detail: "low" } };
  const messages = [ChatMessage.fromUser(null, {}, null, ["What does this image show? Max 5 words", image])];
  const { replies, body } = await live({ content: "A red apple." }, {}, { messages });
  assert.is(replies.length, 1);
  const message = replies[0]!;
  assert.ok(message.text!.toLowerCase().includes("apple"));
  assert.ok(message.isFrom("assistant"));
  assert.equal([message.toolCalls, message.toolCallResults], [[], []]);
  const [text, part] = body.messages[0].content;
  assert.equal(text, { type: "text", text: "What does this image show? Max 5 words" });
  assert.equal([part.type, part.image_url.detail, part.image_url.url.slice(0, 23)], ["image_url", "low", "data:image/jpeg;base64,"]);
});

test("test_live_run_with_file_content", async () => {
  const file = { file: { base64_data: testFile("pdf/sample_pdf_3.pdf").toString("base64"), mime_type: "application/pdf", filename: "sample_pdf_3.pdf" } };
  const messages = [ChatMessage.fromUser(null, {}, null, [file, "Is this document a paper about LLMs? Respond with 'yes' or 'no' only."])];
  const { replies, body } = await live({ content: "no" }, {}, { messages });
  assert.is(replies.length, 1);
  assert.ok(replies[0]!.isFrom("assistant"));
  assert.ok(replies[0]!.text!.toLowerCase().includes("no"));
  const [part] = body.messages[0].content;
  assert.equal([part.type, part.file.filename, part.file.file_data.slice(0, 28)], ["file", "sample_pdf_3.pdf", "data:application/pdf;base64,"]);
});

test("test_live_run_strict_nested_tool", async () => {
  const tool = new Tool({
    name: "create_person",
    description: "Create a person record with an address",
    parameters: {
      type: "object",
      properties: {
        name: { type: "string", description: "Full name" },
        address: { type: "object", properties: { street: { type: "string", description: "Street address" }, city: { type: "string", description: "City name" } } },
      },
    },
    function: ({ name, address }: Record<string, unknown>) => `${name} at ${JSON.stringify(address)}`,
  });
  const answer = { toolCalls: [{ name: "create_person", arguments: { name: "John", address: { street: "123 Main St", city: "Springfield" } } }] };
  // The fixture rejects a strict schema with an open or partly required object, as OpenAI does.
  const { replies, body } = await live(answer, { tools_strict: true }, { messages: [ChatMessage.fromUser("Create a person named John at 123 Main St, Springfield")], tools: [tool] });
  assert.is(replies.length, 1);
  const call = replies[0]!.toolCall!;
  assert.is(call.tool_name, "create_person");
  assert.ok("name" in call.arguments && "address" in call.arguments);
  assert.ok("street" in (call.arguments.address as object) && "city" in (call.arguments.address as object));
  assert.is(body.tools[0].function.strict, true);
});

test("the likeOpenAI fixture rejects what OpenAI rejects (so the live ports can fail on svc's request)", async () => {
  const fixture = await startOpenAIFixture({ apiKey: KEY, likeOpenAI: true });
  try {
    const make = (init: Record<string, unknown> = {}) => new OpenAIChatGenerator({ model: "gpt-4.1-nano", api_key: Secret.fromToken(KEY), api_base_url: fixture.url, max_retries: 0, ...init });
    // A strict schema whose nested object stays open (what a missing _make_schema_strict would send).
    const schema = { type: "object", properties: { address: { type: "object", properties: { street: { type: "string" } } } }, required: ["address"], additionalProperties: false };
    const format = { type: "json_schema", json_schema: { name: "Person", strict: true, schema } };
    await rejects(() => make({ generation_kwargs: { response_format: format } }).run({ messages: capital }, ctx()), /400: Invalid schema for response_format 'Person': In context=\('properties', 'address'\), 'additionalProperties' is required/);
    await rejects(() => make({ generation_kwargs: { response_format: { type: "json_object" } } }).run({ messages: capital }, ctx()), /must contain the word 'json'/);
    const notAnImage = { image: { base64_image: Buffer.from("not an image").toString("base64"), mime_type: "image/jpeg" } };
    await rejects(() => make().run({ messages: [ChatMessage.fromUser(null, {}, null, ["What is it?", notAnImage])] }, ctx()), /unsupported image/);
    await rejects(() => make({ generation_kwargs: { stream_options: { include_usage: true } } }).run({ messages: capital }, ctx()), /'stream_options' parameter is only allowed when 'stream' is enabled/);
  } finally {
    await fixture.close();
  }
});

test.run();
