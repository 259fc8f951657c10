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
import { pipelineFailure, type DeployedPipeline, type Logger, type PluginApi, type UploadedFile } from "svc/plugin";
import { RunExecutor, type RunRecord, type RunStore } from "svc/runs";
import { responseError, type Json } from "./response-object.js";
import { ResponseState, type ResponseEvent } from "./responses-stream.js";
import { baseOf, storedFinal } from "./stored-responses.js";

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

export class BackgroundResponses {
  private readonly executor: RunExecutor;

  constructor(
    private readonly kernel: Pick<PluginApi, "invoke">,
    private readonly store: RunStore,
    log: Logger,
    private readonly uiEvents: boolean,
  ) {
    this.executor = new RunExecutor(store, log, "response");
  }

  /** Starts the response (stored `queued`); returns at once. */
  start(run: RunRecord, job: ResponseJob): void {
    const { id } = run;
    const state = new ResponseState(baseOf(run), { uiEvents: this.uiEvents });
    this.executor.start(run, {
      work: async (signal) => {
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
        return storedFinal(state, "completed");
      },
      interrupted: async (end) => {
        await this.append(id, state.close()).catch(() => undefined);
        if (end.cause === "cancel") return { result: storedFinal(state, "cancelled"), error: end.error };
        if (end.cause === "shutdown") return { result: storedFinal(state, "failed", { code: "server_error", message: end.error.message }), error: end.error };
        const failure = pipelineFailure(end.error);
        return { result: storedFinal(state, "failed", responseError(failure)), error: { code: "pipeline_failed", message: failure.message } };
      },
    });
  }

  /** Aborts every response still running and waits until each recorded its end (`failed`, code `shutdown`). */
  close(): Promise<void> {
    return this.executor.close();
  }

  private async append(id: string, events: readonly ResponseEvent[]): Promise<void> {
    for (const e of events) if (!TERMINAL.has(e.event)) await this.store.append(id, e.event, e.data);
  }
}
