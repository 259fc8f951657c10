/**
 * @module InterceptorHook: an onion of `(call, next) => result` around a target. The first tap is
 * the outermost layer. A tap may change the call it passes to `next` (the changes are merged over
 * the current call, which keeps its class, so lazy fields survive), change the result, answer
 * without calling `next` (short-circuit), or throw. Errors from the target pass through the layers
 * untouched; an error a tap raises itself is attributed to that tap.
 */
import { attribute, TapList, type TapOptions } from "./taps.js";

export type Next<C, R> = (changes?: Partial<C>) => Promise<R>;

/** A call that makes its own copy with changes (same class and shape: cheaper than a merge). */
export interface CopiesWithChanges<C> {
  withChanges(changes: Partial<C>): C;
}

/** The current call with `changes` over it, keeping its prototype (and so its getters). */
function merge<C>(current: C, changes: Partial<C>): C {
  const own = (current as Partial<CopiesWithChanges<C>>).withChanges;
  if (typeof own === "function") return own.call(current, changes);
  const copy = Object.assign(Object.create(Object.getPrototypeOf(current) as object) as C & object, current);
  // Defined, not assigned: a change may shadow a getter of the call's class (a `span` getter).
  for (const key of Object.keys(changes)) {
    Object.defineProperty(copy, key, { value: changes[key as keyof C], enumerable: true, writable: true, configurable: true });
  }
  return copy;
}
/** The target's result as a promise; what it throws, as a rejection. */
function callTarget<C, R>(target: (call: C) => R | Promise<R>, call: C): Promise<R> {
  try {
    return Promise.resolve(target(call));
  } catch (error) {
    return Promise.reject(error);
  }
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
    if (taps.length === 0) return callTarget(target, call);
    // Plain promise chains rather than async frames: this runs on every request. What came out of
    // an inner layer (the target's error, or one a tap raised, attributed) passes the outer taps
    // untouched; only a tap's own error is attributed to it.
    let passed: unknown[] | undefined;
    const passing = (error: unknown): unknown => ((passed ??= []).push(error), error);
    const pass = (error: unknown): never => {
      throw passing(error);
    };
    const layer = (index: number, current: C): Promise<R> => {
      if (index === taps.length) return callTarget(target, current).catch(pass);
      const tap = taps[index]!;
      let nextCalled = false;
      const next: Next<C, R> = (changes) => {
        if (nextCalled) return Promise.reject(new Error("next() called more than once"));
        nextCalled = true;
        return layer(index + 1, changes === undefined ? current : merge(current, changes));
      };
      const own = (error: unknown): never => {
        throw passed?.includes(error) ? error : passing(attribute(this.name, tap.plugin, error));
      };
      try {
        return Promise.resolve(tap.fn(current, next)).catch(own);
      } catch (error) {
        return Promise.reject(error).catch(own);
      }
    };
    return layer(0, call);
  }
}
