/**
 * @module Conversions between OpenAI's Responses API and the engine's data classes, following
 * Haystack's openai_responses.py: ChatMessages → `input` items (function calls and their outputs
 * by `call_id`, reasoning items sent back), a Response → an assistant ChatMessage (the response
 * as meta), a stream event → a StreamingChunk, and the chunks → the final reply.
 */
import { ChatMessage, type ContentPart, type ReasoningContent, type ToolCall } from "../dataclasses/chat-message.js";
import { pythonJsonDumps } from "../dataclasses/openai-dict-format.js";
import { ValueError } from "../pipeline/errors.js";
import { StreamingChunk, type ComponentInfo } from "../dataclasses/streaming-chunk.js";
import type { Warn } from "./openai-conversion.js";

type Item = Record<string, any>;

const malformed = (warn: Warn, id: unknown, name: unknown, args: unknown) =>
  warn(`The LLM provider returned a malformed JSON string for tool call arguments. This tool call will be skipped. To always generate a valid JSON, set \`tools_strict\` to \`True\`. Tool call ID: ${id}, Tool name: ${name}, Arguments: ${args}`);

/** A user part or a tool-result part as a Responses input part (`convert_part`). */
function inputPart(part: ContentPart | string): Item {
  if (typeof part === "string") return { type: "input_text", text: part };
  if ("text" in part) return { type: "input_text", text: part.text };
  // Without a MIME type, JPEG (OpenAI tolerates a mismatch); without a filename OpenAI wants a file_id, so a dummy one.
  if ("image" in part) return { type: "input_image", image_url: `data:${part.image.mime_type || "image/jpeg"};base64,${part.image.base64_image}` };
  if ("file" in part) return { type: "input_file", filename: part.file.filename || "filename", file_data: `data:${part.file.mime_type || "application/pdf"};base64,${part.file.base64_data}` };
  throw new ValueError(`Unsupported content type: ${Object.keys(part)[0]}`);
}

/** Haystack's `tc.extra.get("call_id") if tc.extra else ""`. */
const callIdOf = (call: ToolCall) => (call.extra && Object.keys(call.extra).length ? ((call.extra.call_id as string | undefined) ?? null) : "");

/** One ChatMessage as Responses `input` items (_convert_chat_message_to_responses_api_format). */
export function toResponsesInput(message: ChatMessage): Item[] {
  if (!message.content.length) throw new ValueError("A `ChatMessage` must contain at least one `TextContent`, `ToolCall`, `ToolCallResult`, `ImageContent`, `FileContent`, or `ReasoningContent`.");
  const results = message.toolCallResults;
  if (results.length && message.content.length > 1) throw new ValueError("For OpenAI compatibility, a `ChatMessage` with a `ToolCallResult` cannot contain any other content.");
  const msg: Item = { role: message.role };
  if (message.name !== null) msg.name = message.name;
  if (message.role === "user") {
    msg.content = message.content.map((p) => inputPart(p));
    return [msg];
  }
  const out: Item[] = [];
  for (const r of results) {
    if (r.origin.id === null || r.origin.id === undefined) continue;
    const result = r.result as unknown;
    let output: Item[];
    if (Array.isArray(result)) output = (result as (ContentPart | string)[]).map(inputPart);
    else if (typeof result === "string") output = [{ type: "input_text", text: result }];
    else throw new ValueError(`Unsupported tool result: ${String(result)}`);
    out.push({ type: "function_call_output", call_id: callIdOf(r.origin), output });
  }
  // Streaming events leave fields such as item_id or sequence_number in `extra`; the API refuses them as input.
  for (const reasoning of message.reasonings) {
    const extra = Object.fromEntries(Object.entries(reasoning.extra ?? {}).filter(([k]) => ["id", "type", "encrypted_content", "status", "content"].includes(k)));
    out.push({ summary: [], ...extra, ...(reasoning.reasoning_text ? { summary: [{ text: reasoning.reasoning_text, type: "summary_text" }] } : {}) });
  }
  for (const tc of message.toolCalls) out.push({ type: "function_call", name: tc.tool_name, arguments: pythonJsonDumps(tc.arguments), id: tc.id, call_id: callIdOf(tc) });
  if (message.texts.length) out.push({ ...msg, content: message.texts.join(" ") });
  return out;
}

/** A complete Response → an assistant ChatMessage (_convert_response_to_chat_message). */
export function messageFromResponse(response: Item, warn: Warn): ChatMessage {
  const toolCalls: ToolCall[] = [];
  let reasoning: ReasoningContent | undefined;
  const logprobs: unknown[] = [];
  for (const item of (response.output ?? []) as Item[]) {
    if (item.type === "message") for (const c of item.content ?? []) if (c.logprobs !== undefined && c.logprobs !== null) logprobs.push(c.logprobs);
    if (item.type === "reasoning") {
      const { summary, ...extra } = item;
      reasoning = { reasoning_text: ((summary ?? []) as Item[]).map((s) => s.text).join("\n"), extra };
    } else if (item.type === "function_call") {
      try {
        toolCalls.push({ id: item.id, tool_name: item.name, arguments: JSON.parse(item.arguments), extra: { call_id: item.call_id } });
      } catch {
        malformed(warn, item.id, item.name, item.arguments);
      }
    }
  }
  const { output: _output, output_text: outputText, ...meta } = response;
  if (logprobs.length) meta.logprobs = logprobs;
  const text = typeof outputText === "string" && outputText ? outputText : textOf(response) || null;
  return ChatMessage.fromAssistant(text, { toolCalls, meta, ...(reasoning ? { reasoning } : {}) });
}

