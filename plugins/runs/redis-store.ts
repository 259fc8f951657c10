/**
 * @module The Redis run store: one store for every worker and instance, kept across restarts
 * (until the retention). Layout and atomicity are in `redis-scripts.ts`; the order of runs is a
 * sorted set `<ns>:order` of ids (all score 0: ids sort by creation time), pruned as listings meet
 * expired runs. Live events and cancel requests travel by pub/sub on `<ns>:{<id>}:signals`,
 * through one subscriber connection per process. Every call has a deadline (`SERVICE_REDIS_TIMEOUT`):
 * a stalled Redis answers 503 instead of hanging.
 */
import { closeKeyv, connectRedisKeyv, DEFAULT_REDIS_TIMEOUT_MS, HttpError, messageOf, pageByIds, parseRedisTarget, redisClientOf, RedisWatch, type Keyv } from "svc/plugin";
import { BaseRunStore, type RunChange, type RunListener, type RunSignal, type RunStoreOptions, type Unsubscribe } from "./run-store.js";
import { matchesQuery, newRunRecord, type RunEvent, type RunInit, type RunPage, type RunQuery, type RunRecord } from "./run-record.js";
import { APPEND, CLAIM_EXPIRED, COMPARE_AND_SET, EVENTS_AFTER, RENEW_LEASES } from "./redis-scripts.js";

/** The node-redis commands used (a client or a cluster client). */
interface Commands {
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
  hSet(key: string, fields: Record<string, string>): Promise<number>;
  hmGet(key: string, fields: string[]): Promise<(string | null)[]>;
  hGet(key: string, field: string): Promise<string | null>;
  pExpire(key: string, ms: number): Promise<number>;
  del(keys: string[]): Promise<number>;
  publish(channel: string, message: string): Promise<number>;
  zAdd(key: string, members: { score: number; value: string }): Promise<number>;
  zRange(key: string, min: string, max: string, options: { BY: "LEX"; REV?: boolean; LIMIT: { offset: number; count: number } }): Promise<string[]>;
  zRem(key: string, members: string | string[]): Promise<number>;
  zRemRangeByLex(key: string, min: string, max: string): Promise<number>;
  duplicate(): Subscriber;
}

interface Subscriber {
  on(event: "error", listener: (error: unknown) => void): unknown;
  connect(): Promise<unknown>;
  subscribe(channel: string, listener: (message: string) => void): Promise<void>;
  unsubscribe(channel: string, listener: (message: string) => void): Promise<void>;
  close(): Promise<unknown>;
  destroy(): void;
  readonly isOpen: boolean;
}

export const REDIS_NAMESPACE = "svc-runs";
const CAS_ATTEMPTS = 20;
/** Every this many creates, ids older than the retention leave the order set (one ZREMRANGEBYLEX). */
const PRUNE_EVERY = 64;

export interface RedisRunStoreOptions extends RunStoreOptions {
  readonly url: string;
  readonly namespace?: string;
  readonly connectTimeoutMs?: number;
  /** Deadline of each Redis call (ms). */
  readonly timeoutMs?: number;
}

export class RedisRunStore extends BaseRunStore {
  readonly kind = "redis";
  private readonly watch: RedisWatch;
  private subscriber?: Promise<Subscriber>;
  private createsSincePrune = 0;
  private readonly listeners = new Map<string, { listeners: Set<RunListener>; onMessage: (message: string) => void; ready: Promise<void> }>();

  private constructor(
    private readonly keyv: Keyv,
    private readonly redis: Commands,
    private readonly namespace: string,
    private readonly display: string,
    options: RedisRunStoreOptions,
  ) {
    super(options);
    this.watch = new RedisWatch(() => redis, options.timeoutMs ?? DEFAULT_REDIS_TIMEOUT_MS).start();
    this.startLeases();
  }

  /** Connects (failing promptly with a clear message when Redis is unreachable or refuses the credentials). */
  static async connect(options: RedisRunStoreOptions): Promise<RedisRunStore> {
    const namespace = options.namespace ?? REDIS_NAMESPACE;
    const keyv = await connectRedisKeyv({ url: options.url, namespace, logger: options.logger, connectTimeoutMs: options.connectTimeoutMs, setting: "SERVICE_CLUSTER_REDIS_URL" });
    const redis = redisClientOf(keyv) as unknown as Commands;
    return new RedisRunStore(keyv, redis, namespace, parseRedisTarget(options.url).display, options);
  }

