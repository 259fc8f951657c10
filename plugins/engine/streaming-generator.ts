/**
 * @module streamingGenerator: runs a pipeline (or a streaming component such as an Agent) and
 * yields what its streaming components produce as they produce it. The callbacks turn tool calls,
 * tool results and reasoning into extra items (strings or UI events) yielded before the chunk,
 * and `onPipelineEnd(result)` may add a last text. Stopping the iteration aborts the run.
 */
import { NOOP_TRACER, signalSpan, signalTracer } from "svc/plugin";
import { Component } from "./component.js";
import { StreamingChunk } from "./dataclasses/streaming-chunk.js";
import { parseArguments } from "./dataclasses/chat-message.js";
import { Pipeline } from "./pipeline/pipeline.js";
import { inputsByComponent } from "./pipeline/run-input.js";

/** A UI event (Open WebUI) or text to put into the stream. */
export type StreamExtra = string | { event: { type: string; data: unknown } } | Record<string, unknown>;
type HookResult = StreamExtra | StreamExtra[] | null | undefined | void;

export interface StreamingGeneratorOptions {
  pipeline: Pipeline | Component;
  /** Pipelines: inputs by component (or flat); components: their run inputs. Never mutated. */
  pipelineRunArgs?: Record<string, unknown>;
  onToolCallStart?(toolName: string, args: Record<string, unknown>, id: string | null): HookResult | Promise<HookResult>;
  onToolCallEnd?(toolName: string, args: Record<string, unknown>, result: string, error: boolean): HookResult | Promise<HookResult>;
  onReasoning?(text: string, extra: Record<string, unknown> | null): HookResult | Promise<HookResult>;
  onPipelineEnd?(result: Record<string, unknown>): string | null | undefined | void | Promise<string | null | undefined | void>;
  /** `"all"`, a list of names, or (default) the last streaming-capable component; env SERVICE_STREAMING_COMPONENTS. */
  streamingComponents?: "all" | string[];
  includeOutputsFrom?: Iterable<string>;
  signal?: AbortSignal;
  /** Where hook failures are reported (they never stop the stream). */
  onHookError?(error: unknown): void;
}

function selectStreaming(pipeline: Pipeline, explicit: StreamingGeneratorOptions["streamingComponents"]): string[] {
  const capable = pipeline.componentNames.filter((n) => "streaming_callback" in pipeline.getComponent(n).inputSockets);
  if (capable.length === 0) throw new Error("No streaming-capable components found in the pipeline");
  const env = process.env.SERVICE_STREAMING_COMPONENTS?.trim();
  const choice = explicit ?? (env ? (env.toLowerCase() === "all" ? "all" : env.split(",").map((s) => s.trim()).filter(Boolean)) : undefined);
  if (choice === undefined) return [capable.at(-1)!];
  if (choice === "all" || (typeof choice === "string" && (choice as string).toLowerCase() === "all")) return capable;
  return capable.filter((n) => (choice as string[]).includes(n));
}


export async function* streamingGenerator(options: StreamingGeneratorOptions): AsyncGenerator<StreamingChunk | StreamExtra, void, undefined> {
  const controller = new AbortController();
  const onOuterAbort = () => controller.abort(options.signal?.reason);
  options.signal?.addEventListener("abort", onOuterAbort, { once: true });
  const queue: (StreamingChunk | { done: true; result: Record<string, unknown> } | { error: unknown })[] = [];
  let wake: (() => void) | undefined;
  const push = (item: (typeof queue)[number]) => {
    queue.push(item);
    wake?.();
  };
  const callback = (chunk: StreamingChunk) => push(chunk);

  const target = options.pipeline;
  const args = options.pipelineRunArgs ?? {};
  const run =
    target instanceof Pipeline
      ? (() => {
          const data = inputsByComponent(target, args);
          for (const name of selectStreaming(target, options.streamingComponents)) data[name] = { ...data[name], streaming_callback: callback };
          // The run nests below the caller's run span, found through the caller's signal.
          return target.run(data, { includeOutputsFrom: options.includeOutputsFrom, signal: controller.signal, parentSpan: signalSpan(options.signal), tracer: signalTracer(options.signal) });
        })()
      : target instanceof Component
        ? Promise.resolve(target.run({ ...args, streaming_callback: callback }, { name: target.type, signal: controller.signal, tracer: NOOP_TRACER }))
        : Promise.reject(new Error(`Unsupported pipeline type: ${typeof target}`));
  run.then(
    (result) => push({ done: true, result: result as Record<string, unknown> }),
    (error) => push({ error }),
  );

  const hook = async (fn: (() => HookResult | Promise<HookResult>) | undefined): Promise<StreamExtra[]> => {
    if (!fn) return [];
    try {
      const out = await fn();
      if (out === null || out === undefined || out === "") return [];
      return Array.isArray(out) ? out.filter((x) => x !== null && x !== undefined) : [out as StreamExtra];
    } catch (error) {
      options.onHookError?.(error);
      return [];
    }
  };

  let finished = false;
  try {
    while (true) {
      if (queue.length === 0) await new Promise<void>((resolve) => (wake = resolve));
      wake = undefined;
      const item = queue.shift()!;
      if ("error" in item) throw item.error;
      if ("done" in item) {
        finished = true;
        const extra = await hook(options.onPipelineEnd ? () => options.onPipelineEnd!(item.result) as HookResult : undefined);
        for (const text of extra) yield typeof text === "string" ? new StreamingChunk({ content: text }) : text;
        return;
      }
      for (const delta of item.tool_calls ?? []) {
        if (delta.tool_name) yield* await hook(options.onToolCallStart ? () => options.onToolCallStart!(delta.tool_name!, parseArguments(delta.arguments ?? undefined), delta.id ?? null) : undefined);
      }
      const result = item.tool_call_result;
      if (result) {
        yield* await hook(options.onToolCallEnd ? () => options.onToolCallEnd!(result.origin.tool_name, result.origin.arguments ?? {}, String(result.result), result.error) : undefined);
      }
      if (item.reasoning) {
        yield* await hook(options.onReasoning ? () => options.onReasoning!(item.reasoning!.reasoning_text, item.reasoning!.extra ?? null) : undefined);
      }
      yield item;
    }
  } finally {
    options.signal?.removeEventListener("abort", onOuterAbort);
    // The consumer stopped early: stop the run too.
    if (!finished) controller.abort(new Error("The stream consumer stopped."));
    await run.catch(() => undefined);
  }
}
