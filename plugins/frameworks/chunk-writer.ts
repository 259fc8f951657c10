/**
 * @module The svc chunks an agent framework's stream becomes, and the writer that makes them. A
 * chunk has the engine's StreamingChunk shape (`content`, `reasoning.reasoning_text`, `tool_calls`
 * deltas with `index`/`id`/`tool_name`/`arguments`, `finish_reason`, `meta.usage`), which every
 * transport already encodes: chat completion chunks, Responses events, text for `/run` and MCP.
 * The writer numbers tool calls across the whole run (so an OpenAI client never merges two calls
 * of different steps), adds an Open WebUI status event per tool call (as the engine's
 * `defaultOnToolCallStart`/`End` do) when asked, sums the usage, and closes with one last chunk
 * carrying the finish reason and the total usage.
 */
import { defaultOnToolCallEnd, defaultOnToolCallStart, isUIEvent, type UIEvent } from "./ui-events.js";

export interface ToolCallDeltaChunk {
  index: number;
  id?: string;
  tool_name?: string;
  arguments?: string;
}

export interface ChunkUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details?: { cached_tokens: number };
  completion_tokens_details?: { reasoning_tokens: number };
}

export type FinishReason = "stop" | "length" | "tool_calls" | "content_filter";

/** One streamed piece of an answer, in the engine's StreamingChunk shape. */
export interface AgentChunk {
  content: string;
  reasoning?: { reasoning_text: string };
  tool_calls?: ToolCallDeltaChunk[];
  finish_reason?: FinishReason;
  meta?: { usage?: ChunkUsage };
}

export type AgentItem = AgentChunk | UIEvent;

export interface ChunkWriterOptions {
  /** Add Open WebUI status events for tool calls (the chat and Responses endpoints). */
  readonly events?: boolean;
}

/** Token counts as a framework reports them, already read into OpenAI's names. */
export interface Tokens {
  input?: number;
  output?: number;
  total?: number;
  cached?: number;
  reasoning?: number;
}

interface OpenCall {
  index: number;
  name: string;
  arguments: string;
}

const count = (n: unknown): number => (typeof n === "number" && Number.isFinite(n) && n > 0 ? Math.round(n) : 0);

export class ChunkWriter {
  private nextIndex = 0;
  private readonly calls = new Map<string, OpenCall>();
  private usage?: ChunkUsage;
  /** Calls made since the last text or tool result: a stream that ends on them stops for tool calls. */
  private pendingCalls = false;

  constructor(private readonly options: ChunkWriterOptions = {}) {}

  text(text: string): AgentItem[] {
    if (text === "") return [];
    this.pendingCalls = false;
    return [{ content: text }];
  }

  reasoning(text: string): AgentItem[] {
    return text === "" ? [] : [{ content: "", reasoning: { reasoning_text: text } }];
  }

  /** The first fragment of a tool call (its id and name), and the status line that announces it. */
  callStart(key: string, id: string | undefined, name: string, args = ""): AgentItem[] {
    const call: OpenCall = { index: this.nextIndex++, name, arguments: args };
    this.calls.set(key, call);
    this.pendingCalls = true;
    const items: AgentItem[] = [];
    const status = this.options.events ? defaultOnToolCallStart(name, undefined, id) : undefined;
    if (status) items.push(status);
    const delta: ToolCallDeltaChunk = { index: call.index, tool_name: name, arguments: args };
    if (id) delta.id = id;
    items.push({ content: "", tool_calls: [delta] });
    return items;
  }

  /** A further fragment of a call's JSON arguments. */
  callArguments(key: string, fragment: string): AgentItem[] {
    const call = this.calls.get(key);
    if (!call || fragment === "") return [];
    call.arguments += fragment;
    return [{ content: "", tool_calls: [{ index: call.index, arguments: fragment }] }];
  }

  /** A whole call at once (a framework that does not stream arguments). */
  call(key: string, id: string | undefined, name: string, args: unknown): AgentItem[] {
    if (this.calls.has(key)) return [];
    return this.callStart(key, id, name, typeof args === "string" ? args : JSON.stringify(args ?? {}));
  }

  /** A tool's result: the status line that closes the call (an error notification on failure). */
  callResult(key: string, name: string | undefined, args: unknown, result: unknown, error: boolean): AgentItem[] {
    this.pendingCalls = false;
    const call = this.calls.get(key);
    const tool = name || call?.name || "tool";
    if (!this.options.events) return [];
    const parsedArgs = args && typeof args === "object" ? (args as Record<string, unknown>) : parseArguments(call?.arguments);
    // The details block the engine adds is message text; here only the events, so plain OpenAI
    // clients get the model's answer untouched.
    return defaultOnToolCallEnd(tool, parsedArgs, typeof result === "string" ? result : JSON.stringify(result ?? null), error).filter(isUIEvent);
  }

  addUsage(tokens: Tokens): void {
    const input = count(tokens.input);
    const output = count(tokens.output);
    const u = (this.usage ??= { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 });
    u.prompt_tokens += input;
    u.completion_tokens += output;
    u.total_tokens += count(tokens.total) || input + output;
    if (tokens.cached !== undefined) u.prompt_tokens_details = { cached_tokens: (u.prompt_tokens_details?.cached_tokens ?? 0) + count(tokens.cached) };
    if (tokens.reasoning !== undefined) {
      u.completion_tokens_details = { reasoning_tokens: (u.completion_tokens_details?.reasoning_tokens ?? 0) + count(tokens.reasoning) };
    }
  }

  /** Replaces the summed usage with a framework's own total. */
  setUsage(tokens: Tokens): void {
    this.usage = undefined;
    this.addUsage(tokens);
  }

  /** The closing chunk: the given finish reason, else `tool_calls` when the run ended on calls. */
  finish(reason?: FinishReason): AgentChunk {
    const chunk: AgentChunk = { content: "", finish_reason: reason ?? (this.pendingCalls ? "tool_calls" : "stop") };
    if (this.usage) chunk.meta = { usage: this.usage };
    return chunk;
  }
}

function parseArguments(text: string | undefined): Record<string, unknown> {
  if (!text) return {};
  try {
    const value = JSON.parse(text) as unknown;
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** OpenAI's finish reasons from the frameworks' spellings (`tool-calls`, `tool_use`, `end_turn`…). */
export function finishReasonOf(raw: unknown): FinishReason | undefined {
  if (typeof raw !== "string") return undefined;
  switch (raw.replace(/-/g, "_").toLowerCase()) {
    case "tool_calls":
    case "tool_use":
    case "function_call":
      return "tool_calls";
    case "length":
    case "max_tokens":
      return "length";
    case "content_filter":
      return "content_filter";
    case "stop":
    case "end_turn":
    case "stop_sequence":
      return "stop";
    default:
      return undefined;
  }
}
