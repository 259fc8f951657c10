/**
 * @module WaterfallHook (the `stream` hook): a waterfall over every streamed item of an invocation, plus start/end/error/
 * abort notifications. An item tap returns the item to pass on (`undefined` keeps it unchanged) or
 * `DROP` to drop it; each tap sees what the previous one returned. Notification taps are observers:
 * their failures are reported to the log and never break the stream a client is reading. The hook
 * is driven by the invocation's stream (kernel/invoke/invocation-stream.ts); its taps get the run
 * call the `run` hook's interceptors passed to the wrapper, span included.
 */
import type { RunCall } from "./index.js";
import { callTap, notifyTap, TapList, type ObserverErrorReporter, type TapOptions } from "./taps.js";

/** Returned by an item tap to drop the item from the stream. */
export const DROP: unique symbol = Symbol("svc.stream.drop");

/** What a stream is: whose run, which kind of item. */
export interface StreamInfo {
  /** The run this stream belongs to, as the wrapper got it (with the span of the `run` hook's interceptors). */
  readonly call: RunCall;
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
  /** Milliseconds from the stream's start to its first item, when there was one. */
  readonly firstItemMs?: number;
}

export interface StreamTap {
  item?(item: unknown, info: StreamInfo): unknown | typeof DROP | Promise<unknown | typeof DROP>;
  start?(info: StreamInfo): void;
  end?(info: StreamInfo, stats: StreamStats): void;
  error?(info: StreamInfo, error: unknown, stats: StreamStats): void;
  /** The consumer stopped early: the client went away, the signal was aborted, or it had enough. */
  abort?(info: StreamInfo, stats: StreamStats): void;
}

export type StreamNotification = "start" | "end" | "error" | "abort";

export class WaterfallHook {
  private readonly taps = new TapList<StreamTap>();
  private itemTaps: readonly { plugin: string; fn: StreamTap }[] = [];

  constructor(
    readonly name: string,
    private readonly report: ObserverErrorReporter,
  ) {}

  tap(plugin: string, tap: StreamTap, options?: TapOptions): void {
    this.taps.add(plugin, tap, options);
    this.itemTaps = this.taps.all.filter((t) => t.fn.item);
  }

  /** True when some tap looks at items: otherwise items pass without a turn through the hook. */
  get transformsItems(): boolean {
    return this.itemTaps.length > 0;
  }

  /** The item after every item tap, or `DROP`. */
  async item(item: unknown, info: StreamInfo): Promise<unknown> {
    for (const tap of this.itemTaps) {
      const out = await callTap(`${this.name}.item`, tap, () => tap.fn.item!(item, info));
      if (out === DROP) return DROP;
      if (out !== undefined) item = out;
    }
    return item;
  }

  notify(kind: StreamNotification, info: StreamInfo, ...rest: unknown[]): void {
    for (const tap of this.taps.all) {
      const fn = tap.fn[kind] as ((...args: unknown[]) => void) | undefined;
      if (fn) notifyTap(this.report, `${this.name}.${kind}`, tap, () => fn.call(tap.fn, info, ...rest));
    }
  }
}
