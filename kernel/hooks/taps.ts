/**
 * @module The ordered list of taps every hook keeps, and the attribution of tap errors to the
 * plugin and hook that raised them.
 */
import { HttpError, KernelError, kernelErrors } from "../errors.js";

/** Taps run in registration (config) order; `pre` taps run before, `post` taps after all others. */
export interface TapOptions {
  order?: "pre" | "post";
}

export interface Tap<F> {
  readonly plugin: string;
  readonly fn: F;
}

export class TapList<F> {
  private readonly pre: Tap<F>[] = [];
  private readonly normal: Tap<F>[] = [];
  private readonly post: Tap<F>[] = [];
  private cached: readonly Tap<F>[] = [];

  add(plugin: string, fn: F, options: TapOptions = {}): void {
    const list = options.order === "pre" ? this.pre : options.order === "post" ? this.post : this.normal;
    list.push({ plugin, fn });
    // Sorted once per tap, not per call: calls are the hot path.
    this.cached = [...this.pre, ...this.normal, ...this.post];
  }

  get all(): readonly Tap<F>[] {
    return this.cached;
  }
}

/**
 * Wraps an error thrown by a tap so logs and responses name the plugin and hook (as fields, and in
 * the message). An `HttpError` is a deliberate answer to the client (say a 429 from a limiter): it
 * passes with its message unchanged and only the fields set; an error already attributed keeps its
 * first attribution.
 */
export function attribute(hook: string, plugin: string, error: unknown): Error {
  if (error instanceof HttpError) {
    if (error.plugin === undefined) Object.assign(error, { plugin, hook });
    return error;
  }
  if (error instanceof KernelError && error.code === "KERNEL_ERR_HOOK") return error;
  return kernelErrors.hook(hook, plugin, error);
}

/**
 * The one way every hook calls a tap: what the tap throws, or its promise rejects with, comes out
 * attributed to its plugin and hook. A synchronous tap stays synchronous.
 */
export function callTap<R>(hook: string, tap: Tap<unknown>, call: () => R): R {
  let out: R;
  try {
    out = call();
  } catch (error) {
    throw attribute(hook, tap.plugin, error);
  }
  if (out instanceof Promise) return out.catch((error: unknown) => Promise.reject(attribute(hook, tap.plugin, error))) as R;
  return out;
}

/** Calls an observer tap: its failure is reported, never thrown to whoever notified. */
export function notifyTap(report: ObserverErrorReporter, hook: string, tap: Tap<unknown>, call: () => void): void {
  try {
    call();
  } catch (error) {
    report(hook, tap.plugin, error);
  }
}

/** Reports a failure of an observer tap whose error must not break the caller (stream notifications). */
export type ObserverErrorReporter = (hook: string, plugin: string, error: unknown) => void;
