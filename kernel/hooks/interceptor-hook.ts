/**
 * @module InterceptorHook: an onion of `(call, next) => result` around a target. The first tap is
 * the outermost layer. A tap may change the call it passes to `next` (the changes are merged over
 * the current call, which keeps its class, so lazy fields survive), change the result, answer
 * without calling `next` (short-circuit), or throw. Errors from the target pass through the layers
 * untouched; an error a tap raises itself is attributed to that tap.
 *
 * An observer (`observe`) is a layer that only watches: it is told when the call reaches it and
 * how the layers inside settled it, and may change the call they see. It makes no promise of its
 * own: its end rides on the reaction the next interceptor inside, or the target, needs anyway (or
 * happens at once when they answer synchronously), so bookkeeping on every run (tracing, the
 * execution index, metrics) costs no promise turn.
 *
 * An interceptor tapped with `appliesTo` acts on some calls only (a limiter, on pipelines with
 * limits): for a call it says false to, the layer is left out (no `next`, no promise reaction).
 */
import { performance } from "node:perf_hooks";
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

/**
 * When one call started and ended (`performance.now()`), the same for all its observers: each
 * instant is read once, when an observer first asks (a clock read costs ~80 ns on a VM, and a run
 * has several observers). `startedAt` is the moment the call reached the first observer that asked;
 * `endedAt` is meant for `succeeded` and `failed`.
 */
export interface CallTimes {
  readonly startedAt: number;
  readonly endedAt: number;
}

/** A layer that watches calls without wrapping them (see the module comment). */
export interface CallObserver<C, R> {
  /** The call reached this layer; what it returns is told how the call settled (undefined: nothing). */
  start(call: C, times: CallTimes): Observation<C, R> | undefined;
}

/** One observed call. A method that throws fails the call, attributed to the observer's plugin. */
export interface Observation<C, R> {
  /** Changes for the call the layers inside see (read once, right after `start`). */
  readonly changes?: Partial<C>;
  /** The layers inside answered `result` (what this layer's caller gets). */
  succeeded(result: R, times: CallTimes): void;
  /** The layers inside failed with `error` (as this layer's caller sees it). */
  failed(error: unknown, times: CallTimes): void;
}

/** Tap options of an interceptor: `appliesTo` false leaves the layer out of that call. */
export interface InterceptorOptions<C> extends TapOptions {
  appliesTo?(call: C): boolean;
}

/** An interceptor with its `appliesTo`. */
class Guarded<C, R> {
  constructor(
    readonly appliesTo: (call: C) => boolean,
    readonly intercept: Interceptor<C, R>,
  ) {}
}

type Layer<C, R> = Interceptor<C, R> | Guarded<C, R> | CallObserver<C, R>;

/** Observations still to be told, with their taps (for attribution): `[tap, observation, …]`. */
type Pending<C, R> = (Tap<Layer<C, R>> | Observation<C, R>)[];

export class InterceptorHook<C, R> {
  private readonly taps = new TapList<Layer<C, R>>();

  constructor(readonly name: string) {}

  tap(plugin: string, interceptor: Interceptor<C, R>, options?: InterceptorOptions<C>): void {
    const appliesTo = options?.appliesTo;
    this.taps.add(plugin, appliesTo ? new Guarded(appliesTo, interceptor) : interceptor, options);
  }

  /** Adds an observer layer, ordered among the interceptors as a tap with the same options. */
  observe(plugin: string, observer: CallObserver<C, R>, options?: TapOptions): void {
    this.taps.add(plugin, observer, options);
  }

  /** Runs `target` inside every interceptor, outermost first. */
  call(call: C, target: (call: C) => R | Promise<R>): Promise<R> {
    return promised(this.callOrValue(call, target));
  }

  /**
   * As `call`, but a chain that settled at once (no interceptor in its way, only observers, and a
   * plain value from the target) gives that value rather than a promise of it: two promises and a
   * turn less for `kernel.invoke`, which answers it at once.
   */
  callOrValue(call: C, target: (call: C) => R | Promise<R>): R | Promise<R> {
    const taps = this.taps.all;
    // The common case without taps: nothing to wrap.
    if (taps.length === 0) return new ChainRun(this.name, taps, target).target(call);
    return new ChainRun(this.name, taps, target).layer(0, call);
  }
}

/** A layer's outcome as a promise (layers give a plain value when they settled at once). */
export function promised<R>(out: R | Promise<R>): Promise<R> {
  return out instanceof Promise ? out : Promise.resolve(out);
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return value instanceof Promise || (value !== null && (typeof value === "object" || typeof value === "function") && typeof (value as { then?: unknown }).then === "function");
}

/**
 * One call through the chain. Its state is one object and its steps are methods: per interceptor
 * only the `next` a tap is handed and one promise reaction (to attribute the tap's own failure) are
 * made, on every request; observers ride on those reactions (`pending`). What came out of an inner
 * layer (the target's error, or one a tap raised, attributed) passes the outer taps untouched;
 * only a tap's own error is attributed to it.
 */
class ChainRun<C, R> implements CallTimes {
  /** Errors that came out of an inner layer or the target. */
  private passed: unknown[] | undefined = undefined;
  private started = NaN;
  private ended = NaN;
  /** Set once the observations are being told the outcome: `endedAt` is final from then on. */
  private settling = false;

