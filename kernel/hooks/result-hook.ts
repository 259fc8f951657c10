/**
 * @module ResultHook (the `result` hook), a synchronous bail hook: when a wrapper returns an object,
 * each tap in order may turn it into the items to stream; the first that does wins, and when none
 * does the kernel streams a plain (async) iterable as it is. This is how a plugin teaches the kernel
 * an agent framework's result (an AI SDK `streamText()` result, a LangChain stream) without the
 * kernel naming any framework. Synchronous, so classifying a result costs no turn; with no tap, a
 * plain generator crosses no adapter at all.
 */
import type { RunCall } from "./index.js";
import { callTap, TapList, type TapOptions } from "./taps.js";

/** What a `result` tap makes of a wrapper's return value. */
export interface ResultItems {
  readonly items: AsyncIterable<unknown> | Iterable<unknown>;
  /** One answer (a framework's result object), which `/run` and MCP read whole rather than stream. */
  readonly whole?: boolean;
}

/** What a `result` tap learns about the call besides the value. */
export interface ResultInfo {
  readonly call: RunCall;
  /** The wrapper asked for Server-Sent Events (`sse(…)`); the value is the marked source. */
  readonly sse: boolean;
  /** The transport encodes Open WebUI events (the chat and Responses endpoints). */
  readonly events: boolean;
}

/** Returns the items for `value`, or undefined to pass it to the next tap. */
export type ResultTap = (value: object, info: ResultInfo) => ResultItems | undefined;

export class ResultHook {
  private readonly taps = new TapList<ResultTap>();

  constructor(readonly name: string) {}

  tap(plugin: string, fn: ResultTap, options?: TapOptions): void {
    this.taps.add(plugin, fn, options);
  }

  /** The first tap's items for `value`; undefined when every tap passed (or none is installed). */
  call(value: object, info: ResultInfo): ResultItems | undefined {
    for (const tap of this.taps.all) {
      const items = callTap(this.name, tap, () => tap.fn(value, info));
      if (items !== undefined) return items;
    }
    return undefined;
  }
}
