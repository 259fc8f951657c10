/**
 * @module Running an A2A task: the wrapper's `runChatCompletion` through the kernel's `run` hook
 * (transport `a2a`, so auth, limits, tracing and metrics see it as any other call), in the
 * background of the request that stored the task, under the run's lease. Streamed text is logged
 * as `a2a.artifact` events, each held back until the next arrives so the last one says it is the
 * last (as Hayhooks); the whole text is the run's result. A failure ends the task `failed` with
 * its message; a cancel, from any instance, aborts the wrapper's signal and ends it `cancelled`.
 */
import { messageOf, pipelineFailure, withTraceback, type DeployedPipeline, type Logger, type PluginApi } from "svc/plugin";
import type { RunError, RunRecord, RunStatus, RunStore } from "svc/runs";
import type { IncomingHttpHeaders } from "node:http";
import { itemText, valueText } from "./chat-messages.js";
import { ARTIFACT_EVENT, type ArtifactChunk, type TaskInput } from "./task-view.js";

const CANCELLED: RunError = { code: "cancelled", message: "The task was cancelled." };
const SHUTDOWN: RunError = { code: "shutdown", message: "The instance running the task shut down before it finished." };

interface Active {
  readonly controller: AbortController;
  done: Promise<void>;
  cause?: "cancel" | "shutdown";
}

/** Told after a task started working (push notifications; final states come from the store's onFinal). */
export type TaskChanged = (id: string) => void;

export class TaskRunner {
  private readonly active = new Map<string, Active>();

  constructor(
    private readonly kernel: Pick<PluginApi, "invoke">,
    private readonly store: RunStore,
    private readonly log: Logger,
    private readonly showTracebacks: boolean,
    private readonly changed: TaskChanged = () => undefined,
  ) {}

  /** Starts the task (stored `queued`); returns at once. */
  start(run: RunRecord, pipeline: DeployedPipeline, headers: IncomingHttpHeaders): void {
    const active: Active = { controller: new AbortController(), done: Promise.resolve() };
    this.active.set(run.id, active);
    active.done = this.execute(run, pipeline, active, headers).catch((error) =>
      this.log.error(`A2A task ${run.id} of '${run.pipeline}': could not record its outcome: ${messageOf(error)}`),
    );
  }

  /** Aborts every task still running and waits until each recorded its end. */
  async close(): Promise<void> {
    for (const active of this.active.values()) {
      active.cause ??= "shutdown";
      active.controller.abort(new Error(SHUTDOWN.message));
    }
    await Promise.all([...this.active.values()].map((a) => a.done));
  }

  private async execute(run: RunRecord, pipeline: DeployedPipeline, active: Active, headers: IncomingHttpHeaders): Promise<void> {
    const { id } = run;
    const { controller } = active;
    try {
      await this.store.hold(id, () => {
        active.cause ??= "cancel";
        controller.abort(new Error(CANCELLED.message));
      });
      const started = await this.store.update(id, { status: "in_progress", started_at: new Date().toISOString() });
      if (!started?.changed) return; // cancelled before it started
      await this.store.append(id, "run.in_progress", { status: "in_progress" });
      this.changed(id);
      const text = await this.answer(run, pipeline, controller.signal, headers);
      if (controller.signal.aborted) throw controller.signal.reason;
      await this.finish(id, "completed", { result: text });
    } catch (error) {
      if (active.cause === "cancel") await this.finish(id, "cancelled", { error: CANCELLED });
      else if (active.cause === "shutdown") await this.finish(id, "failed", { error: SHUTDOWN });
      else {
        const failure = pipelineFailure(error);
        if (failure.status >= 500) this.log.error(`A2A task ${id} of '${run.pipeline}' failed: ${failure.message}`, failure.cause ?? error);
        const message = withTraceback(failure.message, failure.cause ?? error, this.showTracebacks);
        await this.finish(id, "failed", { error: { code: failure.status >= 500 ? "pipeline_failed" : String(failure.status), message } });
      }
    } finally {
      this.active.delete(id);
      await this.store.release(id).catch(() => undefined);
    }
  }

  /** Runs the wrapper; logs its text as artifact chunks and returns the whole. */
  private async answer(run: RunRecord, pipeline: DeployedPipeline, signal: AbortSignal, headers: IncomingHttpHeaders): Promise<string> {
    const { messages } = run.input as TaskInput;
    const body = { model: pipeline.name, messages, stream: true };
    const invocation = await this.kernel.invoke({
      pipeline,
      method: "runChatCompletion",
      transport: "a2a",
      input: body,
      args: [pipeline.name, messages, body],
      signal,
      requestId: run.id,
      headers,
    });
    try {
      if (!invocation.source) {
        const text = valueText(invocation.result);
        await this.chunk(run.id, { text, append: false, last: true });
        return text;
      }
      let whole = "";
      let pending: string | undefined;
      let first = true;
      for await (const item of invocation.stream("a2a.chunk")) {
        const text = itemText(item);
        if (text === undefined) continue;
        whole += text;
        if (pending !== undefined) {
          await this.chunk(run.id, { text: pending, append: !first, last: false });
          first = false;
        }
        pending = text;
      }
      if (!signal.aborted) await this.chunk(run.id, { text: pending ?? "", append: !first, last: true });
      return whole;
    } finally {
      invocation.close();
    }
  }

  private async chunk(id: string, chunk: ArtifactChunk): Promise<void> {
    await this.store.append(id, ARTIFACT_EVENT, chunk);
  }

  private async finish(id: string, status: RunStatus, outcome: { result?: unknown; error?: RunError }): Promise<void> {
    await this.store.finish(id, status, outcome);
  }
}