  get unavailable(): string | undefined {
    return this.watch.error;
  }

  async create(init: RunInit): Promise<RunRecord> {
    const record = newRunRecord(init);
    const key = this.runKey(record.id);
    await this.call(async () => {
      await this.redis.hSet(key, { doc: JSON.stringify(record), v: "0", seq: "0" });
      // A lease from the start: if this process dies before it holds the run, the run fails when
      // the lease expires instead of staying queued for ever.
      await Promise.all([
        this.redis.pExpire(key, this.options.retentionMs),
        this.redis.zAdd(this.orderKey, { score: 0, value: record.id }),
        this.redis.eval(RENEW_LEASES, { keys: [this.leasesKey], arguments: [String(this.options.leaseMs), record.id] }),
      ]);
    });
    if (++this.createsSincePrune >= PRUNE_EVERY) {
      this.createsSincePrune = 0;
      const oldest = `run_${(Date.now() - this.options.retentionMs).toString(16).padStart(12, "0")}`;
      this.redis.zRemRangeByLex(this.orderKey, "-", `(${oldest}`).catch(() => undefined);
    }
    return record;
  }

  async get(id: string): Promise<RunRecord | undefined> {
    const doc = await this.call(() => this.redis.hGet(this.runKey(id), "doc"));
    return doc ? (JSON.parse(doc) as RunRecord) : undefined;
  }

  /** One deadline for the whole listing (it may take several round trips). */
  list(query: RunQuery): Promise<RunPage> {
    return this.call(() => this.listNow(query));
  }

  protected change(id: string, change: (record: RunRecord) => RunRecord | undefined): Promise<RunChange | undefined> {
    return this.call(async () => {
      for (let attempt = 0; attempt < CAS_ATTEMPTS; attempt++) {
        const [doc, version] = await this.redis.hmGet(this.runKey(id), ["doc", "v"]);
        if (!doc || version === null) return undefined;
        const record = JSON.parse(doc) as RunRecord;
        const next = change(record);
        if (!next) return { record, changed: false };
        const keys = [this.runKey(id), this.eventsKey(id)];
        const done = await this.redis.eval(COMPARE_AND_SET, { keys, arguments: [version, JSON.stringify(next), String(this.options.retentionMs), next.cancel_requested ? "1" : "0"] });
        if (done === -1) return undefined;
        if (done === 1) return { record: next, changed: true };
      }
      throw new Error(`Run '${id}' changed ${CAS_ATTEMPTS} times while being updated`);
    });
  }

  async append(id: string, type: string, data: unknown = null): Promise<RunEvent> {
    const created_at = new Date().toISOString();
    const body = JSON.stringify({ type, data, created_at }).slice(1);
    const keys = [this.runKey(id), this.eventsKey(id)];
    const seq = Number(await this.call(() => this.redis.eval(APPEND, { keys, arguments: [body, String(this.options.maxEvents), String(this.options.retentionMs), this.channel(id)] })));
    if (seq === 0) throw new Error(`No run '${id}'`);
    return { seq, type, data: JSON.parse(JSON.stringify(data)), created_at };
  }

  async events(id: string, after = 0): Promise<RunEvent[]> {
    const keys = [this.runKey(id), this.eventsKey(id)];
    const raw = (await this.call(() => this.redis.eval(EVENTS_AFTER, { keys, arguments: [String(after)] }))) as string[];
    return raw.map((line) => JSON.parse(line) as RunEvent);
  }

