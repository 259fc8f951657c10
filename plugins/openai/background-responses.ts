/**
 * @module Background responses (`background: true`): the run executes on the instance that
 * created it, detached from the request, holding the run's lease. Every event of OpenAI's stream
 * (`response.created` … the output items' events) is appended to the run's event log, which any
 * instance replays and follows; the run ends `completed` with the Response object as its result,
 * `failed`, or `cancelled` when a cancel (from any instance) aborted the wrapper's signal. The
 * terminal event a client sees is made from the final record (see response-relay.ts), so a run
 * that ended without this runner (cancelled while queued, failed by a lease expiry) ends its
 * stream the same way.
 */
import type { IncomingHttpHeaders } from "node:http";
import { messageOf, pipelineFailure, type DeployedPipeline, type Logger, type PluginApi, type UploadedFile } from "svc/plugin";
import type { RunError, RunRecord, RunStatus, RunStore } from "svc/runs";
import { responseError, type Json } from "./response-object.js";
import { ResponseState, type ResponseEvent } from "./responses-stream.js";
import { baseOf, storedFinal } from "./stored-responses.js";

const CANCELLED: RunError = { code: "cancelled", message: "The response was cancelled." };
const SHUTDOWN: RunError = { code: "shutdown", message: "The instance running it shut down before the response finished." };

/** Events the log never holds: the terminal one comes from the run's final record. */
const TERMINAL = new Set(["response.completed", "response.failed"]);

/** What a background response runs with (kept in memory: it runs on the instance that created it). */
export interface ResponseJob {
  readonly pipeline: DeployedPipeline;
  /** `runResponse`'s arguments before the context: model, input items (the whole conversation), body. */
  readonly args: readonly unknown[];
  readonly body: Json;
  readonly files: readonly UploadedFile[];
  readonly headers?: IncomingHttpHeaders;
}

interface Active {
  readonly controller: AbortController;
  done: Promise<void>;
  cause?: "cancel" | "shutdown";
}

export class BackgroundResponses {
  private readonly active = new Map<string, Active>();

  constructor(
    private readonly kernel: Pick<PluginApi, "invoke">,
    private readonly store: RunStore,
    private readonly log: Logger,
    private readonly uiEvents: boolean,
  ) {}

  /** Starts the response (stored `queued`); returns at once. */
  start(run: RunRecord, job: ResponseJob): void {
    const active: Active = { controller: new AbortController(), done: Promise.resolve() };
    this.active.set(run.id, active);
    active.done = this.execute(run, job, active).catch((error) =>
      this.log.error(`Background response ${run.id} of '${run.pipeline}': could not record its outcome: ${messageOf(error)}`),
    );
  }

  /** Aborts every response still running and waits until each recorded its end (`failed`, code `shutdown`). */
  async close(): Promise<void> {
    for (const active of this.active.values()) {
      active.cause ??= "shutdown";
      active.controller.abort(new Error(SHUTDOWN.message));
    }
    await Promise.all([...this.active.values()].map((a) => a.done));
  }

  private async execute(run: RunRecord, job: ResponseJob, active: Active): Promise<void> {
    const { id } = run;
    const { signal } = active.controller;
    const state = new ResponseState(baseOf(run), { uiEvents: this.uiEvents });
    try {
      await this.store.hold(id, () => {
        active.cause ??= "cancel";
        active.controller.abort(new Error(CANCELLED.message));
      });
      const started = await this.store.update(id, { status: "in_progress", started_at: new Date().toISOString() });
      if (!started?.changed) return; // cancelled (or deleted) before it started
      await this.append(id, state.start());
      const invocation = await this.kernel.invoke({
        pipeline: job.pipeline,
        method: "runResponse",
        transport: "openai",
        input: job.body,
        args: job.args,
        files: job.files,
        events: this.uiEvents,
        signal,
        requestId: id,
        headers: job.headers,
      });
      try {
        for await (const item of invocation.stream("response.event", invocation.source?.items ?? [invocation.result])) {
          await this.append(id, state.push(item));
          if (state.done || signal.aborted) break;
        }
      } finally {
        invocation.close();
      }
      if (signal.aborted) throw signal.reason;
      await this.append(id, state.close());
      await this.finish(id, "completed", storedFinal(state, "completed"));
    } catch (error) {
      await this.append(id, state.close()).catch(() => undefined);
      if (active.cause === "cancel") await this.finish(id, "cancelled", storedFinal(state, "cancelled"), CANCELLED);
      else if (active.cause === "shutdown") await this.finish(id, "failed", storedFinal(state, "failed", { code: "server_error", message: SHUTDOWN.message }), SHUTDOWN);
      else {
        const failure = pipelineFailure(error);
        await this.finish(id, "failed", storedFinal(state, "failed", responseError(failure)), { code: "pipeline_failed", message: failure.message });
      }
    } finally {
      this.active.delete(id);
      await this.store.release(id).catch(() => undefined);
    }
  }

  private async append(id: string, events: readonly ResponseEvent[]): Promise<void> {
    for (const e of events) if (!TERMINAL.has(e.event)) await this.store.append(id, e.event, e.data);
  }

  private async finish(id: string, status: RunStatus, result: Json, error?: RunError): Promise<void> {
    await this.store.finish(id, status, { result, error });
  }
}
