import { test } from "uvu";
import * as assert from "uvu/assert";
import { actionFor, applyAction } from "../../../cli/dashboard/keys.js";
import { applySnapshot, initialState, shownTraces } from "../../../cli/dashboard/view-state.js";
import { sample, snapshotOf } from "./trace-fixtures.js";

test("keys map to actions; Ctrl-C and q quit; unknown keys do nothing", () => {
  assert.is(actionFor({ name: "q", sequence: "q" }, false), "quit");
  assert.is(actionFor({ name: "c", ctrl: true, sequence: "\x03" }, false), "quit");
  assert.is(actionFor({ name: "c", ctrl: true, sequence: "\x03" }, true), "quit", "even while typing a search");
  assert.is(actionFor({ name: "c", sequence: "c" }, false), "clear");
  assert.is(actionFor({ name: "s", sequence: "s" }, false), "sort");
  assert.is(actionFor({ name: "e", sequence: "e" }, false), "entrypoint");
  assert.is(actionFor({ name: "t", sequence: "t" }, false), "kind");
  assert.is(actionFor({ name: "f", sequence: "f" }, false), "state");
  assert.is(actionFor({ name: "p", sequence: "p" }, false), "pause");
  assert.is(actionFor({ name: "r", sequence: "r" }, false), "refresh");
  assert.is(actionFor({ sequence: "/" }, false), "search");
  assert.is(actionFor({ name: "return", sequence: "\r" }, false), "toggle");
  assert.is(actionFor({ name: "g", sequence: "G", shift: true } as never, false), "last");
  assert.is(actionFor({ name: "g", sequence: "g" }, false), "first");
  assert.is(actionFor({ name: "z", sequence: "z" }, false), undefined);
  assert.is(actionFor({ name: "x", ctrl: true, sequence: "\x18" }, false), undefined);
});

test("while typing a search, letters are text, Enter applies, Escape cancels, Backspace deletes", () => {
  assert.equal(actionFor({ name: "q", sequence: "q" }, true), { type: "input", text: "q" });
  assert.equal(actionFor({ sequence: "pasted text" }, true), { type: "input", text: "pasted text" });
  assert.is(actionFor({ name: "return", sequence: "\r" }, true), "input-apply");
  assert.is(actionFor({ name: "escape", sequence: "\x1b", meta: true }, true), "input-cancel");
  assert.is(actionFor({ name: "escape", sequence: "\x1b", meta: true }, false), "reset", "readline marks a lone Escape as meta");
  assert.is(actionFor({ name: "a", sequence: "\x1ba", meta: true }, false), undefined, "Alt+key does nothing");
  assert.is(actionFor({ name: "backspace", sequence: "\x7f" }, true), "input-back");
  assert.is(actionFor({ sequence: "\x1b[31m" }, true), undefined, "control sequences are not text");

  let state = applySnapshot(initialState(), snapshotOf(sample()), 1);
  for (const key of ["/", "r", "a", "x", "\x7f", "g", "\r"]) {
    const name = key === "\r" ? "return" : key === "\x7f" ? "backspace" : key === "/" ? undefined : key;
    const action = actionFor({ name, sequence: key }, state.input !== undefined);
    state = applyAction(state, action!, 10);
  }
  assert.is(state.search, "rag");
  assert.is(state.input, undefined);
  assert.equal(shownTraces(state).map((t) => t.trace_id), ["bbbb2222", "eeee5555"]);
});

test("pause toggles with a notice; any next key clears the notice", () => {
  const paused = applyAction(initialState(), "pause", 10);
  assert.is(paused.paused, true);
  assert.match(paused.notice!, /Paused/);
  const next = applyAction(paused, "down", 10);
  assert.is(next.notice, undefined);
  assert.is(applyAction(paused, "pause", 10).paused, false);
});

test.run();
