/**
 * @module The SDK's `TaskStore` on svc's run store: an MCP task is a run of kind `mcp` (its
 * `pipeline` is the tool's name, its id the task id), so every instance sharing the store answers
 * `tasks/get`, `tasks/result`, `tasks/list` and `tasks/cancel` for it. A task belongs to the API
 * key that created it (`currentCaller()`, as REST runs do); another key's task is "not found".
 * A task lives `ttl` ms from its creation (the requested one, at most the store's retention): after
 * that it is gone, and one still running is cancelled. `tasks/cancel` is the store's `cancel()`,
 * which aborts the wrapper wherever it runs.
 */
import type { TaskStore, CreateTaskOptions } from "@modelcontextprotocol/sdk/experimental/tasks/interfaces.js";
import { ErrorCode, McpError, type CallToolResult, type Request, type RequestId, type Result, type Task } from "@modelcontextprotocol/sdk/types.js";
import { ownedBy } from "svc/plugin";
import { isFinal, isRunId, type RunRecord, type RunStore } from "svc/runs";
import { currentCaller } from "./task-callers.js";

/** The run kind of MCP tasks. */
export const TASK_KIND = "mcp";
/** Tasks per `tasks/list` page. */
export const TASK_PAGE = 20;
/** How long `tasks/cancel` waits for the wrapper to stop before it marks the task cancelled itself. */
const CANCEL_WAIT_MS = 5000;

export interface RunTaskStoreOptions {
  /** The longest ttl granted (ms): the run store's retention. */
  readonly maxTtlMs: number;
  /** The `pollInterval` suggested to clients (ms). */
  readonly pollIntervalMs: number;
}

/** What a new task is made from (the tool call). */
export interface TaskInit {
  readonly tool: string;
  readonly arguments: Record<string, unknown>;
  readonly ttl?: number;
  readonly sessionId?: string;
  readonly requestId: RequestId;
}

export class RunTaskStore implements TaskStore {
  constructor(
    private readonly store: RunStore,
    private readonly options: RunTaskStoreOptions,
  ) {}

  /** Stores a new task (a `queued` run) owned by the caller; the caller starts it. */
  create(init: TaskInit): Promise<RunRecord> {
    const caller = currentCaller();
    const ttl = Math.max(1, Math.min(init.ttl ?? this.options.maxTtlMs, this.options.maxTtlMs));
    return this.store.create({
      pipeline: init.tool,
      kind: TASK_KIND,
      owner: caller && { id: caller.id, name: caller.name },
      input: init.arguments,
      metadata: { ttl_ms: ttl, session_id: init.sessionId ?? null, request_id: init.requestId },
    });
  }

  /** The task as MCP shows it. */
  view(run: RunRecord): Task {
    const message = run.error?.message;
    return {
      taskId: run.id,
      status: taskStatus(run),
      ...(message ? { statusMessage: message } : {}),
      createdAt: run.created_at,
      lastUpdatedAt: run.ended_at ?? run.started_at ?? run.created_at,
      ttl: ttlOf(run),
      pollInterval: this.options.pollIntervalMs,
    };
  }

  /** The caller's live task, or undefined (unknown, another kind of run, another key's, expired). */
  async find(taskId: string): Promise<RunRecord | undefined> {
    const run = isRunId(taskId) ? await this.store.get(taskId) : undefined;
    if (!run || run.kind !== TASK_KIND || !ownedBy(run.owner_id ?? undefined, currentCaller())) return undefined;
    if (!expired(run, Date.now())) return run;
    await this.expire(run);
    return undefined;
  }

  // --- TaskStore (the SDK's tasks/* handlers call these) ---

  async createTask(params: CreateTaskOptions, requestId: RequestId, request: Request, sessionId?: string): Promise<Task> {
    const call = request.params as { name?: unknown; arguments?: Record<string, unknown> } | undefined;
    const run = await this.create({ tool: String(call?.name ?? request.method), arguments: call?.arguments ?? {}, ttl: params.ttl ?? undefined, sessionId, requestId });
    return this.view(run);
  }

