/**
 * @module InvocationStream: the one iterator a streamed invocation's items pass through on their
 * way to the transport's encoder. It applies the `stream` hook, counts what reached the consumer,
 * stops as soon as the run's signal fires (even while waiting for an item), closes the source
 * whichever way it ends, and settles the run once: when the source ends, fails, or the consumer
 * stops. `next(ms)` also gives up after a time (for heartbeats), leaving the item pending for the
 * following call. One abort listener serves the whole stream. A signal aborted with an HttpError
 * as its reason (a run limit's time-out) fails the stream with that error instead: the transport
 * then sends its error event.
 */
import { performance } from "node:perf_hooks";
import { HttpError } from "../errors.js";
import { DROP, type WaterfallHook, type StreamInfo, type StreamStats } from "../hooks/waterfall-hook.js";

export const ABORTED: unique symbol = Symbol("svc.invoke.aborted");
export const TIMED_OUT: unique symbol = Symbol("svc.invoke.timedOut");

export type Pulled<T> = IteratorResult<T> | typeof ABORTED | typeof TIMED_OUT;

/** How a stream ended, as its run settles. */
export type StreamEnd = { kind: "end" | "stopped"; stats: StreamStats } | { kind: "error"; error: unknown; stats: StreamStats };

export class InvocationStream<T = unknown> implements AsyncIterable<T> {
  private readonly iterator: AsyncIterator<unknown>;
  /** An item is being pulled from the source. */
  private pulling = false;
  /** An item (or failure) that arrived while no call waited (after a time-out): the next call's. */
  private ready?: { result: IteratorResult<T> } | { error: unknown };
  /** The call waiting now; one at a time. */
  private resolve?: (value: Pulled<T>) => void;
  private reject?: (error: unknown) => void;
  private timer?: NodeJS.Timeout;
  private readonly startedAt = performance.now();
  private items = 0;
  private firstItemMs?: number;
  private finished = false;
  private closed = false;

  constructor(
    source: AsyncIterable<unknown> | Iterable<unknown>,
    private readonly info: StreamInfo,
    private readonly hook: WaterfallHook,
    private readonly signal: AbortSignal,
    private readonly settle: (end: StreamEnd) => void = () => undefined,
  ) {
    this.iterator = Symbol.asyncIterator in source ? source[Symbol.asyncIterator]() : toAsync((source as Iterable<unknown>)[Symbol.iterator]());
    hook.notify("start", info);
    if (signal.aborted) this.onAbort();
    else signal.addEventListener("abort", this.onAbort, { once: true });
  }

  get aborted(): boolean {
    return this.signal.aborted;
  }

  /** The next item, `done` at the end, `ABORTED` once the signal fired, or `TIMED_OUT` after `timeoutMs`. */
  next(timeoutMs?: number): Promise<Pulled<T>> {
    if (this.signal.aborted) return abortReason(this.signal) ? Promise.reject(this.signal.reason) : Promise.resolve(ABORTED);
    if (this.closed) return Promise.resolve({ done: true, value: undefined });
    const ready = this.ready;
    if (ready) {
      this.ready = undefined;
      return "error" in ready ? Promise.reject(ready.error) : Promise.resolve(ready.result);
    }
    if (!this.pulling) {
      this.pulling = true;
      void this.pull();
    }
    if (timeoutMs !== undefined) this.timer = setTimeout(this.timeOut, timeoutMs);
    return new Promise(this.wait);
  }

  // Bound once, not made per item: one stream hands out thousands of items.
  private readonly wait = (resolve: (value: Pulled<T>) => void, reject: (error: unknown) => void) => {
    this.resolve = resolve;
    this.reject = reject;
  };

  private deliver(result: IteratorResult<T>): void {
    this.pulling = false;
    if (!this.handOut(result)) this.ready = { result };
  }

  private deliverError(error: unknown): void {
    this.pulling = false;
    if (!this.failOut(error)) this.ready = { error };
  }

  /** The pulled item stays for the following call. */
  private readonly timeOut = () => this.handOut(TIMED_OUT);

  /** Answers the waiting call (exactly once); false when no call waits. */
  private handOut(value: Pulled<T>): boolean {
    const resolve = this.resolve;
    if (!resolve) return false;
    this.stopWaiting();
    resolve(value);
    return true;
  }

  private failOut(error: unknown): boolean {
    const reject = this.reject;
    if (!reject) return false;
    this.stopWaiting();
    reject(error);
    return true;
  }

  private stopWaiting(): void {
    this.resolve = this.reject = undefined;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** `for await`: ends at the source's end or at an abort; breaking out closes the stream. */
  [Symbol.asyncIterator](): AsyncIterator<T> {
    return {
      next: async () => {
        const step = await this.next();
        return step === ABORTED || step === TIMED_OUT ? { done: true, value: undefined } : step;
      },
      return: async () => {
        this.close();
        return { done: true, value: undefined };
      },
    };
  }

  /** Stops: closes the source and settles the run if it had not ended. Safe to call more than once. */
  close(): void {
    if (this.closed) return;
    this.finish({ kind: "stopped", stats: this.stats() });
    this.closed = true;
    this.signal.removeEventListener("abort", this.onAbort);
    stopIterator(this.iterator);
  }

  /** Reads the source's next item through the hook, and hands it out (or keeps it for the next call). */
  private async pull(): Promise<void> {
    try {
      while (true) {
        const step = await this.iterator.next();
        if (step.done) {
          this.finish({ kind: "end", stats: this.stats() });
          return this.deliver({ done: true, value: undefined });
        }
        const item = this.hook.transformsItems ? await this.hook.item(step.value, this.info) : step.value;
        if (item === DROP) continue;
        this.items++;
        this.firstItemMs ??= performance.now() - this.startedAt;
        return this.deliver({ done: false, value: item as T });
      }
    } catch (error) {
      this.finish({ kind: "error", error, stats: this.stats() });
      this.deliverError(error);
    }
  }

  private stats(): StreamStats {
    return { items: this.items, durationMs: performance.now() - this.startedAt, firstItemMs: this.firstItemMs };
  }

  /** Notifies the hook, then settles the run: exactly once. */
  private finish(end: StreamEnd): void {
    if (this.finished) return;
    this.finished = true;
    if (end.kind === "error") this.hook.notify("error", this.info, end.error, end.stats);
    else this.hook.notify(end.kind === "end" ? "end" : "abort", this.info, end.stats);
    this.settle(end);
  }

  private readonly onAbort = () => {
    const failure = abortReason(this.signal);
    if (failure) {
      this.finish({ kind: "error", error: failure, stats: this.stats() });
      this.failOut(failure);
    } else {
      this.handOut(ABORTED);
    }
    this.close();
  };
}

/** Closes an iterator without waiting or throwing: a generator busy in an await closes when it next yields. */
export function stopIterator(iterator: Iterator<unknown> | AsyncIterator<unknown>): void {
  try {
    void Promise.resolve(iterator.return?.()).catch(() => undefined);
  } catch {
    // a throwing return(): nothing more to stop
  }
}

/** The error a signal was aborted with, when it is an answer to send (not a client leaving). */
function abortReason(signal: AbortSignal): HttpError | undefined {
  return signal.reason instanceof HttpError ? signal.reason : undefined;
}

async function* toAsync<T>(iterator: Iterator<T>): AsyncGenerator<T> {
  try {
    for (let r = iterator.next(); !r.done; r = iterator.next()) yield r.value;
  } finally {
    iterator.return?.();
  }
}
