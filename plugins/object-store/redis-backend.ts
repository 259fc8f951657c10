/**
 * @module The Redis backend: a keyv over Redis, for stores shared by several processes and
 * surviving restarts. Ids are `obj_<uuid>`; Redis expires keys itself (keyv sets `PX`).
 */
import { randomUUID } from "node:crypto";
import type { Keyv } from "keyv";
import type { ObjectStoreBackend } from "svc";

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
  connectTimeoutMs?: number;
}

export async function connectRedisBackend(url: string, _options: RedisConnectOptions = {}): Promise<RedisBackend> {
  throw new Error(`The redis backend is not available yet (${url.replace(/\/\/[^@/]*@/, "//***@")})`);
}
