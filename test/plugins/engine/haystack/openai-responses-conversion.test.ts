/**
 * @module Port of Haystack's test/components/generators/chat/test_openai_responses_conversion.py
 * (values, not Python): ChatMessage → Responses `input` items, stream events → StreamingChunks,
 * and the chunks → the streamed reply. OpenAI's pydantic events are written as the JSON they
 * are on the wire (their `to_dict()`); a chunk's `received_at` is any string, as Haystack's ANY.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { ChatMessage, StreamingChunk } from "svc/engine";
import type { StreamingChunkInit } from "../../../../plugins/engine/dataclasses/streaming-chunk.js";
import { chunkFromResponseEvent, messageFromResponseChunks, toResponsesInput } from "../../../../plugins/engine/components/openai-responses-conversion.js";

type Json = Record<string, any>;
const IMAGE = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
const PDF = "JVBERi0xLjQKJcfsj6IKNSAwIG9iago8PC9MZW5ndGggNiAwIFI+PgpzdHJlYW0K";
const warnings: string[] = [];
const warn = (m: string) => void warnings.push(m);

/** Converts the events as the generator does, each seeing the chunks before it. */
function convert(events: Json[]): StreamingChunk[] {
  const chunks: StreamingChunk[] = [];
  for (const e of events) chunks.push(chunkFromResponseEvent(e, chunks, undefined as never));
  return chunks;
}
/** StreamingChunk equality with `received_at` matching anything (it must be there). */
function assertChunks(actual: StreamingChunk[], expected: StreamingChunkInit[]): void {
  const strip = (c: StreamingChunk) => {
    const d = c.toDict();
    const { received_at, ...meta } = d.meta as Json;
    assert.type(received_at, "string");
    return { ...d, meta };
  };
  const expect = (e: StreamingChunkInit) => {
    const { received_at: _any, ...meta } = (e.meta ?? {}) as Json;
    return { ...new StreamingChunk(e).toDict(), meta };
  };
  assert.equal(actual.map(strip), expected.map(expect));
}
/** Haystack's "we return rest of the chunk as is": the event as meta, its output_index as index. */
const asIs = (event: Json): StreamingChunkInit => ({ content: "", index: event.output_index ?? null, meta: { ...event } });

// ---- the fixture of openai_responses_streaming_chunks_with_tool_call ----
const RS = "rs_095b57053855eac100690491f54e308196878239be3ba6133c";
const FC = "fc_095b57053855eac100690491f6a224819680e2f9c7cbc5a531";
const RESP = "resp_095b57053855eac100690491f4e22c8196ac124365e8c70424";
const WEATHER_TOOL = { name: "weather", parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"], additionalProperties: false }, strict: false, type: "function", description: "useful to determine the weather in a given location" };
const COMPLETED_RESPONSE = {
  id: RESP, created_at: 1761907188.0, metadata: {}, model: "gpt-5-mini-2025-08-07", object: "response",
  output: [{ id: RS, summary: [], type: "reasoning" }, { arguments: '{"city":"Paris"}', call_id: "call_OZZXFm7SLb4F3Xg8a9XVVCvv", name: "weather", type: "function_call", id: FC, status: "completed" }],
  tools: [WEATHER_TOOL], top_p: 1.0, reasoning: { effort: "medium", generate_summary: null, summary: null },
  usage: { input_tokens: 62, input_tokens_details: { cached_tokens: 0 }, output_tokens: 83, output_tokens_details: { reasoning_tokens: 64 }, total_tokens: 145 }, store: true,
};
const toolCallChunks = () => [
  new StreamingChunk({ meta: { received_at: "x", response: { id: RESP, created_at: 1761907188.0, model: "gpt-5-mini-2025-08-07", object: "response", output: [], tools: [{ ...WEATHER_TOOL, parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } }], reasoning: { effort: "medium", generate_summary: null, summary: null }, usage: null }, sequence_number: 0, type: "response.created" } }),
  new StreamingChunk({ meta: { received_at: "x" }, index: 0, start: true, reasoning: { reasoning_text: "", extra: { id: RS, summary: [], type: "reasoning" } } }),
  new StreamingChunk({ meta: { received_at: "x" }, index: 0, reasoning: { reasoning_text: "", extra: { id: RS, summary: [], type: "reasoning" } } }),
  new StreamingChunk({ meta: { received_at: "x" }, index: 1, start: true, tool_calls: [{ index: 1, tool_name: "weather", arguments: null, id: FC, extra: { arguments: "", call_id: "call_OZZXFm7SLb4F3Xg8a9XVVCvv", id: FC, name: "weather", status: "in_progress", type: "function_call" } }] }),
  new StreamingChunk({ meta: { received_at: "x" }, index: 1, tool_calls: [{ index: 1, tool_name: null, arguments: '{"city":"Paris"}', id: FC, extra: { item_id: FC, output_index: 1, sequence_number: 5, type: "response.function_call_arguments.delta", obfuscation: "PySUcQ59ZZRkOm" } }] }),
  new StreamingChunk({ meta: { received_at: "x", arguments: '{"city":"Paris"}', item_id: FC, name: "weather", output_index: 1, sequence_number: 10, type: "response.function_call_arguments.done" }, index: 1 }),
  new StreamingChunk({ meta: { received_at: "x", response: structuredClone(COMPLETED_RESPONSE), sequence_number: 12, type: "response.completed" }, finish_reason: "tool_calls" }),
];

