/**
 * @module The process-local trace buffer: the most recently updated traces (at most `capacity`),
 * each with at most `maxSpans` spans, running ones included. Recording is cheap on purpose: a
 * span is its own record, reaches its trace through its parent (no lookup by id), and keeps its
 * tags as given, rendered (and cut) only when a snapshot is taken. Eviction drops the least
 * recently updated traces in batches, not on every update.
 *
 * A trace lives for a few hundred requests, long enough to be copied by the young-generation
 * garbage collector once or twice, so what it keeps costs CPU on every request: a trace of one span
 * (the common case) holds no array, updates are numbered rather than timed, and the start time is
 * derived rather than stored.
 */
import { performance } from "node:perf_hooks";
import type { TagValue, Tags } from "svc/plugin";

export const MAX_SPANS_PER_TRACE = 500;
export const MAX_TAG_LENGTH = 500;

export class SpanRecord {
  /** Milliseconds; final once the span ended. */
  durationMs = 0;
  running = true;
  readonly tags: Record<string, TagValue>;
  /** `performance.now()` at the start. */
  readonly startedAt: number;

  constructor(
    readonly spanId: string,
    /** The recorded parent, or undefined for a span with none in this buffer. */
    readonly parentId: string | undefined,
    readonly name: string,
    tags: Tags | undefined,
    now: number = performance.now(),
  ) {
    this.startedAt = now;
    // The tags object is the caller's fresh literal, kept as is; values are cut when rendered
    // (tags set later, such as error messages, are cut as they are set).
    this.tags = tags ?? {};
  }

  /** Epoch milliseconds. */
  get startMs(): number {
    return performance.timeOrigin + this.startedAt;
  }

  setTag(key: string, value: TagValue): void {
    this.tags[key] = typeof value === "string" && value.length > MAX_TAG_LENGTH ? value.slice(0, MAX_TAG_LENGTH) : value;
  }

  finish(now: number): void {
    this.durationMs = now - this.startedAt;
    this.running = false;
  }

  /** The duration so far for a running span. */
  elapsedMs(now: number): number {
    return this.running ? now - this.startedAt : this.durationMs;
  }
}

let updates = 0;

export class TraceRecord {
  /** The spans after the first, once there are any. */
  private more: SpanRecord[] | undefined = undefined;
  /** Spans that could not be kept because the trace was full. */
  dropped = 0;
  /** Numbers the updates of all traces in order: the higher, the more recent. */
  updatedAt = ++updates;

  constructor(
    readonly traceId: string,
    private readonly first: SpanRecord,
  ) {}

  /** The kept spans, in the order they started (a new array). */
  get spans(): SpanRecord[] {
    return this.more ? [this.first, ...this.more] : [this.first];
  }

  get spanCount(): number {
    return 1 + (this.more?.length ?? 0);
  }

  push(span: SpanRecord): void {
    (this.more ??= []).push(span);
    this.touch();
  }

  touch(): void {
    this.updatedAt = ++updates;
  }
}

export class TraceBuffer {
  /** In creation order; spans reach their trace through their parent, so no lookup by id. */
  private traces: TraceRecord[] = [];
  /** Eviction runs in batches once this many traces are over capacity: amortized per request. */
  private readonly slack: number;

  constructor(
    readonly capacity: number,
    readonly maxSpans: number = MAX_SPANS_PER_TRACE,
  ) {
    // Up to `capacity` extra (at most 1000) between evictions: each sorts at most twice the buffer.
    this.slack = Math.max(32, Math.min(capacity, 1000));
  }

  /** Starts a trace with `span` as its first span. */
  startTrace(traceId: string, span: SpanRecord): TraceRecord {
    const trace = new TraceRecord(traceId, span);
    this.traces.push(trace);
    if (this.traces.length > this.capacity + this.slack) this.evict();
    return trace;
  }

  /** Adds a span to its trace; false when the trace is full (the span is then not kept). */
  add(trace: TraceRecord, span: SpanRecord): boolean {
    if (trace.spanCount >= this.maxSpans) {
      trace.dropped++;
      return false;
    }
    trace.push(span);
    return true;
  }

  /** Records a span's end (at `now`, `performance.now()`), which counts as an update of its trace. */
  finish(trace: TraceRecord, span: SpanRecord, now: number = performance.now()): void {
    span.finish(now);
    trace.touch();
  }

  /** The retained traces: at most `capacity`, the most recently updated. */
  all(): TraceRecord[] {
    if (this.traces.length > this.capacity) this.evict();
    return [...this.traces];
  }

  get size(): number {
    return Math.min(this.traces.length, this.capacity);
  }

  clear(): void {
    this.traces = [];
  }

  /** Keeps the `capacity` most recently updated traces, in creation order. */
  private evict(): void {
    const excess = this.traces.length - this.capacity;
    if (excess <= 0) return;
    // Most traces are one span that ends before the next request's: the oldest created are then
    // also the least recently updated, and they go without a sort.
    let oldest = 0;
    for (let i = 0; i < excess; i++) oldest = Math.max(oldest, this.traces[i]!.updatedAt);
    let inOrder = true;
    for (let i = excess; inOrder && i < this.traces.length; i++) inOrder = this.traces[i]!.updatedAt > oldest;
    if (inOrder) {
      this.traces = this.traces.slice(excess);
      return;
    }
    // A typed array sorts numbers natively, without calling back into JavaScript per comparison.
    const updates = new Float64Array(this.traces.length);
    for (let i = 0; i < updates.length; i++) updates[i] = this.traces[i]!.updatedAt;
    const cutoff = updates.sort()[excess - 1]!;
    let toDrop = excess;
    this.traces = this.traces.filter((t) => !(t.updatedAt <= cutoff && toDrop-- > 0));
  }
}
