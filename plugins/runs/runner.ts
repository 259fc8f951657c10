/**
 * @module Running a pipeline in the background for a stored run: the lease is held while it
 * runs, its streamed output is appended to the run's event log (`run.output` events), and the run
 * ends `completed` with the result, `failed` with the error, or `cancelled` when a cancel (from
 * any instance) aborted the wrapper's signal. Shutdown aborts what still runs and fails it.
 */
import { messageOf, pipelineFailure, streamItemText, type DeployedPipeline, type Logger, type PluginApi } from "svc/plugin";
import type { IncomingHttpHeaders } from "node:http";
import type { RunError, RunRecord, RunStatus } from "./run-record.js";
import type { RunStore } from "./run-store.js";

const CANCELLED: RunError = { code: "cancelled", message: "The run was cancelled." };
const SHUTDOWN: RunError = { code: "shutdown", message: "The instance running it shut down before the run finished." };

interface Active {
  readonly controller: AbortController;
  readonly done: Promise<void>;
  cause?: "cancel" | "shutdown";
}

export class BackgroundRunner {
  private readonly active = new Map<string, Active>();

  constructor(
    private readonly kernel: Pick<PluginApi, "invoke">,
    private readonly store: RunStore,
    private readonly log: Logger,
  ) {}

  /** Starts the run (already stored as `queued`); returns at once. */
  start(run: RunRecord, pipeline: DeployedPipeline, headers?: IncomingHttpHeaders): void {
    const active: { controller: AbortController; done: Promise<void>; cause?: Active["cause"] } = { controller: new AbortController(), done: Promise.resolve() };
    this.active.set(run.id, active);
    active.done = this.execute(run, pipeline, active, headers).catch((error) =>
      this.log.error(`Background run ${run.id} of '${run.pipeline}': could not record its outcome: ${messageOf(error)}`),
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
      active.controller.abort(new Error(SHUTDOWN.message));
    }
    await Promise.all([...this.active.values()].map((a) => a.done));
  }

  private async execute(run: RunRecord, pipeline: DeployedPipeline, active: Active, headers?: IncomingHttpHeaders): Promise<void> {
    const { id } = run;
    const { controller } = active;
    try {
      await this.store.hold(id, () => {
        active.cause ??= "cancel";
        controller.abort(new Error(CANCELLED.message));
      });
      const started = await this.store.update(id, { status: "in_progress", started_at: new Date().toISOString() });
      if (!started?.changed) return; // cancelled (or deleted) before it started
      await this.store.append(id, "run.in_progress", { status: "in_progress" });
      const result = await this.invoke(run, pipeline, controller.signal, headers);
      if (controller.signal.aborted) throw controller.signal.reason;
      await this.finish(id, "completed", { result });
    } catch (error) {
      if (active.cause === "cancel") await this.finish(id, "cancelled", { error: CANCELLED });
      else if (active.cause === "shutdown") await this.finish(id, "failed", { error: SHUTDOWN });
      else await this.finish(id, "failed", { error: { code: "pipeline_failed", message: pipelineFailure(error).message } });
    } finally {
      this.active.delete(id);
      await this.store.release(id).catch(() => undefined);
    }
  }

  /** The wrapper's result as JSON: a value, the text of a stream (each part also logged as `run.output`), or a file in base64. */
  private async invoke(run: RunRecord, pipeline: DeployedPipeline, signal: AbortSignal, headers?: IncomingHttpHeaders): Promise<unknown> {
    const invocation = await this.kernel.invoke({ pipeline, method: "runApi", transport: "rest", input: run.input, signal, requestId: run.id, headers });
    const { file, source } = invocation;
    if (file) return { content_type: file.contentType, filename: file.filename ?? null, data_base64: file.data.toString("base64") };
    if (!source) return invocation.result === undefined ? null : invocation.result;
    let warned = false;
    const warn = (message: string) => {
      if (!warned) this.log.warn(message, { pipeline: pipeline.name, run: run.id });
      warned = true;
    };
    let text = "";
    try {
      for await (const item of invocation.stream("run.item")) {
        const part = streamItemText(item, warn, true);
        if (part === undefined || part.length === 0) continue;
        text += part.toString();
        await this.store.append(run.id, "run.output", { text: part.toString() });
      }
    } finally {
      invocation.close();
    }
    return text;
  }

  private async finish(id: string, status: RunStatus, outcome: { result?: unknown; error?: RunError }): Promise<void> {
    await this.store.finish(id, status, outcome);
  }
}
