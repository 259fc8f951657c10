/**
 * @module ToolInvoker (Haystack v2's `haystack.components.tools.tool_invoker.ToolInvoker`,
 * pipeline-engine.md §5.3) and `runToolCalls`, the runner it shares with the Agent. The tool
 * calls in the messages run concurrently (at most `max_workers` at once); results are handled in
 * call order, each streamed as a tool-result chunk as soon as it and the calls before it are done,
 * then one `tool_call_results` chunk marks the end of the batch (§4.4).
 */
import * as v from "valibot";
import type { Span, Tracer } from "svc/plugin";
import { Component, output, selectStreamingCallback, socket, type ComponentContext, type InputSocketSpec, type OutputSocketSpec } from "../component.js";
import { ChatMessage, type ToolCall } from "../dataclasses/chat-message.js";
import { StreamingChunk, type ComponentInfo, type StreamingCallback } from "../dataclasses/streaming-chunk.js";
import { Tool, ToolInvocationError } from "../tool.js";
import { State } from "./agent-state.js";

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
      const value = await tool.invoke(withStateInputs(tool, call.arguments, o.state), { signal, span, tracer: o.tracer, ...(o.passthrough && o.callback ? { streaming_callback: o.callback } : {}) });
      span?.end();
      return { ok: true, value };
    } catch (cause) {
      span?.end(cause);
      const error = cause instanceof ToolInvocationError ? cause : new ToolInvocationError(tool.name, `Failed to invoke Tool '${tool.name}'. Error: ${String(cause)}`, { cause });
      if (o.raiseOnFailure && !firstFailure) {
        firstFailure = error;
        siblings.abort(error);
      }
      return { ok: false, error };
    } finally {
      gate.release();
    }
  };
  const tasks = calls.map((call) => (byName.has(call.tool_name) ? execute(call, byName.get(call.tool_name)!) : undefined));

  const messages: ChatMessage[] = [];
  for (const [index, call] of calls.entries()) {
    const tool = byName.get(call.tool_name);
    let message: ChatMessage;
    if (!tool) {
      message = ChatMessage.fromTool(new ToolNotFoundError(call.tool_name, names).message, call, true);
    } else {
      const outcome = await untilAborted(o.signal, tasks[index]!);
      if (!outcome.ok && o.raiseOnFailure) throw firstFailure ?? outcome.error;
      message = outcome.ok ? finish(tool, call, outcome.value, o) : ChatMessage.fromTool(outcome.error.message, call, true);
    }
    messages.push(message);
    const result = message.toolCallResult!;
    await o.callback?.(new StreamingChunk({ index, start: true, tool_call_result: result, meta: { tool_result: result.result, tool_call: call }, component_info: o.componentInfo }));
  }
  await o.callback?.(new StreamingChunk({ finish_reason: "tool_call_results", meta: { finish_completion_timestamp: new Date().toISOString() }, component_info: o.componentInfo }));
  return messages;
}

/** Arguments the LLM left out are filled from state (`inputs_from_state`). */
function withStateInputs(tool: Tool, args: Record<string, unknown>, state: State): Record<string, unknown> {
  const out = { ...args };
  for (const [key, param] of Object.entries(tool.inputs_from_state ?? {})) if (!(param in out) && state.has(key)) out[param] = state.get(key);
  return out;
}

/** Merges the result into state and turns it into the tool message; a failure here is the tool's. */
function finish(tool: Tool, call: ToolCall, result: unknown, o: RunToolCallsOptions): ChatMessage {
  try {
    const field = (source: string | undefined) => (source === undefined ? result : result && typeof result === "object" ? (result as Record<string, unknown>)[source] : undefined);
    for (const [key, spec] of Object.entries(tool.outputs_to_state ?? {})) {
      const value = field(spec.source);
      if (value !== undefined) o.state.set(key, value, spec.handler);
    }
    const conversion = tool.outputs_to_string;
    const value = field(conversion?.source);
    const text = conversion?.handler ? conversion.handler(value) : value;
    return ChatMessage.fromTool(toText(text, o.convertResultToJsonString ?? false), call, false);
  } catch (cause) {
    const error = new ToolInvocationError(tool.name, `Failed to process the result of Tool '${tool.name}'. Error: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    if (o.raiseOnFailure) throw error;
    return ChatMessage.fromTool(error.message, call, true);
  }
}

/** Strings pass through; with JSON conversion (or for objects, which have no useful String()) JSON. */
function toText(value: unknown, json: boolean): string {
  if (typeof value === "string" && !json) return value;
  if (value === undefined) return "";
  if (!json && (value === null || typeof value !== "object")) return String(value);
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
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

const toolList = v.array(v.instance(Tool));

const invokerInitSchema = v.object({
  tools: v.pipe(toolList, v.minLength(1, "ToolInvoker requires at least one tool.")),
  raise_on_failure: v.optional(v.boolean(), true),
  convert_result_to_json_string: v.optional(v.boolean(), false),
  streaming_callback: v.nullish(v.function()),
  enable_streaming_callback_passthrough: v.optional(v.boolean(), false),
  max_workers: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1)), 4),
});

export type ToolInvokerParams = v.InferOutput<typeof invokerInitSchema>;

/** Throws on two tools with one name: the LLM could not tell them apart. */
export function checkDuplicateTools(tools: readonly Tool[]): void {
  const names = tools.map((t) => t.name);
  const duplicates = [...new Set(names.filter((n, i) => names.indexOf(n) !== i))];
  if (duplicates.length) throw new Error(`Duplicate tool names found: ${duplicates.join(", ")}`);
}

export class ToolInvoker extends Component<ToolInvokerParams> {
  static override readonly type = "haystack.components.tools.tool_invoker.ToolInvoker";
  static override readonly aliases = ["ToolInvoker"];
  static override readonly initSchema = invokerInitSchema;

  constructor(init: unknown = {}) {
    super(init);
    checkDuplicateTools(this.initParameters.tools);
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
    inputs: { messages: ChatMessage[]; state?: State | null; streaming_callback?: unknown; enable_streaming_callback_passthrough?: boolean | null; tools?: Tool[] | null },
    ctx: ComponentContext,
  ): Promise<{ tool_messages: ChatMessage[]; state: State }> {
    const init = this.initParameters;
    const tools = inputs.tools ?? init.tools;
    if (inputs.tools) checkDuplicateTools(tools);
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
