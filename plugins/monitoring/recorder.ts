/**
 * @module The `run` observer that writes execution records (an observer layer, not an
 * interceptor: a record costs no promise of its own; the record itself is the observation). A record is written `running` when
 * the call starts (a turn later: a run already over by then is written once, final) and again when
 * it ends: when the wrapper returns, or for a streamed result when its stream ends (the run settles then).
 * Writes never hold up or fail a run: they are not awaited, at most
 * `maxPending` are in flight (beyond that records are skipped and counted), a record's finish waits
 * for its start, and failures are logged, not thrown.
 */
import { StreamedRun, messageOf, runAborted, type CallObserver, type CallTimes, type ExecutionIndex, type ExecutionRecord, type ExecutionStatus, type Logger, type Observation, type RunCall } from "svc/plugin";
import { epochMs, isoTime, newExecutionKey } from "./execution-id.js";
import { runTraceId } from "./trace-id.js";
import { MemoryExecutionIndex } from "./memory-index.js";
import type { IdKey, RecordTimes } from "./record-columns.js";

const MAX_ERROR_LENGTH = 2000;
const LEFT_BEFORE_ANSWER = "The client left before the answer was sent; the run itself completed.";
const FLUSH_TIMEOUT_MS = 2000;

export class ExecutionRecorder {
  /** Writes under way; a flush waits for them to settle. */
  private inFlight = 0;
  private drained: (() => void) | undefined = undefined;
  private skipped = 0;
  private lastFailure = "";
  /** The in-memory index stores at once: no promise to wait for (this runs for every run). */
  private readonly memory: MemoryExecutionIndex | undefined;

  constructor(
    private readonly index: ExecutionIndex,
    private readonly log: Logger,
    private readonly maxPending = 1000,
  ) {
    this.memory = index instanceof MemoryExecutionIndex ? index : undefined;
  }

  readonly observer: CallObserver<RunCall, unknown> = { start: (call, times) => this.begin(call, times.startedAt) };

  /** Waits (a bounded time) for the writes in flight, before the index closes. */
  async flush(): Promise<void> {
    await new Promise((resolve) => setImmediate(resolve)); // first writes still waiting for their turn
    if (this.inFlight === 0) return;
    let timer: NodeJS.Timeout | undefined;
    await new Promise<void>((resolve) => {
      this.drained = resolve;
      timer = setTimeout(resolve, FLUSH_TIMEOUT_MS);
    });
    this.drained = undefined;
    clearTimeout(timer);
  }

  /** `startedAt`: the run's start as all its observers see it (`performance.now()`). */
  private begin(call: RunCall, startedAt: number): RunRecord {
    const startedMs = epochMs(startedAt);
    const run = new RunRecord(newExecutionKey(startedMs), call, runTraceId(call), call.requestId ?? null, startedMs, startedAt, this);
    // The first write waits a turn: a run that is over by then is written once, already final.
    if (this.queued.push(run) === 1) setImmediate(this.writeQueued);
    return run;
  }

  private readonly queued: RunRecord[] = [];
  private readonly writeQueued = () => {
    for (const run of this.queued.splice(0)) run.written = this.write("recordStart", run);
  };

  /** The final record of a run whose start is already being written replaces it afterwards. */
  stored(run: RunRecord): void {
    const written = run.written;
    if (written === DONE) this.write("recordFinish", run);
    else if (written) void written.then(() => this.write("recordFinish", run));
  }

  /** Writes a record; the promise settles (never rejects) once the index is done with it. */
  private write(op: "recordStart" | "recordFinish", run: RunRecord): Promise<void> {
    if (this.memory) {
      // The in-memory index copies the fields into its columns at once: the run itself is the record.
      try {
        if (op === "recordStart") this.memory.storeStart(run, run, run.key);
        else this.memory.storeFinish(run, run, run.key);
        this.lastFailure = "";
      } catch (error) {
        this.failed(error);
      }
      return DONE;
    }
    if (this.inFlight >= this.maxPending) {
      if (this.skipped++ % 1000 === 0) this.log.warn(`Execution index is not keeping up: ${this.skipped} record write(s) skipped so far`);
      return Promise.resolve();
    }
    let pending: Promise<void>;
    try {
      // Other indexes may keep what they are given: a plain object of the run as it is now.
      pending = this.index[op](run.snapshot());
    } catch (error) {
      pending = Promise.reject(error);
    }
    this.inFlight++;
    return pending.then(this.written, this.notWritten);
  }

