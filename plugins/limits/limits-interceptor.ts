/**
 * @module The `run` interceptor that enforces per-pipeline limits. `max_concurrency`: the run waits
 * for a slot of its pipeline's gate (a streamed run holds it until its stream ends, because the
 * run settles then), or is refused with 429 and Retry-After when the queue is full.
 * `timeout_seconds`: the run's signal is aborted with a 504 as its reason — the wrapper sees the
 * abort, a value answer becomes the 504, and a stream fails with it (its error event). A slot is
 * released only when the run really ended, so a wrapper that ignores its signal keeps its slot.
 */
import { performance } from "node:perf_hooks";
import { HttpError, type DeployedPipeline, type Interceptor, type PipelineRegistry, type RunCall, type RunLimits } from "svc/plugin";
import { RunGate } from "./run-gate.js";

export interface LimitDefaults {
  readonly maxConcurrency: number;
  readonly timeoutSeconds: number;
  readonly maxQueue: number;
}

/** One pipeline's limits at work: its gate (when it has a concurrency limit) and, for `/metrics`, the calls refused and timed out. */
export interface PipelineLimitState {
  gate?: RunGate;
  rejected: number;
  timedOut: number;
}

export class RunLimiter {
  readonly pipelines = new Map<string, PipelineLimitState>();

  constructor(
    private readonly registry: PipelineRegistry,
    private readonly defaults: LimitDefaults,
  ) {}

  readonly interceptor: Interceptor<RunCall, unknown> = (call, next) => {
    const limits = this.limitsOf(this.registry.get(call.pipeline));
    if (!limits) return next();
    const { maxConcurrency, timeoutSeconds } = limits;
    if (!maxConcurrency) return this.timed(call, next, timeoutSeconds!, () => undefined);
    const state = this.stateOf(call.pipeline);
    const gate = (state.gate ??= new RunGate());
    const admitted = gate.enter(maxConcurrency, this.defaults.maxQueue, () => call.signal, () => this.refusal(state, call.pipeline, gate));
    const run = () => {
      const started = performance.now();
      // Released when the run ended (a stream's too), not when a time-out answered.
      const leave = () => gate.leave(performance.now() - started);
      if (timeoutSeconds) return this.timed(call, next, timeoutSeconds, leave);
      const running = next();
      void running.then(leave, leave);
      return running;
    };
    return admitted ? admitted.then(run) : run();
  };

  /** Whether `call`'s pipeline has a limit (its own or a default). */
  applies(call: RunCall): boolean {
    return this.limitsOf(this.registry.get(call.pipeline)) !== undefined;
  }

  private limitsOf(pipeline: DeployedPipeline | undefined): RunLimits | undefined {
    const maxConcurrency = pipeline?.limits?.maxConcurrency ?? (this.defaults.maxConcurrency || undefined);
    const timeoutSeconds = pipeline?.limits?.timeoutSeconds ?? (this.defaults.timeoutSeconds || undefined);
    return maxConcurrency || timeoutSeconds ? { maxConcurrency, timeoutSeconds } : undefined;
  }

  /** Runs `next` with a signal that a timer aborts; answers the 504 at once when it fires. `ended` follows the run itself. */
  private timed(call: RunCall, next: (changes?: Partial<RunCall>) => Promise<unknown>, seconds: number, ended: () => void): Promise<unknown> {
    const timer = new AbortController();
    const signal = AbortSignal.any([call.signal, timer.signal]);
    const running = next({ signal });
    return new Promise<unknown>((resolve, reject) => {
      const expiry = setTimeout(() => {
        this.stateOf(call.pipeline).timedOut++;
        const error = new HttpError(504, `Pipeline '${call.pipeline}' did not finish within its time limit of ${seconds} s`);
        timer.abort(error);
        reject(error);
      }, seconds * 1000);
      running.then(
        (value) => {
          clearTimeout(expiry);
          ended();
          resolve(value);
        },
        (error: unknown) => {
          clearTimeout(expiry);
          ended();
          reject(timer.signal.aborted ? timer.signal.reason : error);
        },
      );
    });
  }

  private refusal(state: PipelineLimitState, pipeline: string, gate: RunGate): HttpError {
    state.rejected++;
    const retry = gate.retryAfterSeconds();
    return new HttpError(429, `Pipeline '${pipeline}' is at its limit of ${gate.max} concurrent run(s) with ${gate.queued} waiting; retry in ${retry} s`, {
      headers: { "retry-after": String(retry) },
    });
  }

  /** Forgets an undeployed pipeline's idle gate (its counts stay: they are counters). */
  forget(pipeline: string): void {
    const state = this.pipelines.get(pipeline);
    if (state?.gate && state.gate.running === 0 && state.gate.queued === 0) state.gate = undefined;
  }

  private stateOf(pipeline: string): PipelineLimitState {
    let state = this.pipelines.get(pipeline);
    if (!state) this.pipelines.set(pipeline, (state = { rejected: 0, timedOut: 0 }));
    return state;
  }
}
