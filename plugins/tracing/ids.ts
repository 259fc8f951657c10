/**
 * @module Trace and span ids in the W3C / OpenTelemetry format (32 and 16 hex digits) when no
 * OpenTelemetry tracer provides them. They are random (W3C Trace Context level 2: a downstream
 * system may sample or shard on the trace id's bits), drawn from the kernel's pooled random
 * bytes (`randomHex`), so a span costs a slice of the pool rather than a system call. All-zero
 * ids are invalid and redrawn. A new trace's ids are drawn together, as one string the two ids
 * are slices of: writing a string out costs more than the bytes in it (about 130 ns here), and a
 * run span starts a trace on every request.
 */
import { randomHex } from "svc/plugin";

const ZERO_TRACE = "0".repeat(32);
const ZERO_SPAN = "0".repeat(16);

/** 16 random hex digits, never all zero. */
export function newSpanId(): string {
  let id = randomHex(8);
  while (id === ZERO_SPAN) id = randomHex(8);
  return id;
}

/** A new trace's id and its first span's id, as one string of 48 hex digits: `ids.slice(0, 32)` and `ids.slice(32)`. */
export function newTraceIds(): string {
  let ids = randomHex(24);
  while (ids.startsWith(ZERO_TRACE) || ids.endsWith(ZERO_SPAN)) ids = randomHex(24);
  return ids;
}
