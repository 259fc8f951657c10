/**
 * @module Trace and span ids in the W3C / OpenTelemetry format (32 and 16 hex digits) when no
 * OpenTelemetry tracer provides them. They are random (W3C Trace Context level 2: a downstream
 * system may sample or shard on the trace id's bits), drawn from a pooled buffer of
 * cryptographically random bytes that is refilled in one call every few hundred ids, so a span
 * costs a slice of the pool rather than a system call. All-zero ids are invalid and redrawn.
 */
import { randomFillSync } from "node:crypto";

const POOL_SIZE = 4096;
const ZERO_TRACE = "0".repeat(32);
const ZERO_SPAN = "0".repeat(16);

const pool = Buffer.allocUnsafe(POOL_SIZE);
let offset = POOL_SIZE;

function randomHex(bytes: number): string {
  if (offset + bytes > POOL_SIZE) {
    randomFillSync(pool);
    offset = 0;
  }
  const hex = pool.toString("hex", offset, offset + bytes);
  offset += bytes;
  return hex;
}

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
