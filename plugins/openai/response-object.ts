/**
 * @module The Responses API's objects: ids, the response envelope (`object: "response"`), token
 * usage, and how a yielded or returned item is read (text, reasoning, tool-call deltas, a UI
 * event, usage, or a whole Response a wrapper built itself).
 */
import type OpenAI from "openai";
import { HttpError, newId } from "svc/plugin";

export type Json = Record<string, unknown>;

/** What stays the same across one response's events. */
export interface ResponseBase {
  readonly id: string;
  readonly created_at: number;
  readonly model: string;
  /** Fields a stored response adds after OpenAI's first ones (`background`, `previous_response_id`). */
  readonly extra?: Json;
}

export function newResponseBase(model: string): ResponseBase {
  return { id: newId("resp_"), created_at: Math.floor(Date.now() / 1000), model };
}

/** OpenAI's `response.error`: a code (`server_error`, `rate_limit_exceeded`, …) and a message. */
export interface ResponseError {
  readonly code: string;
  readonly message: string;
}

/** The `response.error` of a failure: OpenAI's codes, never an exception's class name. */
export function responseError(error: unknown): ResponseError {
  const status = error instanceof HttpError ? error.status : 500;
  const message = error instanceof Error ? error.message : String(error);
  return { code: status === 429 ? "rate_limit_exceeded" : "server_error", message };
}

/** OpenAI's response statuses (`queued` and `cancelled` only for stored, background responses). */
export type ResponseStatus = "queued" | "in_progress" | "completed" | "failed" | "cancelled" | "incomplete";

/**
 * Token usage of a response, as the `openai` package types it, less `cache_write_tokens`: svc
 * learns no cache writes from a wrapper, so it sends none rather than a made-up zero.
 */
export type Usage = Omit<OpenAI.Responses.ResponseUsage, "input_tokens_details"> & {
  input_tokens_details: Pick<OpenAI.Responses.ResponseUsage.InputTokensDetails, "cached_tokens">;
};

/** The response envelope, keys in the order OpenAI sends them. */
export function responseBody(
  base: ResponseBase,
  status: ResponseStatus,
  output: readonly Json[],
  usage: Usage | null,
  error: ResponseError | null = null,
): Json {
  return { id: base.id, object: "response", created_at: base.created_at, status, model: base.model, output: [...output], usage, error, incomplete_details: null, ...base.extra };
}

/** A whole Response object (a wrapper may return or yield one): sent as is. */
export function isResponseObject(value: unknown): value is Json {
  return isObject(value) && value.object === "response" && typeof value.id === "string" && Array.isArray(value.output);
}

export function isObject(value: unknown): value is Json {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

const count = (value: unknown): number | undefined => (typeof value === "number" && Number.isFinite(value) && value >= 0 ? Math.round(value) : undefined);

/** Token usage as Responses reports it, from OpenAI chat (`prompt_tokens`…) or Responses counts. */
export function toUsage(raw: unknown): Usage | undefined {
  if (!isObject(raw)) return undefined;
  const input = count(raw.input_tokens) ?? count(raw.prompt_tokens);
  const output = count(raw.output_tokens) ?? count(raw.completion_tokens);
  if (input === undefined && output === undefined) return undefined;
  const details = (key: string, field: string) => count(isObject(raw[key]) ? (raw[key] as Json)[field] : undefined) ?? 0;
  return {
    input_tokens: input ?? 0,
    input_tokens_details: { cached_tokens: details("input_tokens_details", "cached_tokens") || details("prompt_tokens_details", "cached_tokens") },
    output_tokens: output ?? 0,
    output_tokens_details: { reasoning_tokens: details("output_tokens_details", "reasoning_tokens") || details("completion_tokens_details", "reasoning_tokens") },
    total_tokens: count(raw.total_tokens) ?? (input ?? 0) + (output ?? 0),
  };
}

export const ZERO_USAGE: Readonly<Usage> = Object.freeze({
  input_tokens: 0,
  input_tokens_details: { cached_tokens: 0 },
  output_tokens: 0,
  output_tokens_details: { reasoning_tokens: 0 },
  total_tokens: 0,
});

/** A tool-call fragment: the engine's ToolCallDelta, an OpenAI chat delta, or explicit attributes. */
export interface CallDelta {
  index?: number;
  id?: string;
  name?: string;
  arguments?: string;
}

const str = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);

/** What one yielded item carries; a kind it lacks is empty. */
export interface ItemParts {
  reasoning: string;
  text: string;
  calls: CallDelta[];
  /** A UI event (`{event: {type, data}}`): a named SSE event of its own. */
  event?: Json;
  usage?: Usage;
}

export function readItem(item: unknown): ItemParts {
  if (typeof item === "string") return { reasoning: "", text: item, calls: [] };
  if (typeof item === "number" || typeof item === "boolean" || typeof item === "bigint") return { reasoning: "", text: String(item), calls: [] };
  if (!isObject(item)) return { reasoning: "", text: "", calls: [] };
  if (isObject(item.event) && typeof item.event.type === "string") return { reasoning: "", text: "", calls: [], event: item.event };
  const reasoning = isObject(item.reasoning) ? (str(item.reasoning.reasoning_text) ?? str(item.reasoning.text) ?? "") : (str(item.reasoning) ?? "");
  const calls: CallDelta[] = [];
  if (Array.isArray(item.tool_calls)) {
    for (const raw of item.tool_calls) {
      if (!isObject(raw)) continue;
      const fn = isObject(raw.function) ? raw.function : {};
      calls.push({
        index: typeof raw.index === "number" ? raw.index : undefined,
        id: str(raw.id) || undefined,
        name: str(raw.tool_name) ?? str(fn.name) ?? str(raw.name),
        arguments: str(raw.arguments) ?? str(fn.arguments),
      });
    }
  } else if (item.function_call_id !== undefined || item.function_call_name !== undefined || item.function_call_arguments !== undefined) {
    calls.push({ id: str(item.function_call_id) || undefined, name: str(item.function_call_name), arguments: str(item.function_call_arguments) });
  }
  const meta = isObject(item.meta) ? item.meta : {};
  return { reasoning, text: str(item.content) ?? "", calls, usage: toUsage(item.usage) ?? toUsage(meta.usage) };
}