  async subscribe(id: string, listener: RunListener): Promise<Unsubscribe> {
    const channel = this.channel(id);
    let entry = this.listeners.get(channel);
    if (!entry) {
      const listeners = new Set<RunListener>();
      const onMessage = (message: string) => {
        let signal: RunSignal;
        try {
          signal = JSON.parse(message) as RunSignal;
        } catch {
          return;
        }
        for (const l of listeners) l(signal);
      };
      const ready = this.subscriberConnection().then((subscriber) => this.call(() => subscriber.subscribe(channel, onMessage)));
      entry = { listeners, onMessage, ready };
      this.listeners.set(channel, entry);
      ready.catch(() => this.listeners.get(channel) === entry && this.listeners.delete(channel));
    }
    // A second subscriber of the channel waits for the first one's SUBSCRIBE too.
    await entry.ready;
    entry.listeners.add(listener);
    const current = entry;
    return async () => {
      current.listeners.delete(listener);
      if (current.listeners.size > 0 || this.listeners.get(channel) !== current) return;
      this.listeners.delete(channel);
      const subscriber = await this.subscriber;
      await subscriber?.unsubscribe(channel, current.onMessage).catch(() => undefined);
    };
  }

  async delete(id: string): Promise<boolean> {
    const removed = await this.call(async () => {
      const [count] = await Promise.all([this.redis.del([this.runKey(id), this.eventsKey(id)]), this.redis.zRem(this.orderKey, id), this.redis.zRem(this.leasesKey, id)]);
      return count;
    });
    return removed > 0;
  }

  async close(): Promise<void> {
    await super.close();
    this.watch.close();
    const subscriber = await this.subscriber?.catch(() => undefined);
    if (subscriber) {
      await Promise.race([subscriber.close().catch(() => undefined), new Promise((r) => setTimeout(r, 1000).unref())]);
      if (subscriber.isOpen) subscriber.destroy();
    }
    await closeKeyv(this.keyv);
  }

  protected async publishCancel(id: string): Promise<void> {
    await this.call(() => this.redis.publish(this.channel(id), JSON.stringify({ type: "cancel" })));
  }

  protected async writeLeases(ids: readonly string[]): Promise<void> {
    await this.call(() => this.redis.eval(RENEW_LEASES, { keys: [this.leasesKey], arguments: [String(this.options.leaseMs), ...ids] }));
  }

  protected async dropLease(id: string): Promise<void> {
    await this.call(() => this.redis.zRem(this.leasesKey, id));
  }

  protected async claimExpired(): Promise<string[]> {
    return (await this.call(() => this.redis.eval(CLAIM_EXPIRED, { keys: [this.leasesKey], arguments: [] }))) as string[];
  }

  protected async cancelRequested(ids: readonly string[]): Promise<string[]> {
    const flags = await this.call(() => Promise.all(ids.map((id) => this.redis.hGet(this.runKey(id), "cancel"))));
    return ids.filter((_, i) => flags[i] === "1");
  }

  private async listNow(query: RunQuery): Promise<RunPage> {
    const page = await pageByIds<RunRecord>(this.redis, {
      key: this.orderKey,
      before: query.before,
      limit: query.limit,
      read: async (ids) => (await Promise.all(ids.map((id) => this.redis.hGet(this.runKey(id), "doc")))).map((doc) => (doc ? (JSON.parse(doc) as RunRecord) : undefined)),
      matches: (record) => matchesQuery(record, query),
    });
    return { runs: page.items, next: page.next };
  }

  /** The one subscriber connection of this store, made on first use. */
  private subscriberConnection(): Promise<Subscriber> {
    this.subscriber ??= (async () => {
      const subscriber = this.redis.duplicate();
      subscriber.on("error", (error) => this.options.logger?.warn(`Run store subscriber (Redis at ${this.display}): ${messageOf(error)}`));
      await this.call(() => subscriber.connect());
      return subscriber;
    })();
    this.subscriber.catch(() => (this.subscriber = undefined));
    return this.subscriber;
  }

  /** A Redis call under the deadline; any failure is a 503 naming the store. */
  private async call<T>(command: () => Promise<T>): Promise<T> {
    try {
      return await this.watch.call(command);
    } catch (error) {
      if (error instanceof HttpError) throw error;
      throw new HttpError(503, `The run store (Redis at ${this.display}) is unreachable: ${messageOf(error)}`, { cause: error });
    }
  }

  private runKey(id: string): string {
    return `${this.namespace}:{${id}}`;
  }

  private eventsKey(id: string): string {
    return `${this.namespace}:{${id}}:events`;
  }

  private channel(id: string): string {
    return `${this.namespace}:{${id}}:signals`;
  }

  private get orderKey(): string {
    return `${this.namespace}:order`;
  }

  private get leasesKey(): string {
    return `${this.namespace}:leases`;
  }
}