  constructor(
    private readonly hook: string,
    private readonly taps: readonly Tap<Layer<C, R>>[],
    private readonly run: (call: C) => R | Promise<R>,
  ) {}

  get startedAt(): number {
    if (Number.isNaN(this.started)) this.started = performance.now();
    return this.started;
  }

  get endedAt(): number {
    if (!this.settling) return performance.now();
    if (Number.isNaN(this.ended)) this.ended = performance.now();
    return this.ended;
  }

  /**
   * `pending`: observations outside this layer that its outcome settles. A plain value (never a
   * thenable) when the layers inside settled at once; failures are always a rejected promise.
   */
  layer(index: number, current: C, pending?: Pending<C, R>): R | Promise<R> {
    if (index === this.taps.length) return this.target(current, pending);
    const tap = this.taps[index]!;
    let fn = tap.fn;
    if (typeof fn !== "function") {
      if (!(fn instanceof Guarded)) return this.observed(index, tap, fn, current, pending);
      let applies: boolean;
      try {
        applies = fn.appliesTo(current);
      } catch (error) {
        return this.reject(this.own(tap, error), pending);
      }
      // Left out: the observations outside ride on the next layer's reaction instead.
      if (!applies) return this.layer(index + 1, current, pending);
      fn = fn.intercept;
    }
    let nextCalled = false;
    const next: Next<C, R> = (changes) => {
      if (nextCalled) return Promise.reject(new Error("next() called more than once"));
      nextCalled = true;
      return promised(this.layer(index + 1, changes === undefined ? current : merge(current, changes)));
    };
    let out: R | Promise<R>;
    try {
      out = fn(current, next);
    } catch (error) {
      return this.reject(this.own(tap, error), pending);
    }
    // A value needs no reaction: it cannot fail any more.
    if (!isThenable(out)) return this.resolve(out, pending);
    if (pending === undefined) {
      return Promise.resolve(out).then(undefined, (error: unknown) => {
        throw this.own(tap, error);
      });
    }
    return Promise.resolve(out).then(
      (value) => this.succeeded(value, pending),
      (error: unknown) => {
        throw this.failed(this.own(tap, error), pending);
      },
    );
  }

  /** An observer layer: starts its observation and hands it inwards, to be settled there. */
  private observed(index: number, tap: Tap<Layer<C, R>>, observer: CallObserver<C, R>, current: C, pending: Pending<C, R> | undefined): R | Promise<R> {
    let observation: Observation<C, R> | undefined;
    try {
      observation = observer.start(current, this);
    } catch (error) {
      return this.reject(this.own(tap, error), pending);
    }
    if (observation === undefined) return this.layer(index + 1, current, pending);
    const changes = observation.changes;
    const inner = changes === undefined ? current : merge(current, changes);
    if (pending === undefined) pending = [tap, observation];
    else pending.push(tap, observation);
    return this.layer(index + 1, inner, pending);
  }

  /** The target's result (a plain value as it is); what it throws or rejects with passes the taps as it is. */
  target(current: C, pending?: Pending<C, R>): R | Promise<R> {
    let out: R | Promise<R>;
    try {
      out = this.run(current);
    } catch (error) {
      return this.reject(this.pass(error), pending);
    }
    if (!isThenable(out)) return this.resolve(out, pending);
    if (this.taps.length === 0) return Promise.resolve(out);
    if (pending === undefined) {
      return Promise.resolve(out).then(undefined, (error: unknown) => {
        throw this.pass(error);
      });
    }
    return Promise.resolve(out).then(
      (value) => this.succeeded(value, pending),
      (error: unknown) => {
        throw this.failed(this.pass(error), pending);
      },
    );
  }

  private resolve(value: R, pending: Pending<C, R> | undefined): R | Promise<R> {
    if (pending === undefined) return value;
    try {
      return this.succeeded(value, pending);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  private reject(error: unknown, pending: Pending<C, R> | undefined): Promise<R> {
    return Promise.reject(pending === undefined ? error : this.failed(error, pending));
  }

  /** Tells the pending observations (innermost first) the value; throws what one of them raised. */
  private succeeded(value: R, pending: Pending<C, R>): R {
    this.settling = true;
    for (let i = pending.length - 1; i > 0; i -= 2) {
      try {
        (pending[i] as Observation<C, R>).succeeded(value, this);
      } catch (error) {
        // The outer ones are told of that failure instead, as a layer's caller would see it.
        throw this.failed(this.own(pending[i - 1] as Tap<Layer<C, R>>, error), pending, i - 2);
      }
    }
    return value;
  }

  /** Tells the pending observations (innermost first, from `from`) the error; returns the error to pass on. */
  private failed(error: unknown, pending: Pending<C, R>, from = pending.length - 1): unknown {
    this.settling = true;
    let out = error;
    for (let i = from; i > 0; i -= 2) {
      try {
        (pending[i] as Observation<C, R>).failed(out, this);
      } catch (raised) {
        out = this.own(pending[i - 1] as Tap<Layer<C, R>>, raised);
      }
    }
    return out;
  }

  private pass(error: unknown): unknown {
    (this.passed ??= []).push(error);
    return error;
  }

  /** An error out of `tap`: attributed to it unless it came from inside. */
  private own(tap: Tap<Layer<C, R>>, error: unknown): unknown {
    return this.passed?.includes(error) ? error : this.pass(attribute(this.hook, tap.plugin, error));
  }
}
