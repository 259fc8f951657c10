/**
 * @module ToolInvoker (Haystack v2's `haystack.components.tools.tool_invoker.ToolInvoker`,
 * pipeline-engine.md §5.3) and `runToolCalls`, the runner it shares with the Agent. The tool
 * calls in the messages run concurrently (at most `max_workers` at once) in batches that honour
 * state dependencies (`scheduleToolCalls`); results are merged in call order within a batch, each
 * streamed as a tool-result chunk, then one `tool_call_results` chunk marks the end (§4.4).
 */
import * as v from "valibot";
import type { Span, Tracer } from "svc/plugin";
import { Component, output, selectStreamingCallback, socket, type ComponentContext, type InputSocketSpec, type OutputSocketSpec } from "../component.js";
import { ChatMessage, type ContentPart, type ToolCall } from "../dataclasses/chat-message.js";
import { StreamingChunk, type ComponentInfo, type StreamingCallback } from "../dataclasses/streaming-chunk.js";
import { isSingleOutputsToString, Tool, ToolInvocationError, type OutputsToString } from "../tool.js";
import { checkDuplicateToolNames, flattenTools, isToolsType, warmUpTools, type ToolsType } from "../toolset.js";
import { State } from "./agent-state.js";
import { scheduleToolCalls } from "./tool-call-schedule.js";

export { scheduleToolCalls } from "./tool-call-schedule.js";

/** The LLM called a tool nobody gave us. */
export class ToolNotFoundError extends Error {
  constructor(
    readonly toolName: string,
    available: string[],
  ) {
    super(`Tool ${toolName} not found in the list of tools. Available tools are: ${available.join(", ") || "none"}.`);
    this.name = "ToolNotFoundError";
  }
}

export interface RunToolCallsOptions {
  /** Every tool call in these messages runs; other messages are ignored. */
  messages: readonly ChatMessage[];
  tools: readonly Tool[];
  state: State;
  raiseOnFailure: boolean;
  maxWorkers?: number;
  convertResultToJsonString?: boolean;
  callback?: StreamingCallback;
  /** Hand the callback to the tool functions too (`ToolContext.streaming_callback`). */
  passthrough?: boolean;
  componentInfo: ComponentInfo;
  signal: AbortSignal;
  /** With a tracer, each tool runs in a `haystack.agent.step.tool` span under `parentSpan`. */
  tracer?: Tracer;
  parentSpan?: Span;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: ToolInvocationError };

