import { test } from "uvu";
import * as assert from "uvu/assert";
import { applyAction } from "../../../cli/dashboard/keys.js";
import { listRows, scrollFor, selectedIndex } from "../../../cli/dashboard/rows.js";
import { applySnapshot, initialState, type ViewState } from "../../../cli/dashboard/view-state.js";
import { sample, snapshotOf } from "./trace-fixtures.js";

const loaded = () => applySnapshot(initialState(), snapshotOf(sample()), 1);
const act = (state: ViewState, ...actions: Parameters<typeof applyAction>[1][]) => actions.reduce((s, a) => applyAction(s, a, 10), state);
const labels = (state: ViewState) => listRows(state).map((r) => (r.type === "trace" ? r.trace.trace_id : `${r.guide}${r.span.span_id}`));

test("rows are the shown traces; enter on a trace opens its span tree with guides, enter again closes it", () => {
  let state = act(loaded(), "down");
  assert.equal(state.selected, { traceId: "bbbb2222" });
  state = act(state, "toggle");
  assert.equal(labels(state), ["aaaa1111", "bbbb2222", "  bbbb2222-root", "  └─ b-pipe", "     ├─ b-c1", "     └─ b-c2", "cccc3333", "dddd4444", "eeee5555"]);
  assert.equal(act(state, "toggle").expanded.size, 0);
});

test("moving walks through span rows; left hides a span's children, then goes to its parent; right shows them", () => {
  let state = act(loaded(), "down", "expand", "down", "down");
  assert.equal(state.selected, { traceId: "bbbb2222", spanId: "b-pipe" });
  state = act(state, "collapse");
  assert.equal(labels(state).slice(1, 4), ["bbbb2222", "  bbbb2222-root", "  └─ b-pipe"], "children of b-pipe hidden");
  state = act(state, "collapse");
  assert.equal(state.selected, { traceId: "bbbb2222", spanId: "bbbb2222-root" }, "second left goes to the parent");
  state = act(state, "down", "expand");
  assert.is(labels(state).length, 9);
  // On a leaf, left goes to the parent; on the root span it closes the trace.
  state = act(state, "down", "down", "collapse");
  assert.equal(state.selected, { traceId: "bbbb2222", spanId: "b-pipe" });
  state = act(state, "collapse", "collapse", "collapse");
  assert.equal(state.selected, { traceId: "bbbb2222" });
  assert.is(state.expanded.size, 0);
});

test("first/last and page moves are clamped to the rows", () => {
  const last = act(loaded(), "last");
  assert.equal(last.selected, { traceId: "eeee5555" });
  assert.equal(act(last, "down").selected, { traceId: "eeee5555" });
  assert.equal(act(last, "page-up").selected, { traceId: "aaaa1111" });
  assert.equal(act(last, "first").selected, { traceId: "aaaa1111" });
});

test("a selected span that disappears falls back to its trace row", () => {
  let state = act(loaded(), "down", "expand", "down", "down", "down");
  assert.equal(state.selected, { traceId: "bbbb2222", spanId: "b-c1" });
  const withoutTree = applySnapshot(state, snapshotOf(sample().map((t) => ({ ...t, root_span: null }))), 2);
  assert.is(listRows(withoutTree)[selectedIndex(withoutTree, listRows(withoutTree))]!.key.traceId, "bbbb2222");
});

test("scrolling keeps the selection on screen and moves as little as possible", () => {
  let state = act(loaded(), "down", "expand");
  const rows = listRows(state);
  state = { ...state, selected: { traceId: "eeee5555" } };
  assert.is(scrollFor(state, rows, 3), 6, "selection at the bottom edge");
  state = { ...state, scroll: 6, selected: { traceId: "cccc3333" } };
  assert.is(scrollFor(state, rows, 3), 6, "still visible: no move");
  state = { ...state, selected: { traceId: "aaaa1111" } };
  assert.is(scrollFor(state, rows, 3), 0);
  assert.is(scrollFor({ ...state, scroll: 50 }, rows, 20), 0, "a stale scroll beyond the rows is pulled back");
});

test.run();
