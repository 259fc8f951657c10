/**
 * @module Trace and span ids in the W3C / OpenTelemetry format (32 and 16 hex digits) when no
 * OpenTelemetry tracer provides them. They are random (W3C Trace Context level 2: a downstream
 * system may sample or shard on the trace id's bits), drawn from the kernel's pooled random
 * bytes (`randomHex`), so a span costs a slice of the pool rather than a system call. All-zero
 * ids are invalid and redrawn. Span ids are drawn eight at a time, as one string they are slices
 * of: writing a string out costs more than the bytes in it (about 130 ns here), and every run makes
 * a span. A span id is compared and rendered, never read digit by digit, so a slice costs nothing
 * later.
 */
import { randomHex } from "svc/plugin";

const ZERO_TRACE = "0".repeat(32);
const ZERO_SPAN = "0".repeat(16);

/** 32 random hex digits, never all zero: written out on their own, as a flat string (the execution index reads a run's trace id digit by digit). */
export function newTraceId(): string {
  let id = randomHex(16);
  while (id === ZERO_TRACE) id = randomHex(16);
  return id;
}

/** Span ids drawn at once: one string written out, each id a slice of it. */
const SPAN_IDS_PER_DRAW = 8;
let spanIds = "";
let nextSpanId = SPAN_IDS_PER_DRAW;

/** 16 random hex digits, never all zero. */
export function newSpanId(): string {
  for (;;) {
    if (nextSpanId === SPAN_IDS_PER_DRAW) {
      spanIds = randomHex(8 * SPAN_IDS_PER_DRAW);
      nextSpanId = 0;
    }
    const at = 16 * nextSpanId++;
    const id = spanIds.slice(at, at + 16);
    if (id !== ZERO_SPAN) return id;
  }
}
