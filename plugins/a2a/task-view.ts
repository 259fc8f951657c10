/**
 * @module An A2A task as the run store keeps it, and back. A task is a run of kind `a2a`: its id
 * is the run's id, its state the run's status, its history the user's message (kept in the run's
 * input), its artifact the final text (the run's result), and a failure or cancel the status
 * message. Streamed text is logged as `a2a.artifact` events between `run.in_progress` and the
 * terminal event; `streamResponseOf` turns each logged event into what a subscriber gets.
 */
import { randomUUID } from "node:crypto";
import { Message, Role, TaskState, type Artifact, type Part, type StreamResponse, type Task } from "@a2a-js/sdk";
import type { RunEvent, RunRecord, RunStatus } from "svc/runs";

/** The run kind of A2A tasks. */
export const TASK_KIND = "a2a";
/** The event of one streamed piece of the answer. */
export const ARTIFACT_EVENT = "a2a.artifact";
/** The name of the one artifact a task produces (as Hayhooks). */
export const ARTIFACT_NAME = "response";

/** What a task's run keeps as its input. */
export interface TaskInput {
  /** The chat messages the wrapper got. */
  readonly messages: readonly { role: string; content: string }[];
  /** The user's A2A message, as JSON. */
  readonly message: unknown;
}

/** What a task's run keeps in its metadata. */
export interface TaskMetadata {
  readonly context_id: string;
  readonly artifact_id: string;
}

/** `a2a.artifact` event data. */
export interface ArtifactChunk {
  readonly text: string;
  readonly append: boolean;
  readonly last: boolean;
}

const STATES: Record<RunStatus, TaskState> = {
  queued: TaskState.TASK_STATE_SUBMITTED,
  in_progress: TaskState.TASK_STATE_WORKING,
  completed: TaskState.TASK_STATE_COMPLETED,
  failed: TaskState.TASK_STATE_FAILED,
  cancelled: TaskState.TASK_STATE_CANCELED,
  incomplete: TaskState.TASK_STATE_FAILED,
};

/** The run status a ListTasks state filter means; null for states a run never has (input-required …). */
export function runStatusOf(state: TaskState): RunStatus | null {
  for (const [status, s] of Object.entries(STATES) as [RunStatus, TaskState][]) if (s === state && status !== "incomplete") return status;
  return null;
}

export const textPart = (text: string): Part => ({ content: { $case: "text", value: text }, mediaType: "text/plain", filename: "", metadata: undefined });

export function agentMessage(taskId: string, contextId: string, text: string): Message {
  return { messageId: randomUUID(), contextId, taskId, role: Role.ROLE_AGENT, parts: [textPart(text)], metadata: undefined, extensions: [], referenceTaskIds: [] };
}

export function metadataOf(run: RunRecord): TaskMetadata {
  const m = run.metadata as Partial<TaskMetadata>;
  return { context_id: m.context_id ?? "", artifact_id: m.artifact_id ?? "" };
}

function artifact(artifactId: string, text: string): Artifact {
  return { artifactId, name: ARTIFACT_NAME, description: "", parts: [textPart(text)], metadata: undefined, extensions: [] };
}

function statusOf(run: RunRecord, contextId: string): Task["status"] {
  const timestamp = run.ended_at ?? run.started_at ?? run.created_at;
  const message = run.error && run.status !== "completed" ? agentMessage(run.id, contextId, run.error.message) : undefined;
  return { state: STATES[run.status], message, timestamp };
}

/** The task of a run; `historyLength` as the spec has it (absent: all, 0: none, N: the last N). */
export function taskOf(run: RunRecord, historyLength?: number): Task {
  const { context_id, artifact_id } = metadataOf(run);
  const input = run.input as Partial<TaskInput> | null;
  const history = input?.message ? [{ ...Message.fromJSON(input.message), taskId: run.id, contextId: context_id }] : [];
  const artifacts = run.status === "completed" && typeof run.result === "string" ? [artifact(artifact_id, run.result)] : [];
  return {
    id: run.id,
    contextId: context_id,
    status: statusOf(run, context_id),
    artifacts,
    history: historyLength === undefined ? history : historyLength === 0 ? [] : history.slice(-historyLength),
    metadata: {},
  };
}

/** What a logged event of the task's run means to a subscriber; undefined for events it does not see. */
export function streamResponseOf(run: RunRecord, event: RunEvent): StreamResponse | undefined {
  const { context_id: contextId, artifact_id } = metadataOf(run);
  const taskId = run.id;
  if (event.type === ARTIFACT_EVENT) {
    const chunk = event.data as ArtifactChunk;
    return { payload: { $case: "artifactUpdate", value: { taskId, contextId, artifact: artifact(artifact_id, chunk.text), append: chunk.append, lastChunk: chunk.last, metadata: undefined } } };
  }
  const status = event.type === "run.in_progress" ? "in_progress" : event.type.startsWith("run.") ? (event.type.slice(4) as RunStatus) : undefined;
  if (!status || !(status in STATES) || status === "queued") return undefined;
  const error = (event.data as { error?: { message: string } | null } | null)?.error;
  const message = error && status !== "completed" ? agentMessage(taskId, contextId, error.message) : undefined;
  return { payload: { $case: "statusUpdate", value: { taskId, contextId, status: { state: STATES[status], message, timestamp: event.created_at }, metadata: undefined } } };
}
