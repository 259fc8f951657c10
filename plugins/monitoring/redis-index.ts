/**
 * @module The Redis execution index, shared by every worker and surviving restarts. Records are
 * Keyv entries (`<namespace>::<id>`, with the retention period as TTL); their order is a sorted set
 * `<namespace>:order` whose members are the ids, all with score 0, so Redis keeps them in id order
 * (= start order) and a page is one `ZRANGE … BYLEX REV`. The set is trimmed to the record cap every
 * few starts; entries whose record expired are skipped and removed when a listing meets them.
 * Every call has a deadline (`SERVICE_REDIS_TIMEOUT`): a stalled Redis makes `/executions` answer
 * 503 instead of hanging. Runs of a process that stopped sending heartbeats are marked failed by
 * the others (`run-owners.ts`).
 */
import { closeKeyv, connectRedisKeyv, DEFAULT_REDIS_TIMEOUT_MS, HttpError, messageOf, pageByIds, parseRedisTarget, redisClientOf, RedisWatch, type ExecutionIndex, type ExecutionPage, type ExecutionQuery, type ExecutionRecord, type Keyv, type Logger } from "svc/plugin";
import { hostname } from "node:os";
import { matches, type RetentionOptions } from "./memory-index.js";
import { RunOwners } from "./run-owners.js";

/** The sorted-set commands Keyv has no API for (node-redis client or cluster). */
interface OrderCommands {
  zAdd(key: string, members: { score: number; value: string }): Promise<number>;
  zRange(key: string, min: string, max: string, options: { BY: "LEX"; REV?: boolean; LIMIT: { offset: number; count: number } }): Promise<string[]>;
  zRem(key: string, members: string[]): Promise<number>;
  zCard(key: string): Promise<number>;
}

export const REDIS_NAMESPACE = "svc-executions";
/** Check the set's size every few starts (one ZCARD), not on every write: a tenth of the cap, at most 64. */
const MAX_TRIM_INTERVAL = 64;
/** An owner silent this long is dead (`SERVICE_MONITORING_HEARTBEAT_TIMEOUT`). */
export const DEFAULT_HEARTBEAT_TIMEOUT_MS = 10_000;

export interface RedisExecutionIndexOptions {
  url: string;
  retention: RetentionOptions;
  namespace?: string;
  logger?: Logger;
  connectTimeoutMs?: number;
  /** Deadline of each Redis call (ms). */
  timeoutMs?: number;
  /** This process in the failure message of its orphaned runs (default: host name:pid). */
  instance?: string;
  /** After this long without a heartbeat a process's running runs are marked failed (ms). */
  heartbeatTimeoutMs?: number;
}

export class RedisExecutionIndex implements ExecutionIndex {
  private readonly orderKey: string;
  private startsSinceTrim = 0;
  private readonly trimEvery: number;

  private readonly watch: RedisWatch;
  private readonly owners: RunOwners;
  private beating?: NodeJS.Timeout;

  private constructor(
    private readonly keyv: Keyv<ExecutionRecord>,
    private readonly order: OrderCommands,
    private readonly retention: RetentionOptions,
    namespace: string,
    private readonly display: string,
    options: RedisExecutionIndexOptions,
  ) {
    this.orderKey = `${namespace}:order`;
    this.trimEvery = Math.max(1, Math.min(MAX_TRIM_INTERVAL, Math.floor(retention.maxRecords / 10)));
    const client = redisClientOf(keyv) as unknown as ConstructorParameters<typeof RunOwners>[1];
    this.watch = new RedisWatch(() => client, options.timeoutMs ?? DEFAULT_REDIS_TIMEOUT_MS);
    const deadAfterMs = options.heartbeatTimeoutMs ?? DEFAULT_HEARTBEAT_TIMEOUT_MS;
    this.owners = new RunOwners(keyv, client, namespace, { instance: options.instance ?? `${hostname()}:${process.pid}`, deadAfterMs, retentionMs: retention.retentionMs }, options.logger);
  }

