/**
 * @module The tracer the tracing plugin installs on the kernel's `trace` hook. Each span is
 * recorded in the trace buffer (when the trace API is on) and handed to an exporter (OpenTelemetry,
 * when configured), under one pair of ids. Parents are explicit; the kernel's run context binds the
 * run span to the call's AbortSignal, which is how the engine finds it for a wrapper's pipeline
 * runs. (An async context would have made every request pay for async hooks.)
 *
 * Filters: framework spans (`haystack.*`) are kept out of the buffer when
 * SERVICE_TRACING_INCLUDE_FRAMEWORK_SPANS is false (they are still exported); span names in
 * SERVICE_TRACING_EXCLUDED_SPANS are dropped everywhere. The children of a span that is not kept
 * attach to its nearest kept ancestor.
 *
 * A parent may be the caller's span (a `RemoteSpan` from its `traceparent`): the span then joins
 * the caller's trace, with the caller's span as its parent. The sampled flag is the exporter's
 * decision (OpenTelemetry's sampler, parent-based by default); the buffer records every span
 * whatever the flag says.
 */
import { performance } from "node:perf_hooks";
import { RemoteSpan, TRACE_FLAG_RANDOM, TRACE_FLAG_SAMPLED, type Span, type TagValue, type Tags, type Tracer } from "svc/plugin";
import { newSpanId, newTraceId } from "./ids.js";
import { outcomeTags } from "./outcome.js";
import { SpanRecord, type TraceBuffer, type TraceRecord } from "./trace-buffer.js";

/** A span in an exporter (OpenTelemetry): it supplies the ids when present. */
export interface ExportedSpan {
  readonly traceId: string;
  readonly spanId: string;
  /** Whether the exporter samples (records and exports) this span. */
  readonly sampled: boolean;
  setTag(key: string, value: TagValue): void;
  end(error?: unknown): void;
}

export interface SpanExporter {
  /** `parent`: the exported parent in this process, or the caller's span from its `traceparent`. */
  start(name: string, tags: Tags | undefined, parent: ExportedSpan | RemoteSpan | undefined): ExportedSpan;
}

export interface TracerOptions {
  /** The trace buffer; undefined when the local trace API is off. */
  readonly buffer?: TraceBuffer;
  readonly exporter?: SpanExporter;
  readonly includeFrameworkSpans: boolean;
  readonly excludedSpans: readonly string[];
  /** SERVICE_SHOW_TRACEBACKS: add the error stack to failed spans. */
  readonly showTracebacks: boolean;
}

const FRAMEWORK_PREFIX = "haystack.";

/** A span of this tracer; it is also its own record in the trace buffer. */
export class TracingSpan extends SpanRecord implements Span {
  private ended = false;

  constructor(
    private readonly tracer: SvcTracer,
    name: string,
    tags: Tags | undefined,
    readonly traceId: string,
    spanId: string,
    /** The nearest kept ancestor in the buffer: this span's parent there. */
    parentId: string | undefined,
    readonly exported: ExportedSpan | undefined,
    /** W3C trace flags for outgoing calls. */
    readonly traceFlags: number,
    readonly traceState: string | undefined,
    startedAt: number,
  ) {
    super(spanId, parentId, name, tags, startedAt);
  }

  /** The buffered trace this span belongs to (its children's too); undefined when not buffered. */
  trace: TraceRecord | undefined = undefined;
  /** Whether the buffer keeps this span (set once at the start). */
  kept = false;

  /** The id children record as their parent in the buffer. */
  get bufferId(): string | undefined {
    return this.kept ? this.spanId : this.parentId;
  }

  override setTag(key: string, value: TagValue): Span {
    if (this.ended) return this;
    super.setTag(key, value);
    this.exported?.setTag(key, value);
    return this;
  }

  setTags(tags: Tags): Span {
    for (const key in tags) this.setTag(key, tags[key]);
    return this;
  }

  /** `now`: the end as `performance.now()` when the caller has read it already. */
  end(error?: unknown, now: number = performance.now()): void {
    if (this.ended) return;
    // A success sets one tag: no tags object to walk (this runs for every run).
    if (error === undefined) this.setTag("svc.success", true);
    else this.setTags(outcomeTags(error, this.tracer.showTracebacks));
    this.ended = true;
    if (this.kept) this.tracer.buffer!.finish(this.trace!, this, now);
    else this.finish(now);
    this.exported?.end(error);
  }
}

/** An excluded span: records nothing, and passes its parent on to spans started below it. */
class DroppedSpan implements Span {
  constructor(
    readonly name: string,
    readonly parent: TracingSpan | undefined,
  ) {}
  get traceId(): string | undefined {
    return this.parent?.traceId;
  }
  get spanId(): string | undefined {
    return this.parent?.spanId;
  }
  get traceFlags(): number | undefined {
    return this.parent?.traceFlags;
  }
  get traceState(): string | undefined {
    return this.parent?.traceState;
  }
  setTag(): Span {
    return this;
  }
  setTags(): Span {
    return this;
  }
  end(): void {}
}

/**
 * W3C flags of a new span: sampled as the exporter decided (without one, as the parent was; our
 * own traces are sampled), and the parent's `random` flag, set for our own (random) trace ids.
 */
function traceFlags(parent: TracingSpan | RemoteSpan | undefined, exported: ExportedSpan | undefined): number {
  const inherited = parent ? parent.traceFlags : TRACE_FLAG_SAMPLED | TRACE_FLAG_RANDOM;
  if (!exported) return inherited;
  return (inherited & TRACE_FLAG_RANDOM) | (exported.sampled ? TRACE_FLAG_SAMPLED : 0);
}

export class SvcTracer implements Tracer {
  readonly buffer?: TraceBuffer;
  readonly showTracebacks: boolean;
  private readonly exporter?: SpanExporter;
  private readonly excluded: ReadonlySet<string>;
  private readonly includeFramework: boolean;

  constructor(options: TracerOptions) {
    this.buffer = options.buffer;
    this.exporter = options.exporter;
    this.showTracebacks = options.showTracebacks;
    this.excluded = new Set(options.excludedSpans);
    this.includeFramework = options.includeFrameworkSpans;
  }

  /** `now`: the start as `performance.now()` when the caller has read it already. */
  startSpan(name: string, tags?: Tags, parent?: Span, now: number = performance.now()): Span {
    let p = parent;
    if (p instanceof DroppedSpan) p = p.parent;
    const up = p instanceof TracingSpan ? p : undefined;
    const remote = up === undefined && p instanceof RemoteSpan ? p : undefined;
    if (this.excluded.size > 0 && this.excluded.has(name)) return up || !remote ? new DroppedSpan(name, up) : remote;

    const exported = this.exporter?.start(name, tags, up ? up.exported : remote);
    const traceId = exported?.traceId ?? up?.traceId ?? remote?.traceId ?? newTraceId();
    const parentId = up ? up.bufferId : remote?.spanId;
    const traceState = up ? up.traceState : remote?.traceState;
    const span = new TracingSpan(this, name, tags, traceId, exported?.spanId ?? newSpanId(), parentId, exported, traceFlags(up ?? remote, exported), traceState, now);
    const buffer = this.buffer;
    if (buffer !== undefined) {
      span.trace = up?.trace;
      if (this.includeFramework || !name.startsWith(FRAMEWORK_PREFIX)) {
        if (span.trace) span.kept = buffer.add(span.trace, span);
        else {
          span.trace = buffer.startTrace(traceId, span);
          span.kept = true;
        }
      }
    }
    return span;
  }
}
