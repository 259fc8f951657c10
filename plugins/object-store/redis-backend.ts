/**
 * @module The Redis backend: a keyv over Redis (the kernel's `connectRedisKeyv`: our own client, a
 * bounded first connect), for stores shared by several processes and surviving restarts. Ids are
 * `obj_<uuid>`, stored under `svc-objects::obj_<uuid>`; Redis expires keys itself (keyv sets `PX`).
 * Accepts `redis://`, `redis://user:password@…`, `rediss://…` (TLS) and comma-separated nodes
 * (a cluster: `redis://h1:6379,h2:6379,h3:6379`); a bad URL, a refused connection, a wrong
 * password or a time-out fails the connect promptly, naming the setting the URL came from. Every
 * call has a deadline (`SERVICE_REDIS_TIMEOUT`): a paused Redis fails a tool call, never hangs it.
 */
import { randomUUID } from "node:crypto";
import { closeKeyv, connectRedisKeyv, DEFAULT_REDIS_TIMEOUT_MS, withDeadline, type Keyv, type Logger, type ObjectStoreBackend } from "svc/plugin";

export const REDIS_NAMESPACE = "svc-objects";

export class RedisBackend implements ObjectStoreBackend {
  readonly kind = "redis";

  constructor(
    private readonly keyv: Keyv<string>,
    private readonly disconnect: () => Promise<void>,
    private readonly timeoutMs = DEFAULT_REDIS_TIMEOUT_MS,
  ) {}

  generateId(): string {
    return `obj_${randomUUID()}`;
  }

  async set(id: string, value: string, ttlSeconds?: number): Promise<void> {
    await withDeadline(this.keyv.set(id, value, ttlSeconds ? ttlSeconds * 1000 : undefined), this.timeoutMs);
  }

  async get(id: string): Promise<string | undefined> {
    return (await withDeadline(this.keyv.get(id), this.timeoutMs)) ?? undefined;
  }

  delete(id: string): Promise<boolean> {
    return withDeadline(this.keyv.delete(id), this.timeoutMs);
  }

  close(): Promise<void> {
    return this.disconnect();
  }
}

export interface RedisConnectOptions {
  /** Deadline of the first connect in milliseconds (default 5000). */
  connectTimeoutMs?: number;
  /** Where errors of an established connection are reported. */
  logger?: Logger;
  /** The setting the URL came from, named in errors (default `redisUrl`). */
  setting?: string;
  /** Deadline of every later call in milliseconds (default `SERVICE_REDIS_TIMEOUT`'s default, 2000). */
  timeoutMs?: number;
}

export async function connectRedisBackend(url: string, options: RedisConnectOptions = {}): Promise<RedisBackend> {
  const keyv = await connectRedisKeyv<string>({
    url,
    namespace: REDIS_NAMESPACE,
    connectTimeoutMs: options.connectTimeoutMs,
    logger: options.logger,
    setting: options.setting ?? "redisUrl",
  });
  return new RedisBackend(keyv, () => closeKeyv(keyv), options.timeoutMs);
}