  async getTask(taskId: string): Promise<Task | null> {
    const run = await this.find(taskId);
    return run ? this.view(run) : null;
  }

  async storeTaskResult(taskId: string, status: "completed" | "failed", result: Result): Promise<void> {
    await this.known(taskId);
    await this.store.finish(taskId, status, { result });
  }

  /**
   * What `tools/call` would have answered: the tool's result (an `isError` one for a failed tool),
   * or, for a task that ended without one (cancelled, its instance gone), an `isError` result
   * saying why.
   */
  async getTaskResult(taskId: string): Promise<Result> {
    const run = await this.known(taskId);
    if (!isFinal(run.status)) throw new McpError(ErrorCode.InvalidRequest, `Task ${taskId} has not finished`);
    if (isToolResult(run.result)) return run.result;
    const text = run.error?.message ?? `The task ended ${run.status}.`;
    return { content: [{ type: "text", text }], isError: true } satisfies CallToolResult;
  }

  /**
   * `cancelled` cancels the run through the store (its runner is told on whichever instance) and
   * waits until it stopped; a wrapper that ignores its signal for longer than CANCEL_WAIT_MS is
   * marked cancelled anyway (the spec wants the task `cancelled` before the answer).
   */
  async updateTaskStatus(taskId: string, status: Task["status"], statusMessage?: string): Promise<void> {
    await this.known(taskId);
    if (status === "cancelled") return this.cancel(taskId);
    if (status === "completed" || status === "failed") {
      await this.store.finish(taskId, status, statusMessage ? { error: { code: status, message: statusMessage } } : {});
    }
    // `working` / `input_required`: a run in progress is working already; svc's tools ask no input.
  }

  async listTasks(cursor?: string): Promise<{ tasks: Task[]; nextCursor?: string }> {
    if (cursor !== undefined && !isRunId(cursor)) throw new Error(`Invalid cursor: ${cursor.slice(0, 64)}`);
    const caller = currentCaller();
    const page = await this.store.list({ kind: TASK_KIND, ownerId: caller && !caller.admin ? caller.id : undefined, limit: TASK_PAGE, before: cursor });
    const now = Date.now();
    const live = page.runs.filter((run) => !expired(run, now));
    return { tasks: live.map((run) => this.view(run)), ...(page.next ? { nextCursor: page.next } : {}) };
  }

  private async cancel(taskId: string): Promise<void> {
    const change = await this.store.cancel(taskId);
    if (!change || isFinal(change.record.status)) return;
    const deadline = Date.now() + CANCEL_WAIT_MS;
    let delay = 20;
    while (Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, delay));
      const run = await this.store.get(taskId);
      if (!run || isFinal(run.status)) return;
      delay = Math.min(delay * 2, 250);
    }
    await this.store.finish(taskId, "cancelled", { error: { code: "cancelled", message: "The task was cancelled (its tool did not stop in time)." } });
  }

  private async known(taskId: string): Promise<RunRecord> {
    const run = await this.find(taskId);
    if (!run) throw new McpError(ErrorCode.InvalidParams, `Task not found: ${taskId.slice(0, 64)}`);
    return run;
  }

  /** A task past its ttl: stopped if it still runs, then deleted. */
  private async expire(run: RunRecord): Promise<void> {
    if (!isFinal(run.status)) await this.store.cancel(run.id);
    await this.store.delete(run.id);
  }
}

function taskStatus(run: RunRecord): Task["status"] {
  switch (run.status) {
    case "completed":
      return "completed";
    case "cancelled":
      return "cancelled";
    case "failed":
    case "incomplete":
      return "failed";
    default:
      return "working";
  }
}

function ttlOf(run: RunRecord): number | null {
  const ttl = run.metadata.ttl_ms;
  return typeof ttl === "number" ? ttl : null;
}

function expired(run: RunRecord, now: number): boolean {
  const ttl = ttlOf(run);
  return ttl !== null && Date.parse(run.created_at) + ttl <= now;
}

function isToolResult(value: unknown): value is CallToolResult {
  return typeof value === "object" && value !== null && Array.isArray((value as { content?: unknown }).content);
}