  private readonly written = (): void => {
    this.lastFailure = "";
    this.settled();
  };

  private readonly notWritten = (error: unknown): void => {
    this.failed(error);
    this.settled();
  };

  private settled(): void {
    if (--this.inFlight === 0) this.drained?.();
  }

  /** Logs a failing index once per distinct message, not once per run. */
  private failed(error: unknown): void {
    const message = messageOf(error);
    if (message === this.lastFailure) return;
    this.lastFailure = message;
    this.log.warn(`Execution record not written: ${message}`);
  }
}

const DONE: Promise<void> = Promise.resolve();

/**
 * One invocation's record, finished exactly once. It is an `ExecutionRecord` itself (the in-memory
 * index reads it field by field, with its times and id parts as numbers: no object, ISO text or id
 * parse per run); other indexes get `snapshot()`.
 */
class RunRecord implements ExecutionRecord, RecordTimes, Observation<RunCall, unknown> {
  /** Set once the first write is under way. */
  written?: Promise<void> = undefined;
  readonly pipeline: string;
  readonly transport: string;
  readonly method: string;
  status: ExecutionStatus = "running";
  endedMs = NaN;
  duration_ms: number | null = null;
  error: string | null = null;

  constructor(
    /** The id's parts, so the in-memory index need not parse the id. */
    readonly key: IdKey,
    /** The call as this layer saw it (asked at the end whether it was aborted). */
    private readonly call: RunCall,
    readonly trace_id: string | null,
    readonly request_id: string | null,
    readonly startedMs: number,
    private readonly startedAt: number,
    private readonly recorder: ExecutionRecorder,
  ) {
    this.pipeline = call.pipeline;
    this.transport = call.transport;
    this.method = call.method;
  }

  succeeded(result: unknown, times: CallTimes): void {
    // A stream the client left cancelled the run; one whose consumer had all it needed did not.
    if (result instanceof StreamedRun) this.finish(times.endedAt, result.aborted ? "cancelled" : "succeeded");
    // An answer that no one received is not a success to the reader of the index: the caller
    // left (or shutdown gave up on it) before the run returned.
    else if (runAborted(this.call)) this.finish(times.endedAt, "cancelled", LEFT_BEFORE_ANSWER);
    else this.finish(times.endedAt, "succeeded");
  }

  failed(error: unknown, times: CallTimes): void {
    this.finish(times.endedAt, runAborted(this.call) ? "cancelled" : "failed", error);
  }

  /** Written out only when read: the in-memory index stores the key's parts. */
  get id(): string {
    return this.key.text;
  }

  get started_at(): string {
    return isoTime(this.startedMs);
  }

  get ended_at(): string | null {
    return Number.isNaN(this.endedMs) ? null : isoTime(this.endedMs);
  }

  /** `now`: the run's end as all its observers see it (`performance.now()`). */
  finish(now: number, status: ExecutionStatus, error?: unknown): void {
    if (this.status !== "running") return;
    this.endedMs = epochMs(now);
    this.duration_ms = Math.round((now - this.startedAt) * 1000) / 1000;
    this.error = error === undefined ? null : messageOf(error).slice(0, MAX_ERROR_LENGTH);
    this.status = status;
    this.recorder.stored(this);
  }

  /** The record as a plain object, in `ExecutionRecord`'s field order. */
  snapshot(): ExecutionRecord {
    return {
      id: this.id,
      pipeline: this.pipeline,
      transport: this.transport,
      method: this.method,
      status: this.status,
      started_at: this.started_at,
      ended_at: this.ended_at,
      duration_ms: this.duration_ms,
      error: this.error,
      trace_id: this.trace_id,
      request_id: this.request_id,
    };
  }
}
