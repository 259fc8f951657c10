/**
 * @module A trace as `GET /traces` shows it (SPEC §2.10): its span tree from the root (the
 * earliest span whose parent is not in the trace) cut below depth 64, `span_count` counting every
 * kept span, tags rendered as text in priority order (8 per span, 32 per trace), a derived kind and
 * state, and the slowest component above the threshold highlighted.
 */
import { performance } from "node:perf_hooks";
import { renderTag } from "./render.js";
import { MAX_TAG_LENGTH, type SpanRecord, type TraceRecord } from "./trace-buffer.js";

export const MAX_TREE_DEPTH = 64;
export const TAGS_PER_SPAN = 12;
export const TAGS_PER_TRACE = 32;
export const COMPONENT_SPAN = "haystack.component.run";

/** Listed first, in this order; the other tags follow in the order they were set. */
export const TAG_PRIORITY = [
  "svc.pipeline.name",
  "svc.transport",
  "svc.openai.operation",
  "svc.openai.stream_requested",
  "svc.deploy.kind",
  "svc.response.stream_type",
  "svc.response.streaming",
  "svc.success",
  "svc.error.type",
  "svc.error.message",
  "svc.error.stack",
  "svc.http.status_code",
  "svc.stream.items",
  "svc.stream.first_item_ms",
  "svc.stream.aborted",
];
const PRIORITY_RANK = new Map(TAG_PRIORITY.map((k, i) => [k, i]));

export interface WireTag {
  key: string;
  value: string;
}

export interface WireSpan {
  span_id: string;
  /** The parent's id; for the root, the caller's span when the trace continues a caller's (W3C `traceparent`), else null. */
  parent_span_id: string | null;
  name: string;
  start_time_ms: number;
  duration_ms: number;
  running: boolean;
  /** True for the trace's highlighted slow component. */
  slow: boolean;
  tags: WireTag[];
  children: WireSpan[];
}

export type TraceKind = "run" | "openai" | "mcp" | "deploy" | "undeploy" | "other";
export type TraceState = "running" | "ok" | "failed";

export interface WireTrace {
  trace_id: string;
  start_time_ms: number;
  duration_ms: number;
  entrypoint: string | null;
  kind: TraceKind;
  state: TraceState;
  tags: WireTag[];
  span_count: number;
  slow_component: { span_id: string; name: string; duration_ms: number } | null;
  root_span: WireSpan | null;
}

const round = (ms: number) => Math.round(ms * 1000) / 1000;

/** Rendered tags of `tags`, priority keys first, at most `max`. */
function renderTags(tags: Record<string, unknown>, max: number): WireTag[] {
  const keys = Object.keys(tags).sort((a, b) => (PRIORITY_RANK.get(a) ?? TAG_PRIORITY.length) - (PRIORITY_RANK.get(b) ?? TAG_PRIORITY.length));
  const out: WireTag[] = [];
  for (const key of keys) {
    if (out.length >= max) break;
    const value = renderTag(tags[key], MAX_TAG_LENGTH);
    if (value !== undefined) out.push({ key, value });
  }
  return out;
}

export function kindOf(rootName: string | undefined): TraceKind {
  if (!rootName) return "other";
  if (rootName.includes(".undeploy")) return "undeploy";
  if (rootName.includes(".deploy")) return "deploy";
  if (rootName.includes(".openai.")) return "openai";
  if (rootName.includes(".mcp.")) return "mcp";
  if (rootName.includes(".run")) return "run";
  return "other";
}

/** The slowest finished component span, when it took strictly longer than `thresholdMs`. */
function slowComponent(spans: readonly SpanRecord[], thresholdMs: number): SpanRecord | undefined {
  let slowest: SpanRecord | undefined;
  const nameOf = (s: SpanRecord) => String(s.tags["haystack.component.name"] ?? s.spanId);
  for (const s of spans) {
    if (s.name !== COMPONENT_SPAN || s.running) continue;
    if (!slowest || s.durationMs > slowest.durationMs || (s.durationMs === slowest.durationMs && nameOf(s) < nameOf(slowest))) slowest = s;
  }
  return slowest && slowest.durationMs > thresholdMs ? slowest : undefined;
}

export function normalizeTrace(trace: TraceRecord, slowComponentMs: number, now: number): WireTrace {
  const spans = trace.spans;
  const byId = new Map<string, SpanRecord>();
  for (const s of spans) byId.set(s.spanId, s);
  const children = new Map<string, SpanRecord[]>();
  let root: SpanRecord | undefined;
  let start = Infinity;
  let end = -Infinity;
  const traceTags: Record<string, unknown> = {};
  let entrypoint: string | null = null;
  for (const s of spans) {
    const elapsed = s.elapsedMs(now);
    start = Math.min(start, s.startMs);
    end = Math.max(end, s.startMs + elapsed);
    if (s.parentId !== undefined && byId.has(s.parentId)) {
      let list = children.get(s.parentId);
      if (!list) children.set(s.parentId, (list = []));
      list.push(s);
    } else if (!root || s.startMs < root.startMs) {
      root = s;
    }
    for (const key in s.tags) if (!(key in traceTags) && s.tags[key] !== null && s.tags[key] !== undefined) traceTags[key] = s.tags[key];
    if (entrypoint === null && typeof s.tags["svc.pipeline.name"] === "string") entrypoint = s.tags["svc.pipeline.name"] as string;
  }
  const slow = slowComponent(spans, slowComponentMs);

  const node = (s: SpanRecord, depth: number): WireSpan => ({
    span_id: s.spanId,
    parent_span_id: s.parentId ?? null,
    name: s.name,
    start_time_ms: Math.round(s.startMs),
    duration_ms: round(s.elapsedMs(now)),
    running: s.running,
    slow: s === slow,
    tags: renderTags(s.tags, TAGS_PER_SPAN),
    children:
      depth >= MAX_TREE_DEPTH
        ? []
        : (children.get(s.spanId) ?? []).sort((a, b) => a.startMs - b.startMs).map((c) => node(c, depth + 1)),
  });

  const failed = "svc.error.type" in traceTags || traceTags["svc.success"] === false;
  return {
    trace_id: trace.traceId,
    start_time_ms: spans.length ? Math.round(start) : 0,
    duration_ms: spans.length ? round(end - start) : 0,
    entrypoint,
    kind: kindOf(root?.name),
    state: failed ? "failed" : root?.running ? "running" : "ok",
    tags: renderTags(traceTags, TAGS_PER_TRACE),
    span_count: spans.length,
    slow_component: slow ? { span_id: slow.spanId, name: String(slow.tags["haystack.component.name"] ?? slow.name), duration_ms: round(slow.durationMs) } : null,
    root_span: root ? node(root, 0) : null,
  };
}

/** The newest traces first (by start), at most `limit`, and whether older ones were left out. */
export function snapshot(traces: readonly TraceRecord[], limit: number, slowComponentMs: number): { traces: WireTrace[]; has_more: boolean } {
  const now = performance.now();
  const newest = traces
    .map((t) => ({ t, start: t.spans.reduce((m, s) => Math.min(m, s.startMs), Infinity) }))
    .sort((a, b) => b.start - a.start || b.t.updatedAt - a.t.updatedAt);
  return {
    traces: newest.slice(0, limit).map(({ t }) => normalizeTrace(t, slowComponentMs, now)),
    has_more: newest.length > limit,
  };
}