/** Tool messages in call order; state is updated in place. */
export async function runToolCalls(o: RunToolCallsOptions): Promise<ChatMessage[]> {
  const calls: ToolCall[] = o.messages.flatMap((m) => m.toolCalls);
  if (calls.length === 0) return [];
  const byName = new Map(o.tools.map((t) => [t.name, t]));
  const names = [...byName.keys()];
  // An unknown name is the LLM's mistake: fail before anything runs, or tell the LLM.
  const unknown = calls.find((c) => !byName.has(c.tool_name));
  if (unknown && o.raiseOnFailure) throw new ToolNotFoundError(unknown.tool_name, names);

  // Aborted by the run, or by the first failure when failures raise (its siblings are wasted work).
  const siblings = new AbortController();
  const signal = AbortSignal.any([o.signal, siblings.signal]);
  let firstFailure: ToolInvocationError | undefined;
  const gate = semaphore(Math.max(1, o.maxWorkers ?? 4));

  const execute = async (call: ToolCall, tool: Tool): Promise<Outcome> => {
    await gate.acquire();
    const span = o.tracer?.startSpan("haystack.agent.step.tool", { "haystack.tool.name": tool.name, "haystack.tool.description": tool.description }, o.parentSpan);
    try {
      if (signal.aborted) throw signal.reason;
      const value = await tool.invoke(injectStateArgs(tool, call.arguments, o.state), { signal, span, tracer: o.tracer, ...(o.passthrough && o.callback ? { streaming_callback: o.callback } : {}) });
      span?.end();
      return { ok: true, value };
    } catch (cause) {
      span?.end(cause);
      const error = cause instanceof ToolInvocationError ? cause : new ToolInvocationError(tool.name, `Failed to invoke Tool \`${tool.name}\`. Error: ${String(cause)}`, { cause });
      if (o.raiseOnFailure && !firstFailure) {
        firstFailure = error;
        siblings.abort(error);
      }
      return { ok: false, error };
    } finally {
      gate.release();
    }
  };
  const messages: (ChatMessage | undefined)[] = calls.map((call) => (byName.has(call.tool_name) ? undefined : ChatMessage.fromTool(new ToolNotFoundError(call.tool_name, names).message, call, true)));
  let streamIndex = 0;
  const stream = async (call: ToolCall, message: ChatMessage) => {
    const result = message.toolCallResult!;
    await o.callback?.(new StreamingChunk({ index: streamIndex++, start: true, tool_call_result: result, meta: { tool_result: result.result, tool_call: call }, component_info: o.componentInfo }));
  };
  for (const [index, message] of messages.entries()) if (message) await stream(calls[index]!, message);
  // Batches honour read-after-write on state: a call reading a key runs after the calls writing it.
  const known = calls.flatMap((call, index) => (byName.has(call.tool_name) ? [index] : []));
  for (const batch of scheduleToolCalls(known.map((i) => calls[i]!), known.map((i) => byName.get(calls[i]!.tool_name)!))) {
    // Started together, so each reads state as the earlier batches left it.
    const tasks = batch.map((k) => execute(calls[known[k]!]!, byName.get(calls[known[k]!]!.tool_name)!));
    // Merged in call order within the batch, so write-write merges stay deterministic.
    for (const [position, k] of batch.entries()) {
      const index = known[k]!;
      const call = calls[index]!;
      const tool = byName.get(call.tool_name)!;
      const outcome = await untilAborted(o.signal, tasks[position]!);
      if (!outcome.ok && o.raiseOnFailure) throw firstFailure ?? outcome.error;
      messages[index] = outcome.ok ? finish(tool, call, outcome.value, o) : ChatMessage.fromTool(outcome.error.message, call, true);
      await stream(call, messages[index]!);
    }
  }
  await o.callback?.(new StreamingChunk({ finish_reason: "tool_call_results", meta: { finish_completion_timestamp: new Date().toISOString() }, component_info: o.componentInfo }));
  return messages as ChatMessage[];
}

/**
 * Haystack's `_inject_state_args`: arguments the LLM left out are filled from state
 * (`inputs_from_state`), and arguments taking the live State get the State object itself.
 */
export function injectStateArgs(tool: Tool, args: Record<string, unknown>, state: State): Record<string, unknown> {
  const out = { ...args };
  for (const [key, param] of Object.entries(tool.inputs_from_state ?? {})) if (!(param in out) && state.has(key)) out[param] = state.get(key);
  for (const param of tool.stateParameters) out[param] = state;
  return out;
}

