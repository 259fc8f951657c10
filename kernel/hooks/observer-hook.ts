/**
 * @module ObserverHook: taps are told that something happened, synchronously, in order; they
 * return nothing and their failures are reported to the log, never to whoever notified. Nothing is
 * built for a notification when no one taps (`active`).
 */
import { TapList, type ObserverErrorReporter, type TapOptions } from "./taps.js";

export class ObserverHook<A extends unknown[]> {
  private readonly taps = new TapList<(...args: A) => void>();

  constructor(
    readonly name: string,
    private readonly report: ObserverErrorReporter,
  ) {}

  tap(plugin: string, fn: (...args: A) => void, options?: TapOptions): void {
    this.taps.add(plugin, fn, options);
  }

  get active(): boolean {
    return this.taps.all.length > 0;
  }

  notify(...args: A): void {
    // A plain call in a try per tap, no closure: the `answered` hook is notified for every request.
    for (const tap of this.taps.all) {
      try {
        tap.fn(...args);
      } catch (error) {
        this.report(this.name, tap.plugin, error);
      }
    }
  }
}

/** What the `answered` hook tells about each HTTP request once its answer is done. */
export interface AnsweredRequest {
  readonly method: string;
  /** The pattern of the route that took it (`/:name/run`); undefined when none matched. */
  readonly route?: string;
  readonly status: number;
  readonly durationMs: number;
  /** The client left (or shutdown gave up) before the answer was complete. */
  readonly aborted: boolean;
}
