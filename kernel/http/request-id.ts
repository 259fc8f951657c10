/**
 * @module Request ids: random UUIDs (version 4) for requests that bring no `x-request-id`.
 *
 * `crypto.randomUUID()` returns its text as a tree of some twenty concatenated pieces. A request id
 * outlives its request (the trace buffer and the execution index keep it), so the garbage
 * collector would copy each of those pieces, twice, for every request. This one is a single flat
 * string, written from a pooled buffer of random bytes (one system call every 256 ids).
 */
import { randomFillSync } from "node:crypto";

const POOL_SIZE = 4096;
const HEX = Buffer.from("0123456789abcdef", "latin1");
const DASH = 0x2d;

const pool = Buffer.allocUnsafe(POOL_SIZE);
let offset = POOL_SIZE;
const text = Buffer.allocUnsafe(36);

export function newRequestId(): string {
  if (offset + 16 > POOL_SIZE) {
    randomFillSync(pool);
    offset = 0;
  }
  pool[offset + 6] = (pool[offset + 6]! & 0x0f) | 0x40; // version 4
  pool[offset + 8] = (pool[offset + 8]! & 0x3f) | 0x80; // RFC 9562 variant
  let at = 0;
  for (let i = 0; i < 16; i++) {
    if (i === 4 || i === 6 || i === 8 || i === 10) text[at++] = DASH;
    const byte = pool[offset + i]!;
    text[at++] = HEX[byte >> 4]!;
    text[at++] = HEX[byte & 15]!;
  }
  offset += 16;
  return text.toString("latin1");
}
