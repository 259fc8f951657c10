/**
 * @module The A2A methods of one agent on the run store, for one call: the SDK's JSON-RPC
 * transports parse and encode, this answers. A task is a run of kind `a2a` (task-view.ts), so
 * every instance sharing the store answers `GetTask`, `ListTasks`, `CancelTask` and subscriptions
 * for tasks another one runs; the runner is on the instance that took `SendMessage`.
 * With svc:auth a key sees only its own tasks (an admin key all); another's task is not found.
 */
import { randomUUID } from "node:crypto";
import { Message, type AgentCard, type CancelTaskRequest, type DeleteTaskPushNotificationConfigRequest, type GetTaskPushNotificationConfigRequest, type GetTaskRequest, type ListTaskPushNotificationConfigsRequest, type ListTaskPushNotificationConfigsResponse, type ListTasksRequest, type ListTasksResponse, type SendMessageRequest, type StreamResponse, type SubscribeToTaskRequest, type Task, type TaskPushNotificationConfig } from "@a2a-js/sdk";
import { ExtendedAgentCardNotConfiguredError, RequestMalformedError, TaskNotCancelableError, TaskNotFoundError, UnsupportedOperationError } from "@a2a-js/sdk/errors";
import type { A2ARequestHandler, ServerCallContext } from "@a2a-js/sdk/server";
import { ownedBy, type DeployedPipeline, type Principal } from "svc/plugin";
import { followRun, isFinal, isRunId, type RunRecord, type RunStore } from "svc/runs";
import type { IncomingHttpHeaders } from "node:http";
import { chatMessage, type ChatMessage } from "./chat-messages.js";
import type { PushConfigs } from "./push-configs.js";
import type { TaskRunner } from "./task-runner.js";
import { TASK_KIND, runStatusOf, streamResponseOf, taskOf, type TaskInput, type TaskMetadata } from "./task-view.js";

/** How long `CancelTask` waits for a running task to stop. */
const CANCEL_WAIT_MS = 5000;
const DEFAULT_PAGE_SIZE = 50;
/** Runs read per store page while `ListTasks` counts. */
const SCAN_PAGE = 100;
/** Tasks `ListTasks` reads at most to count `totalSize` (a bound on one call's work; the memory store keeps 10 000 runs). */
const COUNT_SCAN_LIMIT = 10_000;

export interface TaskServices {
  readonly store: RunStore;
  readonly runner: TaskRunner;
  readonly push: PushConfigs;
  /** The agent's pipeline now (a redeploy swaps it; a running task keeps its own). */
  pipeline(name: string): DeployedPipeline;
}

/** Who is calling and how (the HTTP request's part of a call). */
export interface TaskCaller {
  readonly principal?: Principal;
  readonly headers: IncomingHttpHeaders;
  /** Aborted when the client goes away: stops waiting and following, never the task. */
  readonly signal: AbortSignal;
}

export class AgentTasks implements A2ARequestHandler {
  constructor(
    private readonly services: TaskServices,
    private readonly agent: string,
    private readonly card: AgentCard,
    private readonly caller: TaskCaller,
  ) {}

  async getAgentCard(): Promise<AgentCard> {
    return this.card;
  }

  async getAuthenticatedExtendedAgentCard(): Promise<AgentCard> {
    throw new ExtendedAgentCardNotConfiguredError("This agent has no extended agent card.");
  }

  async sendMessage(params: SendMessageRequest, context: ServerCallContext): Promise<Message | Task> {
    const run = await this.createTask(params, context);
    const historyLength = params.configuration?.historyLength;
    if (params.configuration?.returnImmediately) return taskOf(run, historyLength);
    for await (const _ of followRun(this.services.store, run.id, Number.MAX_SAFE_INTEGER, this.caller.signal)) break;
    return taskOf((await this.services.store.get(run.id)) ?? run, historyLength);
  }

  async *sendMessageStream(params: SendMessageRequest, context: ServerCallContext): AsyncGenerator<StreamResponse, void, undefined> {
    const run = await this.createTask(params, context);
    yield { payload: { $case: "task", value: taskOf(run, params.configuration?.historyLength) } };
    yield* this.follow(run);
  }

