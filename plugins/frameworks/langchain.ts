/**
 * @module LangChain.js and LangGraph.js stream items, recognised by shape (`@langchain/*` is never
 * imported). A message is an object whose `lc_namespace` names `messages`; from it come text
 * (string content or text parts), reasoning (`reasoning`/`thinking` parts or
 * `additional_kwargs.reasoning_content`), tool calls (`tool_call_chunks` fragments, else whole
 * `tool_calls`), `usage_metadata` and `response_metadata.finish_reason`; a tool message closes its
 * call. The items read are: a message chunk (`model.stream()`), a `[message, metadata]` pair
 * (`graph.stream(…, {streamMode: "messages"})`), a node → update record (`streamMode: "updates"`),
 * a `[mode, payload]` pair (several modes), and `streamEvents()` records (`on_chat_model_stream`,
 * `on_tool_end`). Anything else is not LangChain's and is passed on as it is.
 */
import { ChunkWriter, finishReasonOf, type AgentItem, type ChunkWriterOptions, type FinishReason } from "./chunk-writer.js";

type Obj = Record<string, any>;
const isObject = (value: unknown): value is Obj => value !== null && typeof value === "object";

const GRAPH_MODES = new Set(["messages", "updates", "values", "custom", "debug", "tasks", "checkpoints"]);

/** A LangChain message or message chunk (any version: `type`, or the older `_getType()`). */
export function isLangChainMessage(value: unknown): value is Obj {
  return isObject(value) && Array.isArray(value.lc_namespace) && value.lc_namespace.includes("messages") && messageType(value) !== undefined;
}

function messageType(message: Obj): string | undefined {
  const type = typeof message.type === "string" ? message.type : typeof message._getType === "function" ? message._getType() : undefined;
  if (typeof type !== "string") return undefined;
  // Chunk classes may report `AIMessageChunk`; the kind is what counts.
  return type.replace(/MessageChunk$|Message$/, "").toLowerCase();
}

/** A `[message, metadata]` pair of LangGraph's messages mode. */
function isMessagePair(value: unknown): value is [Obj, Obj] {
  return Array.isArray(value) && value.length === 2 && isLangChainMessage(value[0]) && isObject(value[1]) && !Array.isArray(value[1]);
}

/** `{node: {messages: [...]}}`: LangGraph's updates mode (at least one node update with messages). */
function updateMessages(value: unknown): Obj[] | undefined {
  if (!isObject(value) || Array.isArray(value) || isLangChainMessage(value)) return undefined;
  let messages: Obj[] | undefined;
  for (const update of Object.values(value)) {
    if (!isObject(update) || Array.isArray(update)) continue;
    const list = Array.isArray(update.messages) ? update.messages : isLangChainMessage(update.messages) ? [update.messages] : [];
    for (const m of list) if (isLangChainMessage(m)) (messages ??= []).push(m);
  }
  return messages;
}

/** A `streamEvents()` record: `{event: "on_…", data, name, run_id}`. */
function isStreamEvent(value: unknown): value is Obj {
  return isObject(value) && typeof value.event === "string" && value.event.startsWith("on_") && isObject(value.data) && "run_id" in value;
}

export class LangChainReader {
  private readonly writer: ChunkWriter;
  private finishReason?: FinishReason;
  /** Tool-call chunk index → the call key it continues, per message. */
  private readonly fragments = new Map<string, string>();
  private calls = 0;
  /** Messages mode already gives every message: updates would repeat them. */
  private sawMessages = false;
  /** Some item was LangChain's: the stream ends with a finish chunk. */
  used = false;

  constructor(options: ChunkWriterOptions) {
    this.writer = new ChunkWriter(options);
  }

  /** The chunks one stream item becomes; undefined when it is not LangChain's. */
  read(item: unknown): AgentItem[] | undefined {
    const chunks = this.readItem(item);
    if (chunks) this.used = true;
    return chunks;
  }

  private readItem(item: unknown): AgentItem[] | undefined {
    if (!isObject(item)) return undefined;
    if (Array.isArray(item)) {
      if (isMessagePair(item)) {
        this.sawMessages = true;
        return this.message(item[0]);
      }
      if (item.length === 2 && typeof item[0] === "string" && GRAPH_MODES.has(item[0])) {
        if (item[0] === "messages") return this.readItem(item[1]) ?? [];
        if (item[0] === "updates" && !this.sawMessages) return this.updates(updateMessages(item[1]) ?? []);
        return []; // values, custom, debug…: nothing a chat answer shows
      }
      return undefined;
    }
    if (isLangChainMessage(item)) return this.message(item);
    if (isStreamEvent(item)) return this.streamEvent(item);
    const updates = updateMessages(item);
    return updates ? this.updates(updates) : undefined;
  }

