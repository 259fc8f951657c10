/**
 * @module Running an A2A task: the wrapper's `runChatCompletion` through the kernel's `run` hook
 * (transport `a2a`, so auth, limits, tracing and metrics see it as any other call), in the
 * background of the request that stored the task, under the run's lease. Streamed text is logged
 * as `a2a.artifact` events, each held back until the next arrives so the last one says it is the
 * last (as Hayhooks); the whole text is the run's result. A failure ends the task `failed` with
 * its message; a cancel, from any instance, aborts the wrapper's signal and ends it `cancelled`.
 */
import { pipelineFailure, withTraceback, type DeployedPipeline, type Logger, type PluginApi } from "svc/plugin";
import { RunExecutor, type RunRecord, type RunStore } from "svc/runs";
import type { IncomingHttpHeaders } from "node:http";
import { itemText, valueText } from "./chat-messages.js";
import { ARTIFACT_EVENT, type ArtifactChunk, type TaskInput } from "./task-view.js";

/** Told after a task started working (push notifications; final states come from the store's onFinal). */
export type TaskChanged = (id: string) => void;

export class TaskRunner {
  private readonly executor: RunExecutor;

  constructor(
    private readonly kernel: Pick<PluginApi, "invoke">,
    private readonly store: RunStore,
    private readonly log: Logger,
    private readonly showTracebacks: boolean,
    private readonly changed: TaskChanged = () => undefined,
  ) {
    this.executor = new RunExecutor(store, log, "task");
  }

  /** Starts the task (stored `queued`); returns at once. */
  start(run: RunRecord, pipeline: DeployedPipeline, headers: IncomingHttpHeaders): void {
    this.executor.start(run, {
      work: async (signal) => {
        await this.store.append(run.id, "run.in_progress", { status: "in_progress" });
        this.changed(run.id);
        return this.answer(run, pipeline, signal, headers);
      },
      interrupted: (end) => {
        if (end.cause !== "failure") return { error: end.error };
        const failure = pipelineFailure(end.error);
        const cause = failure.cause ?? end.error;
        if (failure.status >= 500) this.log.error(`A2A task ${run.id} of '${run.pipeline}' failed: ${failure.message}`, cause);
        const message = withTraceback(failure.message, cause, this.showTracebacks);
        return { error: { code: failure.status >= 500 ? "pipeline_failed" : String(failure.status), message } };
      },
    });
  }

  /** Aborts every task still running and waits until each recorded its end. */
  close(): Promise<void> {
    return this.executor.close();
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
}
