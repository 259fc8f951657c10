/**
 * @module Every random id svc makes (request ids, trace and span ids, response, file, call, object
 * and session ids), from one pooled buffer of cryptographically random bytes refilled in one
 * call every few thousand ids. Measured on Node 20: `randomBytes(16).toString("hex")` costs
 * ~15 µs (a system call each), `crypto.randomUUID()` ~0.9 µs, an id from this pool a fraction of that.
 *
 * The ids are flat strings, each written out as its own text: `crypto.randomUUID()` returns a tree
 * of some twenty concatenated pieces, and an id outlives its request (the trace buffer and the
 * execution index keep it), so the garbage collector would copy each piece, twice, for every
 * request. (Slicing ids out of the whole pool written as hex at each refill kept that 8 KB text
 * alive with any id, and over HTTP cost more than writing each id: about 1 µs per request.) Secrets (API
 * keys, the operator credential) are not ids: they come from `randomBytes` and never sit in a pool.
 */
import { randomFillSync } from "node:crypto";

/** 64 KiB: a refill costs 6–14 µs here whatever its size up to this, so fewer, larger refills. */
const POOL_SIZE = 65_536;
/** The longest id `randomHex` / `newId` make, in random bytes. */
const MAX_BYTES = 64;
const DASH = 0x2d;
/**
 * A byte's two hex digits as one 16-bit number, the first digit high: written with one big-endian
 * `DataView.setUint16`, whatever the machine's byte order, at any offset (a UUID's groups start at
 * odd ones). One table read and one store per byte instead of two of each.
 */
const DIGIT_PAIRS = new Uint16Array(256);
const DIGITS = "0123456789abcdef";
for (let byte = 0; byte < 256; byte++) DIGIT_PAIRS[byte] = (DIGITS.charCodeAt(byte >> 4) << 8) | DIGITS.charCodeAt(byte & 15);

const pool = Buffer.allocUnsafe(POOL_SIZE);
let offset = POOL_SIZE;
const text = Buffer.alloc(256);
const textView = new DataView(text.buffer, text.byteOffset, text.length);

/** The pool offset of `bytes` fresh random bytes. */
function take(bytes: number): number {
  if (offset + bytes > POOL_SIZE) {
    randomFillSync(pool);
    offset = 0;
  }
  const at = offset;
  offset += bytes;
  return at;
}

function checkBytes(bytes: number): void {
  if (!Number.isInteger(bytes) || bytes < 1 || bytes > MAX_BYTES) throw new RangeError(`An id takes 1 to ${MAX_BYTES} random bytes, not ${bytes}`);
}

/** Writes the pool's `bytes` bytes at `at` into `text` as hex from `n`; returns the end. */
function writeHex(at: number, bytes: number, n: number): number {
  for (let i = at; i < at + bytes; i++, n += 2) textView.setUint16(n, DIGIT_PAIRS[pool[i]!]!);
  return n;
}

/** `bytes` random bytes as lower-case hex (`2 × bytes` digits). */
export function randomHex(bytes: number): string {
  checkBytes(bytes);
  return text.toString("latin1", 0, writeHex(take(bytes), bytes, 0));
}

/** `<prefix><hex>` with `bytes` random bytes (16 → 32 hex digits), e.g. `newId("resp_")`. */
export function newId(prefix: string, bytes = 16): string {
  checkBytes(bytes);
  if (prefix.length + 2 * bytes > text.length) return prefix + randomHex(bytes);
  let n = 0;
  for (; n < prefix.length; n++) {
    const code = prefix.charCodeAt(n);
    if (code > 0x7e) return prefix + randomHex(bytes); // not ASCII: written as text, not bytes
    text[n] = code;
  }
  return text.toString("latin1", 0, writeHex(take(bytes), bytes, n));
}

/** A random (version 4) UUID, as `crypto.randomUUID()` makes but a flat string. */
export function randomUuid(): string {
  const at = take(16);
  pool[at + 6] = (pool[at + 6]! & 0x0f) | 0x40; // version 4
  pool[at + 8] = (pool[at + 8]! & 0x3f) | 0x80; // RFC 9562 variant
  // 8-4-4-4-12 digits: 4, 2, 2, 2 and 6 bytes.
  let n = writeHex(at, 4, 0);
  text[n++] = DASH;
  n = writeHex(at + 4, 2, n);
  text[n++] = DASH;
  n = writeHex(at + 6, 2, n);
  text[n++] = DASH;
  n = writeHex(at + 8, 2, n);
  text[n++] = DASH;
  return text.toString("latin1", 0, writeHex(at + 10, 6, n));
}
