import { test } from "uvu";
import * as assert from "uvu/assert";
import {
  applyProblem,
  applySnapshot,
  clearList,
  commitSearch,
  cycleEntrypoint,
  cycleKind,
  cycleState,
  editSearch,
  entrypoints,
  initialState,
  resetFilters,
  shownTraces,
  startSearch,
  toggleSort,
  type ViewState,
} from "../../../cli/dashboard/view-state.js";
import { sample, snapshotOf, traceOf } from "./trace-fixtures.js";

const ids = (state: ViewState) => shownTraces(state).map((t) => t.trace_id);
const loaded = () => applySnapshot(initialState(), snapshotOf(sample(), { hasMore: true, slowMs: 900 }), 42);

test("a snapshot becomes the local list, newest first, with the server's slow threshold; the first trace is selected", () => {
  const state = loaded();
  assert.equal(ids(state), ["aaaa1111", "bbbb2222", "cccc3333", "dddd4444", "eeee5555"]);
  assert.is(state.hasMore, true);
  assert.is(state.slowComponentMs, 900);
  assert.is(state.fetchedAt, 42);
  assert.equal(state.selected, { traceId: "aaaa1111" });
});

test("sort toggles between newest and slowest", () => {
  const slowest = toggleSort(loaded());
  assert.is(slowest.sort, "slowest");
  assert.equal(ids(slowest), ["bbbb2222", "cccc3333", "eeee5555", "aaaa1111", "dddd4444"]);
  assert.is(toggleSort(slowest).sort, "newest");
});

test("entrypoint, kind and state filters cycle through their values and back to all", () => {
  let state = loaded();
  assert.equal(entrypoints(state), ["chat", "rag"]);
  state = cycleEntrypoint(state);
  assert.is(state.entrypoint, "chat");
  assert.equal(ids(state), ["aaaa1111", "cccc3333", "dddd4444"]);
  state = cycleEntrypoint(cycleEntrypoint(state));
  assert.is(state.entrypoint, undefined);

  state = cycleKind(state);
  assert.is(state.kind, "run");
  assert.equal(ids(state), ["aaaa1111", "bbbb2222", "cccc3333"]);
  state = cycleKind(state);
  assert.is(state.kind, "openai");
  assert.equal(ids(state), ["dddd4444"]);
  assert.equal(state.selected, { traceId: "dddd4444" }, "a filtered-out selection moves to the first shown trace");

  state = cycleState(resetFilters(state));
  assert.is(state.state, "ok");
  state = cycleState(state);
  assert.is(state.state, "failed");
  assert.equal(ids(state), ["cccc3333"]);
  state = cycleState(state);
  assert.equal(ids(state), ["dddd4444"]);
  assert.is(cycleState(state).state, undefined);
});

test("search matches trace ids and tags (key=value, any span), case-insensitively", () => {
  const search = (q: string) => ids(commitSearch(editSearch(startSearch(loaded()), q)));
  assert.equal(search("CCCC33"), ["cccc3333"]);
  assert.equal(search("component.name=llm"), ["bbbb2222"]);
  assert.equal(search("bad input"), ["cccc3333"]);
  assert.equal(search("stream_requested=true"), ["dddd4444"]);
  assert.equal(search("nothing-like-this"), []);
  assert.equal(search("  "), ids(loaded()), "a blank search shows everything");
});

test("a search being typed does not filter until applied", () => {
  const typing = editSearch(startSearch(loaded()), "rag");
  assert.is(typing.input, "rag");
  assert.is(ids(typing).length, 5);
  assert.equal(ids(commitSearch(typing)), ["bbbb2222", "eeee5555"]);
});

test("c clears the local list only: cleared traces stay hidden on later snapshots, new ones appear", () => {
  const cleared = clearList(loaded());
  assert.equal(ids(cleared), []);
  assert.match(cleared.notice!, /Cleared 5 traces from this view \(the server keeps them\)/);
  const fresh = traceOf({ id: "ffff6666", start: 1_800_000_000_000 });
  const next = applySnapshot(cleared, snapshotOf([fresh, ...sample()]), 43);
  assert.equal(ids(next), ["ffff6666"]);
  // Ids the server no longer returns are forgotten.
  const later = applySnapshot(next, snapshotOf([fresh, sample()[0]!]), 44);
  assert.equal([...later.cleared], ["aaaa1111"]);
});

test("the selection follows its trace across refreshes and a problem keeps the list", () => {
  let state = loaded();
  state = { ...state, selected: { traceId: "cccc3333" } };
  const newer = traceOf({ id: "0000", start: 1_900_000_000_000 });
  state = applySnapshot(state, snapshotOf([newer, ...sample()]), 50);
  assert.equal(state.selected, { traceId: "cccc3333" });
  const problem = applyProblem(state, { kind: "unreachable", detail: "refused" });
  assert.is(problem.problem?.kind, "unreachable");
  assert.is(problem.traces.length, 6);
  assert.is(applySnapshot(problem, snapshotOf(sample()), 51).problem, undefined, "a good poll clears the problem");
});

test.run();
