/**
 * @module A Keyv store over Redis whose node-redis client we create and connect ourselves, because
 * letting @keyv/redis do it hangs forever when Redis is down or the password is wrong (reconnect
 * loop, keyv #1470/#1336/#1798/#1750). Here the first connect either succeeds within a deadline or
 * fails with a clear error; only an established connection reconnects (with capped back-off), and
 * commands fail fast while it is down instead of queuing.
 *
 * The Redis client (~15 MB resident) is imported on the first connect: most services never use it.
 */
import type { ConnectionOptions } from "node:tls";
import type { Keyv, RedisClientConnectionType } from "@keyv/redis";
import { KernelError, kernelErrors, messageOf } from "../errors.js";
import type { Logger } from "../logger.js";
import { parseRedisTarget, type RedisTarget } from "./redis-target.js";

export interface RedisKeyvOptions {
  /** `redis://[user:password@]host[:port][/db]`, `rediss://…` for TLS, or comma-separated nodes for a cluster (`redis://h1:6379,h2:6379`). */
  url: string;
  /** The setting `url` came from (`OBJECT_STORE_REDIS_URL`), named in every error. */
  setting?: string;
  /** TLS options for `rediss://` (a private CA as `ca`, client certificates); `NODE_EXTRA_CA_CERTS` works too. */
  tls?: ConnectionOptions;
  /** Keys are stored as `<namespace>::<key>` (one prefix: Keyv's own prefixing is off). */
  namespace: string;
  /** Deadline for the first connect, handshake and PING together. Default 5000. */
  connectTimeoutMs?: number;
  /** Where errors of an established connection are reported (node-redis throws unhandled `error` events). */
  logger?: Logger;
}

export const DEFAULT_REDIS_CONNECT_TIMEOUT_MS = 5000;
const MAX_RECONNECT_DELAY_MS = 2000;
const CLOSE_GRACE_MS = 1000;

type RedisModule = typeof import("@keyv/redis");
let redis: RedisModule | undefined;
const loadRedis = async (): Promise<RedisModule> => (redis ??= await import("@keyv/redis"));

/** Connects (or throws `KERNEL_ERR_KV_CONNECT`) and returns a Keyv that throws on store errors. */
export async function connectRedisKeyv<T = unknown>(options: RedisKeyvOptions): Promise<Keyv<T>> {
  const target = parseRedisTarget(options.url, options.setting);
  const timeoutMs = options.connectTimeoutMs ?? DEFAULT_REDIS_CONNECT_TIMEOUT_MS;
  const state = { connected: false };
  const { default: KeyvRedis, Keyv } = await loadRedis();
  const client = createRedisClient(redis!, target, timeoutMs, state, options.tls);
  const errors = watchErrors(client, target, options.logger, state);
  await connectWithin(client, target, timeoutMs, errors);
  state.connected = true;
  const store = new KeyvRedis<T>(client, { namespace: options.namespace, throwOnErrors: true, throwOnConnectError: true });
  store.on("error", () => {}); // already logged by watchErrors; Hookified would otherwise stay silent anyway
  const keyv = new Keyv<T>(store, { namespace: options.namespace, useKeyPrefix: false });
  keyv.throwOnErrors = true;
  return keyv;
}

/** The node-redis client under a Keyv made by `connectRedisKeyv`, for commands Keyv lacks (sorted sets). */
export function redisClientOf(keyv: Keyv<any>): RedisClientConnectionType | undefined {
  return redis && keyv.store instanceof redis.default ? keyv.store.client : undefined;
}

/** Closes any Keyv; a Redis one gets a short grace period, then its socket is destroyed. */
export async function closeKeyv(keyv: Keyv<any>): Promise<void> {
  const store = keyv.store;
  if (!redis || !(store instanceof redis.default)) return void (await keyv.disconnect());
  const client = store.client;
  if (!client.isOpen) return;
  let timer: NodeJS.Timeout | undefined;
  const graceful = client.close().then(
    () => true,
    () => false,
  );
  const expired = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), CLOSE_GRACE_MS)));
  const closed = await Promise.race([graceful, expired]);
  clearTimeout(timer);
  if (!closed && client.isOpen) client.destroy();
}