/** Merges the result into state and turns it into the tool message; a failure here is the tool's. */
function finish(tool: Tool, call: ToolCall, result: unknown, o: RunToolCallsOptions): ChatMessage {
  mergeIntoState(tool, result, o.state);
  try {
    // As Haystack: only a mapping result feeds the state, and a named source it lacks is skipped.
    const config = tool.outputs_to_string;
    if (!config || isSingleOutputsToString(config)) return ChatMessage.fromTool(processToolOutput(config ?? {}, result, call, o) as string | ContentPart[], call, false);
    // The multiple-output form: each output rendered to a string, then the mapping as JSON.
    const rendered = Object.fromEntries(Object.entries(config).map(([key, entry]) => [key, processToolOutput({ ...(entry as OutputsToString), raw_result: false }, result, call, o)]));
    return ChatMessage.fromTool(toText(rendered), call, false);
  } catch (cause) {
    const error = new ToolInvocationError(tool.name, `Failed to process the result of Tool '${tool.name}'. Error: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    if (o.raiseOnFailure) throw error;
    return ChatMessage.fromTool(error.message, call, true);
  }
}

/**
 * `outputs_to_state`, as Haystack: only a mapping result feeds the state, a named source it lacks
 * is skipped, and a failing merge always raises (a half-updated state must not go unnoticed).
 */
export function mergeIntoState(tool: Tool, result: unknown, state: State): void {
  if (!result || typeof result !== "object" || Array.isArray(result)) return;
  const fields = result as Record<string, unknown>;
  for (const [key, spec] of Object.entries(tool.outputs_to_state ?? {})) {
    if (spec.source && !(spec.source in fields)) continue;
    try {
      state.set(key, spec.source ? fields[spec.source] : result, spec.handler);
    } catch (error) {
      throw new ToolStateMergeError(`Tool '${tool.name}': failed to merge outputs into state. ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
  }
}

/** Haystack raises a RuntimeError here. */
export class ToolStateMergeError extends Error {
  override name = "ToolStateMergeError";
}

/**
 * Haystack's `_process_tool_output`: the `source` field (or the whole result) through the handler,
 * as text unless `raw_result` (then as it is: a list of text / image / file parts reaches the
 * tool message as parts). A failing handler raises with raise_on_failure, else the value is
 * converted to text as if there were no handler.
 */
export function processToolOutput(config: OutputsToString, result: unknown, call: ToolCall, o: { raiseOnFailure: boolean; convertResultToJsonString?: boolean }): unknown {
  const json = o.convertResultToJsonString ?? false;
  const value = config.source !== undefined && result && typeof result === "object" && !Array.isArray(result) ? (result as Record<string, unknown>)[config.source] : result;
  if (!config.handler) return config.raw_result ? value : toText(value, json);
  try {
    const handled = config.handler(value);
    return config.raw_result ? handled : toText(handled, json);
  } catch (error) {
    if (o.raiseOnFailure) throw error;
    console.warn(`Output handler '${config.handler.name || "anonymous"}' for tool '${call.tool_name}' failed, falling back to string conversion. Error: ${error instanceof Error ? error.message : String(error)}`);
    return toText(value, json);
  }
}

/**
 * Haystack's `_result_to_string`: strings pass through, anything else is `json.dumps(...,
 * ensure_ascii=False)` with Python's separators (`, ` and `: `), data classes as their `to_dict`;
 * what JSON cannot hold falls back to its string form. `json` also quotes strings.
 */
export function resultToString(value: unknown, json = false): string {
  if (typeof value === "string" && !json) return value;
  if (value === undefined) return "null";
  try {
    return pyJson(value, 0);
  } catch {
    return String(value);
  }
}
const toText = resultToString;

function pyJson(value: unknown, depth: number): string {
  if (depth > 100) throw new Error("too deep");
  if (value === null || value === undefined) return "null";
  if (typeof value === "string" || typeof value === "boolean") return JSON.stringify(value);
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : Number.isNaN(value) ? "NaN" : value > 0 ? "Infinity" : "-Infinity";
  if (Array.isArray(value) || value instanceof Set) return `[${[...value].map((x) => pyJson(x, depth + 1)).join(", ")}]`;
  if (typeof value === "object") {
    const withToDict = value as { toDict?: () => unknown };
    if (typeof withToDict.toDict === "function") return pyJson(withToDict.toDict(), depth + 1);
    const proto = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) throw new Error("not JSON serializable");
    return `{${Object.entries(value).map(([k, x]) => `${JSON.stringify(k)}: ${pyJson(x, depth + 1)}`).join(", ")}}`;
  }
  throw new Error("not JSON serializable");
}