// ---- TestConversionToStreamingChunks ----
test("test_convert_streaming_chunks_to_chat_message_with_tool_call_empty_reasoning", () => {
  const message = messageFromResponseChunks(toolCallChunks(), warn);
  const { output: _output, ...meta } = COMPLETED_RESPONSE;
  assert.equal(message.toDict(), new ChatMessage("assistant", [
    { reasoning: { reasoning_text: "", extra: { id: RS, summary: [], type: "reasoning" } } },
    { tool_call: { tool_name: "weather", arguments: { city: "Paris" }, id: FC, extra: { call_id: "call_OZZXFm7SLb4F3Xg8a9XVVCvv" } } },
  ], null, meta).toDict());
});

const TEXT_RESP = "resp_0a8811e62a95217b00690c5ff62c14819596eae387d116f285";
const TEXT_RS = "rs_0a8811e62a95217b00690c5ff70a308195a8207d7eb43f1d5b";
const MSG = "msg_0a8811e62a95217b00690c5ff88f6c8195b037e57d327a1ee0";
const textResponse = (status: string, extra: Json = {}) => ({
  id: TEXT_RESP, created_at: 1762418678.0, metadata: {}, model: "gpt-5-mini-2025-08-07", object: "response", output: [], parallel_tool_calls: true, temperature: 1.0, tool_choice: "auto", tools: [], top_p: 1.0, background: false,
  reasoning: { effort: "medium", generate_summary: null, summary: null }, service_tier: "auto", status, text: { format: { type: "text" }, verbosity: "medium" }, top_logprobs: 0, truncation: "disabled", prompt_cache_retention: null, store: true, ...extra,
});
const outputText = (text: string) => ({ annotations: [], text, type: "output_text", logprobs: [] });
const delta = (d: string, seq: number, obfuscation: string) => ({ content_index: 0, delta: d, item_id: MSG, logprobs: [], output_index: 1, sequence_number: seq, type: "response.output_text.delta", obfuscation });
const TEXT = "Germany: Berlin\nFrance: Paris";
const doneMessage = { id: MSG, content: [outputText(TEXT)], role: "assistant", status: "completed", type: "message" };

