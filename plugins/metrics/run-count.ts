/**
 * @module One run as the metrics count it: in flight from the start, then one outcome (a stream
 * settles when it ends, with the time to its first item). It is the `run` hook observation itself:
 * no closure or promise per run.
 */
import { runAborted, StreamedRun, type Observation, type RunCall } from "svc/plugin";
import type { RunSeries } from "./series.js";
import type { ServiceMetrics } from "./service-metrics.js";

export class RunCount implements Observation<RunCall, unknown> {
  private readonly series: RunSeries;

  constructor(
    private readonly m: ServiceMetrics,
    private readonly call: RunCall,
  ) {
    this.series = m.runSeries.of(call.pipeline, call.transport);
    this.series.inFlight.value++;
  }

  succeeded(result: unknown): void {
    const series = this.series;
    series.inFlight.value--;
    const streamed = result instanceof StreamedRun ? result : undefined;
    const firstItemMs = streamed?.stats.firstItemMs;
    if (firstItemMs !== undefined) this.m.firstItemSeconds.labels(this.call.pipeline, this.call.transport).observe(firstItemMs / 1000);
    series.outcomes[(streamed ? streamed.aborted : runAborted(this.call)) ? "cancelled" : "succeeded"].value++;
  }

  failed(): void {
    this.series.inFlight.value--;
    this.series.outcomes[runAborted(this.call) ? "cancelled" : "failed"].value++;
  }
}
