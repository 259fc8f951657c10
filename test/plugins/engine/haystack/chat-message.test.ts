/**
 * Haystack's test/dataclasses/test_chat_message.py, ported value for value (the serde, from_dict
 * format and Pydantic-dump cases for text, tool call, tool result and reasoning messages are in
 * dataclasses.test.ts). Content parts are plain objects in svc (`{text}`, `{tool_call}`, …), so
 * Haystack's part classes are written as their serialized form. Skipped, Python-only: the
 * `dataclasses.replace` mutation warnings (10 cases), `ChatMessage.from_function` and the removed
 * `content` attribute / init keywords (Python's AttributeError/TypeError on a removed API).
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { ChatMessage, chatRoleFromStr, ValueError, type ContentPart, type ToolCall } from "svc/engine";

const BASE64_IMAGE = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mP8/x8AAwMCAO+ip1sAAAAASUVORK5CYII=";
const BASE64_PDF = Buffer.from("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n%%EOF\n").toString("base64");
/** Haystack's ImageContent / FileContent as they serialize (mime type guessed as image/png for the PNG above). */
const image = (extra: Record<string, unknown> = {}) => ({ image: { base64_image: BASE64_IMAGE, mime_type: "image/png", detail: null, meta: {}, validation: true, ...extra } });
const file = (extra: Record<string, unknown> = {}) => ({ file: { base64_data: BASE64_PDF, mime_type: "application/pdf", filename: null, extra: {}, validation: true, ...extra } });
const call = (id: string | null, tool_name: string, args: Record<string, unknown>, extra: Record<string, unknown> | null = null): ToolCall => ({ id, tool_name, arguments: args, extra });
const isValueError = (pattern?: RegExp) => (e: Error) => e instanceof ValueError && (!pattern || pattern.test(e.message));
const isTypeError = (e: Error) => e instanceof TypeError;

/** Every accessor Haystack's tests read, in one object. */
const view = (m: ChatMessage) => ({
  texts: m.texts, text: m.text, toolCalls: m.toolCalls, toolCall: m.toolCall, toolCallResults: m.toolCallResults, toolCallResult: m.toolCallResult,
  images: m.images, image: m.image, reasonings: m.reasonings, reasoning: m.reasoning, files: m.files, file: m.file,
});
const EMPTY = { texts: [], text: null, toolCalls: [], toolCall: null, toolCallResults: [], toolCallResult: null, images: [], image: null, reasonings: [], reasoning: null, files: [], file: null };

test("test_chat_role_from_str, test_function_role_removed", () => {
  assert.is(chatRoleFromStr("user"), "user");
  assert.throws(() => chatRoleFromStr("invalid"), isValueError(/Unknown chat role 'invalid'\. Supported roles are: \['user', 'system', 'assistant', 'tool'\]/));
  assert.throws(() => chatRoleFromStr("function"), isValueError());
});

test("test_tool_call_init, _to_dict, _from_dict (through a message's parts)", () => {
  const m = ChatMessage.fromAssistant(null, { toolCalls: [call("123", "mytool", { a: 1 })] });
  assert.equal([m.toolCall!.id, m.toolCall!.tool_name, m.toolCall!.arguments], ["123", "mytool", { a: 1 }]);
  assert.equal(m.toDict().content, [{ tool_call: { id: "123", tool_name: "mytool", arguments: { a: 1 }, extra: null } }]);
  const back = ChatMessage.fromDict({ role: "assistant", content: [{ tool_call: { id: "123", tool_name: "mytool", arguments: { a: 1 }, extra: { call_id: "123" } } }] });
  assert.equal(back.toolCall, { id: "123", tool_name: "mytool", arguments: { a: 1 }, extra: { call_id: "123" } });
});

