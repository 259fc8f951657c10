/**
 * @module The body of `GET /traces` as the terminal viewer reads it (SPEC §2.10): a valibot schema
 * that accepts what the server sends and fills gaps, so one odd record never blanks the screen.
 * Tags may arrive as `[{key, value}]` (the wire form) or as a plain object; both become pairs.
 */
import * as v from "valibot";

export interface Tag {
  readonly key: string;
  readonly value: string;
}

export interface SpanNode {
  readonly span_id: string;
  readonly name: string;
  readonly start_time_ms: number;
  readonly duration_ms: number;
  readonly running: boolean;
  /** Set by the server on the trace's highlighted slow component. */
  readonly slow?: boolean;
  readonly tags: readonly Tag[];
  readonly children: readonly SpanNode[];
}

export interface SlowComponent {
  readonly span_id: string;
  readonly name: string;
  readonly duration_ms: number;
}

export interface TraceRecord {
  readonly trace_id: string;
  readonly start_time_ms: number;
  readonly duration_ms: number;
  readonly entrypoint: string | null;
  readonly tags: readonly Tag[];
  readonly span_count: number;
  readonly root_span: SpanNode | null;
  /** Derived by the server (svc does); the viewer derives them itself when absent. */
  readonly kind?: string;
  readonly state?: string;
  readonly slow_component?: SlowComponent | null;
  /** The instance (host:port) it came from, when the viewer follows several. */
  readonly instance?: string;
}

export interface SnapshotConfig {
  readonly buffer_capacity?: number;
  readonly fetch_limit?: number;
  readonly slow_component_ms?: number;
  readonly scope?: string;
}

export interface Snapshot {
  readonly traces: readonly TraceRecord[];
  readonly has_more: boolean;
  readonly config: SnapshotConfig;
}

/** A tag value as text: booleans "true"/"false", structures as JSON. */
function tagText(value: unknown): string {
  if (typeof value === "string") return value;
  if (value === null || value === undefined) return "";
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

const tagList = v.pipe(
  v.union([
    v.array(v.object({ key: v.string(), value: v.unknown() })),
    v.record(v.string(), v.unknown()),
  ]),
  v.transform((tags): Tag[] =>
    (Array.isArray(tags) ? tags : Object.entries(tags).map(([key, value]) => ({ key, value }))).map((t) => ({ key: t.key, value: tagText(t.value) })),
  ),
);

const number = v.fallback(v.number(), 0);
const id = v.pipe(v.union([v.string(), v.number()]), v.transform(String));
const optionalText = v.fallback(v.optional(v.string()), undefined);

const spanSchema: v.GenericSchema<unknown, SpanNode> = v.object({
  span_id: id,
  name: v.fallback(v.string(), "(unnamed)"),
  start_time_ms: number,
  duration_ms: number,
  running: v.fallback(v.boolean(), false),
  slow: v.fallback(v.optional(v.boolean()), undefined),
  tags: v.fallback(tagList, []),
  children: v.fallback(
    v.array(v.lazy(() => spanSchema)),
    [],
  ),
});

const traceSchema = v.object({
  trace_id: id,
  start_time_ms: number,
  duration_ms: number,
  entrypoint: v.fallback(v.nullable(v.string()), null),
  tags: v.fallback(tagList, []),
  span_count: number,
  root_span: v.fallback(v.nullable(spanSchema), null),
  kind: optionalText,
  state: optionalText,
  slow_component: v.fallback(v.optional(v.nullable(v.object({ span_id: id, name: v.string(), duration_ms: v.number() }))), undefined),
});

const optionalNumber = v.fallback(v.optional(v.number()), undefined);

export const snapshotSchema = v.object({
  traces: v.array(traceSchema),
  has_more: v.fallback(v.boolean(), false),
  config: v.fallback(
    v.object({
      buffer_capacity: optionalNumber,
      fetch_limit: optionalNumber,
      slow_component_ms: optionalNumber,
      scope: optionalText,
    }),
    {},
  ),
});

/** The snapshot in `body`, or a message saying why it is not one. */
export function parseSnapshot(body: unknown): { snapshot: Snapshot } | { error: string } {
  const result = v.safeParse(snapshotSchema, body);
  if (result.success) return { snapshot: result.output };
  const issue = result.issues[0]!;
  const path = v.getDotPath(issue);
  return { error: path ? `${path}: ${issue.message}` : issue.message };
}
