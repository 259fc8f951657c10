/**
 * @module The valibot schemas of the runs API: query parameters (validated, 400 naming the
 * parameter) and the answers, which the OpenAPI document is made from.
 */
import * as v from "valibot";
import { RUN_STATUSES } from "./run-record.js";

export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;

const count = (what: string) => v.pipe(v.string(), v.regex(/^\d{1,15}$/, `must be a non-negative integer`), v.transform(Number), v.description(what));

export const ListQuery = v.object({
  pipeline: v.optional(v.pipe(v.string(), v.minLength(1, "must not be empty"), v.maxLength(64, "must be at most 64 characters"))),
  status: v.optional(v.picklist(RUN_STATUSES, `must be one of ${RUN_STATUSES.join(", ")}`)),
  limit: v.optional(v.pipe(count("Runs per page"), v.minValue(1, "must be a positive integer"))),
  cursor: v.optional(v.string()),
});

export const EventsQuery = v.object({
  after: v.optional(count("Replay events after this number (as the Last-Event-ID header)")),
});

/** `Last-Event-ID`: the number of the last event the client has. */
export const LastEventId = v.pipe(v.string(), v.trim(), v.regex(/^\d{1,15}$/, "must be an event number from this stream"), v.transform(Number));

export const RunBody = v.pipe(
  v.objectWithRest({ webhook_url: v.optional(v.pipe(v.string(), v.url(), v.description("Called (signed POST) once the run is final; must be in SERVICE_WEBHOOK_ALLOWED_URLS"))) }, v.unknown()),
  v.description("The same JSON body as `POST /{name}/run` takes for this pipeline, plus an optional `webhook_url`."),
);

const RunErrorSchema = v.object({ message: v.string(), code: v.string() });

export const RunSchema = v.object({
  id: v.string(),
  object: v.literal("run"),
  pipeline: v.string(),
  kind: v.pipe(v.string(), v.description("What created the run: `rest` for POST /{name}/runs")),
  owner: v.pipe(v.nullable(v.string()), v.description("The API key's name when svc:auth is on")),
  status: v.picklist(RUN_STATUSES),
  created_at: v.string(),
  started_at: v.nullable(v.string()),
  ended_at: v.nullable(v.string()),
  input: v.unknown(),
  result: v.pipe(v.unknown(), v.description("The pipeline's result once completed: its JSON value, a stream's text, or a file as {content_type, filename, data_base64}")),
  error: v.nullable(RunErrorSchema),
  cancel_requested: v.boolean(),
  metadata: v.record(v.string(), v.unknown()),
});

export const CreatedSchema = v.object({ id: v.string(), object: v.literal("run"), status: v.picklist(RUN_STATUSES), pipeline: v.string(), created_at: v.string() });

export const ListSchema = v.object({ runs: v.array(RunSchema), has_more: v.boolean(), next_cursor: v.nullable(v.string()) });