test("test_tool_call_result_init, _to_dict, _from_dict (origin and error required)", () => {
  const m = ChatMessage.fromTool("result", call("123", "mytool", { a: 1 }), true);
  assert.equal(m.toolCallResult, { result: "result", origin: call("123", "mytool", { a: 1 }), error: true });
  assert.equal(m.toDict().content, [{ tool_call_result: { result: "result", origin: { id: "123", tool_name: "mytool", arguments: { a: 1 }, extra: null }, error: true } }]);
  const back = ChatMessage.fromDict({ role: "tool", content: [{ tool_call_result: { result: "result", origin: { id: "123", tool_name: "mytool", arguments: { a: 1 } }, error: true } }] });
  assert.equal(back.toolCallResult, { result: "result", origin: call("123", "mytool", { a: 1 }), error: true });
  assert.throws(() => ChatMessage.fromDict({ role: "tool", content: [{ tool_call_result: { result: "result", error: false } }] }), isValueError(/Fields `result`, `origin`, `error` are required/));
});

test("test_tool_call_result_init_mixed_content, _to_dict_mixed_content, _from_dict_mixed_content", () => {
  const parts = [{ text: "Here is an image:" }, image(), file({ filename: "guide.pdf" })];
  const m = ChatMessage.fromTool(parts, call(null, "test_tool", {}));
  const result = m.toolCallResult!.result as unknown as ContentPart[];
  assert.is(result.length, 3);
  assert.equal(m.toDict().content, [{ tool_call_result: { result: parts, origin: { tool_name: "test_tool", arguments: {}, id: null, extra: null }, error: false } }]);
  const back = ChatMessage.fromDict({ role: "tool", content: [{ tool_call_result: { result: [{ text: "Caption" }, image(), file({ filename: "guide.pdf" })], origin: { tool_name: "test_tool", arguments: {}, id: "call_123", extra: null }, error: false } }] });
  const parsed = back.toolCallResult!.result as unknown as Record<string, Record<string, unknown>>[];
  assert.equal(parsed[0], { text: "Caption" });
  assert.is(parsed[1]!.image!.base64_image, BASE64_IMAGE);
  assert.equal([parsed[2]!.file!.base64_data, parsed[2]!.file!.filename], [BASE64_PDF, "guide.pdf"]);
});

test("test_text_content_init, _to_dict, _from_dict; test_reasoning_content_init, _to_dict, _from_dict", () => {
  assert.equal(ChatMessage.fromUser("Hello").toDict().content, [{ text: "Hello" }]);
  assert.is(ChatMessage.fromDict({ role: "user", content: [{ text: "Hello" }] }).text, "Hello");
  assert.equal(ChatMessage.fromAssistant("x", { reasoning: "Let me think about it..." }).reasoning, { reasoning_text: "Let me think about it...", extra: {} });
  const rc = { reasoning_text: "Let me think about it...", extra: { key: "value" } };
  assert.equal(ChatMessage.fromAssistant("x", { reasoning: rc }).toDict().content[0], { reasoning: rc });
  assert.equal(ChatMessage.fromDict({ role: "assistant", content: [{ reasoning: rc }] }).reasoning, rc);
});

test("test_from_assistant_with_text", () => {
  const text = "Hello, how can I assist you?";
  const m = ChatMessage.fromAssistant(text);
  assert.equal([m.role, m.content, m.name], ["assistant", [{ text }], null]);
  assert.equal(view(m), { ...EMPTY, texts: [text], text });
});

test("test_from_assistant_with_tool_calls", () => {
  const calls = [call("123", "mytool", { a: 1 }), call("456", "mytool2", { b: 2 })];
  const m = ChatMessage.fromAssistant(null, { toolCalls: calls });
  assert.equal([m.role, m.content], ["assistant", calls.map((tool_call) => ({ tool_call }))]);
  assert.equal(view(m), { ...EMPTY, toolCalls: calls, toolCall: calls[0] });
});