  end(): AgentItem[] {
    return [this.writer.finish(this.finishReason)];
  }

  private streamEvent(record: Obj): AgentItem[] {
    if (record.event === "on_chat_model_stream" && isLangChainMessage(record.data.chunk)) return this.message(record.data.chunk);
    if (record.event === "on_tool_end") {
      const output = record.data.output;
      if (isLangChainMessage(output)) return this.message(output);
      return this.writer.callResult(String(record.run_id), record.name, record.data.input, output, false);
    }
    if (record.event === "on_tool_error") return this.writer.callResult(String(record.run_id), record.name, record.data.input, String(record.data.error), true);
    return [];
  }

  /** Updates carry whole messages: an AI message's text and calls, a tool message's result. */
  private updates(messages: Obj[]): AgentItem[] {
    return messages.flatMap((m) => (messageType(m) === "ai" || messageType(m) === "tool" ? this.message(m) : []));
  }

  private message(message: Obj): AgentItem[] {
    const type = messageType(message);
    if (type === "tool") {
      const error = message.status === "error";
      return this.writer.callResult(`id:${message.tool_call_id ?? ""}`, message.name, undefined, textOf(message.content), error);
    }
    if (type !== "ai") return [];
    const items: AgentItem[] = [];
    const kwargs = isObject(message.additional_kwargs) ? message.additional_kwargs : {};
    if (typeof kwargs.reasoning_content === "string") items.push(...this.writer.reasoning(kwargs.reasoning_content));
    if (typeof message.content === "string") items.push(...this.writer.text(message.content));
    else if (Array.isArray(message.content)) {
      for (const part of message.content) {
        if (!isObject(part)) continue;
        if (part.type === "text" && typeof part.text === "string") items.push(...this.writer.text(part.text));
        else if (part.type === "reasoning" && typeof part.reasoning === "string") items.push(...this.writer.reasoning(part.reasoning));
        else if (part.type === "thinking" && typeof part.thinking === "string") items.push(...this.writer.reasoning(part.thinking));
      }
    }
    items.push(...this.toolCalls(message));
    const usage = message.usage_metadata;
    if (isObject(usage)) {
      this.writer.addUsage({
        input: usage.input_tokens,
        output: usage.output_tokens,
        total: usage.total_tokens,
        cached: usage.input_token_details?.cache_read,
        reasoning: usage.output_token_details?.reasoning,
      });
    }
    const finish = finishReasonOf(message.response_metadata?.finish_reason ?? message.response_metadata?.stop_reason);
    if (finish) this.finishReason = finish;
    return items;
  }

  /** Streamed `tool_call_chunks` (a fragment without id or name continues its index), else whole `tool_calls`. */
  private toolCalls(message: Obj): AgentItem[] {
    const items: AgentItem[] = [];
    const chunks = Array.isArray(message.tool_call_chunks) ? message.tool_call_chunks : [];
    if (chunks.length > 0) {
      for (const chunk of chunks) {
        if (!isObject(chunk)) continue;
        const slot = `${message.id ?? ""}:${chunk.index ?? 0}`;
        let key = this.fragments.get(slot);
        const args = typeof chunk.args === "string" ? chunk.args : "";
        if ((chunk.id || chunk.name) && (!key || (chunk.id && key !== `id:${chunk.id}`))) {
          key = chunk.id ? `id:${chunk.id}` : `call:${this.calls++}`;
          this.fragments.set(slot, key);
          items.push(...this.writer.callStart(key, chunk.id || undefined, chunk.name ?? "", args));
        } else if (key) items.push(...this.writer.callArguments(key, args));
      }
      return items;
    }
    for (const call of Array.isArray(message.tool_calls) ? message.tool_calls : []) {
      if (!isObject(call)) continue;
      const key = call.id ? `id:${call.id}` : `call:${this.calls++}`;
      items.push(...this.writer.call(key, call.id || undefined, String(call.name ?? ""), call.args));
    }
    return items;
  }
}

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return content == null ? "" : JSON.stringify(content);
  return content.map((part) => (isObject(part) && typeof part.text === "string" ? part.text : "")).join("");
}
