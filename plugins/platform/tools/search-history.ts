/**
 * @module Search history and traces: what users asked a workspace's or a pipeline's searches and
 * how each run went. History lives under v1 by names (cursor `time`); traces under v2 by the
 * workspace's and pipeline's ids, which are looked up first (cursor `created_at`). The platform
 * answers these slowly, so they get 70 s.
 */
import * as v from "valibot";
import { ToolError } from "svc/object-store";
import { seg, type PlatformClient } from "../client/platform-client.js";
import { toPage } from "../client/pagination.js";
import type { BaseTool, ToolArgs } from "../tool-config.js";
import { after, clientOf, integer, optionalText, orFail, pipelinePath, text, workspaceNotFound, workspaceOf, wsPath } from "./common.js";

export const HISTORY_TIMEOUT_MS = 70_000;

const pipelineName = text("Name of the pipeline.");
const queryId = text("The search's `query_id` (from list_pipeline_traces or list_pipeline_search_history).");
const listParameters = {
  limit: integer("Number of entries to return.", 10, 1, 100),
  after: after(),
  query_filter: optionalText("An OData filter, e.g. `query eq 'What is svc?'` or `status eq 'FAILED'`."),
  sort_field: v.optional(v.pipe(v.picklist(["created_at", "query", "duration", "feedbacks/score"]), v.description("Field to sort by.")), "created_at"),
  sort_order: v.optional(v.pipe(v.picklist(["ASC", "DESC"]), v.description("Sort order.")), "DESC"),
};

function listQuery(args: ToolArgs) {
  return { limit: args.limit as number, field: args.sort_field as string, order: args.sort_order as string, after: args.after as string | undefined, filter: args.query_filter as string | undefined };
}

/** A page of the platform's body (a page object, a bare list, or nothing). */
function pageOf(body: unknown, cursorField: string) {
  if (body === undefined || body === null) return { data: [], has_more: false, total: 0, next_cursor: null };
  return toPage<Record<string, any>>(Array.isArray(body) ? { data: body } : body, cursorField);
}

/** v1 entries carry the query in `request` and the time as `time`; both are also given flat. */
function historyEntry(entry: Record<string, any>) {
  const feedback = entry.feedback && !Array.isArray(entry.feedback) ? [entry.feedback] : (entry.feedback ?? []);
  return { ...entry, query: entry.query ?? entry.request?.query ?? null, created_at: entry.created_at ?? entry.time ?? null, feedback };
}

async function history(args: ToolArgs, path: string, prefix: string, notFound: string) {
  const body = await orFail(() => clientOf(args).get(path, listQuery(args), { timeoutMs: HISTORY_TIMEOUT_MS, signal: args.signal }), prefix, notFound);
  const page = pageOf(body, "time");
  return { ...page, data: page.data.map(historyEntry) };
}

/** `v2/workspaces/<workspace id>/pipelines/<pipeline id>/search_history`: both ids looked up at once. */
async function tracesPath(client: PlatformClient, ws: string, name: string, signal?: AbortSignal): Promise<string> {
  const [workspace, pipeline] = await Promise.all([client.get(wsPath(ws), undefined, { signal }), client.get(pipelinePath(ws, name), undefined, { signal })]);
  return `v2/workspaces/${seg(String(workspace?.workspace_id))}/pipelines/${seg(String(pipeline?.pipeline_id))}/search_history`;
}

/** GET `<traces path>/<suffix>` with the 70 s limit. */
async function traceCall(args: ToolArgs, suffix: string, query?: Record<string, string | number | undefined>): Promise<unknown> {
  const client = clientOf(args);
  const base = await tracesPath(client, workspaceOf(args), args.pipeline_name as string, args.signal);
  return client.get(`${base}/${suffix}`, query, { timeoutMs: HISTORY_TIMEOUT_MS, signal: args.signal });
}

export const listSearchHistory: BaseTool = {
  name: "list_search_history",
  description: `Lists the searches run in the workspace (all pipelines), newest first by default: the query, the answers, time, duration, status, pipeline, user and feedback.
Filter with an OData \`query_filter\`; when the result has \`has_more\`, pass its \`next_cursor\` (a timestamp) as \`after\`.`,
  parameters: listParameters,
  async run(args) {
    const ws = workspaceOf(args);
    return history(args, `${wsPath(ws)}/search_history`, "Failed to list search history", workspaceNotFound(ws));
  },
};

