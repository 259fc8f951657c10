/**
 * @module The in-memory execution index (the default): the records of this process in a ring of
 * slots, oldest first (ids only grow within a process, so a lookup is a binary search), stored as
 * columns of numbers (record-columns.ts) and made into objects only when read. The oldest are
 * dropped beyond the record cap or the retention period by moving the ring's start, so a write
 * stays O(1) and allocates nothing that lives on.
 *
 * A record lives long enough to be copied by the garbage collector, so the index keeps no object
 * per record: an HTTP request's run then leaves nothing behind for the collector to copy but the
 * rare text that does not pack (an error message, a request id of another form).
 */
import type { ExecutionIndex, ExecutionPage, ExecutionQuery, ExecutionRecord } from "svc/plugin";
import { RecordColumns, idKey, type IdKey, type RecordTimes } from "./record-columns.js";

export interface RetentionOptions {
  maxRecords: number;
  retentionMs: number;
}

/** Slots made at first; the ring doubles up to the record cap as records come. */
const FIRST_CAPACITY = 1024;

export class MemoryExecutionIndex implements ExecutionIndex {
  private columns: RecordColumns;
  /** The slot of the oldest record. */
  private start = 0;
  private size = 0;

  constructor(
    private readonly retention: RetentionOptions,
    private readonly now: () => number = Date.now,
  ) {
    this.columns = new RecordColumns(Math.max(1, Math.min(FIRST_CAPACITY, retention.maxRecords)));
  }

  async recordStart(record: ExecutionRecord): Promise<void> {
    this.storeStart(record);
  }

  async recordFinish(record: ExecutionRecord): Promise<void> {
    this.storeFinish(record);
  }

  /**
   * `recordStart` done at once: the recorder calls this for every run, without a promise, with the
   * times its ISO texts were made from (`times`) and the parts its id was made from (`made`), so
   * nothing is parsed.
   */
  storeStart(record: ExecutionRecord, times?: RecordTimes, made?: IdKey): void {
    const key = made ?? idKey(record.id);
    const now = this.now();
    // Ids grow within a process; one from elsewhere (a host, a test) still lands in order.
    if (this.size === 0 || this.columns.compareId(this.slot(this.size - 1), key) < 0) {
      this.makeRoom();
      this.columns.write(this.slot(this.size++), record, key, now, times);
    } else {
      const at = this.lowerBound(key);
      if (at < this.size && this.columns.compareId(this.slot(at), key) === 0) return this.columns.write(this.slot(at), record, key, now, times);
      this.insert(at, record, key, now, times);
    }
    this.trim(now);
  }

  /** `recordFinish` done at once. */
  storeFinish(record: ExecutionRecord, times?: RecordTimes, made?: IdKey): void {
    // A record already dropped (cap reached during a long run) is not brought back.
    const key = made ?? idKey(record.id);
    const at = this.indexOf(key);
    if (at !== -1) this.columns.write(this.slot(at), record, key, this.now(), times);
  }

  async get(id: string): Promise<ExecutionRecord | undefined> {
    const at = this.indexOf(idKey(id));
    return at !== -1 && !this.expired(at) ? this.columns.read(this.slot(at)) : undefined;
  }

  async list(query: ExecutionQuery): Promise<ExecutionPage> {
    const found: ExecutionRecord[] = [];
    const c = this.columns;
    const pipeline = c.queryValue(query.pipeline);
    const status = c.queryValue(query.status);
    const transport = c.queryValue(query.transport);
    // A value never recorded matches nothing.
    if (pipeline === -1 || status === -1 || transport === -1) return { executions: found, next: null };
    let i = (query.before === undefined ? this.size : this.lowerBound(idKey(query.before))) - 1;
    for (; i >= 0; i--) {
      const slot = this.slot(i);
      if (this.expired(i) || !c.matches(slot, pipeline, status, transport)) continue;
      if (found.length === query.limit) return { executions: found, next: found[found.length - 1]!.id };
      found.push(c.read(slot));
    }
    return { executions: found, next: null };
  }

  /** The slot of the record at position `i` (0: the oldest). */
  private slot(i: number): number {
    const s = this.start + i;
    return s >= this.columns.capacity ? s - this.columns.capacity : s;
  }

  /** `now`: the clock as read already by the caller (one read per write). */
  private expired(i: number, now: number = this.now()): boolean {
    return now - this.columns.writtenAt[this.slot(i)]! > this.retention.retentionMs;
  }

  /** Room for one more record: the ring grows up to the cap, then the oldest record goes. */
  private makeRoom(): void {
    const capacity = this.columns.capacity;
    if (this.size < capacity) return;
    if (capacity < this.retention.maxRecords) {
      const bigger = this.columns.grown(Math.min(capacity * 2, this.retention.maxRecords));
      for (let i = 0; i < this.size; i++) this.columns.copy(this.slot(i), i, bigger);
      this.columns = bigger;
      this.start = 0;
    } else this.dropOldest();
  }

  /** Puts a record older than the newest at position `at`, moving the newer ones up a slot. */
  private insert(at: number, record: ExecutionRecord, key: IdKey, now: number, times: RecordTimes | undefined): void {
    if (this.size === this.columns.capacity && this.size >= this.retention.maxRecords) {
      if (at === 0) return; // older than everything a full index keeps: dropped at once
      this.dropOldest();
      at--;
    } else this.makeRoom();
    for (let i = this.size; i > at; i--) this.columns.copy(this.slot(i - 1), this.slot(i));
    this.size++;
    this.columns.write(this.slot(at), record, key, now, times);
  }

  private dropOldest(): void {
    this.columns.clear(this.start);
    this.start = this.slot(1);
    this.size--;
  }

  /** Drops from the oldest end: beyond the cap, or expired (checked on the oldest only: cheap). */
  private trim(now: number): void {
    while (this.size > this.retention.maxRecords || (this.size > 0 && this.expired(0, now))) this.dropOldest();
  }

  /** The position of the record with this id, or -1. */
  private indexOf(key: IdKey): number {
    // A run's finish nearly always concerns one of the newest records: look there first.
    const last = this.size - 1;
    if (last >= 0 && this.columns.compareId(this.slot(last), key) === 0) return last;
    const at = this.lowerBound(key);
    return at < this.size && this.columns.compareId(this.slot(at), key) === 0 ? at : -1;
  }

  /** The first position whose id is not below `key`. */
  private lowerBound(key: IdKey): number {
    let lo = 0;
    let hi = this.size;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.columns.compareId(this.slot(mid), key) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

export function matches(record: ExecutionRecord, query: ExecutionQuery): boolean {
  return (
    (query.pipeline === undefined || record.pipeline === query.pipeline) &&
    (query.status === undefined || record.status === query.status) &&
    (query.transport === undefined || record.transport === query.transport)
  );
}
