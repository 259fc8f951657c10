/**
 * @module Cells: one plain number per label set, for the series every request touches. Counting
 * in a cell is an addition; prom-client's own `inc`/`set` check and hash the labels on every call,
 * a cost paid per request (bench: metrics on vs off). Callers keep the cells they made (one per
 * label set, see series.ts), and the cells are copied into their prom-client metric when it is
 * scraped (its `collect`).
 */
import type { Counter, Gauge } from "prom-client";

export interface Cell {
  readonly labels: readonly string[];
  value: number;
}

export class Cells {
  private readonly cells: Cell[] = [];

  /** A new cell for these label values; keep it (a second one would be a second series). */
  add(...labels: string[]): Cell {
    const cell = { labels, value: 0 };
    this.cells.push(cell);
    return cell;
  }

  /** A counter's `collect`: its series are the cells' totals. */
  countsInto(): (this: Counter) => void {
    const cells = this.cells;
    return function () {
      this.reset();
      for (const cell of cells) this.labels(...cell.labels).inc(cell.value);
    };
  }

  /** A gauge's `collect`: its series are the cells' current values. */
  levelsInto(): (this: Gauge) => void {
    const cells = this.cells;
    return function () {
      this.reset();
      for (const cell of cells) this.labels(...cell.labels).set(cell.value);
    };
  }
}
