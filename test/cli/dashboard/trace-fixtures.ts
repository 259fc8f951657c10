/**
 * @module Trace records shaped like `GET /traces` returns them (SPEC §2.10, serving-service §9),
 * for the viewer's unit tests.
 */
import type { Snapshot, SpanNode, TraceRecord } from "../../../cli/dashboard/snapshot.js";

export function spanOf(id: string, name: string, options: { start?: number; duration?: number; running?: boolean; tags?: Record<string, string>; children?: SpanNode[] } = {}): SpanNode {
  return {
    span_id: id,
    name,
    start_time_ms: options.start ?? 1_700_000_000_000,
    duration_ms: options.duration ?? 10,
    running: options.running ?? false,
    tags: Object.entries(options.tags ?? {}).map(([key, value]) => ({ key, value })),
    children: options.children ?? [],
  };
}

export function componentSpan(id: string, component: string, duration: number): SpanNode {
  return spanOf(id, "haystack.component.run", { duration, tags: { "haystack.component.name": component, "haystack.component.type": "Fake" } });
}

export interface TraceOptions {
  id: string;
  start?: number;
  duration?: number;
  entrypoint?: string | null;
  root?: string;
  running?: boolean;
  tags?: Record<string, string>;
  children?: SpanNode[];
}

export function traceOf(o: TraceOptions): TraceRecord {
  const start = o.start ?? 1_700_000_000_000;
  const tags = { ...(o.entrypoint ? { "svc.pipeline.name": o.entrypoint } : {}), ...o.tags };
  const root = spanOf(`${o.id}-root`, o.root ?? "svc.pipeline.run", { start, duration: o.duration ?? 100, running: o.running, tags, children: o.children });
  let count = 0;
  const visit = (s: SpanNode) => {
    count++;
    s.children.forEach(visit);
  };
  visit(root);
  return {
    trace_id: o.id,
    start_time_ms: start,
    duration_ms: o.duration ?? 100,
    entrypoint: o.entrypoint === undefined ? "chat" : o.entrypoint,
    tags: root.tags,
    span_count: count,
    root_span: root,
  };
}

export function snapshotOf(traces: TraceRecord[], options: { hasMore?: boolean; slowMs?: number } = {}): Snapshot {
  return { traces, has_more: options.hasMore ?? false, config: { buffer_capacity: 200, fetch_limit: 25, slow_component_ms: options.slowMs ?? 1000, scope: "process" } };
}

/** A small mixed sample: newest first by id a (newest) … e (oldest). */
export function sample(): TraceRecord[] {
  const t0 = 1_700_000_000_000;
  return [
    traceOf({ id: "aaaa1111", start: t0 + 5000, duration: 50, entrypoint: "chat", tags: { "svc.transport": "rest", "svc.success": "true" } }),
    traceOf({
      id: "bbbb2222",
      start: t0 + 4000,
      duration: 3000,
      entrypoint: "rag",
      tags: { "svc.success": "true" },
      children: [spanOf("b-pipe", "haystack.pipeline.run", { duration: 2900, children: [componentSpan("b-c1", "retriever", 400), componentSpan("b-c2", "llm", 2400)] })],
    }),
    traceOf({ id: "cccc3333", start: t0 + 3000, duration: 700, entrypoint: "chat", tags: { "svc.error.type": "ValueError", "svc.error.message": "bad input", "svc.success": "false" } }),
    traceOf({ id: "dddd4444", start: t0 + 2000, duration: 10, entrypoint: "chat", root: "svc.openai.chat_completion", running: true, tags: { "svc.openai.stream_requested": "true" } }),
    traceOf({ id: "eeee5555", start: t0 + 1000, duration: 200, entrypoint: "rag", root: "svc.deploy" }),
  ];
}
