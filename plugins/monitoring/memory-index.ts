/**
 * @module The in-memory execution index (the default): records of this process, oldest first in an
 * array (ids only grow within a process, so a lookup is a binary search), with the time of each
 * record's last write in a parallel array of numbers. The oldest are dropped beyond the record cap
 * or the retention period; dropping advances a head offset and compacts now and then, so a write
 * stays O(1) even when the index is full.
 *
 * A record lives long enough to be copied by the garbage collector, so the index keeps nothing per
 * record but the record itself: no wrapper object, no map entry, the write times unboxed.
 */
import type { ExecutionIndex, ExecutionPage, ExecutionQuery, ExecutionRecord } from "svc/plugin";

export interface RetentionOptions {
  maxRecords: number;
  retentionMs: number;
}

export class MemoryExecutionIndex implements ExecutionIndex {
  private records: ExecutionRecord[] = [];
  /** Epoch ms of each record's last write; the record expires `retentionMs` after it. */
  private writtenAt: number[] = [];
  private head = 0;

  constructor(
    private readonly retention: RetentionOptions,
    private readonly now: () => number = Date.now,
  ) {}

  async recordStart(record: ExecutionRecord): Promise<void> {
    this.storeStart(record);
  }

  async recordFinish(record: ExecutionRecord): Promise<void> {
    this.storeFinish(record);
  }

  /** `recordStart` done at once: the recorder calls this for every run, without a promise. */
  storeStart(record: ExecutionRecord): void {
    const last = this.records[this.records.length - 1];
    // Ids grow within a process; one from elsewhere (a host, a test) still lands in order.
    if (last === undefined || last.id < record.id) {
      this.records.push(record);
      this.writtenAt.push(this.now());
    } else {
      const at = this.lowerBound(record.id);
      if (this.records[at]?.id === record.id) return this.write(at, record);
      this.records.splice(at, 0, record);
      this.writtenAt.splice(at, 0, this.now());
    }
    this.trim();
  }

  /** `recordFinish` done at once. */
  storeFinish(record: ExecutionRecord): void {
    // A record already dropped (cap reached during a long run) is not brought back.
    const at = this.indexOf(record.id);
    if (at !== -1) this.write(at, record);
  }

  async get(id: string): Promise<ExecutionRecord | undefined> {
    const at = this.indexOf(id);
    return at !== -1 && !this.expired(at) ? this.records[at] : undefined;
  }

  async list(query: ExecutionQuery): Promise<ExecutionPage> {
    const found: ExecutionRecord[] = [];
    let i = (query.before === undefined ? this.records.length : this.lowerBound(query.before)) - 1;
    for (; i >= this.head; i--) {
      const record = this.records[i]!;
      if (this.expired(i) || !matches(record, query)) continue;
      if (found.length === query.limit) return { executions: found, next: found[found.length - 1]!.id };
      found.push(record);
    }
    return { executions: found, next: null };
  }

  private write(at: number, record: ExecutionRecord): void {
    this.records[at] = record;
    this.writtenAt[at] = this.now();
  }

  private expired(at: number): boolean {
    return this.now() - this.writtenAt[at]! > this.retention.retentionMs;
  }

  /** Drops from the oldest end: beyond the cap, or expired (checked on the oldest only: cheap). */
  private trim(): void {
    while (this.records.length - this.head > this.retention.maxRecords || (this.head < this.records.length && this.expired(this.head))) {
      this.records[this.head] = undefined as never; // let it go now, not at the next compaction
      this.head++;
    }
    if (this.head > 1024 && this.head * 2 > this.records.length) {
      this.records = this.records.slice(this.head);
      this.writtenAt = this.writtenAt.slice(this.head);
      this.head = 0;
    }
  }

  /** The position of the record with this id, or -1. */
  private indexOf(id: string): number {
    const at = this.lowerBound(id);
    return this.records[at]?.id === id ? at : -1;
  }

  /** The first position (from the head) whose id is not below `id`. */
  private lowerBound(id: string): number {
    let lo = this.head;
    let hi = this.records.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.records[mid]!.id < id) lo = mid + 1;
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
