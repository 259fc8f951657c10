/**
 * @module The series one run and one answered request update, made on first use and kept, so a
 * request costs one map lookup per hook and a few additions (plus one histogram observation).
 * Keys are bounded: deployed pipeline names × transports, route patterns × methods × statuses.
 */
import type { Cell, Cells } from "./cells.js";
import type { HistogramCell, HistogramCells } from "./histogram-cells.js";

export type RunOutcome = "succeeded" | "failed" | "cancelled";

/** Of one pipeline on one transport. */
export interface RunSeries {
  readonly inFlight: Cell;
  readonly outcomes: Readonly<Record<RunOutcome, Cell>>;
}

export class RunSeriesTable {
  /** By pipeline, then transport: nested maps, so a lookup builds no key string. */
  private readonly series = new Map<string, Map<string, RunSeries>>();

  constructor(
    private readonly inFlight: Cells,
    private readonly outcomes: Cells,
  ) {}

  of(pipeline: string, transport: string): RunSeries {
    const byTransport = inner(this.series, pipeline);
    let series = byTransport.get(transport);
    if (series === undefined) {
      const outcome = (o: RunOutcome) => this.outcomes.add(pipeline, transport, o);
      series = { inFlight: this.inFlight.add(pipeline, transport), outcomes: { succeeded: outcome("succeeded"), failed: outcome("failed"), cancelled: outcome("cancelled") } };
      byTransport.set(transport, series);
    }
    return series;
  }
}

/** Of one route pattern and method: its duration histogram's child and a count per status. */
interface RouteSeries {
  readonly seconds: HistogramCell;
  readonly statuses: Map<number, Cell>;
}

export class RouteSeriesTable {
  /** By route, then method. */
  private readonly series = new Map<string, Map<string, RouteSeries>>();

  constructor(
    private readonly counts: Cells,
    private readonly seconds: HistogramCells,
  ) {}

  answered(route: string, method: string, status: number, seconds: number): void {
    const byMethod = inner(this.series, route);
    let series = byMethod.get(method);
    if (series === undefined) byMethod.set(method, (series = { seconds: this.seconds.add({ route, method }), statuses: new Map() }));
    let count = series.statuses.get(status);
    if (count === undefined) series.statuses.set(status, (count = this.counts.add(route, method, String(status))));
    count.value++;
    this.seconds.observe(series.seconds, seconds);
  }
}

function inner<V>(outer: Map<string, Map<string, V>>, key: string): Map<string, V> {
  let map = outer.get(key);
  if (map === undefined) outer.set(key, (map = new Map()));
  return map;
}
