/**
 * @module What a chat wrapper yields, as chat completion chunks. Each item is classified in this
 * order: a ready `chat.completion.chunk` (sent verbatim); an Open WebUI event (`{event: {type,
 * data}}`, an object with `toEventDict()`, or a bare `{type, data}`); reasoning; tool-call deltas;
 * anything else as text (a string, an object's `content`, else its JSON). Usage comes from the
 * item's `usage` or `meta.usage`.
 */
import { randomUUID } from "node:crypto";
import { streamItemText } from "svc/plugin";

/** Chat deltas never meet a UI event here (it is handled before), so nothing is warned about. */
const ignore = (): void => undefined;

export type Usage = { prompt_tokens: number; completion_tokens: number; total_tokens: number; [detail: string]: unknown };

export interface ToolCallChunkDelta {
  index: number;
  id?: string;
  type: "function";
  function: { name?: string; arguments?: string };
}

export interface ChunkDelta {
  role?: "assistant";
  content?: string | null;
  reasoning_content?: string;
  tool_calls?: ToolCallChunkDelta[];
}

export interface ChatCompletionChunk {
  id: string;
  object: "chat.completion.chunk";
  created: number;
  model: string;
  system_fingerprint: null;
  choices: { index: number; delta: ChunkDelta; logprobs: null; finish_reason: string | null }[];
  usage: Usage | null;
}

/** An item of the chat stream: a chunk or an Open WebUI event. */
export type ChatStreamItem = ChatCompletionChunk | { event: { type: string; data: unknown } };

/** The finish reasons OpenAI clients know; engine-internal ones (`tool_call_results`) are dropped. */
const FINISH_REASONS = new Set(["stop", "length", "tool_calls", "content_filter", "function_call"]);

type Obj = Record<string, any>;
const isObject = (value: unknown): value is Obj => value !== null && typeof value === "object";

export function isChatCompletion(value: unknown): value is Obj {
  return isObject(value) && value.object === "chat.completion" && Array.isArray(value.choices);
}

export function isChatCompletionChunk(value: unknown): value is ChatCompletionChunk {
  return isObject(value) && value.object === "chat.completion.chunk" && Array.isArray(value.choices);
}

/** The `{type, data}` of an Open WebUI event item, or undefined. */
export function eventOf(item: unknown): { type: string; data: unknown } | undefined {
  if (!isObject(item)) return undefined;
  if (isObject(item.event) && typeof item.event.type === "string") return item.event as { type: string; data: unknown };
  if (typeof item.toEventDict === "function") {
    const dict = item.toEventDict();
    if (isObject(dict) && typeof dict.type === "string") return dict as { type: string; data: unknown };
  }
  const keys = Object.keys(item);
  if (keys.length === 2 && typeof item.type === "string" && "data" in item) return item as { type: string; data: unknown };
  return undefined;
}

/** Token usage as integers, from `usage` or `meta.usage`; null when the item has none. */
export function usageOf(item: unknown): Usage | null {
  if (!isObject(item)) return null;
  const raw = isObject(item.usage) ? item.usage : isObject(item.meta) && isObject(item.meta.usage) ? item.meta.usage : undefined;
  if (!raw) return null;
  const int = (n: unknown) => (typeof n === "number" && Number.isFinite(n) ? Math.max(0, Math.round(n)) : 0);
  const prompt = int(raw.prompt_tokens ?? raw.input_tokens);
  const completion = int(raw.completion_tokens ?? raw.output_tokens);
  const usage: Usage = { prompt_tokens: prompt, completion_tokens: completion, total_tokens: int(raw.total_tokens) || prompt + completion };
  for (const key of ["prompt_tokens_details", "completion_tokens_details"]) if (isObject(raw[key])) usage[key] = raw[key];
  return usage;
}

export function addUsage(total: Usage | null, more: Usage | null): Usage | null {
  if (!more) return total;
  if (!total) return { prompt_tokens: more.prompt_tokens, completion_tokens: more.completion_tokens, total_tokens: more.total_tokens };
  return {
    prompt_tokens: total.prompt_tokens + more.prompt_tokens,
    completion_tokens: total.completion_tokens + more.completion_tokens,
    total_tokens: total.total_tokens + more.total_tokens,
  };
}

function reasoningOf(item: unknown): string | undefined {
  if (!isObject(item)) return undefined;
  const r = item.reasoning;
  const text = typeof r === "string" ? r : isObject(r) && typeof r.reasoning_text === "string" ? r.reasoning_text : item.reasoning_content;
  return typeof text === "string" && text !== "" ? text : undefined;
}

function toolCallsOf(item: unknown): ToolCallChunkDelta[] | undefined {
  if (!isObject(item) || !Array.isArray(item.tool_calls) || item.tool_calls.length === 0) return undefined;
  return item.tool_calls.map((d: Obj, i: number) => {
    const fn = isObject(d.function) ? d.function : { name: d.tool_name, arguments: d.arguments };
    const out: ToolCallChunkDelta = { index: typeof d.index === "number" ? d.index : i, type: "function", function: {} };
    if (d.id != null) out.id = String(d.id);
    if (fn.name != null) out.function.name = String(fn.name);
    if (fn.arguments != null) out.function.arguments = typeof fn.arguments === "string" ? fn.arguments : JSON.stringify(fn.arguments);
    return out;
  });
}

