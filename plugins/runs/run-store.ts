/**
 * @module The run store protocol, and what every backend shares: finishing a run exactly once,
 * cancelling, and the leases of the runs this process runs. Backends (memory, Redis) supply the
 * storage primitives; `test/plugins/runs/store-contract.ts` is the suite each one passes.
 *
 * Leases: the process running a run holds a lease on it and renews every lease it holds every
 * third of `leaseMs`. Every process also claims leases that expired (their holder died or froze)
 * and fails those runs, so a run is never left `in_progress` by a dead process.
 */
import type { Logger } from "svc/plugin";
import { finalEventType, isFinal, type RunError, type RunEvent, type RunInit, type RunPage, type RunPatch, type RunQuery, type RunRecord, type RunStatus } from "./run-record.js";

/** A message on a run's channel: a new event of its log, or a cancel request for its runner. */
export type RunSignal = { readonly type: "event"; readonly event: RunEvent } | { readonly type: "cancel" };
export type RunListener = (signal: RunSignal) => void;
/** Stops a subscription. */
export type Unsubscribe = () => Promise<void>;

export interface RunChange {
  readonly record: RunRecord;
  /** False when the run was already final (the store left it as it was). */
  readonly changed: boolean;
}

/**
 * Runs that outlive a request. Every method may be called from any process sharing the store;
 * `hold`/`release` only by the one running the run.
 */
export interface RunStore {
  /** `memory` (this process only, lost on restart) or `redis` (every instance, kept). */
  readonly kind: string;
  /** Stores a new `queued` run. */
  create(init: RunInit): Promise<RunRecord>;
  get(id: string): Promise<RunRecord | undefined>;
  /** Newest first, `limit` per page. */
  list(query: RunQuery): Promise<RunPage>;
  /** Changes a run that is not final; undefined for an unknown run. */
  update(id: string, patch: RunPatch): Promise<RunChange | undefined>;
  /** Makes a run final (once: the first caller wins) and appends its terminal event `run.<status>`. */
  finish(id: string, status: RunStatus, outcome?: { result?: unknown; error?: RunError }): Promise<RunChange | undefined>;
  /**
   * Asks for a run to stop: a queued run is cancelled at once; a running one is marked
   * `cancel_requested` and its runner told (whichever process it runs on). Undefined for an unknown run.
   */
  cancel(id: string): Promise<RunChange | undefined>;
  /** Appends to the run's event log (its oldest events are dropped beyond the cap) and tells subscribers. */
  append(id: string, type: string, data?: unknown): Promise<RunEvent>;
  /** The logged events with `seq > after`, in order (what the cap left of them). */
  events(id: string, after?: number): Promise<RunEvent[]>;
  /** Live events and cancel requests of one run, from every process. */
  subscribe(id: string, listener: RunListener): Promise<Unsubscribe>;
  /** Takes the lease of a run this process starts running; `onCancel` is called when someone cancels it. */
  hold(id: string, onCancel: () => void): Promise<void>;
  /** Gives up the lease (the run is final, or handed back). */
  release(id: string): Promise<void>;
  delete(id: string): Promise<boolean>;
  /**
   * Calls `listener` with each run this process makes final (by `finish`, `cancel` or an expired
   * lease): exactly one process sees each run end, the one to act on it (a completion webhook).
   */
  onFinal?(listener: (run: RunRecord) => void): () => void;
  /** Why the store cannot be used now, or undefined (for readiness). */
  readonly unavailable?: string;
  close(): Promise<void>;
}

export interface RunStoreOptions {
  /** How long a run is kept after its last change (ms). */
  readonly retentionMs: number;
  /** Events kept per run; the oldest are dropped beyond it. */
  readonly maxEvents: number;
  /** A lease not renewed for this long is expired: its run is failed (ms). */
  readonly leaseMs: number;
  /** This process in the error of a run whose lease expired. */
  readonly instance?: string;
  readonly logger?: Logger;
}

export const DEFAULT_LEASE_MS = 10_000;

interface Holding {
  readonly onCancel: () => void;
  unsubscribe?: Unsubscribe;
  cancelled: boolean;
}

/** Storage primitives a backend provides; the shared behaviour is written once on top of them. */
export abstract class BaseRunStore implements RunStore {
  abstract readonly kind: string;
  private readonly holdings = new Map<string, Holding>();
  private readonly finalListeners = new Set<(run: RunRecord) => void>();
  private timer?: NodeJS.Timeout;
  private ticking = false;

  constructor(protected readonly options: RunStoreOptions) {}

  abstract create(init: RunInit): Promise<RunRecord>;
  abstract get(id: string): Promise<RunRecord | undefined>;
  abstract list(query: RunQuery): Promise<RunPage>;
  abstract append(id: string, type: string, data?: unknown): Promise<RunEvent>;
  abstract events(id: string, after?: number): Promise<RunEvent[]>;
  abstract subscribe(id: string, listener: RunListener): Promise<Unsubscribe>;
  abstract delete(id: string): Promise<boolean>;
  /** Atomically replaces a record with `change(record)`; `undefined` from `change` leaves it. */
  protected abstract change(id: string, change: (record: RunRecord) => RunRecord | undefined): Promise<RunChange | undefined>;
  /** Tells the run's runner, wherever it runs, to stop. */
  protected abstract publishCancel(id: string): Promise<void>;
  /** Sets (or renews) the leases of `ids` to expire `leaseMs` from now. */
  protected abstract writeLeases(ids: readonly string[]): Promise<void>;
  protected abstract dropLease(id: string): Promise<void>;
  /** Removes expired leases and returns their runs; each expired lease goes to exactly one caller. */
  protected abstract claimExpired(): Promise<string[]>;
  /** Of `ids`, those whose run has `cancel_requested` (a cancel whose message was missed). */
  protected abstract cancelRequested(ids: readonly string[]): Promise<string[]>;

