/**
 * @module Running a pipeline in the background for a stored run: the lease is held while it
 * runs, its streamed output is appended to the run's event log (`run.output` events), and the run
 * ends `completed` with the result, `failed` with the error, or `cancelled` when a cancel (from
 * any instance) aborted the wrapper's signal. Shutdown aborts what still runs and fails it.
 */
import { streamItemText, type DeployedPipeline, type Logger, type PluginApi } from "svc/plugin";
import type { IncomingHttpHeaders } from "node:http";
import type { RunRecord } from "./run-record.js";
import { RunExecutor } from "./run-executor.js";
import type { RunStore } from "./run-store.js";

export class BackgroundRunner {
  private readonly executor: RunExecutor;

  constructor(
    private readonly kernel: Pick<PluginApi, "invoke">,
    private readonly store: RunStore,
    private readonly log: Logger,
  ) {
    this.executor = new RunExecutor(store, log);
  }

  /** Starts the run (already stored as `queued`); returns at once. */
  start(run: RunRecord, pipeline: DeployedPipeline, headers?: IncomingHttpHeaders): void {
    this.executor.start(run, {
      work: async (signal) => {
        await this.store.append(run.id, "run.in_progress", { status: "in_progress" });
        return this.invoke(run, pipeline, signal, headers);
      },
    });
  }

  /** How many runs this process is running. */
  get size(): number {
    return this.executor.size;
  }

  /** Aborts every run still going and waits until each recorded its end. */
  close(): Promise<void> {
    return this.executor.close();
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
}
