/**
 * @module A run record and its events: what the run store keeps for one run that outlives its
 * request. Fields are snake_case because records travel as they are (REST, Responses, A2A).
 */
import { randomBytes } from "node:crypto";

export const RUN_STATUSES = ["queued", "in_progress", "completed", "failed", "cancelled", "incomplete"] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

/** Statuses a run never leaves: the store refuses to change a run in one of them. */
export const FINAL_STATUSES: ReadonlySet<RunStatus> = new Set(["completed", "failed", "cancelled", "incomplete"]);
export const isFinal = (status: RunStatus): boolean => FINAL_STATUSES.has(status);

export interface RunError {
  readonly message: string;
  /** A stable code: `pipeline_failed`, `lease_expired`, `shutdown`, or the HTTP status's error code. */
  readonly code: string;
}

export interface RunRecord {
  /** `run_<ms since epoch, 12 hex><counter, 4 hex><random, 12 hex>`: ids sort by creation time (strictly, within a process). */
  readonly id: string;
  readonly pipeline: string;
  /** Who created it: `rest` (`POST /{name}/runs`), `responses`, `a2a`, … */
  readonly kind: string;
  /** The API key's name when svc:auth identified the caller; null otherwise. */
  readonly owner: string | null;
  /** The caller's principal id (svc:auth: the key's hash), used for scoping; null without auth. */
  readonly owner_id: string | null;
  readonly status: RunStatus;
  readonly created_at: string;
  readonly started_at: string | null;
  readonly ended_at: string | null;
  /** What the run was started with (the `/run` body), kept for replays and conversations. */
  readonly input: unknown;
  readonly result: unknown;
  readonly error: RunError | null;
  /** Set once someone asked to cancel; the runner checks it on every lease renewal too. */
  readonly cancel_requested: boolean;
  /** Free-form fields of the feature that made the run (a Responses model, a webhook URL). */
  readonly metadata: Record<string, unknown>;
}

/** One entry of a run's event log; `seq` starts at 1 and grows by one per event of the run. */
export interface RunEvent {
  readonly seq: number;
  readonly type: string;
  readonly data: unknown;
  readonly created_at: string;
}

/** Terminal event types, one per final status (`run.completed` …): the last event of a run's log. */
export const finalEventType = (status: RunStatus): string => `run.${status}`;
export const isFinalEvent = (event: RunEvent): boolean => event.type.startsWith("run.") && FINAL_STATUSES.has(event.type.slice(4) as RunStatus);

const RUN_ID = /^run_[0-9a-f]{28}$/;
export const isRunId = (id: string): boolean => RUN_ID.test(id);

let lastMs = 0;
let counter = 0;

/** A new id; ids made by one process increase strictly, so their order is their creation order. */
export function newRunId(now = Date.now()): string {
  if (now > lastMs) {
    lastMs = now;
    counter = 0;
  } else if (++counter > 0xffff) {
    lastMs++;
    counter = 0;
  }
  return `run_${lastMs.toString(16).padStart(12, "0")}${counter.toString(16).padStart(4, "0")}${randomBytes(6).toString("hex")}`;
}

/** What a new run is made from. */
export interface RunInit {
  readonly pipeline: string;
  readonly kind: string;
  readonly owner?: { readonly id: string; readonly name: string };
  readonly input?: unknown;
  readonly metadata?: Record<string, unknown>;
}

export function newRunRecord(init: RunInit, now = Date.now()): RunRecord {
  return {
    id: newRunId(now),
    pipeline: init.pipeline,
    kind: init.kind,
    owner: init.owner?.name ?? null,
    owner_id: init.owner?.id ?? null,
    status: "queued",
    created_at: new Date(now).toISOString(),
    started_at: null,
    ended_at: null,
    input: init.input ?? null,
    result: null,
    error: null,
    cancel_requested: false,
    metadata: init.metadata ?? {},
  };
}

/** The fields a run may change while it is not final. */
export type RunPatch = Partial<Pick<RunRecord, "status" | "started_at" | "ended_at" | "result" | "error" | "cancel_requested" | "metadata">>;

export interface RunQuery {
  readonly pipeline?: string;
  readonly status?: RunStatus;
  /** Only runs of this kind (`rest`, `a2a`, …). */
  readonly kind?: string;
  /** Only runs of this principal id (a non-admin API key). */
  readonly ownerId?: string;
  readonly limit: number;
  /** Runs created before the run with this id (the previous page's last id). */
  readonly before?: string;
}

export interface RunPage {
  readonly runs: RunRecord[];
  /** The id to pass as `before` for the next page; null on the last page. */
  readonly next: string | null;
}

export function matchesQuery(run: RunRecord, query: RunQuery): boolean {
  return (
    (query.pipeline === undefined || run.pipeline === query.pipeline) &&
    (query.status === undefined || run.status === query.status) &&
    (query.kind === undefined || run.kind === query.kind) &&
    (query.ownerId === undefined || run.owner_id === query.ownerId)
  );
}