  async *resubscribe(params: SubscribeToTaskRequest): AsyncGenerator<StreamResponse, void, undefined> {
    const run = await this.visibleTask(params.id);
    if (isFinal(run.status)) throw new UnsupportedOperationError(`Task ${run.id} is in a terminal state (${run.status}) and cannot be subscribed to.`);
    yield { payload: { $case: "task", value: taskOf(run) } };
    yield* this.follow(run);
  }

  async getTask(params: GetTaskRequest): Promise<Task> {
    return taskOf(await this.visibleTask(params.id), params.historyLength);
  }

  async cancelTask(params: CancelTaskRequest): Promise<Task> {
    const run = await this.visibleTask(params.id);
    if (run.status === "cancelled") return taskOf(run);
    if (isFinal(run.status)) throw new TaskNotCancelableError(`Task ${run.id} already ended (${run.status}): it cannot be cancelled.`);
    const { store } = this.services;
    await store.cancel(run.id);
    // A running task stops on whichever instance runs it; wait for its end, a few seconds at most.
    const deadline = AbortSignal.any([this.caller.signal, AbortSignal.timeout(CANCEL_WAIT_MS)]);
    for await (const _ of followRun(store, run.id, Number.MAX_SAFE_INTEGER, deadline, 200)) break;
    const after = (await store.get(run.id)) ?? run;
    if (isFinal(after.status) && after.status !== "cancelled") throw new TaskNotCancelableError(`Task ${run.id} ended (${after.status}) before it could be cancelled.`);
    return taskOf(after);
  }

