/**
 * @module Statistics over the traces shown — the current sample only, never the server's whole
 * history: counts by state, streaming runs, duration percentiles of finished traces, slow components.
 */
import type { TraceRecord } from "./snapshot.js";
import { isStreaming, slowComponent, traceState } from "./trace-facts.js";

export interface SampleStats {
  readonly total: number;
  readonly ok: number;
  readonly failed: number;
  readonly running: number;
  readonly streaming: number;
  readonly slow: number;
  /** Durations of finished traces, in ms; undefined when none finished. */
  readonly p50?: number;
  readonly p95?: number;
  readonly max?: number;
}

/** Nearest-rank percentile of sorted values. */
function percentile(sorted: readonly number[], p: number): number | undefined {
  if (sorted.length === 0) return undefined;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

export function sampleStats(traces: readonly TraceRecord[], slowComponentMs: number): SampleStats {
  const counts = { ok: 0, failed: 0, running: 0 };
  const finished: number[] = [];
  let streaming = 0;
  let slow = 0;
  for (const trace of traces) {
    const state = traceState(trace);
    counts[state]++;
    if (state !== "running") finished.push(trace.duration_ms);
    if (isStreaming(trace)) streaming++;
    if (slowComponent(trace, slowComponentMs)) slow++;
  }
  finished.sort((a, b) => a - b);
  return {
    total: traces.length,
    ...counts,
    streaming,
    slow,
    p50: percentile(finished, 50),
    p95: percentile(finished, 95),
    max: finished.at(-1),
  };
}
