/**
 * @module The viewer's state and the pure steps that change it. The local list is the latest
 * snapshot minus what `c` cleared; filters, search and sort only decide what is shown of it, and
 * the selection follows a trace (or span) by id across refreshes.
 */
import type { Snapshot, TraceRecord } from "./snapshot.js";
import { TRACE_KINDS, TRACE_STATES, searchText, traceKind, traceState, type TraceKind, type TraceState } from "./trace-facts.js";

export type SortOrder = "newest" | "slowest";

/** Why the last poll brought no snapshot. */
export type Problem =
  | { readonly kind: "unauthorized"; readonly detail: string; readonly credential: CredentialSource }
  | { readonly kind: "forbidden"; readonly detail: string; readonly credential: CredentialSource }
  | { readonly kind: "unreachable"; readonly detail: string }
  | { readonly kind: "not-mounted"; readonly detail: string }
  | { readonly kind: "failed"; readonly detail: string };

/** Where the token the viewer sends came from. */
export type CredentialSource = "explicit" | "credential-file" | "none";

/** A row of the list: a trace, or (when its trace is expanded) one of its spans. */
export interface RowKey {
  readonly traceId: string;
  readonly spanId?: string;
}

export interface ViewState {
  readonly traces: readonly TraceRecord[];
  readonly hasMore: boolean;
  readonly slowComponentMs: number;
  readonly fetchedAt?: number;
  /** Ids `c` hid; pruned to those the server still returns. */
  readonly cleared: ReadonlySet<string>;
  readonly sort: SortOrder;
  readonly entrypoint?: string;
  readonly kind?: TraceKind;
  readonly state?: TraceState;
  readonly search: string;
  /** The search being typed after `/`; undefined when not typing. */
  readonly input?: string;
  readonly paused: boolean;
  readonly selected?: RowKey;
  readonly expanded: ReadonlySet<string>;
  /** `traceId/spanId` of spans whose children are hidden. */
  readonly collapsed: ReadonlySet<string>;
  /** First list row on screen, kept so the view does not jump while moving. */
  readonly scroll: number;
  readonly problem?: Problem;
  /** One line about the last action (shown until the next key). */
  readonly notice?: string;
}

export const DEFAULT_SLOW_COMPONENT_MS = 1000;

export function initialState(): ViewState {
  return {
    traces: [],
    hasMore: false,
    slowComponentMs: DEFAULT_SLOW_COMPONENT_MS,
    cleared: new Set(),
    sort: "newest",
    search: "",
    paused: false,
    expanded: new Set(),
    collapsed: new Set(),
    scroll: 0,
  };
}

/** Replaces the local list with a snapshot (less what was cleared) and forgets any problem. */
export function applySnapshot(state: ViewState, snapshot: Snapshot, now: number): ViewState {
  const ids = new Set(snapshot.traces.map((t) => t.trace_id));
  const cleared = new Set([...state.cleared].filter((id) => ids.has(id)));
  const next: ViewState = {
    ...state,
    traces: snapshot.traces.filter((t) => !cleared.has(t.trace_id)),
    hasMore: snapshot.has_more,
    slowComponentMs: snapshot.config.slow_component_ms ?? state.slowComponentMs,
    fetchedAt: now,
    cleared,
    problem: undefined,
  };
  return keepSelection(next);
}

export function applyProblem(state: ViewState, problem: Problem): ViewState {
  return { ...state, problem };
}

/** `c`: hides every trace of the current list; the server keeps them. */
export function clearList(state: ViewState): ViewState {
  const cleared = new Set([...state.cleared, ...state.traces.map((t) => t.trace_id)]);
  const n = state.traces.length;
  return {
    ...state,
    traces: [],
    cleared,
    selected: undefined,
    scroll: 0,
    notice: `Cleared ${n} trace${n === 1 ? "" : "s"} from this view (the server keeps them); new traces will appear.`,
  };
}

/** The traces shown: filtered, searched and sorted. */
export function shownTraces(state: ViewState): TraceRecord[] {
  const query = state.search.trim().toLowerCase();
  const shown = state.traces.filter(
    (t) =>
      (state.entrypoint === undefined || t.entrypoint === state.entrypoint) &&
      (state.kind === undefined || traceKind(t) === state.kind) &&
      (state.state === undefined || traceState(t) === state.state) &&
      (query === "" || searchText(t).some((s) => s.includes(query))),
  );
  const newest = (a: TraceRecord, b: TraceRecord) => b.start_time_ms - a.start_time_ms || a.trace_id.localeCompare(b.trace_id);
  return shown.sort(state.sort === "slowest" ? (a, b) => b.duration_ms - a.duration_ms || newest(a, b) : newest);
}

/** The entrypoints present in the local list, sorted. */
export function entrypoints(state: ViewState): string[] {
  return [...new Set(state.traces.map((t) => t.entrypoint).filter((e): e is string => !!e))].sort();
}

/** Steps through `all, ...options, all`. */
function cycle<T>(options: readonly T[], current: T | undefined): T | undefined {
  if (current === undefined) return options[0];
  const at = options.indexOf(current);
  return at < 0 || at === options.length - 1 ? undefined : options[at + 1];
}

export function toggleSort(state: ViewState): ViewState {
  return keepSelection({ ...state, sort: state.sort === "newest" ? "slowest" : "newest" });
}

export function cycleEntrypoint(state: ViewState): ViewState {
  return keepSelection({ ...state, entrypoint: cycle(entrypoints(state), state.entrypoint) });
}

export function cycleKind(state: ViewState): ViewState {
  return keepSelection({ ...state, kind: cycle(TRACE_KINDS, state.kind) });
}

export function cycleState(state: ViewState): ViewState {
  return keepSelection({ ...state, state: cycle(TRACE_STATES, state.state) });
}

/** Escape: drops filters and search. */
export function resetFilters(state: ViewState): ViewState {
  return keepSelection({ ...state, entrypoint: undefined, kind: undefined, state: undefined, search: "" });
}

export function startSearch(state: ViewState): ViewState {
  return { ...state, input: state.search };
}

export function editSearch(state: ViewState, input: string): ViewState {
  return { ...state, input };
}

export function commitSearch(state: ViewState): ViewState {
  return keepSelection({ ...state, search: (state.input ?? state.search).trim(), input: undefined });
}

export function cancelSearch(state: ViewState): ViewState {
  return { ...state, input: undefined };
}

export function togglePause(state: ViewState): ViewState {
  return { ...state, paused: !state.paused };
}

export function withNotice(state: ViewState, notice: string | undefined): ViewState {
  return state.notice === notice ? state : { ...state, notice };
}

/** Keeps the selected trace if it is still shown, else selects the first shown trace. */
function keepSelection(state: ViewState): ViewState {
  const shown = shownTraces(state);
  const current = state.selected && shown.find((t) => t.trace_id === state.selected!.traceId);
  if (current) return state;
  const first = shown[0];
  return { ...state, selected: first ? { traceId: first.trace_id } : undefined };
}

export { TRACE_KINDS, TRACE_STATES };
