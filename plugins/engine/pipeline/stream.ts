/**
 * @module Haystack 3's `Pipeline.stream()`: runs the pipeline and returns a handle that yields the
 * StreamingChunks of its streaming components (those with a `streaming_callback` input) as they
 * arrive; after iteration, `handle.result` holds the run's result. A forwarder is given to each
 * streamed component as its run-time `streaming_callback`; it queues the chunk, then calls the
 * callback the caller gave at run time, or else the component's init one. Leaving the iteration
 * early aborts the run unless `cancelOnAbandon` is false.
 */
import type { StreamingCallback, StreamingChunk } from "../dataclasses/streaming-chunk.js";
import { ValueError } from "./errors.js";
import type { Pipeline, RunOptions } from "./pipeline.js";
import { inputsByComponent } from "./run-input.js";
import { runPipeline, type PipelineResult } from "./scheduler.js";

export interface StreamOptions extends Omit<RunOptions, "onComponentStart" | "onComponentEnd"> {
  /** Components whose chunks are streamed; default: every component with a `streaming_callback` input. */
  streamingComponents?: readonly string[];
  /** Abort the run when the consumer stops iterating early (default true). */
  cancelOnAbandon?: boolean;
}

const END: unique symbol = Symbol("svc.engine.endOfStream");
/** Python's list repr, as Haystack's messages show names. */
const pyList = (names: Iterable<string>) => `[${[...names].sort().map((n) => `'${n}'`).join(", ")}]`;

export class PipelineStreamHandle implements AsyncIterable<StreamingChunk> {
  /** How long `aclose` waits for the aborted run to end (Haystack's `_CLEANUP_TIMEOUT_SECONDS`). */
  static readonly CLEANUP_TIMEOUT_MS = 1000;
  private readonly queue: (StreamingChunk | typeof END)[] = [];
  private wake?: () => void;
  private outcome?: { ok: true; result: PipelineResult } | { ok: false; error: unknown };
  private cancelRequested = false;
  private readonly ended: Promise<void>;

  constructor(
    run: (signal: AbortSignal, push: (chunk: StreamingChunk) => void) => Promise<PipelineResult>,
    private readonly controller: AbortController,
    private readonly cancelOnAbandon: boolean,
  ) {
    this.ended = run(controller.signal, (chunk) => this.push(chunk)).then(
      (result) => {
        this.outcome = { ok: true, result };
      },
      (error) => {
        this.outcome = { ok: false, error };
      },
    ).finally(() => this.push(END));
  }

  private push(item: StreamingChunk | typeof END): void {
    this.queue.push(item);
    this.wake?.();
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<StreamingChunk, void, undefined> {
    try {
      for (;;) {
        while (this.queue.length === 0) await new Promise<void>((resolve) => (this.wake = resolve));
        const item = this.queue.shift()!;
        if (item === END) {
          this.queue.push(END); // a second iteration ends too
          void this.result; // throws a failed run's error, or that the run was cancelled
          return;
        }
        yield item;
      }
    } finally {
      if (this.cancelOnAbandon) await this.aclose();
    }
  }

  /** Whether the run has ended (finished, failed or cancelled). */
  get done(): boolean {
    return this.outcome !== undefined;
  }

  /**
   * The run's result, once it finished. Throws while it runs, when it was cancelled, and the run's
   * own error (the same object) when it failed.
   */
  get result(): PipelineResult {
    if (!this.outcome) throw new Error("Pipeline has not finished; iterate the handle first.");
    if (this.cancelRequested) throw new Error("Pipeline was cancelled; no result available.");
    if (!this.outcome.ok) throw this.outcome.error;
    return this.outcome.result;
  }

  /** Resolves when the run has ended, however it ended (never rejects); read `result` then. */
  wait(): Promise<void> {
    return this.ended;
  }

  /** Aborts a run still going and waits for it to end, at most CLEANUP_TIMEOUT_MS. */
  async aclose(): Promise<void> {
    if (this.outcome) return;
    this.cancelRequested = true;
    this.controller.abort(new Error("Pipeline was cancelled."));
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.ended, new Promise<void>((resolve) => (timer = setTimeout(resolve, PipelineStreamHandle.CLEANUP_TIMEOUT_MS)))]);
    clearTimeout(timer);
  }
}

export function streamPipeline(pipeline: Pipeline, data: Record<string, unknown>, options: StreamOptions = {}): PipelineStreamHandle {
  const { streamingComponents, cancelOnAbandon = true, ...runOptions } = options;
  const capable = pipeline.componentNames.filter((name) => "streaming_callback" in pipeline.getComponent(name).inputSockets);
  if (streamingComponents !== undefined) {
    const names = new Set(pipeline.componentNames);
    const unknown = new Set(streamingComponents.filter((n) => !names.has(n)));
    if (unknown.size) throw new ValueError(`Unknown components in streaming_components: ${pyList(unknown)}`);
    const notStreaming = new Set(streamingComponents.filter((n) => !capable.includes(n)));
    if (notStreaming.size) throw new ValueError(`These components do not support streaming: ${pyList(notStreaming)}`);
  }
  const controller = new AbortController();
  const streamed = capable.filter((name) => streamingComponents === undefined || streamingComponents.includes(name));
  const inputs = inputsByComponent(pipeline, data);
  const outer = runOptions.signal;
  return new PipelineStreamHandle(
    async (signal, push) => {
      for (const name of streamed) {
        const own = (inputs[name] ??= {});
        const init = (pipeline.getComponent(name).initParameters as { streaming_callback?: unknown } | undefined)?.streaming_callback;
        const user = (typeof own.streaming_callback === "function" ? own.streaming_callback : typeof init === "function" ? init : undefined) as StreamingCallback | undefined;
        // Queued before the caller's callback runs, so a failing callback does not lose its chunk.
        own.streaming_callback = async (chunk: StreamingChunk) => {
          push(chunk);
          if (user) await user(chunk);
        };
      }
      const onOuterAbort = () => controller.abort(outer!.reason);
      if (outer?.aborted) onOuterAbort();
      else outer?.addEventListener("abort", onOuterAbort, { once: true });
      try {
        return await runPipeline(pipeline, inputs, { ...runOptions, signal });
      } finally {
        outer?.removeEventListener("abort", onOuterAbort);
      }
    },
    controller,
    cancelOnAbandon,
  );
}
