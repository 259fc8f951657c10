/**
 * @module The in-memory run store: the default for one process. Runs live as long as the process
 * (a restart loses them all) and are only visible to it; with several workers or instances, set
 * `SERVICE_CLUSTER_REDIS_URL`. Runs are dropped `retentionMs` after their last change, and the
 * oldest beyond `maxRuns`.
 */
import { EventEmitter } from "node:events";
import { BaseRunStore, type RunChange, type RunListener, type RunSignal, type RunStoreOptions, type Unsubscribe } from "./run-store.js";
import { matchesQuery, newRunRecord, type RunEvent, type RunInit, type RunPage, type RunQuery, type RunRecord } from "./run-record.js";

interface Entry {
  record: RunRecord;
  events: RunEvent[];
  seq: number;
  expiresAt: number;
}

export interface MemoryRunStoreOptions extends RunStoreOptions {
  /** Runs kept; the oldest are dropped beyond it. */
  readonly maxRuns: number;
}

export class MemoryRunStore extends BaseRunStore {
  readonly kind = "memory";
  /** Insertion order is creation order: a Map iterates oldest first. */
  private readonly runs = new Map<string, Entry>();
  private readonly leases = new Map<string, number>();
  private readonly channels = new EventEmitter().setMaxListeners(0);

  constructor(private readonly memoryOptions: MemoryRunStoreOptions) {
    super(memoryOptions);
    this.startLeases();
  }

  async create(init: RunInit): Promise<RunRecord> {
    const record = newRunRecord(init);
    this.runs.set(record.id, { record, events: [], seq: 0, expiresAt: this.expiry() });
    this.trim();
    return record;
  }

  async get(id: string): Promise<RunRecord | undefined> {
    return this.entry(id)?.record;
  }

  async list(query: RunQuery): Promise<RunPage> {
    const found: RunRecord[] = [];
    const now = Date.now();
    const entries = [...this.runs.values()];
    for (let i = entries.length - 1; i >= 0; i--) {
      const { record, expiresAt } = entries[i]!;
      if (expiresAt <= now || (query.before !== undefined && record.id >= query.before) || !matchesQuery(record, query)) continue;
      if (found.length === query.limit) return { runs: found, next: found[found.length - 1]!.id };
      found.push(record);
    }
    return { runs: found, next: null };
  }

  protected async change(id: string, change: (record: RunRecord) => RunRecord | undefined): Promise<RunChange | undefined> {
    const entry = this.entry(id);
    if (!entry) return undefined;
    const next = change(entry.record);
    if (!next) return { record: entry.record, changed: false };
    entry.record = next;
    entry.expiresAt = this.expiry();
    return { record: next, changed: true };
  }

  async append(id: string, type: string, data: unknown = null): Promise<RunEvent> {
    const entry = this.entry(id);
    if (!entry) throw new Error(`No run '${id}'`);
    // A copy, as Redis would hand back: a later change by the caller does not reach the log.
    const event: RunEvent = { seq: ++entry.seq, type, data: structuredClone(data), created_at: new Date().toISOString() };
    entry.events.push(event);
    if (entry.events.length > this.options.maxEvents) entry.events.splice(0, entry.events.length - this.options.maxEvents);
    entry.expiresAt = this.expiry();
    this.emit(id, { type: "event", event });
    return event;
  }

  async events(id: string, after = 0): Promise<RunEvent[]> {
    const events = this.entry(id)?.events ?? [];
    const first = events[0]?.seq ?? 1;
    return events.slice(Math.max(0, after - first + 1));
  }

  async subscribe(id: string, listener: RunListener): Promise<Unsubscribe> {
    this.channels.on(id, listener);
    return async () => void this.channels.off(id, listener);
  }

  async delete(id: string): Promise<boolean> {
    this.leases.delete(id);
    return this.runs.delete(id);
  }

  protected async publishCancel(id: string): Promise<void> {
    this.emit(id, { type: "cancel" });
  }

  protected async writeLeases(ids: readonly string[]): Promise<void> {
    const until = Date.now() + this.options.leaseMs;
    for (const id of ids) this.leases.set(id, until);
  }

  protected async dropLease(id: string): Promise<void> {
    this.leases.delete(id);
  }

  protected async claimExpired(): Promise<string[]> {
    const now = Date.now();
    const expired = [...this.leases].filter(([, until]) => until <= now).map(([id]) => id);
    for (const id of expired) this.leases.delete(id);
    this.sweep(now);
    return expired;
  }

  protected async cancelRequested(ids: readonly string[]): Promise<string[]> {
    return ids.filter((id) => this.runs.get(id)?.record.cancel_requested);
  }

  async close(): Promise<void> {
    await super.close();
    this.channels.removeAllListeners();
  }

  private emit(id: string, signal: RunSignal): void {
    // Listeners run after the caller's write completed, as with a message from Redis.
    queueMicrotask(() => this.channels.emit(id, signal));
  }

  private entry(id: string): Entry | undefined {
    const entry = this.runs.get(id);
    if (entry && entry.expiresAt <= Date.now()) {
      this.runs.delete(id);
      return undefined;
    }
    return entry;
  }

  private expiry(): number {
    return Date.now() + this.options.retentionMs;
  }

  private trim(): void {
    for (const id of this.runs.keys()) {
      if (this.runs.size <= this.memoryOptions.maxRuns) return;
      this.runs.delete(id);
    }
  }

  /** Drops expired runs (on the lease timer, so memory is freed without reads). */
  private sweep(now: number): void {
    for (const [id, entry] of this.runs) if (entry.expiresAt <= now) this.runs.delete(id);
  }
}
