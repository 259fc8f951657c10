/**
 * @module Execution ids and cursors. An id is 19 lowercase base-36 characters: the start time in
 * milliseconds (9), a per-process counter (4) and a per-process tag (6). Ids sort like their start
 * times (within a process strictly), so the index orders by id and a cursor is just the last id
 * seen, wrapped so clients treat it as opaque.
 */
import { performance } from "node:perf_hooks";
import { randomInt } from "node:crypto";
import type { IdKey } from "./record-columns.js";

export const EXECUTION_ID = /^[0-9a-z]{19}$/;

const PROCESS_TAG = Array.from({ length: 6 }, () => randomInt(36).toString(36)).join("");
const PROCESS_TAG_NUMBER = parseInt(PROCESS_TAG, 36);
const COUNTER_SPACE = 36 ** 4;
const DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz";
/** The id's characters: time (0–8), counter (9–12), process tag (13–18). */
const text = Buffer.from("0".repeat(13) + PROCESS_TAG, "latin1");
let lastMs = 0;
let counter = 0;

/** Writes `value` in base 36 into `text[from, to)`, zero-padded. */
function writeBase36(value: number, from: number, to: number): void {
  for (let at = to - 1; at >= from; at--) {
    text[at] = DIGITS.charCodeAt(value % 36);
    value = Math.floor(value / 36);
  }
}

export function newExecutionId(now = Date.now()): string {
  return newExecutionKey(now).text;
}

/**
 * An id made here, as its packed parts; its text is written out when first read. The in-memory
 * index stores the parts, so a run recorded there never makes the text at all.
 */
class ExecutionKey implements IdKey {
  private written: string | undefined = undefined;
  readonly tag = PROCESS_TAG_NUMBER;

  constructor(
    readonly time: number,
    readonly counter: number,
  ) {}

  get text(): string {
    if (this.written === undefined) {
      writeBase36(this.time, 0, 9);
      writeBase36(this.counter, 9, 13);
      // One flat string: records keep their id for hours, and a string built by concatenation
      // would be a tree of pieces for the garbage collector to copy.
      this.written = text.toString("latin1");
    }
    return this.written;
  }
}

/**
 * A new id with its packed parts (what `idKey` would read back from its text): the recorder hands
 * them to the in-memory index, which then parses nothing.
 */
export function newExecutionKey(now = Date.now()): IdKey {
  // Never go back in time: a clock step backwards must not break the order of this process's ids.
  if (now > lastMs) lastMs = now;
  counter = (counter + 1) % COUNTER_SPACE;
  return new ExecutionKey(lastMs, counter);
}

/** How often the epoch offset of the monotonic clock is read again. */
const RESYNC_MS = 1000;
let offset = 0;
/** When the offset was last read; the first call reads it. */
let syncedAt = -Infinity;

/**
 * Epoch milliseconds (as `Date.now()` gives them) for a `performance.now()` reading: a run's start
 * and end each read one clock, not two (a clock read costs ~80 ns on a VM). The offset between the
 * two clocks is read again once a second, so a step of the system clock shows within a second.
 */
export function epochMs(now: number): number {
  if (now - syncedAt >= RESYNC_MS || now < syncedAt) {
    offset = Date.now() - performance.now();
    syncedAt = now;
  }
  return Math.floor(now + offset);
}

/** `.000Z` … `.999Z`: the end of every ISO time, made once. */
const MILLIS = Array.from({ length: 1000 }, (_, ms) => `.${String(ms).padStart(3, "0")}Z`);
/** Years 0000–9999: the range where an ISO time is 24 characters (`YYYY-MM-DDTHH:MM:SS.mmmZ`). */
const LAST_4_DIGIT_MS = 253402300799999;
let isoSecond = NaN;
let isoPrefix = "";

/**
 * `new Date(ms).toISOString()`. That call costs microseconds (a Date, then the formatting), twice
 * per run: here the date and time up to the second are formatted once per second and the
 * milliseconds come from a table, so a record's time is two shared strings joined.
 */
export function isoTime(ms: number): string {
  if (!Number.isInteger(ms) || ms < 0 || ms > LAST_4_DIGIT_MS) return new Date(ms).toISOString();
  const second = Math.floor(ms / 1000);
  if (second !== isoSecond) {
    isoSecond = second;
    isoPrefix = new Date(second * 1000).toISOString().slice(0, 19);
  }
  return isoPrefix + MILLIS[ms - second * 1000]!;
}

const CURSOR_PREFIX = "e1.";

export function encodeCursor(id: string): string {
  return Buffer.from(CURSOR_PREFIX + id).toString("base64url");
}

/** The id inside a cursor, or undefined when the text is not one of ours. */
export function decodeCursor(cursor: string): string | undefined {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(cursor)) return undefined;
  const text = Buffer.from(cursor, "base64url").toString();
  if (!text.startsWith(CURSOR_PREFIX)) return undefined;
  const id = text.slice(CURSOR_PREFIX.length);
  return EXECUTION_ID.test(id) ? id : undefined;
}
