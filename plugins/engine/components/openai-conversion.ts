/**
 * @module Conversions between OpenAI's Chat Completions payloads and the engine's data classes,
 * following Haystack's OpenAIChatGenerator: a completion's choices → assistant ChatMessages, an SDK
 * stream chunk → a StreamingChunk (pipeline-engine.md §4.2), the collected chunks → the final
 * reply, and tool specs → OpenAI function tools. Kept apart from the components so that other
 * OpenAI-compatible components (the Agent, a Responses generator) can reuse them.
 */
import type OpenAI from "openai";
import { ChatMessage, type ToolCall } from "../dataclasses/chat-message.js";
import { StreamingChunk, type ComponentInfo, type FinishReason, type ToolCallDelta } from "../dataclasses/streaming-chunk.js";

/** Where skipped tool calls are reported (a component passes its logger). */
export type Warn = (message: string) => void;

/** Tool-call arguments as an object, or undefined when the model sent malformed JSON. */
function parseToolArguments(raw: string | null | undefined): Record<string, unknown> | undefined {
  if (!raw) return {};
  try {
    const parsed: unknown = JSON.parse(raw);
    return parsed && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** Haystack skips (with a warning) a tool call whose arguments are not a JSON object. */
function toolCall(id: string | null, name: string, rawArguments: string, warn: Warn): ToolCall[] {
  const args = parseToolArguments(rawArguments);
  if (args === undefined) {
    warn(
      "OpenAI returned a malformed JSON string for tool call arguments. This tool call will be skipped. To always generate a valid JSON, " +
        `set \`tools_strict\` to \`True\`. Tool call ID: ${id}, Tool name: ${name}, Arguments: ${rawArguments}`,
    );
    return [];
  }
  return [{ id, tool_name: name, arguments: args }];
}

/** Haystack's `_check_finish_reason`: a reply cut short is returned, with a warning. */
export function checkFinishReason(meta: Record<string, unknown>, warn: Warn): void {
  if (meta.finish_reason === "length") {
    warn(`The completion for index ${meta.index} has been truncated before reaching a natural stopping point. Increase the max_completion_tokens parameter to allow for longer completions.`);
  }
  if (meta.finish_reason === "content_filter") warn(`The completion for index ${meta.index} has been truncated due to the content filter.`);
}

/** One assistant ChatMessage per choice of a non-streaming completion. */
export function messagesFromCompletion(completion: OpenAI.ChatCompletion, warn: Warn): ChatMessage[] {
  return completion.choices.map((choice) => {
    const message = choice.message;
    const toolCalls = (message.tool_calls ?? []).flatMap((c) => (c.type === "function" ? toolCall(c.id, c.function.name, c.function.arguments, warn) : []));
    const meta: Record<string, unknown> = { model: completion.model, index: choice.index, finish_reason: choice.finish_reason, usage: completion.usage ?? null };
    if (choice.logprobs) meta.logprobs = choice.logprobs;
    return ChatMessage.fromAssistant(message.content ?? null, { toolCalls, meta });
  });
}

const FINISH_REASONS: Record<string, FinishReason> = {
  stop: "stop",
  length: "length",
  content_filter: "content_filter",
  tool_calls: "tool_calls",
  function_call: "tool_calls",
};

/**
 * Maps one SDK chunk. `previous` are the chunks already mapped for this reply: text `start` is set
 * on the first chunk that carries text (Haystack counts on the role-only chunk coming first; this
 * also holds for servers that send the role and the first text together).
 */
export function toStreamingChunk(chunk: OpenAI.ChatCompletionChunk, previous: readonly StreamingChunk[], componentInfo: ComponentInfo): StreamingChunk {
  const received_at = new Date().toISOString();
  const usage = chunk.usage ?? null;
  const choice = chunk.choices[0];
  // With include_usage the last chunk has no choices, only usage.
  if (!choice) return new StreamingChunk({ component_info: componentInfo, index: null, meta: { model: chunk.model, received_at, usage } });

  const finish_reason = choice.finish_reason ? (FINISH_REASONS[choice.finish_reason] ?? null) : null;
  // Some OpenAI-compatible providers send `delta: null`.
  const delta: Partial<OpenAI.ChatCompletionChunk.Choice.Delta> | null = choice.delta ?? null;
  const meta: Record<string, unknown> = {
    model: chunk.model,
    index: choice.index,
    tool_calls: delta?.tool_calls?.length ? delta.tool_calls : null,
    finish_reason: choice.finish_reason,
    received_at,
    usage,
  };
  const deltas = delta?.tool_calls;
  if (deltas?.length) {
    const tool_calls: ToolCallDelta[] = deltas.map((d) => ({
      index: d.index,
      id: d.id ?? null,
      tool_name: d.function?.name ?? null,
      arguments: d.function?.arguments || null,
    }));
    // The chunk's index is its first delta's tool index; a delta naming the tool starts a block.
    return new StreamingChunk({ component_info: componentInfo, content: delta?.content ?? "", index: tool_calls[0]!.index, tool_calls, start: !!tool_calls[0]!.tool_name, finish_reason, meta });
  }
  if (choice.logprobs) meta.logprobs = choice.logprobs;
  const content = delta?.content ?? "";
  // Role-only and finish-only chunks belong to no content block; text is block 0 (as is a chunk
  // without a delta, as Haystack counts it).
  const index = delta === null ? 0 : content === "" ? null : 0;
  const start = content !== "" && !previous.some((c) => c.index === 0 && c.content !== "");
  return new StreamingChunk({ component_info: componentInfo, content, index, start, finish_reason, meta });
}

/** The final reply rebuilt from a reply's chunks, as Haystack does after streaming. */
export function messageFromChunks(chunks: readonly StreamingChunk[], warn: Warn): ChatMessage {
  const text = chunks.map((c) => c.content).join("");
  // Tool calls are tracked by index: the id arrives only with a call's first delta.
  const calls = new Map<number, { id: string | null; name: string; args: string }>();
  for (const chunk of chunks) {
    for (const delta of chunk.tool_calls ?? []) {
      const call = calls.get(delta.index) ?? { id: null, name: "", args: "" };
      calls.set(delta.index, call);
      if (delta.id) call.id = delta.id;
      if (delta.tool_name) call.name += delta.tool_name;
      if (delta.arguments) call.args += delta.arguments;
    }
  }
  const toolCalls = [...calls.entries()].sort(([a], [b]) => a - b).flatMap(([, c]) => toolCall(c.id, c.name, c.args, warn));
  const finish_reason = chunks.findLast((c) => c.finish_reason)?.finish_reason ?? null;
  const usage = chunks.findLast((c) => c.meta.usage)?.meta.usage ?? null;
  const meta = {
    model: chunks.at(-1)?.meta.model ?? null,
    index: 0,
    finish_reason,
    completion_start_time: chunks[0]?.meta.received_at ?? null,
    usage,
  };
  return ChatMessage.fromAssistant(text || null, { toolCalls, meta });
}

/** What a tool contributes to a request: Haystack's `tool_spec`. */
export interface ToolSpec {
  name: string;
  description?: string;
  parameters?: Record<string, unknown>;
}

/** A tool's spec: its `toolSpec`/`tool_spec` (value or method), or the object itself. */
function specOf(tool: unknown): ToolSpec {
  const t = tool as { toolSpec?: unknown; tool_spec?: unknown; type?: unknown; function?: unknown } | null;
  const own = t?.toolSpec ?? t?.tool_spec;
  // An OpenAI tool definition ({type: "function", function: {...}}) passes through unchanged.
  const spec = typeof own === "function" ? own.call(t) : (own ?? (t?.type === "function" && t.function ? t.function : t));
  if (!spec || typeof spec !== "object" || typeof (spec as ToolSpec).name !== "string") {
    throw new Error(`A tool must be {name, description, parameters} or have a toolSpec; got ${JSON.stringify(tool)}`);
  }
  return spec as ToolSpec;
}

/** Lists of tools may hold toolsets (iterables of tools); flatten them. */
export function flatten(tools: Iterable<unknown>): unknown[] {
  return [...tools].flatMap((t) =>
    t && typeof t === "object" && !Array.isArray(t) && Symbol.iterator in t && !("toolSpec" in t) && !("tool_spec" in t) ? flatten(t as Iterable<unknown>) : [t],
  );
}

/**
 * Haystack's `_make_schema_strict`: OpenAI's strict mode wants every object closed
 * (`additionalProperties: false`) with every property required, at every depth — nested
 * properties, `$defs`, array `items` and `anyOf`/`oneOf`/`allOf`. Returns a copy.
 */
export function makeSchemaStrict(schema: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...schema };
  const map = (record: unknown) => Object.fromEntries(Object.entries(record as Record<string, Record<string, unknown>>).map(([k, s]) => [k, makeSchemaStrict(s)]));
  if (out.type === "object" || "properties" in out) {
    out.additionalProperties = false;
    if ("properties" in out) {
      out.required = Object.keys(out.properties as object);
      out.properties = map(out.properties);
    }
  }
  if ("items" in out) out.items = makeSchemaStrict(out.items as Record<string, unknown>);
  if ("$defs" in out) out.$defs = map(out.$defs);
  for (const combinator of ["anyOf", "oneOf", "allOf"]) {
    if (Array.isArray(out[combinator])) out[combinator] = (out[combinator] as Record<string, unknown>[]).map(makeSchemaStrict);
  }
  return out;
}

/** OpenAI function tools; strict mode makes each schema strict (`makeSchemaStrict`), as Haystack does. */
export function openAITools(tools: Iterable<unknown> | null | undefined, strict: boolean): OpenAI.ChatCompletionFunctionTool[] | undefined {
  if (!tools) return undefined;
  const specs = flatten(tools).map(specOf);
  if (!specs.length) return undefined;
  const names = specs.map((s) => s.name);
  const duplicates = [...new Set(names.filter((n, i) => names.indexOf(n) !== i))];
  if (duplicates.length) throw new Error(`Duplicate tool names found: ${duplicates.join(", ")}`);
  return specs.map((s) => {
    const parameters = structuredClone(s.parameters ?? { type: "object", properties: {} });
    const fn: OpenAI.FunctionDefinition = { name: s.name, parameters };
    if (s.description !== undefined) fn.description = s.description;
    if (strict) {
      fn.strict = true;
      fn.parameters = makeSchemaStrict(parameters);
    }
    return { type: "function", function: fn };
  });
}
