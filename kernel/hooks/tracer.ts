/**
 * @module The Tracer contract of the `trace` hook, the no-op tracer used until a plugin installs
 * one, and the proxy the kernel hands out so code holding it sees tracers installed later.
 */

export type TagValue = string | number | boolean | null | undefined | readonly unknown[] | Record<string, unknown>;
export type Tags = Record<string, TagValue>;

export interface Span {
  readonly name: string;
  /** The trace this span belongs to (32 hex digits), when a tracer assigns ids. */
  readonly traceId?: string;
  /** This span's id (16 hex digits), when a tracer assigns ids. */
  readonly spanId?: string;
  /** W3C trace flags (bit 0 sampled, bit 1 random trace id) outgoing calls send; sampled when absent. */
  readonly traceFlags?: number;
  /** The W3C `tracestate` outgoing calls pass on, when the trace came with one. */
  readonly traceState?: string;
  setTag(key: string, value: TagValue): Span;
  setTags(tags: Tags): Span;
  /** Ends the span; an error marks it failed. Ending twice is a no-op. */
  end(error?: unknown): void;
}

export interface Tracer {
  /** Starts a span under `parent`, or a new trace without one. */
  startSpan(name: string, tags?: Tags, parent?: Span): Span;
}

/**
 * The span of the invocation an AbortSignal belongs to, and the tracer (the kernel's) that made it.
 * A transport's run span is bound to the call's signal, so code that only has the signal (a
 * pipeline a wrapper runs with `{ signal: ctx.signal }`) traces with its kernel's tracer below
 * the run, without an async context (whose hooks would cost every request) and without a
 * process-wide default (two kernels in one process keep their traces apart). A WeakMap: the
 * entry goes with the signal.
 */
const signalSpans = new WeakMap<AbortSignal, { span: Span; tracer: Tracer }>();

export function bindSignalSpan(signal: AbortSignal, span: Span, tracer: Tracer): void {
  signalSpans.set(signal, { span, tracer });
}

/** The span bound to `signal`, if any. */
export function signalSpan(signal: AbortSignal | undefined): Span | undefined {
  return signal ? signalSpans.get(signal)?.span : undefined;
}

/** The tracer of the span bound to `signal`, if any. */
export function signalTracer(signal: AbortSignal | undefined): Tracer | undefined {
  return signal ? signalSpans.get(signal)?.tracer : undefined;
}

class NoopSpan implements Span {
  constructor(readonly name: string) {}
  setTag(): Span {
    return this;
  }
  setTags(): Span {
    return this;
  }
  end(): void {}
}

export const NOOP_TRACER: Tracer = {
  startSpan: (name) => new NoopSpan(name),
};

/** One span per installed tracer, so several tracers see the same tree. */
class FanoutSpan implements Span {
  constructor(
    readonly name: string,
    readonly parts: readonly Span[],
  ) {}
  // The first tracer that assigns ids names the span (a timing-only tracer, such as the metrics
  // plugin's, assigns none and may be installed first).
  get traceId(): string | undefined {
    return this.parts.find((s) => s.traceId !== undefined)?.traceId;
  }
  get spanId(): string | undefined {
    return this.parts.find((s) => s.spanId !== undefined)?.spanId;
  }
  get traceFlags(): number | undefined {
    return this.parts[0]?.traceFlags;
  }
  get traceState(): string | undefined {
    return this.parts[0]?.traceState;
  }
  setTag(key: string, value: TagValue): Span {
    for (const s of this.parts) s.setTag(key, value);
    return this;
  }
  setTags(tags: Tags): Span {
    for (const s of this.parts) s.setTags(tags);
    return this;
  }
  end(error?: unknown): void {
    for (const s of this.parts) s.end(error);
  }
}

class FanoutTracer implements Tracer {
  constructor(private readonly tracers: readonly Tracer[]) {}
  startSpan(name: string, tags?: Tags, parent?: Span): Span {
    // A fan-out parent has one part per tracer; any other parent (a caller's remote span, a run span
    // one tracer made itself) goes to every tracer: the one that knows it continues its trace.
    const parents = parent instanceof FanoutSpan ? parent.parts : undefined;
    return new FanoutSpan(
      name,
      this.tracers.map((t, i) => t.startSpan(name, tags, parents ? parents[i] : parent)),
    );
  }
}

/** The tracer the kernel hands out: delegates to whatever the `trace` hook holds at call time. */
export class ProxyTracer implements Tracer {
  private delegate: Tracer = NOOP_TRACER;

  /** Called by the trace hook when the set of installed tracers changes. */
  use(tracers: readonly Tracer[]): void {
    this.delegate = tracers.length === 0 ? NOOP_TRACER : tracers.length === 1 ? tracers[0]! : new FanoutTracer(tracers);
  }

  get active(): boolean {
    return this.delegate !== NOOP_TRACER;
  }

  startSpan(name: string, tags?: Tags, parent?: Span): Span {
    return this.delegate.startSpan(name, tags, parent);
  }
}

/** Runs `fn` in a span that ends with the outcome of `fn`. */
export async function inSpan<T>(
  tracer: Tracer,
  name: string,
  tags: Tags,
  fn: (span: Span) => Promise<T> | T,
  parent?: Span,
): Promise<T> {
  const span = tracer.startSpan(name, tags, parent);
  try {
    const result = await fn(span);
    span.end();
    return result;
  } catch (error) {
    span.end(error);
    throw error;
  }
}