function finishOf(item: unknown): string | null {
  const reason = isObject(item) ? item.finish_reason : undefined;
  return typeof reason === "string" && FINISH_REASONS.has(reason) ? reason : null;
}

/** Builds the chunks of one response: one id, one `created`, the role in the first delta. */
export class ChunkBuilder {
  readonly id: string;
  readonly created = Math.floor(Date.now() / 1000);
  private roleSent = false;
  /** The source gave a finish reason: no closing chunk is added. */
  finished = false;

  constructor(readonly model: string) {
    this.id = `${model}-${randomUUID()}`;
  }

  chunk(delta: ChunkDelta, finishReason: string | null = null, usage: Usage | null = null): ChatCompletionChunk {
    if (!this.roleSent) {
      delta = { role: "assistant", ...delta };
      this.roleSent = true;
    }
    if (finishReason) this.finished = true;
    return {
      id: this.id,
      object: "chat.completion.chunk",
      created: this.created,
      model: this.model,
      system_fingerprint: null,
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
      usage,
    };
  }

  /** Usage alone, after the content (OpenAI's `include_usage` shape: no choices). */
  usageChunk(usage: Usage): ChatCompletionChunk {
    return { id: this.id, object: "chat.completion.chunk", created: this.created, model: this.model, system_fingerprint: null, choices: [], usage };
  }

  /** The closing chunk, when the source gave no finish reason. */
  final(): ChatCompletionChunk {
    return this.chunk({ content: "" }, "stop");
  }

  /**
   * The chunk an item becomes, or undefined: `events: false` drops UI events, and empty text without
   * a finish reason or usage (an engine chunk that only carried a tool result, say) sends nothing.
   */
  fromItem(item: unknown, events: boolean): ChatStreamItem | undefined {
    if (typeof item === "string") return item === "" ? undefined : this.chunk({ content: item });
    if (isChatCompletionChunk(item)) {
      if (item.choices.some((c) => c?.finish_reason)) this.finished = true;
      if (item.choices.length) this.roleSent = true;
      return item;
    }
    const event = eventOf(item);
    if (event) return events ? { event } : undefined;
    const usage = usageOf(item);
    const finish = finishOf(item);
    const reasoning = reasoningOf(item);
    const toolCalls = toolCallsOf(item);
    if (reasoning !== undefined || toolCalls) {
      const delta: ChunkDelta = { content: null };
      if (reasoning !== undefined) delta.reasoning_content = reasoning;
      if (toolCalls) delta.tool_calls = toolCalls;
      const content = isObject(item) && typeof item.content === "string" && item.content !== "" ? item.content : undefined;
      if (content !== undefined) delta.content = content;
      return this.chunk(delta, finish, usage);
    }
    const text = streamItemText(item, ignore)?.toString() ?? "";
    if (text === "" && !finish) return usage ? this.usageChunk(usage) : undefined;
    return this.chunk({ content: text }, finish, usage);
  }

  /** A whole ChatCompletion as one chunk (a wrapper returned one to a streaming request). */
  fromCompletion(completion: Obj): ChatCompletionChunk {
    const choice = isObject(completion.choices?.[0]) ? completion.choices[0] : {};
    const message = isObject(choice.message) ? choice.message : {};
    const delta: ChunkDelta = { content: typeof message.content === "string" ? message.content : null };
    if (typeof message.reasoning_content === "string") delta.reasoning_content = message.reasoning_content;
    const calls = toolCallsOf(message);
    if (calls) delta.tool_calls = calls;
    return this.chunk(delta, typeof choice.finish_reason === "string" ? choice.finish_reason : "stop", usageOf(completion));
  }
}

/**
 * The assistant message a drained stream adds up to: its text, reasoning, tool calls (fragments
 * joined by index) and the last finish reason.
 */
export class MessageAccumulator {
  content = "";
  private reasoning = "";
  private readonly calls = new Map<number, { id: string; type: "function"; function: { name: string; arguments: string } }>();
  private finishReason: string | null = null;
  usage: Usage | null = null;

  add(chunk: ChatCompletionChunk): void {
    this.usage = addUsage(this.usage, chunk.usage);
    const choice = chunk.choices[0];
    if (!choice) return;
    if (choice.finish_reason) this.finishReason = choice.finish_reason;
    const delta = choice.delta;
    if (typeof delta?.content === "string") this.content += delta.content;
    if (typeof delta?.reasoning_content === "string") this.reasoning += delta.reasoning_content;
    for (const d of delta?.tool_calls ?? []) {
      let call = this.calls.get(d.index);
      if (!call) this.calls.set(d.index, (call = { id: d.id ?? `call_${randomUUID().replace(/-/g, "").slice(0, 24)}`, type: "function", function: { name: "", arguments: "" } }));
      if (d.id) call.id = d.id;
      if (d.function.name) call.function.name = d.function.name;
      if (d.function.arguments) call.function.arguments += d.function.arguments;
    }
  }

  /** The non-streaming body (SPEC §2.7): zeros when the usage is unknown. */
  body(builder: ChunkBuilder): Obj {
    const message: Obj = { role: "assistant", content: this.content };
    if (this.reasoning) message.reasoning_content = this.reasoning;
    if (this.calls.size > 0) message.tool_calls = [...this.calls.values()];
    return {
      id: builder.id,
      object: "chat.completion",
      created: builder.created,
      model: builder.model,
      choices: [{ index: 0, message, finish_reason: this.finishReason ?? "stop", logprobs: null }],
      usage: this.usage ?? { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
    };
  }
}
