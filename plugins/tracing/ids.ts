/**
 * @module Trace and span ids in OpenTelemetry's format (32 and 16 hex digits) when no
 * OpenTelemetry tracer provides them: a random prefix and a counter, unique across workers and
 * restarts in practice, and far cheaper than drawing random bytes for every span. The counter
 * stays a small integer (fast to format, fixed width); when it runs out the prefix is redrawn.
 */
import { randomBytes } from "node:crypto";

const FIRST = 0x1000_0000;
const LAST = 0x7fff_ffff;

class IdSource {
  private prefix = "";
  private counter = LAST;

  constructor(private readonly prefixBytes: number) {}

  next(): string {
    if (++this.counter > LAST) {
      this.prefix = randomBytes(this.prefixBytes).toString("hex");
      this.counter = FIRST + Math.floor(Math.random() * 0x1000_0000);
    }
    return this.prefix + this.counter.toString(16);
  }
}

const traces = new IdSource(12);
const spans = new IdSource(4);

/** 32 hex digits. */
export function newTraceId(): string {
  return traces.next();
}

/** 16 hex digits. */
export function newSpanId(): string {
  return spans.next();
}
