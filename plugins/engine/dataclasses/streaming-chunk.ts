/**
 * @module StreamingChunk in Haystack's field shape: a text delta, or a tool-call delta, a tool
 * result or reasoning (at most one of them per chunk), with the component that produced it.
 */
import type { ReasoningContent, ToolCallResult } from "./chat-message.js";

export interface ToolCallDelta {
  index: number;
  tool_name?: string | null;
  /** A fragment of the JSON arguments. */
  arguments?: string | null;
  id?: string | null;
  extra?: Record<string, unknown> | null;
}

export interface ComponentInfo {
  type: string;
  name: string | null;
}

export type FinishReason = "stop" | "length" | "tool_calls" | "content_filter" | "tool_call_results";

export interface StreamingChunkInit {
  content?: string;
  meta?: Record<string, unknown>;
  component_info?: ComponentInfo | null;
  index?: number | null;
  tool_calls?: ToolCallDelta[] | null;
  tool_call_result?: ToolCallResult | null;
  start?: boolean;
  finish_reason?: FinishReason | null;
  reasoning?: ReasoningContent | null;
}

export class StreamingChunk {
  static readonly typeName = "StreamingChunk";
  readonly content: string;
  readonly meta: Record<string, unknown>;
  component_info: ComponentInfo | null;
  readonly index: number | null;
  readonly tool_calls: ToolCallDelta[] | null;
  readonly tool_call_result: ToolCallResult | null;
  readonly start: boolean;
  readonly finish_reason: FinishReason | null;
  readonly reasoning: ReasoningContent | null;

  constructor(init: StreamingChunkInit = {}) {
    this.content = init.content ?? "";
    this.meta = init.meta ?? {};
    this.component_info = init.component_info ?? null;
    this.index = init.index ?? null;
    this.tool_calls = init.tool_calls ?? null;
    this.tool_call_result = init.tool_call_result ?? null;
    this.start = init.start ?? false;
    this.finish_reason = init.finish_reason ?? null;
    this.reasoning = init.reasoning ?? null;
    const kinds = [this.content !== "", !!this.tool_calls?.length, !!this.tool_call_result, !!this.reasoning].filter(Boolean).length;
    if (kinds > 1) throw new Error("A StreamingChunk carries at most one of content, tool_calls, tool_call_result and reasoning.");
    if ((this.tool_calls?.length || this.tool_call_result || this.reasoning) && this.index === null) {
      throw new Error("A StreamingChunk with tool calls, a tool result or reasoning needs an index.");
    }
  }

  toDict(): Record<string, unknown> {
    return { ...(this as unknown as Record<string, unknown>) };
  }
}

/** Called with every chunk a streaming component produces. */
export type StreamingCallback = (chunk: StreamingChunk) => void | Promise<void>;
