/**
 * @module InterceptorHook: an onion of `(call, next) => result` around a target. The first tap is
 * the outermost layer. A tap may change the call it passes to `next` (the changes are merged over
 * the current call, which keeps its class, so lazy fields survive), change the result, answer
 * without calling `next` (short-circuit), or throw. Errors from the target pass through the layers
 * untouched; an error a tap raises itself is attributed to that tap.
 */
import { attribute, TapList, type TapOptions } from "./taps.js";

const NONE: unique symbol = Symbol("none");

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
    // Plain promise chains rather than async frames: this runs on every request.
    const layer = (index: number, current: C): Promise<R> => {
      if (index === taps.length) {
        try {
          return Promise.resolve(target(current));
        } catch (error) {
          return Promise.reject(error);
        }
      }
      const tap = taps[index]!;
      let nextCalled = false;
      // What came out of the inner layers passes this tap's attribution untouched.
      let inner: unknown = NONE;
      const passInner = (error: unknown): never => {
        inner = error;
        throw error;
      };
      const next: Next<C, R> = (changes) => {
        if (nextCalled) return Promise.reject(new Error("next() called more than once"));
        nextCalled = true;
        return layer(index + 1, changes === undefined ? current : merge(current, changes)).catch(passInner);
      };
      const own = (error: unknown): never => {
        throw error === inner ? error : attribute(this.name, tap.plugin, error);
      };
      try {
        return Promise.resolve(tap.fn(current, next)).catch(own);
      } catch (error) {
        return Promise.reject(error === inner ? error : attribute(this.name, tap.plugin, error));
      }
    };
    return layer(0, call);
  }
}
