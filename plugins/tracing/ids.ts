/**
 * @module Trace and span ids in OpenTelemetry's format (32 and 16 hex digits) when no
 * OpenTelemetry tracer provides them. A random per-process prefix plus a counter: unique across
 * workers and restarts in practice, and far cheaper than drawing random bytes for every span.
 */
import { randomBytes } from "node:crypto";

const processPrefix = randomBytes(8).toString("hex");
let traceCounter = 0;
let spanCounter = Number.parseInt(randomBytes(6).toString("hex"), 16);

export function newTraceId(): string {
  traceCounter = (traceCounter + 1) % 0x1_0000_0000_0000;
  return processPrefix + traceCounter.toString(16).padStart(16, "0");
}

export function newSpanId(): string {
  spanCounter = (spanCounter + 1) % 0x1_0000_0000_0000;
  // 48 counter bits (safe integer arithmetic), the high 16 from the process prefix.
  return processPrefix.slice(0, 4) + spanCounter.toString(16).padStart(12, "0");
}