test("test_convert_only_text", () => {
  const events: Json[] = [
    { response: textResponse("in_progress"), sequence_number: 0, type: "response.created" },
    { response: textResponse("in_progress"), sequence_number: 1, type: "response.in_progress" },
    { item: { id: TEXT_RS, summary: [], type: "reasoning" }, output_index: 0, sequence_number: 2, type: "response.output_item.added" },
    { item: { id: TEXT_RS, summary: [], type: "reasoning" }, output_index: 0, sequence_number: 3, type: "response.output_item.done" },
    { item: { id: MSG, content: [], role: "assistant", status: "in_progress", type: "message" }, output_index: 1, sequence_number: 4, type: "response.output_item.added" },
    { content_index: 0, item_id: MSG, output_index: 1, part: outputText(""), sequence_number: 5, type: "response.content_part.added" },
    delta("Germany", 6, "EV5gCoyiD"), delta(":", 7, "EkdNXp1EE2Cgj8z"), delta(" Berlin", 8, "1eS0q9aye"), delta("\n", 9, "H9Ict3F41DwGS4a"), delta("France", 10, "4vxrblWURx"), delta(":", 11, "B1CMJsNGhhqIz5K"), delta(" Paris", 12, "ojbz89bS7j"),
    { content_index: 0, item_id: MSG, logprobs: [], output_index: 1, sequence_number: 13, text: TEXT, type: "response.output_text.done" },
    { content_index: 0, item_id: MSG, output_index: 1, part: outputText(TEXT), sequence_number: 14, type: "response.content_part.done" },
    { item: doneMessage, output_index: 1, sequence_number: 15, type: "response.output_item.done" },
    {
      response: textResponse("completed", {
        error: null, incomplete_details: null, instructions: null, output: [{ id: TEXT_RS, summary: [], type: "reasoning" }, doneMessage], safety_identifier: null, service_tier: "default",
        usage: { input_tokens: 15, input_tokens_details: { cached_tokens: 0, cache_write_tokens: 0 }, output_tokens: 77, output_tokens_details: { reasoning_tokens: 64 }, total_tokens: 92 },
      }),
      sequence_number: 16,
      type: "response.completed",
    },
  ];
  const deltaChunk = (i: number, start = false): StreamingChunkInit => ({ content: events[i]!.delta, index: 1, start, meta: { ...events[i] } });
  assertChunks(convert(events), [
    asIs(events[0]!),
    asIs(events[1]!),
    { index: 0, start: true, reasoning: { reasoning_text: "", extra: { id: TEXT_RS, summary: [], type: "reasoning" } }, meta: {} },
    { index: 0, reasoning: { reasoning_text: "", extra: { id: TEXT_RS, summary: [], type: "reasoning" } }, meta: {} },
    { index: 1, meta: { item: { id: MSG, content: [], role: "assistant", status: "in_progress", type: "message" }, output_index: 1, sequence_number: 4, type: "response.output_item.added" } },
    { index: 1, meta: { content_index: 0, item_id: MSG, output_index: 1, part: outputText(""), sequence_number: 5, type: "response.content_part.added" } },
    deltaChunk(6, true), deltaChunk(7), deltaChunk(8), deltaChunk(9), deltaChunk(10), deltaChunk(11), deltaChunk(12),
    { index: 1, meta: { content_index: 0, item_id: MSG, logprobs: [], output_index: 1, sequence_number: 13, text: TEXT, type: "response.output_text.done" } },
    { index: 1, meta: { content_index: 0, item_id: MSG, output_index: 1, part: outputText(TEXT), sequence_number: 14, type: "response.content_part.done" } },
    { index: 1, meta: { item: doneMessage, output_index: 1, sequence_number: 15, type: "response.output_item.done" } },
    { finish_reason: "stop", meta: { ...events[16] } },
  ]);
  assert.is(events[6]!.delta, "Germany");
});