test("test_from_assistant_with_reasoning_object, _with_reasoning_string, _with_invalid_reasoning", () => {
  const text = "After thinking about it, I can say that the answer is 42.";
  for (const [given, expected] of [
    [{ reasoning_text: "Let me think about it...", extra: { key: "value" } }, { reasoning_text: "Let me think about it...", extra: { key: "value" } }],
    ["Let me think about it...", { reasoning_text: "Let me think about it...", extra: {} }],
  ] as const) {
    const m = ChatMessage.fromAssistant(text, { reasoning: given });
    assert.equal(m.content, [{ reasoning: expected }, { text }]);
    assert.equal(view(m), { ...EMPTY, texts: [text], text, reasonings: [expected], reasoning: expected });
  }
  assert.throws(() => ChatMessage.fromAssistant("text", { reasoning: 123 as never }), isTypeError);
});

test("test_from_user_with_valid_content, _with_name, _empty_text", () => {
  const text = "I have a question.";
  const m = ChatMessage.fromUser(text);
  assert.equal([m.role, m.content, m.name], ["user", [{ text }], null]);
  assert.equal(view(m), { ...EMPTY, texts: [text], text });
  const named = ChatMessage.fromUser(text, {}, "John");
  assert.equal([named.name, named.role, named.content], ["John", "user", [{ text }]]);
  const empty = ChatMessage.fromUser("");
  assert.equal([empty.content, empty.text, empty.texts], [[{ text: "" }], "", [""]]);
});

test("test_from_user_fails_if_no_text_or_content_parts, _if_text_and_content_parts, _with_empty_parts, _unsupported_parts", () => {
  assert.throws(() => ChatMessage.fromUser(null), isValueError(/Either text or content_parts must be provided/));
  assert.throws(() => ChatMessage.fromUser("text", {}, null, [{ text: "text" }]), isValueError(/Only one of text or content_parts/));
  assert.throws(() => ChatMessage.fromUser(null, {}, null, []), isValueError(/at least one content part/));
  assert.throws(() => ChatMessage.fromUser(null, {}, null, ["text part", { tool_call: call("123", "mytool", { a: 1 }) }]), isTypeError);
});

test("test_from_user_with_content_parts", () => {
  const parts = [{ text: "text" }, image(), file()];
  assert.equal(ChatMessage.fromUser(null, {}, null, parts).content, parts);
  assert.equal(ChatMessage.fromUser(null, {}, null, ["text", image(), file()]).content, parts, "a string part becomes a text part");
  assert.equal(ChatMessage.fromUser(null, {}, null, [image()]).content, [image()]);
  const m = ChatMessage.fromUser(null, {}, null, [file()]);
  assert.equal([m.role, m.content, m.file, m.files.length], ["user", [file()], file().file, 1]);
});

test("test_from_system_with_valid_content", () => {
  const text = "I have a question.";
  const m = ChatMessage.fromSystem(text);
  assert.equal([m.role, m.content], ["system", [{ text }]]);
  assert.equal(view(m), { ...EMPTY, texts: [text], text });
});

test("test_from_tool_with_valid_content, _with_valid_mixed_content", () => {
  const origin = call("123", "mytool", { a: 1 });
  const m = ChatMessage.fromTool("Tool result", origin, false);
  const tcr = { result: "Tool result", origin, error: false };
  assert.equal([m.role, m.content], ["tool", [{ tool_call_result: tcr }]]);
  assert.equal(view(m), { ...EMPTY, toolCallResults: [tcr], toolCallResult: tcr });
  const mixed = [{ text: "Hello" }, image()];
  const mm = ChatMessage.fromTool(mixed, call(null, "mytool", {}), false);
  const mixedTcr = { result: mixed, origin: call(null, "mytool", {}), error: false };
  assert.equal(view(mm), { ...EMPTY, toolCallResults: [mixedTcr], toolCallResult: mixedTcr } as never);
});

test("test_multiple_text_segments, test_mixed_content", () => {
  const m = new ChatMessage("user", [{ text: "Hello" }, { text: "World" }]);
  assert.equal([m.texts, m.length], [["Hello", "World"], 2]);
  const tc = call("123", "mytool", { a: 1 });
  const mixed = new ChatMessage("assistant", [{ text: "Hello" }, { tool_call: tc }]);
  assert.equal([mixed.length, mixed.texts, mixed.text, mixed.toolCalls, mixed.toolCall], [2, ["Hello"], "Hello", [tc], tc]);
});

