/**
 * @module StreamingChunk in Haystack's field shape: a text delta, or a tool-call delta, a tool
 * result or reasoning (at most one of them per chunk), with the component that produced it.
 */
import { ValueError } from "../pipeline/errors.js";
import { membershipOf } from "../pipeline/membership.js";
import { contentPartFromDict, type ReasoningContent, type ToolCallResult } from "./chat-message.js";

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
    if (kinds > 1) {
      const show = (v: unknown) => (v === null ? "None" : JSON.stringify(v));
      throw new ValueError(
        "Only one of `content`, `tool_call`, `tool_call_result` or `reasoning` may be set in a StreamingChunk. " +
          `Got content: '${this.content}', tool_call: '${show(this.tool_calls)}', tool_call_result: '${show(this.tool_call_result)}', reasoning: '${show(this.reasoning)}'.`,
      );
    }
    // Haystack does not require an index for text content (it would break older callers).
    if ((this.tool_calls?.length || this.tool_call_result || this.reasoning) && this.index === null) {
      throw new ValueError("If `tool_call`, `tool_call_result` or `reasoning` is set, `index` must also be set.");
    }
  }

  /** Haystack's `to_dict`: every field, nested objects in their own dict forms, absent ones `null`. */
  toDict(): Record<string, unknown> {
    return {
      content: this.content,
      meta: this.meta,
      component_info: this.component_info ? { type: this.component_info.type, name: this.component_info.name ?? null } : null,
      index: this.index,
      tool_calls: this.tool_calls?.length ? this.tool_calls.map(toolCallDeltaToDict) : null,
      tool_call_result: this.tool_call_result ? structuredClone(this.tool_call_result) : null,
      start: this.start,
      finish_reason: this.finish_reason,
      reasoning: this.reasoning ? { reasoning_text: this.reasoning.reasoning_text, extra: this.reasoning.extra ?? {} } : null,
    };
  }

  toJSON(): Record<string, unknown> {
    return this.toDict();
  }

  /** Haystack's `from_dict`; `content` is required. */
  static fromDict(data: Record<string, unknown>): StreamingChunk {
    if (!data || typeof data !== "object" || !("content" in data)) throw new ValueError("Missing required field `content` in StreamingChunk deserialization.");
    const result = data.tool_call_result ? contentPartFromDict({ tool_call_result: data.tool_call_result }) : null;
    const reasoning = data.reasoning ? contentPartFromDict({ reasoning: data.reasoning }) : null;
    return new StreamingChunk({
      content: data.content as string,
      meta: (data.meta as Record<string, unknown>) ?? {},
      component_info: data.component_info ? componentInfoFromDict(data.component_info as Record<string, unknown>) : null,
      index: (data.index as number | null | undefined) ?? null,
      tool_calls: Array.isArray(data.tool_calls) && data.tool_calls.length ? data.tool_calls.map((d) => toolCallDeltaFromDict(d as Record<string, unknown>)) : null,
      tool_call_result: result && "tool_call_result" in result ? result.tool_call_result : null,
      start: (data.start as boolean | undefined) ?? false,
      finish_reason: (data.finish_reason as FinishReason | null | undefined) ?? null,
      reasoning: reasoning && "reasoning" in reasoning ? reasoning.reasoning : null,
    });
  }
}

/** Haystack's `ToolCallDelta.to_dict` (`asdict`: every field). */
export function toolCallDeltaToDict(delta: ToolCallDelta): Required<ToolCallDelta> {
  return { index: delta.index, tool_name: delta.tool_name ?? null, arguments: delta.arguments ?? null, id: delta.id ?? null, extra: delta.extra ?? null };
}

const DELTA_FIELDS = new Set(["index", "tool_name", "arguments", "id", "extra"]);

/** Haystack's `ToolCallDelta.from_dict`: `index` is required, unknown fields are refused (its `**data` call). */
export function toolCallDeltaFromDict(data: Record<string, unknown>): ToolCallDelta {
  const unknown = Object.keys(data).filter((k) => !DELTA_FIELDS.has(k));
  if (unknown.length) throw new TypeError(`ToolCallDelta got an unexpected keyword argument '${unknown[0]}'`);
  if (typeof data.index !== "number") throw new TypeError("ToolCallDelta is missing the required argument 'index'");
  return toolCallDeltaToDict(data as unknown as ToolCallDelta);
}

/** Haystack's `ComponentInfo.from_component`: the component's type, and its name in the pipeline it was added to (else null). */
export function componentInfoFromComponent(component: { readonly type: string }): ComponentInfo {
  return { type: component.type, name: membershipOf(component)?.name ?? null };
}

/** Haystack's `ComponentInfo.from_dict`: `type` is required, `name` defaults to null. */
export function componentInfoFromDict(data: Record<string, unknown>): ComponentInfo {
  if (typeof data.type !== "string") throw new TypeError("ComponentInfo is missing the required argument 'type'");
  const unknown = Object.keys(data).filter((k) => k !== "type" && k !== "name");
  if (unknown.length) throw new TypeError(`ComponentInfo got an unexpected keyword argument '${unknown[0]}'`);
  return { type: data.type, name: (data.name as string | null | undefined) ?? null };
}

/** Called with every chunk a streaming component produces. */
export type StreamingCallback = (chunk: StreamingChunk) => void | Promise<void>;
