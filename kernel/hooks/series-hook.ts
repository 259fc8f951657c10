/**
 * @module SeriesHook: taps run one after another in order; results are ignored; the first tap that
 * throws stops the series and its error, attributed, reaches the caller.
 */
import { callTap, TapList, type TapOptions } from "./taps.js";

export type SeriesTap<A extends unknown[]> = (...args: A) => void | Promise<void>;

export class SeriesHook<A extends unknown[]> {
  private readonly taps = new TapList<SeriesTap<A>>();

  constructor(readonly name: string) {}

  tap(plugin: string, fn: SeriesTap<A>, options?: TapOptions): void {
    this.taps.add(plugin, fn, options);
  }

  async call(...args: A): Promise<void> {
    for (const tap of this.taps.all) await callTap(this.name, tap, () => tap.fn(...args));
  }
}