  update(id: string, patch: RunPatch): Promise<RunChange | undefined> {
    return this.change(id, (run) => (isFinal(run.status) ? undefined : { ...run, ...patch }));
  }

  async finish(id: string, status: RunStatus, outcome: { result?: unknown; error?: RunError } = {}): Promise<RunChange | undefined> {
    if (!isFinal(status)) throw new Error(`finish() takes a final status, not '${status}'`);
    const ended = new Date().toISOString();
    const change = await this.change(id, (run) =>
      isFinal(run.status) ? undefined : { ...run, status, ended_at: ended, result: outcome.result ?? null, error: outcome.error ?? null },
    );
    if (change?.changed) {
      try {
        await this.append(id, finalEventType(status), { status, result: outcome.result ?? null, error: outcome.error ?? null });
      } finally {
        this.ended(change.record);
      }
    }
    return change;
  }

  async cancel(id: string): Promise<RunChange | undefined> {
    const ended = new Date().toISOString();
    const message = "The run was cancelled before it started.";
    const change = await this.change(id, (run) => {
      if (isFinal(run.status) || run.cancel_requested) return undefined;
      if (run.status === "queued") return { ...run, status: "cancelled", ended_at: ended, cancel_requested: true, error: { code: "cancelled", message } };
      return { ...run, cancel_requested: true };
    });
    if (!change?.changed) return change;
    if (change.record.status === "cancelled") {
      try {
        await this.append(id, finalEventType("cancelled"), { status: "cancelled", result: null, error: change.record.error });
      } finally {
        this.ended(change.record);
      }
    } else await this.publishCancel(id);
    return change;
  }

  onFinal(listener: (run: RunRecord) => void): () => void {
    this.finalListeners.add(listener);
    return () => this.finalListeners.delete(listener);
  }

  async hold(id: string, onCancel: () => void): Promise<void> {
    const holding: Holding = { onCancel, cancelled: false };
    this.holdings.set(id, holding);
    await this.writeLeases([id]);
    const unsubscribe = await this.subscribe(id, (signal) => {
      if (signal.type === "cancel") this.cancelHeld(id);
    });
    // Released while subscribing: nobody would unsubscribe later.
    if (this.holdings.get(id) === holding) holding.unsubscribe = unsubscribe;
    else await unsubscribe();
  }

  async release(id: string): Promise<void> {
    const holding = this.holdings.get(id);
    this.holdings.delete(id);
    await Promise.all([holding?.unsubscribe?.(), this.dropLease(id)]);
  }

  /** Starts renewing this process's leases and failing the runs of expired ones. */
  protected startLeases(): void {
    this.timer = setInterval(() => void this.tick(), Math.max(50, Math.floor(this.options.leaseMs / 3)));
    this.timer.unref();
  }

  /**
   * Forgets the runs this process holds without releasing their leases, as if it had died: their
   * leases expire and a process (this one too) fails them. For tests of lease expiry.
   */
  abandonLeases(): void {
    for (const holding of this.holdings.values()) void holding.unsubscribe?.().catch(() => undefined);
    this.holdings.clear();
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    for (const holding of this.holdings.values()) await holding.unsubscribe?.().catch(() => undefined);
    this.holdings.clear();
  }

  /** One renewal: this process's leases, missed cancels, then the runs of expired leases. */
  private async tick(): Promise<void> {
    if (this.ticking) return;
    this.ticking = true;
    try {
      const held = [...this.holdings.keys()];
      if (held.length > 0) {
        await this.writeLeases(held);
        for (const id of await this.cancelRequested(held)) this.cancelHeld(id);
      }
      for (const id of await this.claimExpired()) {
        if (this.holdings.has(id)) continue; // ours after all (this process stalled): it finishes the run itself
        await this.finish(id, "failed", { error: { code: "lease_expired", message: this.expiredMessage() } });
      }
    } catch (error) {
      this.options.logger?.warn(`Run store: lease renewal failed: ${(error as Error).message}`);
    } finally {
      this.ticking = false;
    }
  }

  private ended(run: RunRecord): void {
    for (const listener of this.finalListeners) {
      try {
        listener(run);
      } catch (error) {
        this.options.logger?.warn(`Run store: a listener of run ${run.id}'s end failed: ${(error as Error).message}`);
      }
    }
  }

  private cancelHeld(id: string): void {
    const holding = this.holdings.get(id);
    if (!holding || holding.cancelled) return;
    holding.cancelled = true;
    holding.onCancel();
  }

  private expiredMessage(): string {
    const seconds = Math.round(this.options.leaseMs / 100) / 10;
    return `The instance running this run stopped renewing its lease for over ${seconds} s (killed, crashed or frozen): the run's outcome is unknown.`;
  }
}
