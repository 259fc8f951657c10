/**
 * @module Task-augmented tool calls (MCP tasks, spec 2025-11-25) on svc's run store. A `tools/call`
 * with `task` is answered at once with the task; the call runs on this instance under the run's
 * lease with svc:runs' `RunExecutor` (the lifecycle REST runs, background responses and A2A tasks
 * share): a cancel from any instance aborts the tool's signal, a shutdown or a dead instance fails
 * the task. A tool result with `isError` makes the task `failed` (as the spec says), keeping the
 * result for `tasks/result`. A streamed pipeline's parts are logged as `run.output` events, and on
 * a connection that outlives the call (a session, SSE, stdio) they are progress notifications for
 * the client's token, and the task's end a `notifications/tasks/status`.
 */
import type { CallToolResult, CreateTaskResult, ProgressToken, RequestId, ServerNotification } from "@modelcontextprotocol/sdk/types.js";
import type { Logger } from "svc/plugin";
import { RunExecutor, isFinalEvent, type RunInterruption, type RunOutcome, type RunStore } from "svc/runs";
import { RunTaskStore } from "./run-task-store.js";

export interface ToolTasksOptions {
  readonly store: RunStore;
  readonly log: Logger;
  /** The longest task ttl granted (ms): the run store's retention. */
  readonly maxTtlMs: number;
  /** The `pollInterval` suggested to clients (ms). */
  readonly pollIntervalMs?: number;
}

/** One task-augmented call, as the tool server hands it over. */
export interface TaskCall {
  readonly tool: string;
  readonly arguments: Record<string, unknown>;
  readonly ttl?: number;
  readonly sessionId?: string;
  readonly requestId: RequestId;
  readonly progressToken?: ProgressToken;
  /** Runs the tool (the tool server's `callTool`) with the task's signal and progress callback. */
  readonly execute: (signal: AbortSignal, progress: (message: string) => Promise<void>) => Promise<CallToolResult>;
  /** Sends a notification to the client; only for a connection that outlives the call. */
  readonly notify?: (notification: ServerNotification) => Promise<void>;
}

/** A tool answered with `isError`: the task fails, keeping the result. */
class ToolResultError extends Error {
  constructor(readonly result: CallToolResult) {
    const first = result.content[0];
    super(first?.type === "text" ? first.text : "The tool failed.");
  }
}

export const DEFAULT_POLL_INTERVAL_MS = 1000;

export class ToolTasks {
  readonly taskStore: RunTaskStore;
  private readonly executor: RunExecutor;

  constructor(private readonly options: ToolTasksOptions) {
    this.taskStore = new RunTaskStore(options.store, { maxTtlMs: options.maxTtlMs, pollIntervalMs: options.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS });
    this.executor = new RunExecutor(options.store, options.log, "task");
  }

  /** Stores the task, starts the call in the background and answers with the task at once. */
  async start(call: TaskCall): Promise<CreateTaskResult> {
    const { store } = this.options;
    const run = await this.taskStore.create(call);
    if (call.notify) await this.notifyEnd(run.id, call.notify);
    let count = 0;
    const progress = async (message: string) => {
      await store.append(run.id, "run.output", { text: message });
      if (call.notify && call.progressToken !== undefined) {
        await call.notify({ method: "notifications/progress", params: { progressToken: call.progressToken, progress: ++count, message } }).catch(() => undefined);
      }
    };
    this.executor.start(run, {
      work: async (signal) => {
        const result = await call.execute(signal, progress);
        if (result.isError) throw new ToolResultError(result);
        return result;
      },
      interrupted: (end) => outcomeOf(end),
    });
    return { task: this.taskStore.view(run) };
  }

  /** Tasks running on this instance. */
  get size(): number {
    return this.executor.size;
  }

  /** Fails the tasks still running here (`shutdown`) and waits until each is recorded. */
  close(): Promise<void> {
    return this.executor.close();
  }

  /** Sends `notifications/tasks/status` when the run ends, wherever it is ended (a cancel from another instance too). */
  private async notifyEnd(id: string, notify: NonNullable<TaskCall["notify"]>): Promise<void> {
    let done = false;
    const unsubscribe = await this.options.store.subscribe(id, (signal) => {
      if (done || signal.type !== "event" || !isFinalEvent(signal.event)) return;
      done = true;
      void (async () => {
        await unsubscribe();
        const run = await this.options.store.get(id);
        if (run) await notify({ method: "notifications/tasks/status", params: this.taskStore.view(run) });
      })().catch(() => undefined);
    });
  }
}

function outcomeOf(end: RunInterruption): RunOutcome {
  if (end.cause !== "failure") return { error: end.error };
  if (end.error instanceof ToolResultError) return { result: end.error.result, error: { code: "tool_error", message: end.error.message } };
  return { error: { code: "tool_failed", message: (end.error as Error)?.message ?? String(end.error) } };
}
