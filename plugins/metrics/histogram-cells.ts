/**
 * @module Histogram cells: a latency histogram per label set kept as plain numbers (a count per
 * bucket, the sum and the count), for the histogram every answered request updates. prom-client's
 * `observe` checks and hashes the labels on every call (a bound child too); here an observation is
 * a bucket search and three additions, and the cells are copied into their prom-client histogram
 * when it is scraped (its `collect`), so `/metrics` shows what `observe` would have: the same
 * buckets, the same sum (added in the same order), the series in the order they first appeared.
 */
import type { Histogram } from "prom-client";

export interface HistogramCell {
  readonly labels: Readonly<Record<string, string>>;
  /** Observations per bucket (not cumulative): index i counts values ≤ bounds[i] and > bounds[i - 1]. */
  readonly buckets: Float64Array;
  sum: number;
  count: number;
}

/** What prom-client keeps per label set (`hashMap` entries, made by its public `zero`). */
interface Entry {
  bucketValues: Record<string, number>;
  sum: number;
  count: number;
}

export class HistogramCells {
  private readonly cells: HistogramCell[] = [];

  /** `bounds`: the histogram's buckets, ascending (prom-client's `upperBounds`). */
  constructor(private readonly bounds: readonly number[]) {}

  /** A new cell for these labels; keep it (a second one would be a second series). */
  add(labels: Record<string, string>): HistogramCell {
    const cell = { labels, buckets: new Float64Array(this.bounds.length), sum: 0, count: 0 };
    this.cells.push(cell);
    return cell;
  }

  observe(cell: HistogramCell, value: number): void {
    if (!Number.isFinite(value)) throw new TypeError(`Value is not a valid number: ${value}`);
    const bounds = this.bounds;
    for (let i = 0; i < bounds.length; i++) {
      if (value <= bounds[i]!) {
        cell.buckets[i]!++;
        break;
      }
    }
    cell.sum += value;
    cell.count++;
  }

  /** The histogram's `collect`: its series become the cells' (zeroed through prom-client, then filled). */
  into(): (this: Histogram) => void {
    const { cells, bounds } = this;
    return function () {
      this.reset();
      for (const cell of cells) this.zero(cell.labels);
      // `zero` added one entry per cell, in the cells' order (their label sets are distinct).
      const entries = Object.values((this as unknown as { hashMap: Record<string, Entry> }).hashMap);
      for (let c = 0; c < cells.length; c++) {
        const cell = cells[c]!;
        const entry = entries[c]!;
        for (let i = 0; i < bounds.length; i++) entry.bucketValues[bounds[i]!] = cell.buckets[i]!;
        entry.sum = cell.sum;
        entry.count = cell.count;
      }
    };
  }
}
