/**
 * @module The in-memory execution index (the default): records of this process, oldest first in an
 * array (ids only grow within a process) plus a map by id. The oldest are dropped beyond the record
 * cap or the retention period; dropping advances a head offset and compacts now and then, so a
 * write stays O(1) even when the index is full.
 */
import type { ExecutionIndex, ExecutionPage, ExecutionQuery, ExecutionRecord } from "svc";

export interface RetentionOptions {
  maxRecords: number;
  retentionMs: number;
}

interface Slot {
  record: ExecutionRecord;
  /** Epoch ms of the last write; the record expires `retentionMs` after it. */
  writtenAt: number;
}

export class MemoryExecutionIndex implements ExecutionIndex {
  private slots: Slot[] = [];
  private head = 0;
  private readonly byId = new Map<string, Slot>();

  constructor(
    private readonly retention: RetentionOptions,
    private readonly now: () => number = Date.now,
  ) {}

  async recordStart(record: ExecutionRecord): Promise<void> {
    const existing = this.byId.get(record.id);
    if (existing) return this.write(existing, record);
    const slot = { record, writtenAt: this.now() };
    // Ids grow within a process; one from elsewhere (a host, a test) still lands in order.
    const last = this.slots[this.slots.length - 1];
    if (last && last.record.id > record.id) this.slots.splice(this.lowerBound(record.id), 0, slot);
    else this.slots.push(slot);
    this.byId.set(record.id, slot);
    this.trim();
  }

  async recordFinish(record: ExecutionRecord): Promise<void> {
    const slot = this.byId.get(record.id);
    // A record already dropped (cap reached during a long run) is not brought back.
    if (slot) this.write(slot, record);
  }

  async get(id: string): Promise<ExecutionRecord | undefined> {
    const slot = this.byId.get(id);
    return slot && !this.expired(slot) ? slot.record : undefined;
  }

  async list(query: ExecutionQuery): Promise<ExecutionPage> {
    const found: ExecutionRecord[] = [];
    let i = (query.before === undefined ? this.slots.length : this.lowerBound(query.before)) - 1;
    for (; i >= this.head; i--) {
      const slot = this.slots[i]!;
      if (this.expired(slot) || !matches(slot.record, query)) continue;
      if (found.length === query.limit) return { executions: found, next: found[found.length - 1]!.id };
      found.push(slot.record);
    }
    return { executions: found, next: null };
  }

  private write(slot: Slot, record: ExecutionRecord): void {
    slot.record = record;
    slot.writtenAt = this.now();
  }

  private expired(slot: Slot): boolean {
    return this.now() - slot.writtenAt > this.retention.retentionMs;
  }

  /** Drops from the oldest end: beyond the cap, or expired (checked on the oldest only: cheap). */
  private trim(): void {
    while (this.slots.length - this.head > this.retention.maxRecords || (this.head < this.slots.length && this.expired(this.slots[this.head]!))) {
      this.byId.delete(this.slots[this.head]!.record.id);
      this.head++;
    }
    if (this.head > 1024 && this.head * 2 > this.slots.length) {
      this.slots = this.slots.slice(this.head);
      this.head = 0;
    }
  }

  /** The first position (from the head) whose id is not below `id`. */
  private lowerBound(id: string): number {
    let lo = this.head;
    let hi = this.slots.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.slots[mid]!.record.id < id) lo = mid + 1;
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
