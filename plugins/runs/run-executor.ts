/**
 * @module Executing a stored run on this instance, detached from the request that created it and
 * under the run's lease: what REST runs, background responses and A2A tasks share. The executor
 * holds the lease, marks the run `in_progress`, does the job's work with a signal that a cancel
 * (from any instance) or a shutdown aborts, and makes the run final once: `completed` with the
 * work's value, `cancelled`, or `failed` (code `shutdown`, or the job's failure).
 */
import { messageOf, pipelineFailure, type Logger } from "svc/plugin";
import type { RunError, RunRecord } from "./run-record.js";
import type { RunStore } from "./run-store.js";

/** Why a run did not complete: cancelled, its instance shutting down, or its work failing. */
export type RunInterruption =
  | { readonly cause: "cancel" | "shutdown"; readonly error: RunError }
  | { readonly cause: "failure"; readonly error: unknown };

/** What a run that ended stores. */
export interface RunOutcome {
  readonly result?: unknown;
  readonly error?: RunError;
}

export interface RunJob {
  /** The run's work, once it is `in_progress`; its value is the completed run's result. */
  work(signal: AbortSignal): Promise<unknown>;
  /**
   * What a run that did not complete stores. By default the interruption's error; a failure is
   * `pipeline_failed` with the pipeline's message.
   */
  interrupted?(end: RunInterruption): Promise<RunOutcome> | RunOutcome;
}

interface Active {
  readonly controller: AbortController;
  done: Promise<void>;
  cause?: "cancel" | "shutdown";
}

export class RunExecutor {
  private readonly active = new Map<string, Active>();
  private readonly cancelled: RunError;
  private readonly shutdown: RunError;

  /** `noun` names a run in its errors and logs: "run", "response", "task". */
  constructor(
    private readonly store: RunStore,
    private readonly log: Logger,
    private readonly noun = "run",
  ) {
    this.cancelled = { code: "cancelled", message: `The ${noun} was cancelled.` };
    this.shutdown = { code: "shutdown", message: `The instance running the ${noun} shut down before it finished.` };
  }

  /** Starts the run (already stored as `queued`); returns at once. */
  start(run: RunRecord, job: RunJob): void {
    const active: Active = { controller: new AbortController(), done: Promise.resolve() };
    this.active.set(run.id, active);
    active.done = this.execute(run.id, job, active).catch((error) =>
      this.log.error(`Background ${this.noun} ${run.id} of '${run.pipeline}': could not record its outcome: ${messageOf(error)}`),
    );
  }

  /** How many runs this process is running. */
  get size(): number {
    return this.active.size;
  }

  /** Aborts every run still going and waits until each recorded its end. */
  async close(): Promise<void> {
    for (const active of this.active.values()) {
      active.cause ??= "shutdown";
      active.controller.abort(new Error(this.shutdown.message));
    }
    await Promise.all([...this.active.values()].map((a) => a.done));
  }

  private async execute(id: string, job: RunJob, active: Active): Promise<void> {
    const { controller } = active;
    try {
      await this.store.hold(id, () => {
        active.cause ??= "cancel";
        controller.abort(new Error(this.cancelled.message));
      });
      const started = await this.store.update(id, { status: "in_progress", started_at: new Date().toISOString() });
      if (!started?.changed) return; // cancelled (or deleted) before it started
      const result = await job.work(controller.signal);
      if (controller.signal.aborted) throw controller.signal.reason;
      await this.store.finish(id, "completed", { result });
    } catch (error) {
      const end: RunInterruption =
        active.cause === "cancel"
          ? { cause: "cancel", error: this.cancelled }
          : active.cause === "shutdown"
            ? { cause: "shutdown", error: this.shutdown }
            : { cause: "failure", error };
      const outcome = job.interrupted
        ? await job.interrupted(end)
        : { error: end.cause === "failure" ? { code: "pipeline_failed", message: pipelineFailure(error).message } : end.error };
      await this.store.finish(id, end.cause === "cancel" ? "cancelled" : "failed", outcome);
    } finally {
      this.active.delete(id);
      await this.store.release(id).catch(() => undefined);
    }
  }
}
