/**
 * @module Execution records stored as columns: typed arrays indexed by slot, the repeated names
 * (pipeline, transport, method, status) interned, ids, times and hex ids packed into numbers. A
 * record is an object again only when it is read (`GET /executions`). Why: the index keeps ten
 * thousand records for hours, and every object or string it keeps is copied by the young-generation
 * garbage collector at least once; numbers in typed arrays are never copied. A field that does not
 * pack (an id, time or request id in another form, an error message) is kept as given beside the
 * slot, so what is read back is always exactly what was written.
 */
import type { ExecutionRecord, ExecutionStatus } from "svc/plugin";
import { isoTime } from "./execution-id.js";

/** Strings interned once: a slot holds their number. */
class Interned {
  private readonly numbers = new Map<string, number>();
  readonly strings: string[] = [];

  of(text: string): number {
    let n = this.numbers.get(text);
    if (n === undefined) this.numbers.set(text, (n = this.strings.push(text) - 1));
    return n;
  }

  /** The number of a string already interned, or -1 (a query for a name never recorded). */
  find(text: string): number {
    return this.numbers.get(text) ?? -1;
  }
}

/** One field's last interned name. */
class LastName {
  private text: string | undefined = undefined;
  private n = -1;
  constructor(private readonly names: Interned) {}
  of(text: string): number {
    if (text !== this.text) {
      this.n = this.names.of(text);
      this.text = text;
    }
    return this.n;
  }
}

/** Fields kept as text because they do not pack into numbers (rare but for `error`). */
interface Unpacked {
  id?: string;
  started_at?: string;
  ended_at?: string;
  trace_id?: string;
  request_id?: string;
  error?: string;
}

/** A record's times as epoch ms, exactly those its ISO texts were made from by `isoTime`. */
export interface RecordTimes {
  readonly startedMs: number;
  /** NaN while the run goes on (`ended_at` null), else the time `ended_at` was made from. */
  readonly endedMs: number;
}

/** An execution id split into its packed parts (see execution-id.ts): time, counter, process tag. */
export interface IdKey {
  readonly text: string;
  /** NaN when the id is not of our form. */
  readonly time: number;
  readonly counter: number;
  readonly tag: number;
}

/** The value of a lower-case base-36 digit, or -1. */
function base36Digit(code: number): number {
  return code >= 48 && code <= 57 ? code - 48 : code >= 97 && code <= 122 ? code - 87 : -1;
}

/**
 * The parts of an id as numbers (fixed-width base 36, so they order as the text does); `time` NaN
 * for an id of another form. Read digit by digit: no pattern, no slices.
 */
export function idKey(text: string): IdKey {
  if (text.length !== 19) return { text, time: NaN, counter: 0, tag: 0 };
  let time = 0;
  let counter = 0;
  let tag = 0;
  for (let i = 0; i < 19; i++) {
    const d = base36Digit(text.charCodeAt(i));
    if (d < 0) return { text, time: NaN, counter: 0, tag: 0 };
    if (i < 9) time = time * 36 + d;
    else if (i < 13) counter = counter * 36 + d;
    else tag = tag * 36 + d;
  }
  return { text, time, counter, tag };
}

/** `flags` bits: the trace id is packed; the request id is a packed UUID; `ended` holds the end. */
const TRACE_PACKED = 1;
const REQUEST_PACKED = 2;
const ENDED = 4;

export class RecordColumns {
  private idTime: Float64Array;
  private idCounter: Uint32Array;
  private idTag: Uint32Array;
  private pipeline: Int32Array;
  private transport: Int32Array;
  private method: Int32Array;
  private status: Int32Array;
  private started: Float64Array;
  private ended: Float64Array;
  private duration: Float64Array;
  // A run's names are most often the last run's: those skip the map.
  private readonly lastPipeline: LastName;
  private readonly lastTransport: LastName;
  private readonly lastMethod: LastName;
  /** Epoch ms of the slot's last write. */
  writtenAt: Float64Array;
  private flags: Uint8Array;
  /** Four 32-bit words per slot. */
  private trace: Uint32Array;
  private request: Uint32Array;
  private unpacked: (Unpacked | undefined)[];

