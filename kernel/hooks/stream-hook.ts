/**
 * @module StreamHook: a waterfall over every streamed item, plus start/end/error/abort
 * notifications. An item tap returns the item to pass on (`undefined` keeps it unchanged) or
 * `DROP` to drop it; each tap sees what the previous one returned. Notification taps are observers:
 * their failures are reported to the log and never break the stream a client is reading.
 */
import { attribute, TapList, type ObserverErrorReporter, type TapOptions } from "./taps.js";

/** Returned by an item tap to drop the item from the stream. */
export const DROP: unique symbol = Symbol("svc.stream.drop");

/** What a stream is: which pipeline, which transport, which kind of item. */
export interface StreamInfo {
  readonly pipeline: string;
  readonly transport: string;
  /** What the items are, e.g. `run.item`, `chat.chunk`, `response.event`. */
  readonly kind: string;
  readonly requestId?: string;
}

export interface StreamStats {
  /** Items that reached the consumer (dropped items are not counted). */
  readonly items: number;
  readonly durationMs: number;
}

export interface StreamTap {
  item?(item: unknown, info: StreamInfo): unknown | typeof DROP | Promise<unknown | typeof DROP>;
  start?(info: StreamInfo): void;
  end?(info: StreamInfo, stats: StreamStats): void;
  error?(info: StreamInfo, error: unknown, stats: StreamStats): void;
  /** The consumer stopped early: the client went away or the signal was aborted. */
  abort?(info: StreamInfo, stats: StreamStats): void;
}

type Notification = "start" | "end" | "error" | "abort";

export class StreamHook {
  private readonly taps = new TapList<StreamTap>();

  constructor(
    readonly name: string,
    private readonly report: ObserverErrorReporter,
  ) {}

  tap(plugin: string, tap: StreamTap, options?: TapOptions): void {
    this.taps.add(plugin, tap, options);
  }

  /** Passes `source` through the item taps. Stopping the returned iterator stops the source. */
  async *pipe<T>(info: StreamInfo, source: AsyncIterable<T> | Iterable<T>): AsyncGenerator<T, void, undefined> {
    const taps = this.taps.all;
    const started = performance.now();
    let items = 0;
    let settled = false;
    const stats = (): StreamStats => ({ items, durationMs: performance.now() - started });
    this.notify("start", info);
    try {
      for await (const raw of source) {
        let item: unknown = raw;
        let dropped = false;
        for (const tap of taps) {
          if (!tap.fn.item) continue;
          let out: unknown;
          try {
            out = await tap.fn.item(item, info);
          } catch (error) {
            throw attribute(`${this.name}.item`, tap.plugin, error);
          }
          if (out === DROP) {
            dropped = true;
            break;
          }
          if (out !== undefined) item = out;
        }
        if (dropped) continue;
        items++;
        yield item as T;
      }
      settled = true;
      this.notify("end", info, stats());
    } catch (error) {
      settled = true;
      this.notify("error", info, error, stats());
      throw error;
    } finally {
      if (!settled) this.notify("abort", info, stats());
    }
  }

  private notify(kind: Notification, info: StreamInfo, ...rest: unknown[]): void {
    for (const tap of this.taps.all) {
      const fn = tap.fn[kind] as ((...args: unknown[]) => void) | undefined;
      if (!fn) continue;
      try {
        fn.call(tap.fn, info, ...rest);
      } catch (error) {
        this.report(`${this.name}.${kind}`, tap.plugin, error);
      }
    }
  }
}
