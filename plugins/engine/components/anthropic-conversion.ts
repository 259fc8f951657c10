/**
 * @module Conversions between Anthropic's Messages API and the engine's data classes, following
 * haystack-core-integrations' anthropic/chat/utils.py: ChatMessages → `system` blocks and
 * `messages` (tool results of consecutive tool messages merged into one user turn), a message →
 * an assistant ChatMessage (OpenAI-style usage), a stream event → a StreamingChunk, and the
 * reasoning (thinking blocks with their signatures) gathered from the chunks.
 */
import { ChatMessage, type ReasoningContent, type ToolCall } from "../dataclasses/chat-message.js";
import { StreamingChunk, type ComponentInfo, type FinishReason, type ToolCallDelta } from "../dataclasses/streaming-chunk.js";

export const FINISH_REASON_MAPPING: Record<string, FinishReason> = {
  end_turn: "stop",
  stop_sequence: "stop",
  max_tokens: "length",
  refusal: "content_filter",
  pause_turn: "stop",
  tool_use: "tool_calls",
};

type Block = Record<string, any>;
export interface AnthropicMessage {
  role: "user" | "assistant";
  content: Block[];
}

const needsId = (id: string | null | undefined): string => {
  if (!id) throw new Error("`ToolCall` must have a non-null `id` attribute to be used with Anthropic.");
  return id;
};

/** `[system blocks, messages]` for a request (_convert_messages_to_anthropic_format). */
export function toAnthropicMessages(messages: readonly ChatMessage[]): [Block[], AnthropicMessage[]] {
  const system: Block[] = [];
  const out: AnthropicMessage[] = [];
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i]!;
    const cache = message.meta.cache_control as Record<string, unknown> | undefined;
    const withCache = (block: Block) => (cache ? { ...block, cache_control: cache } : block);
    if (message.role === "system" && message.text) {
      system.push(withCache({ type: "text", text: message.text }));
      continue;
    }
    const raw = message.role === "assistant" ? (message.meta.raw_content_for_server_tools as Block[] | undefined) : undefined;
    if (raw?.length) {
      out.push({ role: "assistant", content: structuredClone(raw) });
      continue;
    }
    const content: Block[] = [];
    for (const part of message.content) {
      if ("text" in part && part.text) content.push(withCache({ type: "text", text: part.text }));
      if ("reasoning" in part) {
        for (const item of (part.reasoning.extra?.reasoning_contents as { reasoning_content: Block }[] | undefined) ?? []) {
          const rc = item.reasoning_content ?? {};
          if (rc.redacted_thinking) content.push({ type: "redacted_thinking", data: String(rc.redacted_thinking) });
          else if (rc.reasoning_text) content.push({ type: "thinking", thinking: rc.reasoning_text.text, signature: rc.reasoning_text.signature });
        }
      }
    }
    for (const call of message.toolCalls) content.push(withCache({ type: "tool_use", id: needsId(call.id), name: call.tool_name, input: call.arguments }));
    if (message.toolCallResults.length) {
      const results = [...message.toolCallResults];
      while (i + 1 < messages.length && messages[i + 1]!.toolCallResults.length) results.push(...messages[++i]!.toolCallResults);
      for (const r of results) content.push(withCache({ type: "tool_result", tool_use_id: needsId(r.origin.id), content: [{ type: "text", text: r.result }], is_error: r.error }));
    }
    if (!content.length) throw new Error("A `ChatMessage` must contain at least one `TextContent`, `ImageContent`, `ToolCall`, or `ToolCallResult`.");
    out.push({ role: message.role === "assistant" ? "assistant" : "user", content });
  }
  return [system, out];
}

/** Anthropic's usage with OpenAI's names added (prompt tokens include cached ones, as OpenAI counts them). */
export function openAICompatibleUsage(raw: Record<string, any> | null | undefined): Record<string, unknown> {
  const usage: Record<string, any> = { ...(raw ?? {}) };
  if ("input_tokens" in usage) {
    const input = usage.input_tokens ?? 0;
    delete usage.input_tokens;
    usage.prompt_tokens = input + (usage.cache_read_input_tokens ?? 0) + (usage.cache_creation_input_tokens ?? 0);
  }
  if ("output_tokens" in usage) {
    usage.completion_tokens = usage.output_tokens;
    delete usage.output_tokens;
  }
  return usage;
}

const SERVER_BLOCKS = (b: Block) => b?.type === "server_tool_use" || (typeof b?.type === "string" && b.type.endsWith("_tool_result"));

function reasoningFrom(contents: { reasoning_content: Block }[]): ReasoningContent {
  const text = contents.map((c) => (c.reasoning_content.reasoning_text ? c.reasoning_content.reasoning_text.text : "[REDACTED]")).join("");
  return { reasoning_text: text, extra: { reasoning_contents: contents } };
}

