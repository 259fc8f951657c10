/**
 * @module The Redis backend: a keyv over Redis (the kernel's `connectRedisKeyv`: our own client, a
 * bounded first connect), for stores shared by several processes and surviving restarts. Ids are
 * `obj_<uuid>`, stored under `svc-objects::obj_<uuid>`; Redis expires keys itself (keyv sets `PX`).
 * Accepts `redis://`, `redis://user:password@…`, `rediss://…` (TLS) and comma-separated nodes
 * (a cluster: `redis://h1:6379,h2:6379,h3:6379`); a bad URL, a refused connection, a wrong
 * password or a time-out fails the connect promptly, naming the setting the URL came from.
 */
import { randomUUID } from "node:crypto";
import { closeKeyv, connectRedisKeyv, type Keyv, type Logger, type ObjectStoreBackend } from "svc";

export const REDIS_NAMESPACE = "svc-objects";

export class RedisBackend implements ObjectStoreBackend {
  readonly kind = "redis";

  constructor(
    private readonly keyv: Keyv<string>,
    private readonly disconnect: () => Promise<void>,
  ) {}

  generateId(): string {
    return `obj_${randomUUID()}`;
  }

  async set(id: string, value: string, ttlSeconds?: number): Promise<void> {
    await this.keyv.set(id, value, ttlSeconds ? ttlSeconds * 1000 : undefined);
  }

  async get(id: string): Promise<string | undefined> {
    return (await this.keyv.get(id)) ?? undefined;
  }

  delete(id: string): Promise<boolean> {
    return this.keyv.delete(id);
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
}

export async function connectRedisBackend(url: string, options: RedisConnectOptions = {}): Promise<RedisBackend> {
  const keyv = await connectRedisKeyv<string>({
    url,
    namespace: REDIS_NAMESPACE,
    connectTimeoutMs: options.connectTimeoutMs,
    logger: options.logger,
    setting: options.setting ?? "redisUrl",
  });
  return new RedisBackend(keyv, () => closeKeyv(keyv));
}
