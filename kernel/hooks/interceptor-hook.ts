/**
 * @module InterceptorHook: an onion of `(call, next) => result` around a target. The first tap is
 * the outermost layer. A tap may change the call it passes to `next` (the changes are merged over
 * the current call, which keeps its class, so lazy fields survive), change the result, answer
 * without calling `next` (short-circuit), or throw. Errors from the target pass through the layers
 * untouched; an error a tap raises itself is attributed to that tap.
 */
import { attribute, TapList, type TapOptions } from "./taps.js";

export type Next<C, R> = (changes?: Partial<C>) => Promise<R>;

/** The current call with `changes` over it, keeping its prototype (and so its getters). */
function merge<C>(current: C, changes: Partial<C>): C {
  return Object.assign(Object.create(Object.getPrototypeOf(current) as object) as C & object, current, changes);
}
export type Interceptor<C, R> = (call: C, next: Next<C, R>) => R | Promise<R>;

export class InterceptorHook<C, R> {
  private readonly taps = new TapList<Interceptor<C, R>>();

  constructor(readonly name: string) {}

  tap(plugin: string, interceptor: Interceptor<C, R>, options?: TapOptions): void {
    this.taps.add(plugin, interceptor, options);
  }

  /** Runs `target` inside every interceptor, outermost first. */
  call(call: C, target: (call: C) => R | Promise<R>): Promise<R> {
    const taps = this.taps.all;
    // The common case on the hot path: nothing to wrap.
    if (taps.length === 0) return (async () => target(call))();
    const passing = new WeakSet<object>();
    const layer = async (index: number, current: C): Promise<R> => {
      if (index === taps.length) return target(current);
      const tap = taps[index]!;
      let nextCalled = false;
      const next: Next<C, R> = async (changes) => {
        if (nextCalled) throw new Error("next() called more than once");
        nextCalled = true;
        try {
          return await layer(index + 1, changes === undefined ? current : merge(current, changes));
        } catch (error) {
          // Mark errors coming from inside so outer layers do not re-attribute them.
          if (typeof error === "object" && error !== null) passing.add(error);
          throw error;
        }
      };
      try {
        return await tap.fn(current, next);
      } catch (error) {
        if (typeof error === "object" && error !== null && passing.has(error)) throw error;
        throw attribute(this.name, tap.plugin, error);
      }
    };
    return layer(0, call);
  }
}
