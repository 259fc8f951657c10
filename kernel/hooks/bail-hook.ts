/**
 * @module BailHook: taps run in order and the first that returns a decision wins (a plugin can
 * short-circuit); when none decides, the fallback answers. Synchronous when no tap is installed
 * (the common case), so a request does not wait a turn. The `auth` hook is one, whose fallback is
 * the scope's access policy.
 */
import { callTap, TapList, type Tap, type TapOptions } from "./taps.js";

export type BailTap<A, D> = (arg: A) => D | undefined | Promise<D | undefined>;

export class BailHook<A, D> {
  private readonly taps = new TapList<BailTap<A, D>>();

  constructor(
    readonly name: string,
    private readonly fallback: (arg: A) => D | Promise<D>,
  ) {}

  tap(plugin: string, fn: BailTap<A, D>, options?: TapOptions): void {
    this.taps.add(plugin, fn, options);
  }

  /** Whether any plugin tapped the hook. */
  get tapped(): boolean {
    return this.taps.all.length > 0;
  }

  call(arg: A): D | Promise<D> {
    const taps = this.taps.all;
    return taps.length === 0 ? this.fallback(arg) : this.bail(taps, arg);
  }

  private async bail(taps: readonly Tap<BailTap<A, D>>[], arg: A): Promise<D> {
    for (const tap of taps) {
      const decision = await callTap(this.name, tap, () => tap.fn(arg));
      if (decision !== undefined) return decision;
    }
    return this.fallback(arg);
  }
}