function createRedisClient({ createClient, createCluster }: RedisModule, target: RedisTarget, timeoutMs: number, state: { connected: boolean }, tls?: ConnectionOptions): RedisClientConnectionType {
  // No retries until the first connect succeeded; afterwards back off up to 2 s and keep trying.
  const reconnectStrategy = (retries: number): number | false =>
    state.connected ? Math.min(50 * 2 ** Math.min(retries, 10), MAX_RECONNECT_DELAY_MS) : false;
  const socket = { connectTimeout: timeoutMs, reconnectStrategy, ...(target.tls ? { ...tls, tls: true as const } : {}) };
  const auth = { username: target.username, password: target.password };
  if (!target.cluster) {
    const { host, port } = target.nodes[0]!;
    return createClient({ ...auth, database: target.database, socket: { ...socket, host, port }, disableOfflineQueue: true }) as RedisClientConnectionType;
  }
  // Root nodes are only asked for the slot map; every node (those found too) gets `defaults`.
  return createCluster({
    rootNodes: target.nodes.map(({ host, port }) => ({ socket: { host, port } })),
    defaults: { ...auth, socket, disableOfflineQueue: true },
  }) as unknown as RedisClientConnectionType;
}

/** Keeps the last error for the connect message and logs later ones, once per distinct message. */
function watchErrors(client: RedisClientConnectionType, target: RedisTarget, logger: Logger | undefined, state: { connected: boolean }) {
  const seen = { last: undefined as unknown, logged: "" };
  client.on("error", (error: unknown) => {
    seen.last = error;
    if (!state.connected) return;
    const message = messageOf(error);
    if (message === seen.logged) return;
    seen.logged = message;
    logger?.warn(`Redis at ${where(target)}: ${message}`);
  });
  client.on("ready", () => {
    if (state.connected && seen.logged) logger?.info(`Redis at ${where(target)}: connected again`);
    seen.logged = "";
  });
  return seen;
}

async function connectWithin(client: RedisClientConnectionType, target: RedisTarget, timeoutMs: number, errors: { last: unknown }) {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(kernelErrors.kvConnect(where(target), `no answer within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    // PING proves the credentials: without a password node-redis sends no AUTH and would "connect".
    await Promise.race([client.connect().then(() => ping(client, target)), deadline]);
  } catch (error) {
    if (client.isOpen) client.destroy();
    if (error instanceof KernelError) throw error;
    // A cluster reports "no root node available"; the cause is the last error a node gave.
    const cause = /root nodes are unavailable/i.test(messageOf(error)) && errors.last ? errors.last : (error ?? errors.last);
    throw kernelErrors.kvConnect(where(target), describe(cause), cause);
  } finally {
    clearTimeout(timer);
  }
}

/** A cluster routes PING to any node (it has no key); a single client just pings. */
function ping(client: RedisClientConnectionType, target: RedisTarget): Promise<unknown> {
  if (!target.cluster) return client.ping();
  const cluster = client as unknown as { sendCommand(key: undefined, readonly: boolean, args: string[]): Promise<unknown> };
  return cluster.sendCommand(undefined, true, ["PING"]);
}

/** `host:port`, followed by the setting it came from when known. */
function where(target: RedisTarget): string {
  return target.setting ? `${target.display} (${target.setting})` : target.display;
}

/** A short reason for the common failures; anything else keeps its own message. */
function describe(error: unknown): string {
  const inner = (error as { errors?: unknown[] })?.errors?.[0] ?? error;
  const code = (inner as { code?: string })?.code ?? (error as { code?: string })?.code;
  const message = messageOf(error);
  if (code === "ECONNREFUSED") return "connection refused (is Redis running on that port?)";
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") return "host not found";
  if (/WRONGPASS|NOAUTH|invalid password|invalid username-password/i.test(message)) return `the server rejected the credentials (${message})`;
  if (/cluster support disabled/i.test(message)) return "the server is not a cluster node: a comma-separated list means a cluster; give one URL for a single server";
  if (/certificate|self[- ]signed|SSL|TLS/i.test(message) || /^(ERR_SSL|ERR_TLS|DEPTH_ZERO|UNABLE_TO|CERT_)/.test(String(code ?? ""))) {
    return `TLS failed (${message}); for a private CA set NODE_EXTRA_CA_CERTS to its certificate file`;
  }
  if ((error as Error)?.name === "ConnectionTimeoutError") return "connection timed out";
  return message || String(code ?? "unknown error");
}