test("test_to_dict_with_invalid_content_type; test_from_dict_with_invalid_content_type names the valid formats", () => {
  assert.throws(() => new ChatMessage("assistant", [{ text: "Hello" }, "invalid" as never]).toDict(), (e: Error) => e instanceof TypeError && /Unsupported type in ChatMessage content/.test(e.message));
  for (const bad of ["invalid", { invalid: "invalid" }]) {
    assert.throws(() => ChatMessage.fromDict({ role: "assistant", content: [{ text: "Hello" }, bad] }), isValueError(/Unsupported content part.*Valid formats.*/s));
  }
});

test("test_to_trace_dict, _with_image_content, _with_file_content", () => {
  assert.equal(ChatMessage.fromUser("This is a message", { foo: "bar" }, "John").toTraceDict(), { role: "user", meta: { foo: "bar" }, name: "John", content: [{ text: "This is a message" }] });
  assert.equal(ChatMessage.fromUser(null, {}, null, [image({ detail: "auto", meta: { foo: "bar" } })]).toTraceDict(), {
    role: "user",
    meta: {},
    name: null,
    content: [{ image: { base64_image: "Base64 string (92 characters)", mime_type: "image/png", detail: "auto", meta: { foo: "bar" }, validation: true } }],
  });
  const traced = ChatMessage.fromUser(null, {}, null, [file({ filename: "test.pdf", extra: { foo: "bar" } })]).toTraceDict();
  assert.equal(traced.content, [{ file: { base64_data: `Base64 string (${BASE64_PDF.length} characters)`, mime_type: "application/pdf", filename: "test.pdf", extra: { foo: "bar" }, validation: true } }]);
});

test("TestFromDictPydanticDump: test_image_message, test_file_message, test_multiple_messages", () => {
  // What Pydantic writes for a ChatMessage field: the dataclass's own fields, each part without its key.
  const dump = (m: ChatMessage) => {
    const d = m.toDict();
    return { _role: d.role, _name: d.name, _meta: d.meta, _content: d.content.map((p) => ("text" in p ? p : Object.values(p)[0])) };
  };
  const tc = call("123", "mytool", { a: 1 });
  const messages = [
    ChatMessage.fromUser(null, {}, null, [{ text: "What is in this image?" }, image({ detail: "auto" })]),
    ChatMessage.fromUser(null, {}, null, [{ text: "Summarize this file." }, { file: { base64_data: "aGVsbG8=", mime_type: "text/plain", filename: "hello.txt", extra: {}, validation: true } }]),
    ChatMessage.fromUser("What is the answer?"),
    ChatMessage.fromAssistant("Let me check.", { meta: { some: "info" }, toolCalls: [tc], reasoning: { reasoning_text: "Let me think about it...", extra: {} } }),
    ChatMessage.fromTool("42", tc),
    ChatMessage.fromUser(null, {}, null, [image(), { file: { base64_data: "aGVsbG8=", mime_type: "text/plain", filename: "hello.txt", extra: {}, validation: true } }]),
  ];
  for (const m of messages) assert.equal(ChatMessage.fromDict(dump(m)).toDict(), m.toDict());
});

