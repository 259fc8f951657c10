/**
 * @module `GET /executions` (newest first; filters `pipeline`, `status`, `transport`; `limit` and
 * an opaque `cursor`) and `GET /executions/{id}`, both behind the operator access of `/traces`
 * (scope `traces`). Bad query values are a 400 naming the parameter; an unknown id a 404.
 */
import * as v from "valibot";
import { EXECUTION_STATUSES, HttpError, parseOr400, type ExecutionIndex, type PluginApi } from "svc/plugin";
import { EXECUTION_ID, decodeCursor, encodeCursor } from "./execution-id.js";

export const DEFAULT_LIMIT = 25;
export const MAX_LIMIT = 100;

const name = (max: number) => v.pipe(v.string(), v.minLength(1, "must not be empty"), v.maxLength(max, `must be at most ${max} characters`));

const ListQuery = v.object({
  pipeline: v.optional(name(128)),
  transport: v.optional(name(64)),
  status: v.optional(v.picklist(EXECUTION_STATUSES, `must be one of ${EXECUTION_STATUSES.join(", ")}`)),
  limit: v.optional(v.pipe(v.string(), v.regex(/^\d{1,9}$/, "must be a positive integer"), v.transform(Number), v.minValue(1, "must be a positive integer"))),
  cursor: v.optional(v.string()),
});

const ExecutionSchema = v.object({
  id: v.string(),
  pipeline: v.string(),
  transport: v.string(),
  method: v.string(),
  status: v.picklist(EXECUTION_STATUSES),
  started_at: v.string(),
  ended_at: v.nullable(v.string()),
  duration_ms: v.nullable(v.number()),
  error: v.nullable(v.string()),
  trace_id: v.nullable(v.string()),
  request_id: v.nullable(v.string()),
});

const ListResponse = v.object({
  executions: v.array(ExecutionSchema),
  has_more: v.boolean(),
  next_cursor: v.nullable(v.string()),
});

export function registerExecutionRoutes(kernel: PluginApi, index: ExecutionIndex): void {
  const tags = ["monitoring"];
  kernel.route(
    "GET",
    "/executions",
    async (c) => {
      const query = parseOr400(ListQuery, c.query, "Invalid query parameters");
      const before = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
      if (query.cursor !== undefined && before === undefined) throw new HttpError(400, "Invalid query parameters: cursor: not a cursor from a previous page");
      const page = await index.list({
        pipeline: query.pipeline,
        status: query.status,
        transport: query.transport,
        limit: Math.min(query.limit ?? DEFAULT_LIMIT, MAX_LIMIT),
        before,
      });
      return { executions: page.executions, has_more: page.next !== null, next_cursor: page.next === null ? null : encodeCursor(page.next) };
    },
    {
      scope: "traces",
      docs: {
        operationId: "list_executions",
        summary: "Recent pipeline executions, newest first (operator access)",
        description: `Filters: pipeline, status (${EXECUTION_STATUSES.join(", ")}), transport. limit defaults to ${DEFAULT_LIMIT} and is capped at ${MAX_LIMIT}; pass next_cursor as cursor for the next page.`,
        tags,
        response: ListResponse,
      },
    },
  );
  kernel.route(
    "GET",
    "/executions/:id",
    async (c) => {
      const id = c.params.id!;
      const record = EXECUTION_ID.test(id) ? await index.get(id) : undefined;
      if (!record) throw new HttpError(404, `Execution '${id.slice(0, 64)}' not found`);
      return record;
    },
    { scope: "traces", docs: { operationId: "get_execution", summary: "One pipeline execution (operator access)", tags, response: ExecutionSchema } },
  );
}