test("test_convert_only_function_call", () => {
  const created = { id: RESP, created_at: 1761907188.0, metadata: {}, model: "gpt-5-mini-2025-08-07", object: "response", output: [], tools: [WEATHER_TOOL], reasoning: { effort: "medium", generate_summary: null, summary: null }, usage: null };
  const completed = { ...COMPLETED_RESPONSE, usage: { ...COMPLETED_RESPONSE.usage, input_tokens_details: { cached_tokens: 0, cache_write_tokens: 0 } } };
  const argsDelta = (d: string, seq: number, obfuscation: string) => ({ delta: d, item_id: FC, output_index: 1, sequence_number: seq, type: "response.function_call_arguments.delta", obfuscation });
  const events: Json[] = [
    { response: created, sequence_number: 0, type: "response.created" },
    { item: { id: RS, summary: [], type: "reasoning" }, output_index: 0, sequence_number: 2, type: "response.output_item.added" },
    { item: { id: RS, summary: [], type: "reasoning" }, output_index: 0, sequence_number: 3, type: "response.output_item.done" },
    { item: { arguments: "", call_id: "call_OZZXFm7SLb4F3Xg8a9XVVCvv", name: "weather", type: "function_call", id: FC, status: "in_progress" }, output_index: 1, sequence_number: 4, type: "response.output_item.added" },
    argsDelta('{"city":', 5, "PySUcQ59ZZRkOm"),
    argsDelta('"Paris"}', 8, "INeMDAi1uAj"),
    { arguments: '{"city":"Paris"}', item_id: FC, name: "weather", output_index: 1, sequence_number: 10, type: "response.function_call_arguments.done" },
    { response: completed, sequence_number: 12, type: "response.completed" },
  ];
  const argsChunk = (args: string, seq: number, obfuscation: string): StreamingChunkInit => ({ index: 1, meta: {}, tool_calls: [{ index: 1, tool_name: null, arguments: args, id: FC, extra: { item_id: FC, output_index: 1, sequence_number: seq, type: "response.function_call_arguments.delta", obfuscation } }] });
  assertChunks(convert(events), [
    { meta: { response: created, sequence_number: 0, type: "response.created" } },
    { index: 0, start: true, reasoning: { reasoning_text: "", extra: { id: RS, summary: [], type: "reasoning" } }, meta: {} },
    { index: 0, reasoning: { reasoning_text: "", extra: { id: RS, summary: [], type: "reasoning" } }, meta: {} },
    { index: 1, start: true, meta: {}, tool_calls: [{ index: 1, tool_name: "weather", arguments: null, id: FC, extra: { arguments: "", call_id: "call_OZZXFm7SLb4F3Xg8a9XVVCvv", id: FC, name: "weather", status: "in_progress", type: "function_call" } }] },
    argsChunk('{"city":', 5, "PySUcQ59ZZRkOm"),
    argsChunk('"Paris"}', 8, "INeMDAi1uAj"),
    { index: 1, meta: { arguments: '{"city":"Paris"}', item_id: FC, name: "weather", output_index: 1, sequence_number: 10, type: "response.function_call_arguments.done" } },
    { finish_reason: "tool_calls", meta: { response: completed, sequence_number: 12, type: "response.completed" } },
  ]);
});