test("TestToOpenaiDictFormat: system, user, with name, assistant text and tool calls (Python's JSON spacing)", () => {
  assert.equal(ChatMessage.fromSystem("You are good assistant").toOpenAIDictFormat(), { role: "system", content: "You are good assistant" });
  assert.equal(ChatMessage.fromUser("I have a question").toOpenAIDictFormat(), { role: "user", content: "I have a question" });
  assert.equal(ChatMessage.fromUser("I have a question", {}, "John").toOpenAIDictFormat(), { role: "user", content: "I have a question", name: "John" });
  assert.equal(ChatMessage.fromAssistant("I have an answer", { name: "Assistant1" }).toOpenAIDictFormat(), { role: "assistant", content: "I have an answer", name: "Assistant1" });
  assert.equal(ChatMessage.fromAssistant("I have an answer", { meta: { finish_reason: "stop" } }).toOpenAIDictFormat(), { role: "assistant", content: "I have an answer" });
  assert.equal(ChatMessage.fromAssistant(null, { toolCalls: [call("123", "weather", { city: "Paris" })] }).toOpenAIDictFormat(), {
    role: "assistant",
    tool_calls: [{ id: "123", type: "function", function: { name: "weather", arguments: '{"city": "Paris"}' } }],
  });
});

test("TestToOpenaiDictFormat: multimodal user message, file content with and without a filename", () => {
  const url = { url: `data:image/png;base64,${BASE64_IMAGE}`, detail: "auto" };
  assert.equal(ChatMessage.fromUser(null, {}, null, [{ text: "I have a question" }, image({ detail: "auto" })]).toOpenAIDictFormat(), {
    role: "user",
    content: [{ type: "text", text: "I have a question" }, { type: "image_url", image_url: url }],
  });
  assert.equal(ChatMessage.fromUser(null, {}, null, [image({ detail: "auto" })]).toOpenAIDictFormat(), { role: "user", content: [{ type: "image_url", image_url: url }] });
  for (const [filename, sent] of [["test.pdf", "test.pdf"], [null, "filename"]] as const) {
    assert.equal(ChatMessage.fromUser(null, {}, null, [file({ filename }), { text: "Is this document a paper about LLMs?" }]).toOpenAIDictFormat(), {
      role: "user",
      content: [{ type: "file", file: { file_data: `data:application/pdf;base64,${BASE64_PDF}`, filename: sent } }, { type: "text", text: "Is this document a paper about LLMs?" }],
    });
  }
});

test("TestToOpenaiDictFormat: tool message, tool message list, list with an unsupported image", () => {
  const result = JSON.stringify({ weather: "sunny", temperature: "25" });
  assert.equal(ChatMessage.fromTool(result, call("123", "weather", { city: "Paris" })).toOpenAIDictFormat(), { role: "tool", content: result, tool_call_id: "123" });
  assert.equal(ChatMessage.fromTool([{ text: "first result" }, { text: "second result" }], call("123", "mytool", {})).toOpenAIDictFormat(), {
    role: "tool",
    content: [{ text: "first result", type: "text" }, { text: "second result", type: "text" }],
    tool_call_id: "123",
  });
  assert.throws(() => ChatMessage.fromTool([{ text: "first result" }, image()], call("123", "mytool", {})).toOpenAIDictFormat(), isValueError(/Responses API/));
});

test("TestToOpenaiDictFormat: invalid messages, require_tool_call_ids true and false", () => {
  assert.throws(() => new ChatMessage("assistant", []).toOpenAIDictFormat(), isValueError(/at least one/));
  const withResult = new ChatMessage("user", [{ text: "I have an answer" }, { tool_call_result: { result: "I have another answer", origin: call("123", "mytool", { a: 1 }), error: false } }]);
  assert.throws(() => withResult.toOpenAIDictFormat(), isValueError(/cannot contain any other content/));
  const noId = call(null, "weather", { city: "Paris" });
  assert.throws(() => ChatMessage.fromAssistant(null, { toolCalls: [noId] }).toOpenAIDictFormat(true), isValueError(/non-null `id`/));
  assert.throws(() => ChatMessage.fromTool("result", noId).toOpenAIDictFormat(true), isValueError(/non-null `id`/));
  assert.equal(ChatMessage.fromAssistant(null, { toolCalls: [noId] }).toOpenAIDictFormat(false), { role: "assistant", tool_calls: [{ type: "function", function: { name: "weather", arguments: '{"city": "Paris"}' } }] });
  assert.equal(ChatMessage.fromTool("result", noId).toOpenAIDictFormat(false), { role: "tool", content: "result" });
});

