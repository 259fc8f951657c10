/**
 * @module Pulling from an async iterator while watching the request's AbortSignal: `next()` gives
 * up as soon as the signal fires (the pending item is abandoned), and `next(ms)` also gives up
 * after a time, leaving the item pending for the following call. One abort listener serves the
 * whole stream, so a long stream allocates nothing per item beyond its promise.
 */

export const ABORTED: unique symbol = Symbol("svc.openai.aborted");
export const TIMED_OUT: unique symbol = Symbol("svc.openai.timedOut");

type Pulled<T> = IteratorResult<T> | typeof ABORTED | typeof TIMED_OUT;

export class AbortableIterator<T> {
  private readonly iterator: AsyncIterator<T>;
  /** An item requested from the source and not yet handed out (after a time-out). */
  private inflight?: Promise<IteratorResult<T>>;
  private settle?: (value: Pulled<T>) => void;
  private closed = false;

  constructor(
    source: AsyncIterable<T> | Iterable<T>,
    private readonly signal: AbortSignal,
  ) {
    this.iterator = Symbol.asyncIterator in source ? source[Symbol.asyncIterator]() : toAsync((source as Iterable<T>)[Symbol.iterator]());
    signal.addEventListener("abort", this.onAbort, { once: true });
  }

  get aborted(): boolean {
    return this.signal.aborted;
  }

  /** The next result, `ABORTED` once the signal fired, or `TIMED_OUT` after `timeoutMs`. */
  next(timeoutMs?: number): Promise<Pulled<T>> {
    if (this.signal.aborted) return Promise.resolve(ABORTED);
    const pending = (this.inflight ??= this.iterator.next());
    return new Promise<Pulled<T>>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const settle = (value: Pulled<T>) => {
        if (timer) clearTimeout(timer);
        if (this.settle === settle) this.settle = undefined;
        resolve(value);
      };
      this.settle = settle;
      if (timeoutMs !== undefined) timer = setTimeout(() => settle(TIMED_OUT), timeoutMs);
      pending.then(
        (result) => {
          if (this.inflight === pending) this.inflight = undefined;
          settle(result);
        },
        (error) => {
          if (this.inflight === pending) this.inflight = undefined;
          if (timer) clearTimeout(timer);
          if (this.settle === settle) this.settle = undefined;
          reject(error);
        },
      );
    });
  }

  /**
   * Stops the source: closes its iterator (an async generator suspended in an `await` is closed at
   * its next `yield`). Safe to call more than once; never throws.
   */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.signal.removeEventListener("abort", this.onAbort);
    try {
      void Promise.resolve(this.iterator.return?.()).catch(() => undefined);
    } catch {
      // a throwing return(): nothing more to stop
    }
  }

  private readonly onAbort = () => this.settle?.(ABORTED);
}

async function* toAsync<T>(iterator: Iterator<T>): AsyncGenerator<T> {
  try {
    for (let r = iterator.next(); !r.done; r = iterator.next()) yield r.value;
  } finally {
    iterator.return?.();
  }
}
