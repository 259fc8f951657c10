/**
 * @module What the viewer derives from a trace record: its state (failed, running, ok), its kind
 * (from the root span's name), whether it streamed, and its slowest component. What the server
 * derived itself (`state`, `kind`, `slow_component`, as svc sends them) wins; the rules here are
 * the same ones, for servers that send only the SPEC §2.10 fields. Tags are looked up by the part
 * after the namespace (`…success`, `…error.type`), so `svc.*` and `haystack.*` names both count.
 */
import type { SlowComponent, SpanNode, Tag, TraceRecord } from "./snapshot.js";

export const TRACE_STATES = ["ok", "failed", "running"] as const;
export type TraceState = (typeof TRACE_STATES)[number];

export const TRACE_KINDS = ["run", "openai", "mcp", "deploy", "undeploy", "other"] as const;
export type TraceKind = (typeof TRACE_KINDS)[number];

const isOneOf = <T extends string>(values: readonly T[], value: string | undefined): value is T => values.includes(value as T);

/** The value of the first tag whose key is `name` or ends with `.name`. */
export function tagValue(tags: readonly Tag[], name: string): string | undefined {
  const suffix = `.${name}`;
  return tags.find((t) => t.key === name || t.key.endsWith(suffix))?.value;
}

/** Failed when any span recorded an error type or `success=false`; running while the root runs. */
export function traceState(trace: TraceRecord): TraceState {
  if (isOneOf(TRACE_STATES, trace.state)) return trace.state;
  if (tagValue(trace.tags, "error.type") !== undefined || tagValue(trace.tags, "success") === "false") return "failed";
  if (trace.root_span && anySpan(trace.root_span, (s) => tagValue(s.tags, "error.type") !== undefined)) return "failed";
  return trace.root_span?.running ? "running" : "ok";
}

/** The kind named by the root span: `….undeploy`, `….deploy`, `….openai.…`, `….mcp.…`, `….run`. */
export function traceKind(trace: TraceRecord): TraceKind {
  if (isOneOf(TRACE_KINDS, trace.kind)) return trace.kind;
  const name = trace.root_span?.name ?? "";
  if (name.includes(".undeploy")) return "undeploy";
  if (name.includes(".deploy")) return "deploy";
  if (name.includes(".openai.")) return "openai";
  if (name.includes(".mcp.")) return "mcp";
  if (name.includes(".run")) return "run";
  return "other";
}

export function isStreaming(trace: TraceRecord): boolean {
  return tagValue(trace.tags, "openai.stream_requested") === "true" || tagValue(trace.tags, "response.streaming") === "true";
}

/** The error message of a failed trace, if one was recorded. */
export function errorMessage(trace: TraceRecord): string | undefined {
  const fromTrace = tagValue(trace.tags, "error.message") ?? tagValue(trace.tags, "error.type");
  if (fromTrace !== undefined) return fromTrace;
  let found: string | undefined;
  if (trace.root_span) anySpan(trace.root_span, (s) => (found = tagValue(s.tags, "error.message") ?? tagValue(s.tags, "error.type")) !== undefined);
  return found;
}

/** True when `test` holds for `span` or any of its descendants. */
export function anySpan(span: SpanNode, test: (s: SpanNode) => boolean): boolean {
  if (test(span)) return true;
  return span.children.some((c) => anySpan(c, test));
}

export function componentName(span: SpanNode): string {
  return tagValue(span.tags, "component.name") ?? span.span_id;
}

const isComponentSpan = (span: SpanNode) => span.name.endsWith("component.run");

/**
 * The slowest finished component span when it took strictly longer than `thresholdMs` (ties: the
 * smaller component name). At most one per trace.
 */
export function slowComponent(trace: TraceRecord, thresholdMs: number): SlowComponent | undefined {
  if (trace.slow_component !== undefined) return trace.slow_component ?? undefined;
  let slowest: SpanNode | undefined;
  const visit = (span: SpanNode) => {
    if (isComponentSpan(span) && !span.running) {
      if (!slowest || span.duration_ms > slowest.duration_ms || (span.duration_ms === slowest.duration_ms && componentName(span) < componentName(slowest))) {
        slowest = span;
      }
    }
    span.children.forEach(visit);
  };
  if (trace.root_span) visit(trace.root_span);
  if (!slowest || slowest.duration_ms <= thresholdMs) return undefined;
  return { span_id: slowest.span_id, name: componentName(slowest), duration_ms: slowest.duration_ms };
}

/** Every `key=value` of the trace and its spans, lowercased, for search. */
export function searchText(trace: TraceRecord): string[] {
  const out = [trace.trace_id.toLowerCase()];
  if (trace.entrypoint) out.push(trace.entrypoint.toLowerCase());
  const add = (tags: readonly Tag[]) => {
    for (const t of tags) out.push(`${t.key}=${t.value}`.toLowerCase());
  };
  add(trace.tags);
  const visit = (span: SpanNode) => {
    add(span.tags);
    span.children.forEach(visit);
  };
  if (trace.root_span) visit(trace.root_span);
  return out;
}
