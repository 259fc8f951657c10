/**
 * @module One shared store per configuration. Tools registered separately still resolve each
 * other's references when they were given the same store, so `initializeOrGetInitializedStore`
 * hands out the same instance for the same arguments (every argument set is cached, not only
 * the last one). A failed Redis connection is not cached, so a later call tries again.
 */
import { MemoryBackend } from "./memory-backend.js";
import { DEFAULT_TTL_SECONDS, ObjectStore } from "./object-store.js";
import type { Logger } from "svc/plugin";
import { connectRedisBackend } from "./redis-backend.js";

export const OBJECT_STORE_BACKENDS = ["memory", "redis"] as const;
export type ObjectStoreBackendName = (typeof OBJECT_STORE_BACKENDS)[number];

/** A missing or invalid configuration value. */
export class ValueError extends Error {
  override name = "ValueError";
}

export interface StoreOptions {
  /** `memory` (default) or `redis`. */
  backend?: string;
  /** Required for `redis`: `redis://host:6379`, `redis://user:password@host:6379`, `rediss://…`, or comma-separated nodes for a cluster (`redis://h1:6379,h2:6379,h3:6379`). */
  redisUrl?: string;
  /** The setting `redisUrl` came from, named in errors (default `redisUrl`). */
  redisUrlSetting?: string;
  /** Object lifetime in seconds (default 600); 0 keeps objects until deleted. */
  ttl?: number;
  /** Connection time-out for Redis in milliseconds (default 5000). */
  connectTimeoutMs?: number;
  /** Deadline of each Redis call after the connect, in milliseconds. */
  callTimeoutMs?: number;
  /** Where errors of an established Redis connection are reported. */
  logger?: Logger;
}

const stores = new Map<string, Promise<ObjectStore>>();

export function createObjectStore(options: StoreOptions = {}): Promise<ObjectStore> {
  const backend = options.backend ?? "memory";
  const ttl = options.ttl ?? DEFAULT_TTL_SECONDS;
  if (!Number.isFinite(ttl)) throw new ValueError(`Invalid object store TTL ${ttl}: give seconds as a number (0 for no expiry).`);
  if (backend === "memory") return Promise.resolve(new ObjectStore(new MemoryBackend(), ttl));
  if (backend === "redis") {
    const setting = options.redisUrlSetting ?? "redisUrl";
    if (!options.redisUrl) throw new ValueError(`'${setting}' is not set: provide a Redis URL to use the redis object store backend.`);
    const connecting = connectRedisBackend(options.redisUrl, { connectTimeoutMs: options.connectTimeoutMs, timeoutMs: options.callTimeoutMs, logger: options.logger, setting });
    return connecting.then((b) => new ObjectStore(b, ttl));
  }
  throw new ValueError(`Unknown object store backend '${backend}': use one of ${OBJECT_STORE_BACKENDS.join(", ")}.`);
}

export async function initializeOrGetInitializedStore(options: StoreOptions = {}): Promise<ObjectStore> {
  const key = JSON.stringify([options.backend ?? "memory", options.redisUrl ?? null, options.ttl ?? DEFAULT_TTL_SECONDS]);
  let store = stores.get(key);
  if (!store) {
    store = createObjectStore(options);
    stores.set(key, store);
    store.catch(() => stores.delete(key));
  }
  return store;
}

/** Closes every cached store (their Redis connections) and forgets them. */
export async function closeInitializedStores(): Promise<void> {
  const all = [...stores.values()];
  stores.clear();
  await Promise.allSettled(all.map(async (s) => (await s).close()));
}
