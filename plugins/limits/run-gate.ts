/**
 * @module RunGate: admits at most `max` runs of one pipeline at once; up to `maxQueue` more wait
 * in arrival order, and a call beyond that is refused at once. A waiting call whose client leaves
 * is taken out of the queue. The mean run time (a moving average) gives the refusal's Retry-After.
 */
export interface GateStatus {
  readonly running: number;
  readonly queued: number;
  readonly max: number;
}

interface Waiter {
  readonly admit: () => void;
  readonly onAbort: () => void;
}

export class RunGate implements GateStatus {
  running = 0;
  max = 1;
  private readonly waiting: Waiter[] = [];
  /** Moving average of run durations, in ms. */
  private meanMs = 0;

  get queued(): number {
    return this.waiting.length;
  }

  /**
   * Resolves when the run may start (at once when a slot is free), or rejects: `refused()` when
   * the queue is full, the signal's reason when the caller leaves while waiting. The signal is
   * asked for only by a call that waits (making a request's signal has a cost).
   */
  enter(max: number, maxQueue: number, signalOf: () => AbortSignal, refused: () => Error): Promise<void> | undefined {
    this.max = max;
    if (this.running < max && this.waiting.length === 0) {
      this.running++;
      return undefined;
    }
    if (this.waiting.length >= maxQueue) return Promise.reject(refused());
    const signal = signalOf();
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        admit: () => {
          signal.removeEventListener("abort", waiter.onAbort);
          this.running++;
          resolve();
        },
        onAbort: () => {
          const at = this.waiting.indexOf(waiter);
          if (at >= 0) this.waiting.splice(at, 1);
          reject(signal.reason);
        },
      };
      if (signal.aborted) return reject(signal.reason);
      signal.addEventListener("abort", waiter.onAbort, { once: true });
      this.waiting.push(waiter);
    });
  }

  /** A run ended after `durationMs`: the next waiters start while slots are free. */
  leave(durationMs: number): void {
    this.running--;
    this.meanMs = this.meanMs === 0 ? durationMs : this.meanMs * 0.8 + durationMs * 0.2;
    while (this.running < this.max && this.waiting.length > 0) this.waiting.shift()!.admit();
  }

  /** Seconds until a slot is likely free for a new caller: the queue ahead at the mean run time. */
  retryAfterSeconds(): number {
    const waves = Math.ceil((this.waiting.length + 1) / Math.max(1, this.max));
    return Math.min(60, Math.max(1, Math.ceil((waves * this.meanMs) / 1000)));
  }
}
