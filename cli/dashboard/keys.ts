/**
 * @module Keys: what a keypress (as `node:readline` reports it) means, and what each meaning does
 * to the state. Quitting and refreshing are effects; the app handles them.
 */
import { collapseRow, expandRow, moveSelection, toggleRow } from "./rows.js";
import {
  cancelSearch,
  clearList,
  commitSearch,
  cycleEntrypoint,
  cycleKind,
  cycleState,
  editSearch,
  resetFilters,
  startSearch,
  togglePause,
  toggleSort,
  withNotice,
  type ViewState,
} from "./view-state.js";

/** What readline's `keypress` event gives. */
export interface KeyPress {
  readonly name?: string;
  readonly sequence?: string;
  readonly ctrl?: boolean;
  readonly meta?: boolean;
}

export type Action =
  | "quit"
  | "refresh"
  | "up"
  | "down"
  | "page-up"
  | "page-down"
  | "first"
  | "last"
  | "toggle"
  | "expand"
  | "collapse"
  | "sort"
  | "entrypoint"
  | "kind"
  | "state"
  | "search"
  | "reset"
  | "pause"
  | "clear"
  | { readonly type: "input"; readonly text: string }
  | "input-back"
  | "input-apply"
  | "input-cancel";

const NORMAL: Record<string, Action> = {
  q: "quit",
  r: "refresh",
  up: "up",
  k: "up",
  down: "down",
  j: "down",
  pageup: "page-up",
  pagedown: "page-down",
  home: "first",
  g: "first",
  end: "last",
  G: "last",
  return: "toggle",
  enter: "toggle",
  space: "toggle",
  right: "expand",
  l: "expand",
  left: "collapse",
  h: "collapse",
  s: "sort",
  e: "entrypoint",
  t: "kind",
  f: "state",
  "/": "search",
  escape: "reset",
  p: "pause",
  c: "clear",
};

/** The action for a key; `typing` is true while a search is being entered. */
export function actionFor(key: KeyPress, typing: boolean): Action | undefined {
  if (key.ctrl && (key.name === "c" || key.name === "d")) return "quit";
  // readline reports a lone Escape with `meta` set.
  if (key.name === "escape") return typing ? "input-cancel" : "reset";
  if (key.ctrl || key.meta) return undefined;
  if (typing) {
    if (key.name === "return" || key.name === "enter") return "input-apply";
    if (key.name === "backspace") return "input-back";
    const text = key.sequence ?? "";
    // Printable text only: a pasted line arrives as one sequence.
    return text !== "" && !/[\u0000-\u001f\u007f]/.test(text) ? { type: "input", text } : undefined;
  }
  const seq = key.sequence ?? "";
  if (seq === "/" || seq === "G") return NORMAL[seq];
  return (key.name && NORMAL[key.name]) || undefined;
}

/** The state after an action; `page` is the list height, for page moves. */
export function applyAction(state: ViewState, action: Action, page: number): ViewState {
  const s = withNotice(state, undefined);
  if (typeof action === "object") return editSearch(s, (s.input ?? "") + action.text);
  switch (action) {
    case "up":
      return moveSelection(s, -1);
    case "down":
      return moveSelection(s, 1);
    case "page-up":
      return moveSelection(s, -Math.max(1, page - 1));
    case "page-down":
      return moveSelection(s, Math.max(1, page - 1));
    case "first":
      return moveSelection(s, "first");
    case "last":
      return moveSelection(s, "last");
    case "toggle":
      return toggleRow(s);
    case "expand":
      return expandRow(s);
    case "collapse":
      return collapseRow(s);
    case "sort":
      return toggleSort(s);
    case "entrypoint":
      return cycleEntrypoint(s);
    case "kind":
      return cycleKind(s);
    case "state":
      return cycleState(s);
    case "search":
      return startSearch(s);
    case "reset":
      return resetFilters(s);
    case "pause":
      return withNotice(togglePause(s), s.paused ? "Resumed." : "Paused: the list stays as it is; r refreshes once, p resumes.");
    case "clear":
      return clearList(s);
    case "input-back":
      return editSearch(s, [...(s.input ?? "")].slice(0, -1).join(""));
    case "input-apply":
      return commitSearch(s);
    case "input-cancel":
      return cancelSearch(s);
    case "quit":
    case "refresh":
      return s;
  }
}
