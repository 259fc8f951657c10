/**
 * @module `GET /traces?limit=N` (SPEC §2.10, §4.1): the newest traces of this process, behind
 * operator access (scope `traces`). `limit` is a positive integer (400 otherwise), default
 * SERVICE_TRACING_DEFAULT_LIMIT, capped at min(100, SERVICE_TRACING_MAX_LIMIT, buffer capacity).
 */
import * as v from "valibot";
import { parseOr400, type PluginApi, type SettingValues } from "svc/plugin";
import type { tracingSettings } from "./settings.js";
import { snapshot } from "./snapshot.js";
import type { TraceBuffer } from "./trace-buffer.js";

/** The largest snapshot there is, whatever the settings say. */
export const HARD_LIMIT = 100;

const Query = v.object({
  limit: v.optional(
    v.pipe(
      v.string("limit must be given once"),
      v.regex(/^[1-9][0-9]*$/, "limit must be a positive integer"),
      v.transform(Number),
    ),
  ),
});

const Tag = v.object({ key: v.string(), value: v.string() });
const SpanNode: v.GenericSchema = v.object({
  span_id: v.string(),
  parent_span_id: v.nullable(v.string()),
  name: v.string(),
  start_time_ms: v.number(),
  duration_ms: v.number(),
  running: v.boolean(),
  slow: v.boolean(),
  tags: v.array(Tag),
  children: v.array(v.lazy(() => SpanNode)),
});
const Snapshot = v.object({
  traces: v.array(
    v.object({
      trace_id: v.string(),
      start_time_ms: v.number(),
      duration_ms: v.number(),
      entrypoint: v.nullable(v.string()),
      kind: v.picklist(["run", "openai", "mcp", "deploy", "undeploy", "other"]),
      state: v.picklist(["running", "ok", "failed"]),
      tags: v.array(Tag),
      span_count: v.number(),
      slow_component: v.nullable(v.object({ span_id: v.string(), name: v.string(), duration_ms: v.number() })),
      root_span: v.nullable(SpanNode),
    }),
  ),
  has_more: v.boolean(),
  config: v.object({ buffer_capacity: v.number(), fetch_limit: v.number(), slow_component_ms: v.number(), scope: v.literal("process") }),
});

export function fetchLimit(settings: Pick<SettingValues<typeof tracingSettings>, "tracingMaxLimit" | "tracingBufferCapacity">): number {
  return Math.min(HARD_LIMIT, settings.tracingMaxLimit, settings.tracingBufferCapacity);
}

export function registerTracesRoute(kernel: PluginApi<typeof tracingSettings>, buffer: TraceBuffer): void {
  const s = kernel.settings;
  const cap = fetchLimit(s);
  const config = { buffer_capacity: buffer.capacity, fetch_limit: cap, slow_component_ms: s.tracingSlowComponentMs, scope: "process" as const };
  kernel.route(
    "GET",
    "/traces",
    (c) => {
      const { limit } = parseOr400(Query, c.query, "Invalid query");
      const { traces, has_more } = snapshot(buffer.all(), Math.min(limit ?? s.tracingDefaultLimit, cap), s.tracingSlowComponentMs);
      c.res.setHeader("cache-control", "no-store");
      return { traces, has_more, config };
    },
    {
      scope: "traces",
      docs: {
        operationId: "get_traces",
        summary: "Recent traces of this process (operator access)",
        description:
          "The newest traces first, running spans included. Query `limit`: a positive integer, default SERVICE_TRACING_DEFAULT_LIMIT, capped at min(100, SERVICE_TRACING_MAX_LIMIT, buffer capacity). Requires `Authorization: Bearer <operator token>`.",
        tags: ["tracing"],
        response: Snapshot,
      },
    },
  );
}
