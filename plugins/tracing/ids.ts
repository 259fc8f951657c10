/**
 * @module Trace and span ids in the W3C / OpenTelemetry format (32 and 16 hex digits) when no
 * OpenTelemetry tracer provides them. They are random (W3C Trace Context level 2: a downstream
 * system may sample or shard on the trace id's bits), drawn from the kernel's pooled random
 * bytes (`randomHex`), so a span costs a slice of the pool rather than a system call. All-zero
 * ids are invalid and redrawn.
 */
import { randomHex } from "svc/plugin";

const ZERO_TRACE = "0".repeat(32);
const ZERO_SPAN = "0".repeat(16);

/** 32 random hex digits, never all zero. */
export function newTraceId(): string {
  let id = randomHex(16);
  while (id === ZERO_TRACE) id = randomHex(16);
  return id;
}

/** 16 random hex digits, never all zero. */
export function newSpanId(): string {
  let id = randomHex(8);
  while (id === ZERO_SPAN) id = randomHex(8);
  return id;
}