function semaphore(limit: number) {
  let active = 0;
  const waiting: (() => void)[] = [];
  return {
    acquire: () => (active < limit ? (active++, Promise.resolve()) : new Promise<void>((resolve) => waiting.push(resolve))),
    // A waiter takes over the released slot directly, so `active` does not change.
    release: () => (waiting.length ? waiting.shift()!() : active--),
  };
}

/** Rejects with the abort reason as soon as `signal` aborts; tools that ignore it finish unheard. */
function untilAborted<T>(signal: AbortSignal, promise: Promise<T>): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    const done = () => signal.removeEventListener("abort", onAbort);
    promise.then((value) => (done(), resolve(value)), (error: unknown) => (done(), reject(error)));
  });
}

const toolList = v.custom<ToolsType>(isToolsType, "tools must be a list of Tool and/or Toolset objects, or a Toolset.");

const invokerInitSchema = v.object({
  tools: v.pipe(
    toolList,
    v.check((tools) => flattenTools(tools).length > 0, "ToolInvoker requires at least one tool."),
  ),
  raise_on_failure: v.optional(v.boolean(), true),
  convert_result_to_json_string: v.optional(v.boolean(), false),
  streaming_callback: v.nullish(v.function()),
  enable_streaming_callback_passthrough: v.optional(v.boolean(), false),
  max_workers: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1)), 4),
});

export type ToolInvokerParams = v.InferOutput<typeof invokerInitSchema>;

/** Throws on two tools with one name: the LLM could not tell them apart. */
export const checkDuplicateTools = checkDuplicateToolNames;

export class ToolInvoker extends Component<ToolInvokerParams> {
  static override readonly type = "haystack.components.tools.tool_invoker.ToolInvoker";
  static override readonly aliases = ["ToolInvoker"];
  static override readonly initSchema = invokerInitSchema;
  /** The YAML loader keeps Toolsets as Toolsets for this component. */
  static readonly acceptsToolsets = true;

  constructor(init: unknown = {}) {
    super(init);
    checkDuplicateTools(flattenTools(this.initParameters.tools));
  }

  /** Warms the tools and toolsets (idempotent, so every pipeline warm-up may call it). */
  async warmUp(): Promise<void> {
    await warmUpTools(this.initParameters.tools);
  }

  protected inputSpecs(): Record<string, InputSocketSpec> {
    return {
      messages: socket(v.array(v.instance(ChatMessage))),
      state: socket(v.nullable(v.instance(State)), { default: null }),
      streaming_callback: socket(v.nullable(v.function()), { default: null }),
      enable_streaming_callback_passthrough: socket(v.nullable(v.boolean()), { default: null }),
      tools: socket(v.nullable(toolList), { default: null }),
    };
  }

  protected outputSpecs(): Record<string, OutputSocketSpec> {
    return { tool_messages: output(v.array(v.instance(ChatMessage))), state: output(v.instance(State)) };
  }

  async run(
    inputs: { messages: ChatMessage[]; state?: State | null; streaming_callback?: unknown; enable_streaming_callback_passthrough?: boolean | null; tools?: ToolsType | null },
    ctx: ComponentContext,
  ): Promise<{ tool_messages: ChatMessage[]; state: State }> {
    const init = this.initParameters;
    if (inputs.tools) await warmUpTools(inputs.tools);
    const tools = flattenTools(inputs.tools ?? init.tools);
    checkDuplicateTools(tools);
    const state = inputs.state ?? new State();
    const tool_messages = await runToolCalls({
      messages: inputs.messages ?? [],
      tools,
      state,
      raiseOnFailure: init.raise_on_failure,
      maxWorkers: init.max_workers,
      convertResultToJsonString: init.convert_result_to_json_string,
      callback: selectStreamingCallback(init.streaming_callback, inputs.streaming_callback),
      passthrough: inputs.enable_streaming_callback_passthrough ?? init.enable_streaming_callback_passthrough,
      componentInfo: { type: this.type, name: ctx.name },
      signal: ctx.signal,
    });
    return { tool_messages, state };
  }
}
