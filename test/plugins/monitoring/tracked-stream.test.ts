import { test } from "uvu";
import * as assert from "uvu/assert";
import { trackStream, type StreamOutcome } from "../../../plugins/monitoring/tracked-stream.js";
import { traceIdOf } from "../../../plugins/monitoring/trace-id.js";
import { NOOP_TRACER, type Span } from "svc";

const outcomes = () => {
  const seen: StreamOutcome["kind"][] = [];
  return { seen, done: (o: StreamOutcome) => seen.push(o.kind) };
};

test("an async stream read to the end reports end once, items untouched", async () => {
  const { seen, done } = outcomes();
  const tracked = trackStream((async function* () { yield 1; yield 2; })(), done);
  assert.ok(Symbol.asyncIterator in tracked);
  const items: number[] = [];
  for await (const item of tracked as AsyncIterable<number>) items.push(item);
  assert.equal(items, [1, 2]);
  assert.equal(seen, ["end"]);
});

test("closing before the first read still reports return (a generator wrapper would not)", async () => {
  const { seen, done } = outcomes();
  let closed = false;
  const source = (async function* () { try { yield 1; } finally { closed = true; } })();
  const tracked = trackStream(source, done) as AsyncIterable<number>;
  await tracked[Symbol.asyncIterator]().return!();
  assert.equal(seen, ["return"]);
  assert.is(closed, false, "the source never started, so its finally did not run");
});

test("a failing source reports error; a sync source stays sync; breaking early reports return", async () => {
  const failing = outcomes();
  try {
    for await (const _ of trackStream((async function* () { yield 1; throw new Error("x"); })(), failing.done) as AsyncIterable<number>);
    assert.unreachable();
  } catch (error) {
    assert.is((error as Error).message, "x");
  }
  assert.equal(failing.seen, ["error"]);
  const sync = outcomes();
  const tracked = trackStream([1, 2, 3], sync.done);
  assert.not.ok(Symbol.asyncIterator in tracked);
  for (const item of tracked as Iterable<number>) if (item === 2) break;
  assert.equal(sync.seen, ["return"]);
});

test("traceIdOf: a traceId property, OpenTelemetry's spanContext, fan-out parts; none or all-zero → null", () => {
  const base = { name: "s", setTag: () => base, setTags: () => base, end: () => undefined } as unknown as Span;
  assert.is(traceIdOf(undefined), null);
  assert.is(traceIdOf(NOOP_TRACER.startSpan("x")), null);
  assert.is(traceIdOf({ ...base, traceId: "abc" } as Span), "abc");
  assert.is(traceIdOf({ ...base, spanContext: () => ({ traceId: "f".repeat(32) }) } as unknown as Span), "f".repeat(32));
  assert.is(traceIdOf({ ...base, spanContext: () => ({ traceId: "0".repeat(32) }) } as unknown as Span), null);
  assert.is(traceIdOf({ ...base, parts: [base, { ...base, traceId: "from-part" }] } as unknown as Span), "from-part");
});

test.run();
