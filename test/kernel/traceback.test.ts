/** The showTracebacks rule: a stack is appended only when enabled and only when there is one. */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { tracebackOf, withTraceback } from "svc/plugin";

test("withTraceback appends the stack when enabled, leaves the message alone otherwise", () => {
  const error = new Error("boom");
  assert.is(withTraceback("failed", error, true), `failed\n${error.stack}`);
  assert.is(withTraceback("failed", error, false), "failed");
  assert.is(withTraceback("failed", "a string thrown", true), "failed", "a thrown non-Error has no stack");
  const stackless = Object.assign(new Error("x"), { stack: undefined });
  assert.is(withTraceback("failed", stackless, true), "failed");
});

test("tracebackOf gives the stack only when enabled", () => {
  const error = new TypeError("bad");
  assert.is(tracebackOf(error, true), error.stack);
  assert.is(tracebackOf(error, false), undefined);
  assert.is(tracebackOf(undefined, true), undefined);
});

test.run();
