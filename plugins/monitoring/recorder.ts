/**
 * @module The `run` interceptor that writes execution records. A record is written `running` when
 * the call starts and again when it ends: when the wrapper returns, or for a streamed result when
 * the stream's consumption ends. Writes never hold up or fail a run: they are not awaited, at most
 * `maxPending` are in flight (beyond that records are skipped and counted), a record's finish waits
 * for its start, and failures are logged, not thrown.
 */
import { SseStream, isStreamable, messageOf, type ExecutionIndex, type ExecutionRecord, type ExecutionStatus, type Interceptor, type Logger, type RunCall } from "svc";
import { newExecutionId } from "./execution-id.js";
import { traceIdOf } from "./trace-id.js";
import { trackStream, type StreamOutcome } from "./tracked-stream.js";

const MAX_ERROR_LENGTH = 2000;
const FLUSH_TIMEOUT_MS = 2000;

export class ExecutionRecorder {
  private readonly inFlight = new Set<Promise<void>>();
  private skipped = 0;
  private lastFailure = "";

  constructor(
    private readonly index: ExecutionIndex,
    private readonly log: Logger,
    private readonly maxPending = 1000,
  ) {}

  readonly interceptor: Interceptor<RunCall, unknown> = async (call, next) => {
    const run = this.begin(call);
    let result: unknown;
    try {
      result = await next();
    } catch (error) {
      run.finish(call.signal.aborted ? "cancelled" : "failed", error);
      throw error;
    }
    if (result instanceof SseStream) return new SseStream(trackStream(result.source, (o) => run.streamEnded(o, call.signal)));
    if (isStreamable(result)) return trackStream(result, (o) => run.streamEnded(o, call.signal));
    // Answered after the client left: nobody got the result.
    run.finish(call.signal.aborted ? "cancelled" : "succeeded");
    return result;
  };

  /** Waits (a bounded time) for the writes in flight, before the index closes. */
  async flush(): Promise<void> {
    if (this.inFlight.size === 0) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.allSettled([...this.inFlight]), new Promise((resolve) => (timer = setTimeout(resolve, FLUSH_TIMEOUT_MS)))]);
    clearTimeout(timer);
  }

  private begin(call: RunCall): RunRecord {
    const startedMs = Date.now();
    const record: ExecutionRecord = {
      id: newExecutionId(startedMs),
      pipeline: call.pipeline,
      transport: call.transport,
      method: call.method,
      status: "running",
      started_at: new Date(startedMs).toISOString(),
      ended_at: null,
      duration_ms: null,
      error: null,
      trace_id: traceIdOf(call.span),
      request_id: call.requestId ?? null,
    };
    const started = this.write(() => this.index.recordStart(record));
    return new RunRecord(record, performance.now(), (final) => void started.then(() => this.write(() => this.index.recordFinish(final))));
  }

  private write(op: () => Promise<void>): Promise<void> {
    if (this.inFlight.size >= this.maxPending) {
      if (this.skipped++ % 1000 === 0) this.log.warn(`Execution index is not keeping up: ${this.skipped} record write(s) skipped so far`);
      return Promise.resolve();
    }
    let pending: Promise<void>;
    try {
      pending = op();
    } catch (error) {
      pending = Promise.reject(error);
    }
    const tracked = pending.then(
      () => {
        this.lastFailure = "";
      },
      (error: unknown) => this.failed(error),
    );
    this.inFlight.add(tracked);
    void tracked.finally(() => this.inFlight.delete(tracked));
    return tracked;
  }

  /** Logs a failing index once per distinct message, not once per run. */
  private failed(error: unknown): void {
    const message = messageOf(error);
    if (message === this.lastFailure) return;
    this.lastFailure = message;
    this.log.warn(`Execution record not written: ${message}`);
  }
}

/** One invocation's record, finished exactly once. */
class RunRecord {
  private finished = false;

  constructor(
    private readonly record: ExecutionRecord,
    private readonly startedAt: number,
    private readonly store: (final: ExecutionRecord) => void,
  ) {}

  finish(status: ExecutionStatus, error?: unknown): void {
    if (this.finished) return;
    this.finished = true;
    const endedMs = Date.now();
    const message = error === undefined ? null : messageOf(error).slice(0, MAX_ERROR_LENGTH);
    this.store({
      ...this.record,
      status,
      ended_at: new Date(endedMs).toISOString(),
      duration_ms: Math.round((performance.now() - this.startedAt) * 1000) / 1000,
      error: message,
    });
  }

  /** A consumer that stops early after the client left cancelled the run; one that had all it needed did not. */
  streamEnded(outcome: StreamOutcome, signal: AbortSignal): void {
    if (outcome.kind === "error") this.finish(signal.aborted ? "cancelled" : "failed", outcome.error);
    else this.finish(outcome.kind === "return" && signal.aborted ? "cancelled" : "succeeded");
  }
}
