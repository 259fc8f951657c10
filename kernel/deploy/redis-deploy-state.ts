/**
 * @module The deploy state of several hosts: the manifest in Redis. One hash holds every entry as
 * `<version>\n<json>`; a Lua script changes one name atomically (the 409/404 check, a version from
 * one counter, the write) and publishes `<name> <version>` in the same step, so racing deploys
 * cannot interleave and no change goes unannounced. Each instance reads the entry it was told
 * about, and rereads everything after a reconnect. While Redis is unreachable every call throws a
 * 503: changes are refused, never applied to one instance only.
 */
import { connectRedisKeyv, closeKeyv, redisClientOf } from "../kv/redis-keyv.js";
import { parseRedisTarget } from "../kv/redis-target.js";
import type { Keyv } from "keyv";
import { randomUUID } from "node:crypto";
import { HttpError, messageOf } from "../errors.js";
import type { Logger } from "../logger.js";
import { deployErrors } from "./deploy-errors.js";
import type { ChangeListener, ClusterHealth, DeployState, ManifestEntry, ManifestWrite, PutResult, RemoveResult } from "./deploy-state.js";

/** One hash tag, so the scripts' keys share a slot on a Redis Cluster. */
const PREFIX = "svc-cluster:{deploy}";
const ENTRIES = `${PREFIX}:entries`;
const SEQUENCE = `${PREFIX}:seq`;
/** name → version, so periodic checks need not read every entry's files. */
const VERSIONS = `${PREFIX}:versions`;
/** Written once per Redis data set: a different or missing one means Redis lost the manifest. */
const EPOCH = `${PREFIX}:epoch`;
export const CHANGES_CHANNEL = `${PREFIX}:changes`;

const PUT = `
if ARGV[2] == 'create' and redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then return -1 end
local v = redis.call('INCR', KEYS[2])
redis.call('HSET', KEYS[1], ARGV[1], v .. '\\n' .. ARGV[3])
redis.call('HSET', KEYS[3], ARGV[1], v)
redis.call('PUBLISH', ARGV[4], ARGV[1] .. ' ' .. v)
return v`;

const REMOVE = `
if redis.call('HDEL', KEYS[1], ARGV[1]) == 0 then return -1 end
redis.call('HDEL', KEYS[3], ARGV[1])
local v = redis.call('INCR', KEYS[2])
redis.call('PUBLISH', ARGV[2], ARGV[1] .. ' ' .. v)
return v`;

const RESTORE = `
local current = tonumber(redis.call('GET', KEYS[2]) or '0')
if current < tonumber(ARGV[1]) then redis.call('SET', KEYS[2], ARGV[1]) end
for i = 2, #ARGV, 2 do
  if redis.call('HEXISTS', KEYS[1], ARGV[i]) == 0 then
    local v = redis.call('INCR', KEYS[2])
    redis.call('HSET', KEYS[1], ARGV[i], v .. '\\n' .. ARGV[i + 1])
    redis.call('HSET', KEYS[3], ARGV[i], v)
  end
end
return 1`;

interface Commands {
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
  hGet(key: string, field: string): Promise<string | null | undefined>;
  get(key: string): Promise<string | null>;
  set(key: string, value: string, options: { condition: "NX" }): Promise<string | null>;
  hGetAll(key: string): Promise<Record<string, string>>;
  subscribe(channel: string, listener: (message: string) => void): Promise<void>;
  unsubscribe(channel?: string): Promise<void>;
  on(event: string, listener: (...args: unknown[]) => void): unknown;
  readonly isReady: boolean;
}

export class RedisDeployState implements DeployState {
  readonly shared = true;
  /** `--workers N` with Redis: the workers of one host share its pipelines directory. */
  readonly sharedDisk: boolean;
  private lastError?: string;
  private epoch: string = randomUUID();
  private listener?: ChangeListener;

  private constructor(
    readonly instance: string,
    private readonly display: string,
    private readonly commandsKeyv: Keyv,
    private readonly eventsKeyv: Keyv,
    sharedDisk: boolean,
  ) {
    this.sharedDisk = sharedDisk;
  }

  /** Connects twice (commands, and a subscriber); fails within the connect deadline with a clear message. */
  static async connect(options: { url: string; instance: string; sharedDisk?: boolean; logger?: Logger; connectTimeoutMs?: number }): Promise<RedisDeployState> {
    const display = parseRedisTarget(options.url).display;
    const connect = () => connectRedisKeyv({ url: options.url, namespace: PREFIX, logger: options.logger, connectTimeoutMs: options.connectTimeoutMs });
    const commands = await connect();
    let events: Keyv;
    try {
      events = await connect();
    } catch (error) {
      await closeKeyv(commands);
      throw error;
    }
    const state = new RedisDeployState(options.instance, display, commands, events, options.sharedDisk ?? false);
    await state.checkEpoch(true);
    await state.subscribe();
    return state;
  }