/** A complete (non-streamed) message → an assistant ChatMessage (_convert_chat_completion_to_chat_message). */
export function messageFromAnthropic(response: Block, ignoreToolsThinking: boolean): ChatMessage {
  const blocks: Block[] = response.content ?? [];
  const toolCalls: ToolCall[] = blocks.filter((b) => b.type === "tool_use").map((b) => ({ tool_name: b.name, arguments: b.input ?? {}, id: b.id }));
  const reasoning: { reasoning_content: Block }[] = [];
  for (const b of blocks) {
    if (b.type === "thinking") reasoning.push({ reasoning_content: { reasoning_text: { text: b.thinking, signature: b.signature } } });
    if (b.type === "redacted_thinking") reasoning.push({ reasoning_content: { redacted_thinking: b.data } });
  }
  const text = ignoreToolsThinking && toolCalls.length ? "" : blocks.filter((b) => b.type === "text").map((b) => b.text).join(" ");
  const meta: Record<string, unknown> = {
    model: response.model ?? null,
    index: 0,
    finish_reason: FINISH_REASON_MAPPING[response.stop_reason ?? ""] ?? null,
    usage: openAICompatibleUsage(response.usage),
  };
  if (blocks.some(SERVER_BLOCKS)) meta.raw_content_for_server_tools = blocks;
  const citations = blocks.flatMap((b) => (b.type === "text" && Array.isArray(b.citations) ? b.citations : []));
  if (citations.length) meta.citations = citations;
  // Haystack always attaches a ReasoningContent here, empty when the model did not think.
  return ChatMessage.fromAssistant(text, { toolCalls, meta, reasoning: reasoningFrom(reasoning) });
}

/** One stream event → a StreamingChunk (_convert_anthropic_chunk_to_streaming_chunk). */
export function chunkFromAnthropic(event: Block, componentInfo: ComponentInfo, toolCallIndex: number, inServerToolBlock: boolean): StreamingChunk {
  let content = "";
  const toolCalls: ToolCallDelta[] = [];
  let reasoning: ReasoningContent | null = null;
  let start = false;
  let finish: FinishReason | null = null;
  const index = typeof event.index === "number" ? event.index : null;
  if (event.type === "message_start") start = true;
  if (event.type === "content_block_start") {
    start = true;
    const block = event.content_block ?? {};
    if (block.type === "tool_use") toolCalls.push({ index: toolCallIndex, id: block.id, tool_name: block.name });
    else if (block.type === "thinking") reasoning = { reasoning_text: "", extra: {} };
    else if (block.type === "redacted_thinking") reasoning = { reasoning_text: "", extra: { redacted_thinking: block.data ?? "" } };
  } else if (event.type === "content_block_delta") {
    const delta = event.delta ?? {};
    if (delta.type === "text_delta") content = delta.text;
    else if (delta.type === "input_json_delta" && !inServerToolBlock) toolCalls.push({ index: toolCallIndex, arguments: delta.partial_json });
    else if (delta.type === "thinking_delta") reasoning = { reasoning_text: delta.thinking, extra: {} };
    else if (delta.type === "signature_delta") reasoning = { reasoning_text: "", extra: { signature: delta.signature } };
  } else if (event.type === "message_delta") {
    finish = FINISH_REASON_MAPPING[event.delta?.stop_reason ?? ""] ?? null;
  }
  return new StreamingChunk({ content, index, component_info: componentInfo, start, finish_reason: finish, tool_calls: toolCalls.length ? toolCalls : null, reasoning, meta: structuredClone(event) });
}

/** The thinking blocks of a streamed reply, each with its signature (_process_reasoning_contents). */
export function reasoningFromChunks(chunks: readonly StreamingChunk[]): ReasoningContent | null {
  const groups: { reasoning_content: Block }[] = [];
  let current: number | null = null;
  let text = "";
  let signature: string | null = null;
  let redacted: string | null = null;
  const finalize = () => {
    if (text) groups.push({ reasoning_content: { reasoning_text: { text, signature } } });
    if (redacted) groups.push({ reasoning_content: { redacted_thinking: redacted } });
  };
  for (const chunk of chunks) {
    const r = chunk.reasoning;
    if (!r) continue;
    const extra = (r.extra ?? {}) as Record<string, any>;
    if (!r.reasoning_text && extra.redacted_thinking == null) {
      if (extra.signature != null) signature = extra.signature;
      continue;
    }
    if (current !== null && chunk.index !== current) {
      finalize();
      [text, signature, redacted] = ["", null, null];
    }
    current = chunk.index;
    text += r.reasoning_text;
    if (extra.signature != null) signature = extra.signature;
    if (extra.redacted_thinking != null) redacted = extra.redacted_thinking;
  }
  if (current !== null) finalize();
  return groups.length ? reasoningFrom(groups) : null;
}
