/**
 * @module A `run` interceptor that counts pipeline invocations and failures and times them.
 */
import type { Interceptor, RunCall } from "@svc-serve/svc/plugin";

export interface PipelineStats {
  runs: number;
  failures: number;
  lastDurationMs: number;
}

export class RunStats {
  private readonly byPipeline = new Map<string, PipelineStats>();

  /** Wraps every invocation; errors pass through unchanged after they are counted. */
  readonly interceptor: Interceptor<RunCall, unknown> = async (call, next) => {
    const stats = this.statsOf(call.pipeline);
    const started = performance.now();
    stats.runs++;
    call.span?.setTag("template.counted", true);
    try {
      return await next();
    } catch (error) {
      stats.failures++;
      throw error;
    } finally {
      stats.lastDurationMs = performance.now() - started;
    }
  };

  snapshot(): Record<string, PipelineStats> {
    return Object.fromEntries([...this.byPipeline].map(([name, s]) => [name, { ...s }]));
  }

  private statsOf(pipeline: string): PipelineStats {
    let stats = this.byPipeline.get(pipeline);
    if (!stats) this.byPipeline.set(pipeline, (stats = { runs: 0, failures: 0, lastDurationMs: 0 }));
    return stats;
  }
}