  private get commands(): Commands {
    return redisClientOf(this.commandsKeyv) as unknown as Commands;
  }

  private get events(): Commands {
    return redisClientOf(this.eventsKeyv) as unknown as Commands;
  }

  async get(name: string): Promise<ManifestEntry | undefined> {
    const raw = await this.call(() => this.commands.hGet(ENTRIES, name));
    return raw ? decode(raw) : undefined;
  }

  async list(): Promise<ManifestEntry[]> {
    const all = await this.call(() => this.commands.hGetAll(ENTRIES));
    return Object.values(all).map(decode);
  }

  async versions(): Promise<Map<string, number>> {
    const all = await this.call(() => this.commands.hGetAll(VERSIONS));
    return new Map(Object.entries(all).map(([name, version]) => [name, Number(version)]));
  }

  async put(entry: ManifestWrite, mode: "create" | "replace"): Promise<PutResult> {
    const version = Number(await this.call(() => this.commands.eval(PUT, { keys: [ENTRIES, SEQUENCE, VERSIONS], arguments: [entry.name, mode, JSON.stringify(entry), CHANGES_CHANNEL] })));
    return version < 0 ? { conflict: "exists" } : { version };
  }

  async remove(name: string): Promise<RemoveResult> {
    const version = Number(await this.call(() => this.commands.eval(REMOVE, { keys: [ENTRIES, SEQUENCE, VERSIONS], arguments: [name, CHANGES_CHANNEL] })));
    return version < 0 ? { conflict: "missing" } : { version };
  }

  /** Compares the epoch key with the one seen at connect; a missing or new one means Redis lost its data. */
  async lostData(): Promise<boolean> {
    return this.checkEpoch(false);
  }

  async restore(entries: readonly ManifestWrite[], minVersion: number): Promise<void> {
    const args = [String(minVersion), ...entries.flatMap((e) => [e.name, JSON.stringify(e)])];
    await this.call(() => this.commands.eval(RESTORE, { keys: [ENTRIES, SEQUENCE, VERSIONS], arguments: args }));
    await this.call(() => this.commands.eval(`return redis.call('PUBLISH', ARGV[1], '* 0')`, { keys: [], arguments: [CHANGES_CHANNEL] }));
  }

  follow(listener: ChangeListener): void {
    this.listener = listener;
  }

  health(): ClusterHealth {
    const connected = this.commands.isReady && this.events.isReady;
    return { mode: "redis", instance: this.instance, connected, store: this.display, ...(connected || !this.lastError ? {} : { error: this.lastError }) };
  }

  async close(): Promise<void> {
    this.listener = undefined;
    await Promise.all([closeKeyv(this.commandsKeyv), closeKeyv(this.eventsKeyv)]);
  }

  private async checkEpoch(first: boolean): Promise<boolean> {
    return this.call(async () => {
      if (await this.commands.set(EPOCH, this.epoch, { condition: "NX" })) return !first;
      const current = await this.commands.get(EPOCH);
      if (current === null || current === this.epoch) return false;
      this.epoch = current;
      return !first;
    });
  }

  /** Messages are `<name> <version>`; after a reconnect (messages may be lost) everything is reread. */
  private async subscribe(): Promise<void> {
    // The first connect already happened: every later `ready` is a reconnect.
    this.events.on("ready", () => void this.listener?.(undefined));
    this.commands.on("ready", () => (this.lastError = undefined));
    await this.events.subscribe(CHANGES_CHANNEL, (message) => {
      const name = message.slice(0, message.lastIndexOf(" "));
      void this.listener?.(name === "*" ? undefined : name);
    });
  }

  private async call<T>(command: () => Promise<T>): Promise<T> {
    try {
      return await command();
    } catch (error) {
      if (error instanceof HttpError) throw error;
      this.lastError = messageOf(error);
      throw deployErrors.clusterUnavailable(this.display, error);
    }
  }
}

function decode(raw: string): ManifestEntry {
  const cut = raw.indexOf("\n");
  return { ...(JSON.parse(raw.slice(cut + 1)) as ManifestWrite), version: Number(raw.slice(0, cut)) };
}
