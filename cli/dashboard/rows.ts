/**
 * @module The list as rows: each shown trace, followed by its span tree when expanded (minus the
 * children of collapsed spans). Moving, expanding and collapsing work on these rows.
 */
import type { SpanNode, TraceRecord } from "./snapshot.js";
import { shownTraces, type RowKey, type ViewState } from "./view-state.js";

export type Row =
  | { readonly type: "trace"; readonly key: RowKey; readonly trace: TraceRecord; readonly expanded: boolean }
  | {
      readonly type: "span";
      readonly key: RowKey;
      readonly trace: TraceRecord;
      readonly span: SpanNode;
      /** Tree guides drawn before the name, e.g. `│  ├─ `. */
      readonly guide: string;
      readonly collapsed: boolean;
    };

const spanKey = (traceId: string, spanId: string) => `${traceId}/${spanId}`;

export function listRows(state: ViewState): Row[] {
  const rows: Row[] = [];
  for (const trace of shownTraces(state)) {
    const expanded = state.expanded.has(trace.trace_id);
    rows.push({ type: "trace", key: { traceId: trace.trace_id }, trace, expanded });
    if (!expanded || !trace.root_span) continue;
    const visit = (span: SpanNode, lead: string, last: boolean, root: boolean) => {
      const collapsed = state.collapsed.has(spanKey(trace.trace_id, span.span_id));
      const guide = root ? "  " : `  ${lead}${last ? "└─ " : "├─ "}`;
      rows.push({ type: "span", key: { traceId: trace.trace_id, spanId: span.span_id }, trace, span, guide, collapsed });
      if (collapsed) return;
      const childLead = root ? "" : lead + (last ? "   " : "│  ");
      span.children.forEach((child, i) => visit(child, childLead, i === span.children.length - 1, false));
    };
    visit(trace.root_span, "", true, true);
  }
  return rows;
}

const sameKey = (a: RowKey | undefined, b: RowKey) => !!a && a.traceId === b.traceId && a.spanId === b.spanId;

/** Index of the selected row; a span that is no longer shown falls back to its trace's row. */
export function selectedIndex(state: ViewState, rows: readonly Row[]): number {
  const exact = rows.findIndex((r) => sameKey(state.selected, r.key));
  if (exact >= 0) return exact;
  const trace = rows.findIndex((r) => r.type === "trace" && r.key.traceId === state.selected?.traceId);
  return trace >= 0 ? trace : rows.length > 0 ? 0 : -1;
}

/** Moves the selection by `delta` rows (clamped), or to the first/last row. */
export function moveSelection(state: ViewState, delta: number | "first" | "last"): ViewState {
  const rows = listRows(state);
  if (rows.length === 0) return state;
  const from = selectedIndex(state, rows);
  const to = delta === "first" ? 0 : delta === "last" ? rows.length - 1 : Math.max(0, Math.min(rows.length - 1, from + delta));
  return { ...state, selected: rows[to]!.key };
}

/** Enter: a trace row opens or closes its span tree; a span row shows or hides its children. */
export function toggleRow(state: ViewState): ViewState {
  const row = currentRow(state);
  if (!row) return state;
  if (row.type === "trace") return row.expanded ? collapseRow(state) : expandRow(state);
  return row.collapsed ? expandRow(state) : collapseRow(state);
}

/** Right arrow: open the trace, or show the span's children. */
export function expandRow(state: ViewState): ViewState {
  const row = currentRow(state);
  if (!row) return state;
  if (row.type === "trace") return { ...state, expanded: new Set([...state.expanded, row.trace.trace_id]) };
  const collapsed = new Set(state.collapsed);
  collapsed.delete(spanKey(row.trace.trace_id, row.span.span_id));
  return { ...state, collapsed };
}

/**
 * Left arrow: hide an open span's children, else go up to the parent span; on the root span or a
 * trace row, close the trace's tree and select the trace.
 */
export function collapseRow(state: ViewState): ViewState {
  const rows = listRows(state);
  const at = selectedIndex(state, rows);
  const row = rows[at];
  if (!row) return state;
  const traceId = row.trace.trace_id;
  const closeTrace = (): ViewState => {
    const expanded = new Set(state.expanded);
    expanded.delete(traceId);
    return { ...state, expanded, selected: { traceId } };
  };
  if (row.type === "trace") return closeTrace();
  const isRoot = row.span.span_id === row.trace.root_span?.span_id;
  if (!row.collapsed && row.span.children.length > 0 && !isRoot) {
    return { ...state, collapsed: new Set([...state.collapsed, spanKey(traceId, row.span.span_id)]) };
  }
  if (isRoot) return closeTrace();
  const parent = findParent(row.trace.root_span!, row.span.span_id);
  return { ...state, selected: parent ? { traceId, spanId: parent.span_id } : { traceId } };
}

function currentRow(state: ViewState): Row | undefined {
  const rows = listRows(state);
  return rows[selectedIndex(state, rows)];
}

function findParent(root: SpanNode, spanId: string): SpanNode | undefined {
  for (const child of root.children) {
    if (child.span_id === spanId) return root;
    const found = findParent(child, spanId);
    if (found) return found;
  }
  return undefined;
}

/** The first row to draw so the selected row is on screen, moving the view as little as possible. */
export function scrollFor(state: ViewState, rows: readonly Row[], height: number): number {
  if (height <= 0 || rows.length === 0) return 0;
  const at = Math.max(0, selectedIndex(state, rows));
  let top = Math.min(state.scroll, Math.max(0, rows.length - height));
  if (at < top) top = at;
  if (at >= top + height) top = at - height + 1;
  return Math.max(0, top);
}