export const listPipelineSearchHistory: BaseTool = {
  name: "list_pipeline_search_history",
  description: `Lists the searches run through one pipeline (its full archived history), newest first by default: query, answers, time, duration, status, user, feedback.
The archive lags about 30 minutes behind the searches. Filter with an OData \`query_filter\`; page with \`after\` = \`next_cursor\`.`,
  parameters: { pipeline_name: pipelineName, ...listParameters },
  async run(args) {
    const ws = workspaceOf(args);
    const name = args.pipeline_name as string;
    return history(
      args,
      `${pipelinePath(ws, name)}/search_history_archive`,
      `Failed to list search history for pipeline '${name}'`,
      `There is no pipeline named '${name}' in workspace '${ws}', or the pipeline has no search history yet (archive is available ~30 min after search).`,
    );
  },
};

export const listPipelineTraces: BaseTool = {
  name: "list_pipeline_traces",
  description: `Lists the run traces of a pipeline's searches as summaries, newest first by default: query_id, query, status, duration, version, and the run's status and failure (type, message, stack trace) — no spans or logs.
Use it to find failed or slow runs; then get_pipeline_trace (whole trace), get_pipeline_trace_span_tags (one component's input and output) or get_pipeline_trace_logs with a \`query_id\`.`,
  parameters: { pipeline_name: pipelineName, ...listParameters },
  async run(args) {
    const name = args.pipeline_name as string;
    const body = await orFail(
      () => traceCall(args, "traces", listQuery(args)),
      `Failed to list traces for pipeline '${name}'`,
      `There is no pipeline named '${name}' in workspace '${workspaceOf(args)}', or it has no traces yet.`,
    );
    return pageOf(body, "created_at");
  },
};

const traceNotFound = (args: ToolArgs) =>
  `No trace found for query_id '${args.query_id}' in pipeline '${args.pipeline_name}' (workspace '${workspaceOf(args)}'). The query may not exist or may not have a stored trace.`;

export const getPipelineTrace: BaseTool = {
  name: "get_pipeline_trace",
  description: `Fetches the complete trace of one search: every span (component, timing, tags with the component's input and output) and all log entries. Traces can be large; for one component use get_pipeline_trace_span_tags, for the logs alone get_pipeline_trace_logs.`,
  parameters: { pipeline_name: pipelineName, query_id: queryId },
  async run(args) {
    const id = seg(args.query_id as string);
    const trace = await orFail(() => traceCall(args, `${id}/trace/export`), `Failed to get trace for query_id '${args.query_id}'`, traceNotFound(args));
    if (trace === undefined || trace === null) throw new ToolError(`No trace found for query_id '${args.query_id}' in pipeline '${args.pipeline_name}'.`);
    return trace;
  },
};

export const getPipelineTraceSpanTags: BaseTool = {
  name: "get_pipeline_trace_span_tags",
  description: "Fetches the tags of one span of a search's trace: the component's input, output and settings, without the rest of the trace. Take the `span_id` from get_pipeline_trace.",
  parameters: { pipeline_name: pipelineName, query_id: queryId, span_id: text("The span's `span_id`.") },
  async run(args) {
    const { query_id: q, span_id: s, pipeline_name: p } = args as Record<string, string>;
    const tags = await orFail(
      () => traceCall(args, `${seg(q)}/trace/tags/${seg(s)}`),
      `Failed to get span tags for span '${s}' (query_id '${q}')`,
      `No span '${s}' found for query_id '${q}' in pipeline '${p}' (workspace '${workspaceOf(args)}'). The query, trace, or span may not exist.`,
    );
    if (!tags || typeof tags !== "object" || Array.isArray(tags)) throw new ToolError(`No span '${s}' found in the trace for query_id '${q}' in pipeline '${p}'.`);
    return tags;
  },
};

export const getPipelineTraceLogs: BaseTool = {
  name: "get_pipeline_trace_logs",
  description: "Fetches the log entries of one search's run (logger, level, message, time, extra fields): a cheaper look than the whole trace when the logs tell what went wrong.",
  parameters: { pipeline_name: pipelineName, query_id: queryId },
  async run(args) {
    const logs = await orFail(() => traceCall(args, `${seg(args.query_id as string)}/trace/logs`), `Failed to get trace logs for query_id '${args.query_id}'`, traceNotFound(args));
    return Array.isArray(logs) ? logs : [];
  },
};
