import { test } from "uvu";
import * as assert from "uvu/assert";
import { traceIdOf } from "../../../plugins/monitoring/trace-id.js";
import { NOOP_TRACER, type Span } from "svc/plugin";

test("traceIdOf: a traceId property, OpenTelemetry's spanContext, fan-out parts; none or all-zero → null", () => {
  const base = { name: "s", setTag: () => base, setTags: () => base, end: () => undefined } as unknown as Span;
  assert.is(traceIdOf(undefined), null);
  assert.is(traceIdOf(NOOP_TRACER.startSpan("x")), null);
  assert.is(traceIdOf({ ...base, traceId: "abc" } as Span), "abc");
  assert.is(traceIdOf({ ...base, spanContext: () => ({ traceId: "f".repeat(32) }) } as unknown as Span), "f".repeat(32));
  assert.is(traceIdOf({ ...base, spanContext: () => ({ traceId: "0".repeat(32) }) } as unknown as Span), null);
  assert.is(traceIdOf({ ...base, traceId: "0".repeat(31) + "1" } as Span), "0".repeat(31) + "1");
  assert.is(traceIdOf({ ...base, parts: [base, { ...base, traceId: "from-part" }] } as unknown as Span), "from-part");
});

test.run();
