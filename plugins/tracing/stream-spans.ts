/**
 * @module Spans of streamed results. The run interceptor hands over the stream a wrapper returned;
 * it is wrapped so its end is seen. The `stream` hook, which the transport
 * pipes the items through, is matched to the span by request id: its notifications end the span
 * with the consumer's view (`svc.stream.items`, `svc.stream.first_item_ms`, `svc.stream.aborted`).
 * A stream no transport pipes through the hook ends the span itself; one never read ends it when
 * the request is aborted.
 */
import { SseStream, type RunCall, type Span, type StreamInfo, type StreamStats, type StreamTap } from "svc";

/** Streams waiting for their transport to open them, by request id; bounded against leaks. */
const MAX_PENDING = 10_000;

class TrackedStream {
  finished = false;
  /** Opened by the `stream` hook, whose notifications then end the span. */
  hooked = false;
  items = 0;
  firstItemMs?: number;
  private readonly startedAt = performance.now();
  private readonly onAbort = () => {
    if (!this.hooked) this.finish(undefined, true);
  };

  constructor(
    readonly span: Span,
    private readonly signal: AbortSignal | undefined,
    private readonly release: (t: TrackedStream) => void,
  ) {
    signal?.addEventListener("abort", this.onAbort, { once: true });
  }

  sawItem(): void {
    this.items++;
    this.firstItemMs ??= performance.now() - this.startedAt;
  }

  finish(error: unknown, aborted: boolean, stats?: StreamStats): void {
    if (this.finished) return;
    this.finished = true;
    this.signal?.removeEventListener("abort", this.onAbort);
    this.release(this);
    this.span.setTag("svc.stream.items", stats?.items ?? this.items);
    if (this.firstItemMs !== undefined) this.span.setTag("svc.stream.first_item_ms", Math.round(this.firstItemMs * 1000) / 1000);
    if (aborted) this.span.setTag("svc.stream.aborted", true);
    this.span.end(error);
  }

  /** The source ended (or failed, or was closed early), seen from the wrapper's side. */
  sourceEnded(error: unknown, closedEarly: boolean): void {
    // The hook's notification follows with the consumer's numbers; this is the fallback.
    if (this.hooked) setImmediate(() => this.finish(error, closedEarly));
    else this.finish(error, closedEarly);
  }
}

export class StreamSpans {
  private readonly pending = new Map<string, TrackedStream>();
  private readonly opened = new WeakMap<StreamInfo, TrackedStream>();


  /** Wraps a streamed result so its span ends with the stream. */
  track(span: Span, call: RunCall, result: unknown): unknown {
    const tracked = new TrackedStream(span, call.signal, (t) => {
      if (call.requestId && this.pending.get(call.requestId) === t) this.pending.delete(call.requestId);
    });
    if (call.requestId) {
      if (this.pending.size >= MAX_PENDING) this.pending.delete(this.pending.keys().next().value!);
      this.pending.set(call.requestId, tracked);
    }
    if (result instanceof SseStream) return new SseStream(this.wrap(result.source, tracked));
    return this.wrap(result as AsyncIterable<unknown> | Iterable<unknown>, tracked);
  }

  /** The `stream` hook tap. */
  readonly tap: StreamTap = {
    start: (info) => {
      const tracked = info.requestId ? this.pending.get(info.requestId) : undefined;
      if (!tracked) return;
      this.pending.delete(info.requestId!);
      tracked.hooked = true;
      this.opened.set(info, tracked);
    },
    end: (info, stats) => this.opened.get(info)?.finish(undefined, false, stats),
    error: (info, error, stats) => this.opened.get(info)?.finish(error, false, stats),
    abort: (info, stats) => this.opened.get(info)?.finish(undefined, true, stats),
  };

  private wrap(source: AsyncIterable<unknown> | Iterable<unknown>, tracked: TrackedStream): AsyncIterable<unknown> | Iterable<unknown> {
    const observe = <R extends IteratorResult<unknown>>(result: R): R => {
      if (result.done) tracked.sourceEnded(undefined, false);
      else tracked.sawItem();
      return result;
    };
    const fail = (error: unknown): never => {
      tracked.sourceEnded(error, false);
      throw error;
    };
    if (Symbol.asyncIterator in source) {
      return {
        [Symbol.asyncIterator]() {
          const it = source[Symbol.asyncIterator]();
          return {
            next: (...args: [] | [unknown]) => it.next(...args).then(observe, fail),
            return: async (value?: unknown) => {
              tracked.sourceEnded(undefined, true);
              return it.return ? it.return(value) : { done: true as const, value };
            },
            throw: (error?: unknown) => (it.throw ? it.throw(error) : Promise.reject(error)),
          };
        },
      };
    }
    return {
      [Symbol.iterator]() {
        const it = (source as Iterable<unknown>)[Symbol.iterator]();
        return {
          next: (...args: [] | [unknown]) => {
            try {
              return observe(it.next(...args));
            } catch (error) {
              return fail(error);
            }
          },
          return: (value?: unknown) => {
            tracked.sourceEnded(undefined, true);
            return it.return ? it.return(value) : { done: true as const, value };
          },
          throw: (error?: unknown) => {
            if (it.throw) return it.throw(error);
            throw error;
          },
        };
      },
    };
  }
}