test("TestFromOpenaiDictFormat: user, system, assistant text and tool calls, empty and missing arguments", () => {
  const user = ChatMessage.fromOpenAIDictFormat({ role: "user", content: "Hello, how are you?", name: "John" });
  assert.equal([user.role, user.text, user.name], ["user", "Hello, how are you?", "John"]);
  const system = ChatMessage.fromOpenAIDictFormat({ role: "system", content: "You are a helpful assistant" });
  assert.equal([system.role, system.text], ["system", "You are a helpful assistant"]);
  const assistant = ChatMessage.fromOpenAIDictFormat({ role: "assistant", content: "I can help with that" });
  assert.equal([assistant.role, assistant.text], ["assistant", "I can help with that"]);
  const calls = ChatMessage.fromOpenAIDictFormat({ role: "assistant", content: null, tool_calls: [{ id: "call_123", function: { name: "get_weather", arguments: '{"location": "Berlin"}' } }] });
  assert.equal([calls.role, calls.text, calls.toolCalls.length], ["assistant", null, 1]);
  assert.equal([calls.toolCall!.id, calls.toolCall!.tool_name, calls.toolCall!.arguments], ["call_123", "get_weather", { location: "Berlin" }]);
  const empty = ChatMessage.fromOpenAIDictFormat({ role: "assistant", content: null, tool_calls: [{ id: "call_1", function: { name: "now", arguments: "" } }] });
  assert.equal([empty.toolCall!.id, empty.toolCall!.tool_name, empty.toolCall!.arguments], ["call_1", "now", {}]);
  const missing = ChatMessage.fromOpenAIDictFormat({ role: "assistant", content: null, tool_calls: [{ id: "call_1", function: { name: "now" } }] });
  assert.equal(missing.toolCall!.arguments, {});
});

test("TestFromOpenaiDictFormat: tool message, tool message list, tool without id", () => {
  const tool = ChatMessage.fromOpenAIDictFormat({ role: "tool", content: "The weather is sunny", tool_call_id: "call_123" });
  assert.equal([tool.role, tool.toolCallResult!.result, tool.toolCallResult!.origin.id], ["tool", "The weather is sunny", "call_123"]);
  const list = ChatMessage.fromOpenAIDictFormat({ role: "tool", content: [{ text: "first result", type: "text" }, { text: "second result", type: "text" }], tool_call_id: "call_123" });
  assert.equal([list.toolCallResult!.result, list.toolCallResult!.origin.id], [[{ text: "first result" }, { text: "second result" }], "call_123"] as never);
  const noId = ChatMessage.fromOpenAIDictFormat({ role: "tool", content: "The weather is sunny" });
  assert.equal([noId.toolCallResult!.result, noId.toolCallResult!.origin.id], ["The weather is sunny", null]);
});

test("TestFromOpenaiDictFormat: missing role, missing content, invalid tool calls, unsupported role, assistant with neither, tool list with an image", () => {
  assert.throws(() => ChatMessage.fromOpenAIDictFormat({ content: "test" }), isValueError(/`role` field is required/));
  assert.throws(() => ChatMessage.fromOpenAIDictFormat({ role: "user" }), isValueError(/`content` field is required for user messages/));
  assert.throws(() => ChatMessage.fromOpenAIDictFormat({ role: "assistant", tool_calls: [{ invalid: "format" }] }), isValueError(/`function` field/));
  assert.throws(() => ChatMessage.fromOpenAIDictFormat({ role: "invalid", content: "test" }), isValueError(/Unsupported role: invalid/));
  assert.throws(() => ChatMessage.fromOpenAIDictFormat({ role: "assistant", irrelevant: "irrelevant" }), isValueError(/either `content` or `tool_calls`/));
  assert.throws(() => ChatMessage.fromOpenAIDictFormat({ role: "tool", content: [{ text: "first result", type: "text" }, image()], tool_call_id: "call_123" }), isValueError(/list of TextContent/));
});

test.run();