  /** Connects (failing promptly with a clear message when Redis is unreachable or refuses the credentials). */
  static async connect(options: RedisExecutionIndexOptions): Promise<RedisExecutionIndex> {
    const namespace = options.namespace ?? REDIS_NAMESPACE;
    const keyv = await connectRedisKeyv<ExecutionRecord>({ url: options.url, namespace, logger: options.logger, connectTimeoutMs: options.connectTimeoutMs });
    const index = new RedisExecutionIndex(keyv, redisClientOf(keyv) as unknown as OrderCommands, options.retention, namespace, parseRedisTarget(options.url).display, options);
    index.startBeating(options.logger);
    return index;
  }

  /** Why Redis cannot be used now (stalled or disconnected), or undefined. */
  get unavailable(): string | undefined {
    return this.watch.error;
  }

  async recordStart(record: ExecutionRecord): Promise<void> {
    await this.call(() => Promise.all([this.keyv.set(record.id, record, this.retention.retentionMs), this.order.zAdd(this.orderKey, { score: 0, value: record.id }), this.owners.started(record.id)]));
    if (++this.startsSinceTrim >= this.trimEvery) {
      this.startsSinceTrim = 0;
      await this.call(() => this.trim());
    }
  }

  async recordFinish(record: ExecutionRecord): Promise<void> {
    await this.call(() => Promise.all([this.keyv.set(record.id, record, this.retention.retentionMs), this.owners.finished(record.id)]));
  }

  async get(id: string): Promise<ExecutionRecord | undefined> {
    return (await this.call(() => this.keyv.get(id))) ?? undefined;
  }

  /** One deadline for the whole listing (it may take several round trips). */
  list(query: ExecutionQuery): Promise<ExecutionPage> {
    return this.call(() => this.listNow(query));
  }

  private async listNow(query: ExecutionQuery): Promise<ExecutionPage> {
    const page = await pageByIds<ExecutionRecord>(this.order, {
      key: this.orderKey,
      before: query.before,
      limit: query.limit,
      read: (ids) => this.keyv.getMany(ids),
      matches: (record) => matches(record, query),
    });
    return { executions: page.items, next: page.next };
  }

  async close(): Promise<void> {
    clearInterval(this.beating);
    this.watch.close();
    await closeKeyv(this.keyv);
  }

  /** Beats now and every third of the heartbeat time-out; a failed beat is retried at the next. */
  private startBeating(log?: Logger): void {
    let last = "";
    const beat = () =>
      void this.call(() => this.owners.beat()).then(
        () => (last = ""),
        (error) => {
          const message = messageOf(error);
          if (message !== last) log?.warn(`Execution index heartbeat failed: ${message}`);
          last = message;
        },
      );
    beat();
    this.beating = setInterval(beat, this.owners.intervalMs);
    this.beating.unref();
    this.watch.start();
  }

  /** A Redis call under the deadline; any failure is a 503 naming the store. */
  private async call<T>(command: () => Promise<T>): Promise<T> {
    try {
      return await this.watch.call(command);
    } catch (error) {
      throw new HttpError(503, `The execution index (Redis at ${this.display}) is unreachable: ${messageOf(error)}`, { cause: error });
    }
  }

  /** Drops the oldest ids (and their records) beyond the cap; several workers trimming at once is harmless. */
  private async trim(): Promise<void> {
    const size = await this.order.zCard(this.orderKey);
    const excess = size - this.retention.maxRecords;
    if (excess <= 0) return;
    const oldest = await this.order.zRange(this.orderKey, "-", "+", { BY: "LEX", LIMIT: { offset: 0, count: excess } });
    if (oldest.length === 0) return;
    await Promise.all([this.order.zRem(this.orderKey, oldest), this.keyv.deleteMany(oldest)]);
  }
}
