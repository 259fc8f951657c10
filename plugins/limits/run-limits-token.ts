/** @module The RUN_LIMITS token: what svc:limits provides for readers of its state (metrics). */
import { token } from "svc/plugin";

/** One pipeline's run limits at work: runs and calls waiting now, calls refused (429) and timed out (504) so far. */
export interface PipelineLimitStatus {
  readonly pipeline: string;
  readonly running: number;
  readonly queued: number;
  /** 0 when the pipeline has no concurrency limit. */
  readonly maxConcurrency: number;
  readonly rejected: number;
  readonly timedOut: number;
}

/** The run limits at work, by pipeline (provided by svc:limits). */
export interface RunLimitsStatus {
  pipelines(): Iterable<PipelineLimitStatus>;
}

export const RUN_LIMITS = token<RunLimitsStatus>("runLimits", "svc:limits");