  async listTasks(params: ListTasksRequest): Promise<ListTasksResponse> {
    const pageSize = params.pageSize ?? DEFAULT_PAGE_SIZE;
    if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > 100) throw new RequestMalformedError("pageSize must be between 1 and 100");
    if (params.pageToken && !isRunId(params.pageToken)) throw new RequestMalformedError("pageToken is not a token from a previous page");
    const after = params.statusTimestampAfter ? Date.parse(params.statusTimestampAfter) : undefined;
    if (Number.isNaN(after)) throw new RequestMalformedError("statusTimestampAfter must be an ISO 8601 date");
    const status = params.status ? runStatusOf(params.status) : undefined;
    if (status === null) return { tasks: [], nextPageToken: "", pageSize, totalSize: 0 };
    const principal = this.caller.principal;
    const ownerId = principal && !principal.admin ? principal.id : undefined;
    const token = params.pageToken || undefined;
    const tasks: Task[] = [];
    let totalSize = 0;
    let more = false;
    let before: string | undefined;
    let exhausted = false;
    // One pass over the agent's tasks, newest first (run ids sort by creation): every match counts
    // towards totalSize, the page takes those after the token. The store filters by agent, kind,
    // status and owner; context and time are checked here.
    for (let scanned = 0; scanned < COUNT_SCAN_LIMIT; ) {
      const page = await this.services.store.list({ pipeline: this.agent, kind: TASK_KIND, status, ownerId, limit: SCAN_PAGE, before });
      for (const run of page.runs) {
        scanned++;
        const task = taskOf(run, params.historyLength);
        if (params.contextId && task.contextId !== params.contextId) continue;
        if (after !== undefined && Date.parse(task.status?.timestamp ?? "") <= after) continue;
        totalSize++;
        if (token !== undefined && run.id >= token) continue;
        if (tasks.length < pageSize) tasks.push(task);
        else more = true;
      }
      if ((exhausted = page.next === null)) break;
      before = page.next;
    }
    // Past the count limit a full page may still have more after it.
    if (!exhausted && tasks.length === pageSize) more = true;
    return { tasks, nextPageToken: more ? tasks.at(-1)!.id : "", pageSize, totalSize };
  }

  async createTaskPushNotificationConfig(params: TaskPushNotificationConfig, context: ServerCallContext): Promise<TaskPushNotificationConfig> {
    const run = await this.visibleTask(params.taskId);
    return this.services.push.create(run, params, context.requestedVersion);
  }

  async getTaskPushNotificationConfig(params: GetTaskPushNotificationConfigRequest): Promise<TaskPushNotificationConfig> {
    const run = await this.visibleTask(params.taskId);
    const config = this.services.push.list(run).find((c) => c.id === params.id);
    if (!config) throw new TaskNotFoundError(`Push notification config '${params.id}' not found for task ${run.id}.`);
    return config;
  }

  async listTaskPushNotificationConfigs(params: ListTaskPushNotificationConfigsRequest): Promise<ListTaskPushNotificationConfigsResponse> {
    return { configs: this.services.push.list(await this.visibleTask(params.taskId)), nextPageToken: "" };
  }

  async deleteTaskPushNotificationConfig(params: DeleteTaskPushNotificationConfigRequest): Promise<void> {
    await this.services.push.delete(await this.visibleTask(params.taskId), params.id);
  }

  /** Stores the task of a message and starts it. */
  private async createTask(params: SendMessageRequest, context: ServerCallContext): Promise<RunRecord> {
    const message = params.message;
    if (!message?.messageId) throw new RequestMalformedError("message.messageId is required.");
    if (message.taskId) {
      const task = await this.visibleTask(message.taskId);
      throw new UnsupportedOperationError(
        `Task ${task.id} is ${task.status}: svc agents answer each message in a task of its own; to continue, send a new message with referenceTaskIds: ["${task.id}"].`,
      );
    }
    const history: ChatMessage[] = [];
    let contextId = message.contextId;
    for (const id of message.referenceTaskIds) {
      const earlier = await this.visibleTask(id);
      history.push(...conversationOf(earlier));
      contextId ||= (earlier.metadata as Partial<TaskMetadata>).context_id ?? "";
    }
    const current = chatMessage(message);
    if (!current) throw new RequestMalformedError("The message has no text or data part.");
    contextId ||= randomUUID();
    const pipeline = this.services.pipeline(this.agent);
    const input: TaskInput = { messages: [...history, current], message: Message.toJSON({ ...message, taskId: "", contextId }) };
    const metadata: TaskMetadata = { context_id: contextId, artifact_id: randomUUID() };
    const principal = this.caller.principal;
    let run = await this.services.store.create({ pipeline: this.agent, kind: TASK_KIND, owner: principal && { id: principal.id, name: principal.name }, input, metadata: { ...metadata } });
    const push = params.configuration?.taskPushNotificationConfig;
    if (push?.url) run = await this.services.push.attach(run, push, context.requestedVersion);
    this.services.runner.start(run, pipeline, this.caller.headers);
    return run;
  }

  /** The task's events after its snapshot, as a subscriber gets them, until its end. */
  private async *follow(run: RunRecord): AsyncGenerator<StreamResponse, void, undefined> {
    for await (const event of followRun(this.services.store, run.id, 0, this.caller.signal)) {
      const response = streamResponseOf(run, event);
      if (response) yield response;
    }
  }

  /** The task of this agent with that id the caller may see; else not found. */
  private async visibleTask(id: string): Promise<RunRecord> {
    if (!id?.trim()) throw new RequestMalformedError("A task id is required.");
    const run = isRunId(id) ? await this.services.store.get(id) : undefined;
    if (!run || run.kind !== TASK_KIND || run.pipeline !== this.agent || !ownedBy(run.owner_id ?? undefined, this.caller.principal)) {
      throw new TaskNotFoundError(`Task not found: ${id.slice(0, 64)}`);
    }
    return run;
  }
}

/** What an earlier task adds to a conversation: the messages it was given and its answer. */
function conversationOf(run: RunRecord): ChatMessage[] {
  const input = run.input as Partial<TaskInput> | null;
  const messages = [...((input?.messages ?? []) as ChatMessage[])];
  if (run.status === "completed" && typeof run.result === "string") messages.push({ role: "assistant", content: run.result });
  return messages;
}
