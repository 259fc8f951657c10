/**
 * @module The process-local trace buffer: the most recently updated traces (at most `capacity`),
 * each with at most `maxSpans` spans, running ones included. Recording is cheap on purpose: tags
 * are kept as given (strings cut to the tag length limit) and only rendered when a snapshot is
 * taken. The map's order is the update order, so eviction drops the least recently updated trace.
 */
import type { TagValue, Tags } from "svc";

export const MAX_SPANS_PER_TRACE = 500;
export const MAX_TAG_LENGTH = 500;

export class SpanRecord {
  /** Epoch milliseconds. */
  readonly startMs: number;
  /** Milliseconds; final once the span ended. */
  durationMs = 0;
  running = true;
  readonly tags: Record<string, TagValue>;
  private readonly startedAt: number;

  constructor(
    readonly spanId: string,
    /** The recorded parent, or undefined for a span with none in this buffer. */
    readonly parentId: string | undefined,
    readonly name: string,
    tags: Tags | undefined,
    now: number,
  ) {
    this.startedAt = now;
    this.startMs = performance.timeOrigin + now;
    // The tags object is the caller's fresh literal: kept as is (long strings are cut in place).
    this.tags = tags ?? {};
    for (const key in this.tags) {
      const value = this.tags[key];
      if (typeof value === "string" && value.length > MAX_TAG_LENGTH) this.tags[key] = value.slice(0, MAX_TAG_LENGTH);
    }
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

export class TraceRecord {
  readonly spans: SpanRecord[] = [];
  /** Spans that could not be kept because the trace was full. */
  dropped = 0;
  updatedAt = 0;

  constructor(readonly traceId: string) {}
}

export class TraceBuffer {
  private readonly traces = new Map<string, TraceRecord>();
  /** The most recently updated trace: updating it again needs no reordering. */
  private newest?: TraceRecord;

  constructor(
    readonly capacity: number,
    readonly maxSpans: number = MAX_SPANS_PER_TRACE,
  ) {}

  get size(): number {
    return this.traces.size;
  }

  /** Records a span start; undefined when its trace is full (the span is then not kept). */
  start(traceId: string, spanId: string, parentId: string | undefined, name: string, tags: Tags | undefined): SpanRecord | undefined {
    const now = performance.now();
    let trace = this.traces.get(traceId);
    if (!trace) {
      trace = new TraceRecord(traceId);
      if (this.traces.size >= this.capacity) this.evictOldest();
    } else {
      if (trace.spans.length >= this.maxSpans) {
        trace.dropped++;
        return undefined;
      }
    }
    const span = new SpanRecord(spanId, parentId, name, tags, now);
    trace.spans.push(span);
    this.touch(trace, now);
    return span;
  }

  /** Records a span's end and moves its trace to the most recently updated place. */
  finish(traceId: string, span: SpanRecord): void {
    const now = performance.now();
    span.finish(now);
    const trace = this.newest?.traceId === traceId ? this.newest : this.traces.get(traceId);
    if (trace) this.touch(trace, now); // else evicted while the span ran
  }

  /** Marks `trace` updated: it moves to the end of the update order. */
  private touch(trace: TraceRecord, now: number): void {
    trace.updatedAt = now;
    if (this.newest === trace) return;
    this.traces.delete(trace.traceId);
    this.traces.set(trace.traceId, trace);
    this.newest = trace;
  }

  /** Every trace, least recently updated first. */
  all(): TraceRecord[] {
    return [...this.traces.values()];
  }

  clear(): void {
    this.traces.clear();
    this.newest = undefined;
  }

  private evictOldest(): void {
    const oldest = this.traces.keys().next();
    if (oldest.done) return;
    this.traces.delete(oldest.value);
    if (this.newest?.traceId === oldest.value) this.newest = undefined;
  }
}