// ---- TestResponseToChatMessage ----
test("test_convert_system_message", () => {
  assert.equal(toResponsesInput(ChatMessage.fromSystem("You are good assistant")), [{ role: "system", content: "You are good assistant" }]);
});
test("test_convert_user_message", () => {
  assert.equal(toResponsesInput(ChatMessage.fromUser("I have a question")), [{ role: "user", content: [{ type: "input_text", text: "I have a question" }] }]);
});
test("test_convert_multimodal_user_message", () => {
  const image = { image: { base64_image: IMAGE, mime_type: "image/png", detail: "auto" } };
  assert.equal(ChatMessage.fromUser(null, {}, null, [{ text: "I have a question" }, image]).toOpenAIDictFormat(), {
    role: "user",
    content: [{ type: "text", text: "I have a question" }, { type: "image_url", image_url: { url: `data:image/png;base64,${IMAGE}`, detail: "auto" } }],
  });
  // image content only is supported as well
  assert.equal(ChatMessage.fromUser(null, {}, null, [image]).toOpenAIDictFormat(), { role: "user", content: [{ type: "image_url", image_url: { url: `data:image/png;base64,${IMAGE}`, detail: "auto" } }] });
  // and in the Responses input: an input_image part
  assert.equal(toResponsesInput(ChatMessage.fromUser(null, {}, null, [{ text: "I have a question" }, image])), [{ role: "user", content: [{ type: "input_text", text: "I have a question" }, { type: "input_image", image_url: `data:image/png;base64,${IMAGE}` }] }]);
});
test("test_convert_user_message_with_file_content", () => {
  const message = ChatMessage.fromUser(null, {}, null, [{ file: { base64_data: PDF, mime_type: "application/pdf", filename: "test.pdf" } }]);
  assert.equal(toResponsesInput(message), [{ role: "user", content: [{ type: "input_file", filename: "test.pdf", file_data: `data:application/pdf;base64,${PDF}` }] }]);
});
test("test_convert_user_message_with_file_content_no_filename", () => {
  const message = ChatMessage.fromUser(null, {}, null, [{ file: { base64_data: PDF, mime_type: "application/pdf" } }]);
  assert.equal(toResponsesInput(message), [{ role: "user", content: [{ type: "input_file", filename: "filename", file_data: `data:application/pdf;base64,${PDF}` }] }]);
});
test("test_convert_assistant_message", () => {
  assert.equal(toResponsesInput(ChatMessage.fromAssistant("I have an answer", { meta: { finish_reason: "stop" } })), [{ role: "assistant", content: "I have an answer" }]);
});
test("test_convert_assistant_message_w_tool_call", () => {
  const message = new ChatMessage("assistant", [
    { text: "I need to use the functions.weather tool." },
    { reasoning: { reasoning_text: "I need to use the functions.weather tool.", extra: { id: "rs_0d13efdd", type: "reasoning" } } },
    { tool_call: { tool_name: "weather", arguments: { location: "Berlin" }, id: "fc_0d13efdd", extra: { call_id: "call_a82vwFAIzku9SmBuQuecQSRq" } } },
  ], null, { id: "resp_0d13efdd97aa4", created_at: 1761148307.0, model: "gpt-5-mini-2025-08-07", object: "response", reasoning: { effort: "low", summary: "detailed" }, usage: { input_tokens: 59, output_tokens: 19, total_tokens: 78 }, store: true });
  const items = toResponsesInput(message);
  assert.equal(items, [
    { id: "rs_0d13efdd", type: "reasoning", summary: [{ text: "I need to use the functions.weather tool.", type: "summary_text" }] },
    { type: "function_call", name: "weather", arguments: '{"location": "Berlin"}', id: "fc_0d13efdd", call_id: "call_a82vwFAIzku9SmBuQuecQSRq" },
    { content: "I need to use the functions.weather tool.", role: "assistant" },
  ]);
});
test("test_convert_assistant_message_reasoning_strips_invalid_streaming_fields", () => {
  const message = new ChatMessage("assistant", [{ reasoning: { reasoning_text: "Let me think.", extra: { id: "rs_abc", type: "reasoning", encrypted_content: "enc123", status: "completed", item_id: "some_item", output_index: 0, summary_index: 1, event_id: "ev_xyz", sequence_number: 42 } } }]);
  assert.equal(toResponsesInput(message), [{ id: "rs_abc", type: "reasoning", encrypted_content: "enc123", status: "completed", summary: [{ text: "Let me think.", type: "summary_text" }] }]);
});
test("test_convert_tool_message", () => {
  const message = new ChatMessage("tool", [{ tool_call_result: { result: "result", origin: { id: "fc_0d13efdd", tool_name: "weather", arguments: { location: "Berlin" }, extra: { call_id: "call_a82vwFAIzku9SmBuQuecQSRq" } }, error: false } }]);
  assert.equal(toResponsesInput(message), [{ call_id: "call_a82vwFAIzku9SmBuQuecQSRq", output: [{ type: "input_text", text: "result" }], type: "function_call_output" }]);
});
const origin = { tool_name: "mytool", arguments: {}, id: "123", extra: { call_id: "call_a82vwFAIzku9SmBuQuecQSRq" } };
test("test_convert_tool_message_list_with_image", () => {
  const message = ChatMessage.fromTool([{ text: "first result" }, { image: { base64_image: IMAGE, mime_type: "image/png" } }], origin, false);
  assert.equal(toResponsesInput(message), [{ call_id: "call_a82vwFAIzku9SmBuQuecQSRq", output: [{ type: "input_text", text: "first result" }, { type: "input_image", image_url: `data:image/png;base64,${IMAGE}` }], type: "function_call_output" }]);
});
test("test_convert_tool_message_list_with_file", () => {
  const message = ChatMessage.fromTool([{ text: "first result" }, { file: { base64_data: PDF, mime_type: "application/pdf", filename: "guide.pdf" } }], origin, false);
  assert.equal(toResponsesInput(message), [{ call_id: "call_a82vwFAIzku9SmBuQuecQSRq", output: [{ type: "input_text", text: "first result" }, { type: "input_file", filename: "guide.pdf", file_data: `data:application/pdf;base64,${PDF}` }], type: "function_call_output" }]);
});
test("test_convert_invalid", () => {
  const isValueError = (e: Error) => e.name === "ValueError";
  assert.throws(() => toResponsesInput(new ChatMessage("assistant", [])), isValueError);
  const mixed = new ChatMessage("user", [{ text: "I have an answer" }, { tool_call_result: { result: "I have another answer", origin: { id: "123", tool_name: "mytool", arguments: { a: 1 } }, error: false } }]);
  assert.throws(() => toResponsesInput(mixed), isValueError);
});
test("test_convert_streaming_chunks_to_chat_message_preserves_encrypted_content", () => {
  const enc = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9...";
  const chunks = [
    new StreamingChunk({ meta: { received_at: "x" }, index: 0, start: true, reasoning: { reasoning_text: "", extra: { id: RS, type: "reasoning", encrypted_content: enc, status: "in_progress" } } }),
    new StreamingChunk({ meta: { received_at: "x", response: { id: RESP, created_at: 1761907188.0, model: "gpt-5-mini-2025-08-07", object: "response", output: [{ id: RS, type: "reasoning", encrypted_content: enc, status: "completed" }] }, sequence_number: 16, type: "response.completed" }, finish_reason: "stop" }),
  ];
  const message = messageFromResponseChunks(chunks, warn);
  assert.ok(message.reasoning);
  assert.is(message.reasoning!.reasoning_text, "");
  assert.equal([message.reasoning!.extra?.id, message.reasoning!.extra?.type, message.reasoning!.extra?.encrypted_content, message.reasoning!.extra?.status], [RS, "reasoning", enc, "in_progress"]);
});
test("test_encrypted_content_preserved_through_full_streaming_pipeline", () => {
  const ENCRYPTED = "eyJhbGciOiJIUzI1NiJ9.encrypted_reasoning";
  const chunks = convert([
    { item: { id: "rs_abc123", summary: [], type: "reasoning", status: "in_progress" }, output_index: 0, sequence_number: 0, type: "response.output_item.added" },
    { item: { id: "rs_abc123", summary: [], type: "reasoning", encrypted_content: ENCRYPTED, status: "completed" }, output_index: 0, sequence_number: 1, type: "response.output_item.done" },
  ]);
  assert.ok(chunks[1]!.reasoning, "the done event for a reasoning item carries the reasoning");
  assert.is(chunks[1]!.reasoning!.extra?.encrypted_content, ENCRYPTED);
  const message = messageFromResponseChunks(chunks, warn);
  assert.is(message.reasoning!.extra?.id, "rs_abc123");
  assert.is(message.reasoning!.extra?.encrypted_content, ENCRYPTED);
});

test("no malformed-arguments warnings in these cases", () => {
  assert.equal(warnings, []);
});

test.run();
