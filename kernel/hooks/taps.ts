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
 * Wraps an error thrown by a tap so logs and responses name the plugin and hook. An `HttpError`
 * is a deliberate answer to the client (say a 429 from a limiter) and passes through unchanged, and
 * an error that is already attributed keeps its first attribution.
 */
export function attribute(hook: string, plugin: string, error: unknown): Error {
  if (error instanceof HttpError) return error;
  if (error instanceof KernelError && error.code === "KERNEL_ERR_HOOK") return error;
  return kernelErrors.hook(hook, plugin, error);
}

/** Reports a failure of an observer tap whose error must not break the caller (stream notifications). */
export type ObserverErrorReporter = (hook: string, plugin: string, error: unknown) => void;