  constructor(
    readonly capacity: number,
    private readonly names = new Interned(),
  ) {
    this.lastPipeline = new LastName(names);
    this.lastTransport = new LastName(names);
    this.lastMethod = new LastName(names);
    this.idTime = new Float64Array(capacity);
    this.idCounter = new Uint32Array(capacity);
    this.idTag = new Uint32Array(capacity);
    this.pipeline = new Int32Array(capacity);
    this.transport = new Int32Array(capacity);
    this.method = new Int32Array(capacity);
    this.status = new Int32Array(capacity);
    this.started = new Float64Array(capacity);
    this.ended = new Float64Array(capacity);
    this.duration = new Float64Array(capacity);
    this.writtenAt = new Float64Array(capacity);
    this.flags = new Uint8Array(capacity);
    this.trace = new Uint32Array(capacity * 4);
    this.request = new Uint32Array(capacity * 4);
    this.unpacked = new Array<Unpacked | undefined>(capacity).fill(undefined);
  }

  /**
   * Stores `record` in `slot`, replacing what was there. `times`: its start and end as epoch ms,
   * when the caller made the ISO texts from them with `isoTime` (the recorder does: no parsing).
   */
  write(slot: number, record: ExecutionRecord, key: IdKey, writtenAt: number, times?: RecordTimes): void {
    let unpacked: Unpacked | undefined;
    if (Number.isNaN(key.time)) (unpacked ??= {}).id = key.text;
    else {
      this.idCounter[slot] = key.counter;
      this.idTag[slot] = key.tag;
    }
    this.idTime[slot] = key.time;
    this.pipeline[slot] = this.lastPipeline.of(record.pipeline);
    this.transport[slot] = this.lastTransport.of(record.transport);
    this.method[slot] = this.lastMethod.of(record.method);
    this.status[slot] = this.names.of(record.status);
    const started = times ? times.startedMs : packTime(record.started_at);
    if (Number.isNaN(started)) (unpacked ??= {}).started_at = record.started_at;
    this.started[slot] = started;
    let flags = 0;
    // With `times`, the end is known without reading `ended_at` (the recorder's is made when read).
    if (times ? !Number.isNaN(times.endedMs) : record.ended_at !== null) {
      const ended = times ? times.endedMs : packTime(record.ended_at!);
      if (Number.isNaN(ended)) (unpacked ??= {}).ended_at = record.ended_at!;
      else flags |= ENDED;
      this.ended[slot] = ended;
    }
    this.duration[slot] = record.duration_ms === null ? NaN : record.duration_ms;
    if (record.trace_id !== null) {
      if (packHex(record.trace_id, this.trace, slot * 4, false)) flags |= TRACE_PACKED;
      else (unpacked ??= {}).trace_id = record.trace_id;
    }
    if (record.request_id !== null) {
      if (packHex(record.request_id, this.request, slot * 4, true)) flags |= REQUEST_PACKED;
      else (unpacked ??= {}).request_id = record.request_id;
    }
    this.flags[slot] = flags;
    if (record.error !== null) (unpacked ??= {}).error = record.error;
    this.unpacked[slot] = unpacked;
    this.writtenAt[slot] = writtenAt;
  }

  /** The record in `slot`, as an object (in `ExecutionRecord`'s field order). */
  read(slot: number): ExecutionRecord {
    const u = this.unpacked[slot];
    const s = this.names.strings;
    const duration = this.duration[slot]!;
    const flags = this.flags[slot]!;
    return {
      id: this.id(slot),
      pipeline: s[this.pipeline[slot]!]!,
      transport: s[this.transport[slot]!]!,
      method: s[this.method[slot]!]!,
      status: s[this.status[slot]!] as ExecutionStatus,
      started_at: u?.started_at ?? isoTime(this.started[slot]!),
      ended_at: flags & ENDED ? isoTime(this.ended[slot]!) : (u?.ended_at ?? null),
      duration_ms: Number.isNaN(duration) ? null : duration,
      error: u?.error ?? null,
      trace_id: flags & TRACE_PACKED ? unpackHex(this.trace, slot * 4, false) : (u?.trace_id ?? null),
      request_id: flags & REQUEST_PACKED ? unpackHex(this.request, slot * 4, true) : (u?.request_id ?? null),
    };
  }

  id(slot: number): string {
    const time = this.idTime[slot]!;
    if (Number.isNaN(time)) return this.unpacked[slot]!.id!;
    return time.toString(36).padStart(9, "0") + this.idCounter[slot]!.toString(36).padStart(4, "0") + this.idTag[slot]!.toString(36).padStart(6, "0");
  }

