/**
 * @module InterceptorHook: an onion of `(call, next) => result` around a target. The first tap is
 * the outermost layer. A tap may change the call it passes to `next` (the changes are merged over
 * the current call, which keeps its class, so lazy fields survive), change the result, answer
 * without calling `next` (short-circuit), or throw. Errors from the target pass through the layers
 * untouched; an error a tap raises itself is attributed to that tap.
 */
import { attribute, TapList, type Tap, type TapOptions } from "./taps.js";

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
    // The common case without taps: nothing to wrap.
    if (taps.length === 0) return new ChainRun(this.name, taps, target).target(call);
    return new ChainRun(this.name, taps, target).layer(0, call);
  }
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return value instanceof Promise || (value !== null && (typeof value === "object" || typeof value === "function") && typeof (value as { then?: unknown }).then === "function");
}

/**
 * One call through the chain. Its state is one object and its steps are methods: per layer only
 * the `next` a tap is handed and one promise reaction (to attribute the tap's own failure) are
 * made, on every request. What came out of an inner layer (the target's error, or one a tap
 * raised, attributed) passes the outer taps untouched; only a tap's own error is attributed to it.
 */
class ChainRun<C, R> {
  /** Errors that came out of an inner layer or the target. */
  private passed: unknown[] | undefined = undefined;

  constructor(
    private readonly hook: string,
    private readonly taps: readonly Tap<Interceptor<C, R>>[],
    private readonly run: (call: C) => R | Promise<R>,
  ) {}

  layer(index: number, current: C): Promise<R> {
    if (index === this.taps.length) return this.target(current);
    const tap = this.taps[index]!;
    let nextCalled = false;
    const next: Next<C, R> = (changes) => {
      if (nextCalled) return Promise.reject(new Error("next() called more than once"));
      nextCalled = true;
      return this.layer(index + 1, changes === undefined ? current : merge(current, changes));
    };
    let out: R | Promise<R>;
    try {
      out = tap.fn(current, next);
    } catch (error) {
      return Promise.reject(this.own(tap, error));
    }
    // A value needs no reaction: it cannot fail any more.
    if (!isThenable(out)) return Promise.resolve(out);
    return Promise.resolve(out).then(undefined, (error: unknown) => {
      throw this.own(tap, error);
    });
  }

  /** The target's result as a promise; what it throws or rejects with passes the taps as it is. */
  target(current: C): Promise<R> {
    let out: R | Promise<R>;
    try {
      out = this.run(current);
    } catch (error) {
      return Promise.reject(this.pass(error));
    }
    if (!isThenable(out) || this.taps.length === 0) return Promise.resolve(out);
    return Promise.resolve(out).then(undefined, (error: unknown) => {
      throw this.pass(error);
    });
  }

  private pass(error: unknown): unknown {
    (this.passed ??= []).push(error);
    return error;
  }

  /** An error out of `tap`: attributed to it unless it came from inside. */
  private own(tap: Tap<Interceptor<C, R>>, error: unknown): unknown {
    return this.passed?.includes(error) ? error : this.pass(attribute(this.hook, tap.plugin, error));
  }
}