/** The output text of a Response (what the Python SDK's `output_text` computes). */
function textOf(response: Item): string {
  return ((response.output ?? []) as Item[]).filter((o) => o.type === "message").flatMap((o) => (o.content ?? []) as Item[]).filter((c) => c.type === "output_text").map((c) => c.text).join("");
}

/** One stream event → a StreamingChunk (_convert_response_chunk_to_streaming_chunk). */
export function chunkFromResponseEvent(event: Item, previous: readonly StreamingChunk[], info: ComponentInfo): StreamingChunk {
  const received_at = new Date().toISOString();
  const base = { component_info: info };
  const { delta, ...withoutDelta } = event;
  switch (event.type) {
    case "response.output_item.added":
      if (event.item?.type === "reasoning") return new StreamingChunk({ ...base, index: event.output_index, reasoning: { reasoning_text: "", extra: event.item }, start: true, meta: { received_at } });
      if (event.item?.type === "function_call") return new StreamingChunk({ ...base, index: event.output_index, tool_calls: [{ index: event.output_index, id: event.item.id, tool_name: event.item.name, extra: event.item }], start: true, meta: { received_at } });
      break;
    case "response.output_item.done":
      if (event.item?.type === "reasoning") return new StreamingChunk({ ...base, index: event.output_index, reasoning: { reasoning_text: "", extra: event.item }, meta: { received_at } });
      break;
    case "response.completed":
      return new StreamingChunk({ ...base, finish_reason: ((event.response?.output ?? []) as Item[]).some((o) => o.type === "function_call") ? "tool_calls" : "stop", meta: { ...event, received_at } });
    case "response.output_text.delta": {
      const same = previous.filter((c) => c.index === event.output_index);
      return new StreamingChunk({ ...base, content: delta, index: event.output_index, start: same.length === 0 || same.every((c) => c.content === ""), meta: { ...event, received_at } });
    }
    case "response.reasoning_summary_text.delta":
      return new StreamingChunk({ ...base, index: event.output_index, reasoning: { reasoning_text: delta, extra: withoutDelta }, meta: { received_at } });
    case "response.function_call_arguments.delta":
      return new StreamingChunk({ ...base, index: event.output_index, tool_calls: [{ index: event.output_index, id: event.item_id, arguments: delta, extra: withoutDelta }], meta: { received_at } });
  }
  return new StreamingChunk({ ...base, index: typeof event.output_index === "number" ? event.output_index : null, meta: { ...event, received_at } });
}

/** The streamed reply rebuilt from its chunks (_convert_streaming_chunks_to_chat_message). */
export function messageFromResponseChunks(chunks: readonly StreamingChunk[], warn: Warn): ChatMessage {
  const text = chunks.map((c) => c.content).join("");
  // Python's `if chunk.meta.get("logprobs")`: the empty list every delta carries when logprobs were not asked for is falsy.
  const logprobs = chunks.filter((c) => (Array.isArray(c.meta.logprobs) ? c.meta.logprobs.length : c.meta.logprobs)).map((c) => c.meta.logprobs);
  let reasoningId: unknown = null;
  let reasoningText = "";
  for (const c of chunks) {
    if (!c.reasoning) continue;
    reasoningText += c.reasoning.reasoning_text;
    if (c.reasoning.extra?.id) reasoningId = c.reasoning.extra.id;
  }
  const calls = new Map<string, { name: string; args: string; extra?: Record<string, unknown> }>();
  for (const c of chunks) {
    for (const d of c.tool_calls ?? []) {
      const id = String(d.id);
      const call = calls.get(id) ?? { name: "", args: "" };
      calls.set(id, call);
      if (d.arguments) call.args += d.arguments;
      if (d.tool_name) call.name = d.tool_name;
      if (d.extra && "call_id" in d.extra) call.extra = { call_id: d.extra.call_id };
    }
  }
  const toolCalls: ToolCall[] = [];
  for (const id of [...calls.keys()].sort()) {
    const call = calls.get(id)!;
    try {
      toolCalls.push({ id, tool_name: call.name, arguments: call.args ? JSON.parse(call.args) : {}, extra: call.extra ?? {} });
    } catch {
      malformed(warn, id, call.name, call.args);
    }
  }
  const { output: _output, ...meta } = ((chunks.at(-1)?.meta.response as Item | undefined) ?? {}) as Item;
  if (logprobs.length) meta.logprobs = logprobs;
  let reasoning: ReasoningContent | undefined;
  if (reasoningId) {
    const extra: Record<string, unknown> = {};
    for (const c of chunks) if (c.reasoning?.extra) Object.assign(extra, c.reasoning.extra);
    extra.id ??= reasoningId;
    extra.type ??= "reasoning";
    reasoning = { reasoning_text: reasoningText, extra };
  }
  return ChatMessage.fromAssistant(text || null, { toolCalls, meta, ...(reasoning ? { reasoning } : {}) });
}