  /** Compares the id in `slot` with `key` as strings compare (our ids without making a string). */
  compareId(slot: number, key: IdKey): number {
    const time = this.idTime[slot]!;
    if (Number.isNaN(time) || Number.isNaN(key.time)) {
      const id = this.id(slot);
      return id < key.text ? -1 : id > key.text ? 1 : 0;
    }
    if (time !== key.time) return time < key.time ? -1 : 1;
    const counter = this.idCounter[slot]!;
    if (counter !== key.counter) return counter < key.counter ? -1 : 1;
    const tag = this.idTag[slot]!;
    return tag < key.tag ? -1 : tag > key.tag ? 1 : 0;
  }

  /** Whether the record in `slot` has these (interned) field values; -2 matches anything. */
  matches(slot: number, pipeline: number, status: number, transport: number): boolean {
    return (pipeline === ANY || this.pipeline[slot] === pipeline) && (status === ANY || this.status[slot] === status) && (transport === ANY || this.transport[slot] === transport);
  }

  /** The interned number of a query value: ANY when not asked, -1 when never recorded. */
  queryValue(text: string | undefined): number {
    return text === undefined ? ANY : this.names.find(text);
  }

  /** Copies slot `from` into slot `to` of `target` (this or a larger store). */
  copy(from: number, to: number, target: RecordColumns = this): void {
    target.idTime[to] = this.idTime[from]!;
    target.idCounter[to] = this.idCounter[from]!;
    target.idTag[to] = this.idTag[from]!;
    target.pipeline[to] = this.pipeline[from]!;
    target.transport[to] = this.transport[from]!;
    target.method[to] = this.method[from]!;
    target.status[to] = this.status[from]!;
    target.started[to] = this.started[from]!;
    target.ended[to] = this.ended[from]!;
    target.duration[to] = this.duration[from]!;
    target.writtenAt[to] = this.writtenAt[from]!;
    target.flags[to] = this.flags[from]!;
    for (let w = 0; w < 4; w++) {
      target.trace[to * 4 + w] = this.trace[from * 4 + w]!;
      target.request[to * 4 + w] = this.request[from * 4 + w]!;
    }
    target.unpacked[to] = this.unpacked[from];
  }

  /** A store of `capacity` slots sharing this one's interned names. */
  grown(capacity: number): RecordColumns {
    return new RecordColumns(capacity, this.names);
  }

  /** Lets go of a dropped slot's text (the numbers are simply overwritten later). */
  clear(slot: number): void {
    this.unpacked[slot] = undefined;
  }
}

const ANY = -2;

/** Epoch ms of an ISO time that `isoTime` writes back exactly; NaN for any other text. */
function packTime(text: string): number {
  const ms = Date.parse(text);
  return Number.isNaN(ms) || isoTime(ms) !== text ? NaN : ms;
}

/** Lower-case hex digit values by character code; -1 for any other character. */
const HEX_VALUE = new Int8Array(128).fill(-1);
for (let i = 0; i < 16; i++) HEX_VALUE["0123456789abcdef".charCodeAt(i)] = i;

/**
 * Packs 32 lower-case hex digits (a trace id), or a lower-case UUID when `uuid`, into four words at
 * `at`; false (nothing usable written) for any other text. Eight digits per word, looked up in a
 * table and shifted in 32-bit arithmetic: this runs twice for every recorded run.
 */
function packHex(text: string, words: Uint32Array, at: number, uuid: boolean): boolean {
  if (text.length !== (uuid ? 36 : 32)) return false;
  if (uuid && (text.charCodeAt(8) !== 45 || text.charCodeAt(13) !== 45 || text.charCodeAt(18) !== 45 || text.charCodeAt(23) !== 45)) return false;
  let invalid = 0;
  let i = 0;
  for (let w = 0; w < 4; w++) {
    let word = 0;
    for (let digits = 0; digits < 8; digits++, i++) {
      if (uuid && (i === 8 || i === 13 || i === 18 || i === 23)) i++;
      const code = text.charCodeAt(i);
      const d = code < 128 ? HEX_VALUE[code]! : -1;
      invalid |= d;
      word = (word << 4) | (d & 15);
    }
    words[at + w] = word;
  }
  return invalid >= 0;
}

function unpackHex(words: Uint32Array, at: number, uuid: boolean): string {
  let hex = "";
  for (let w = 0; w < 4; w++) hex += words[at + w]!.toString(16).padStart(8, "0");
  return uuid ? `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}` : hex;
}
