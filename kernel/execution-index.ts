/**
 * @module The execution index protocol: one record per pipeline invocation (run, chat, responses,
 * MCP, CLI), written when it starts and again when it finishes, listed newest first. The monitoring
 * plugin provides a backend under `EXECUTION_INDEX` (in memory, or Redis); a host may register its
 * own first. Every backend passes the same contract test suite. Records use the wire's snake_case.
 */

export const EXECUTION_STATUSES = ["running", "succeeded", "failed", "cancelled"] as const;
export type ExecutionStatus = (typeof EXECUTION_STATUSES)[number];

export interface ExecutionRecord {
  /** Time-ordered: a later start has a greater id (string comparison), so ids double as cursors. */
  readonly id: string;
  readonly pipeline: string;
  /** `rest`, `openai`, `mcp`, `cli`, … */
  readonly transport: string;
  /** The wrapper method: `runApi`, `runChatCompletion`, `runResponse`. */
  readonly method: string;
  readonly status: ExecutionStatus;
  /** ISO 8601. */
  readonly started_at: string;
  readonly ended_at: string | null;
  readonly duration_ms: number | null;
  /** The failure's message (never a stack). */
  readonly error: string | null;
  readonly trace_id: string | null;
  readonly request_id: string | null;
}

export interface ExecutionQuery {
  readonly pipeline?: string;
  readonly status?: ExecutionStatus;
  readonly transport?: string;
  /** Page size, at least 1. */
  readonly limit: number;
  /** Only records older than this id (the previous page's `next` id). */
  readonly before?: string;
}

export interface ExecutionPage {
  /** Newest first. */
  readonly executions: ExecutionRecord[];
  /** The id to pass as `before` for the next page; null on the last page. */
  readonly next: string | null;
}

export interface ExecutionIndex {
  /** Stores a new `running` record. */
  recordStart(record: ExecutionRecord): Promise<void>;
  /** Replaces the record with its final form (same id). */
  recordFinish(record: ExecutionRecord): Promise<void>;
  get(id: string): Promise<ExecutionRecord | undefined>;
  list(query: ExecutionQuery): Promise<ExecutionPage>;
  close?(): Promise<void>;
}
