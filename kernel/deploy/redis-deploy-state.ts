/**
 * @module The deploy state of several hosts: the manifest in Redis. One hash holds every entry as
 * `<version>\n<json>`; a Lua script changes one name atomically (the 409/404 check, a version from
 * one counter, the write) and publishes `<name> <version>` in the same step, so racing deploys
 * cannot interleave and no change goes unannounced. Each instance reads the entry it was told
 * about, and rereads everything after a reconnect. While Redis is unreachable or stalled every call
 * throws a 503 within its deadline: changes are refused, never applied to one instance only (a
 * change that reaches a stalled Redis after its deadline is dropped by the script).
 */
import { connectRedisKeyv, closeKeyv, redisClientOf } from "../kv/redis-keyv.js";
import { parseRedisTarget } from "../kv/redis-target.js";
import type { Keyv } from "keyv";
import { randomUuid } from "../ids.js";
import { HttpError, messageOf } from "../errors.js";
import { DEFAULT_REDIS_TIMEOUT_MS, RedisTimeoutError, RedisWatch } from "../kv/redis-deadline.js";
import type { Logger } from "../logger.js";
import { deployErrors } from "./deploy-errors.js";
import type { ChangeListener, ClusterHealth, DeployState, ManifestEntry, ManifestWrite, PutResult, RemoveResult } from "./deploy-state.js";

/** One hash tag, so the scripts' keys share a slot on a Redis Cluster. */
const PREFIX = "svc-cluster:{deploy}";
const ENTRIES = `${PREFIX}:entries`;
const SEQUENCE = `${PREFIX}:seq`;
/** name → version, so periodic checks need not read every entry's files. */
const VERSIONS = `${PREFIX}:versions`;
/** A random id per Redis data set: a different or missing one means Redis lost the manifest. */
const EPOCH = `${PREFIX}:epoch`;
export const CHANGES_CHANNEL = `${PREFIX}:changes`;

/**
 * Shared by the scripts. A data set's first version is the Redis clock in milliseconds, so every
 * version given after Redis lost its data is greater than any given before (changes are far rarer
 * than one per millisecond); versions stay unique across restores and "greater" means "newer".
 * Numbers go through %.0f: Lua's own formatting would round a 13-digit number.
 */
const LIB = `
local function str(n) return string.format('%.0f', n) end
local function nowMs()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local function nextVersion()
  if redis.call('EXISTS', KEYS[2]) == 0 then redis.call('SET', KEYS[2], str(nowMs())) end
  return redis.call('INCR', KEYS[2])
end
`;

/** -1: the 409/404 conflict; -2: Redis ran it after the caller's deadline (the caller answered 503 already). */
const PUT = `${LIB}
if nowMs() > tonumber(ARGV[5]) then return -2 end
if ARGV[2] == 'create' and redis.call('HEXISTS', KEYS[1], ARGV[1]) == 1 then return -1 end
local v = nextVersion()
redis.call('HSET', KEYS[1], ARGV[1], str(v) .. '\\n' .. ARGV[3])
redis.call('HSET', KEYS[3], ARGV[1], str(v))
redis.call('PUBLISH', ARGV[4], ARGV[1] .. ' ' .. str(v))
return v`;

const REMOVE = `${LIB}
if nowMs() > tonumber(ARGV[3]) then return -2 end
if redis.call('HDEL', KEYS[1], ARGV[1]) == 0 then return -1 end
redis.call('HDEL', KEYS[3], ARGV[1])
local v = nextVersion()
redis.call('PUBLISH', ARGV[2], ARGV[1] .. ' ' .. str(v))
return v`;

/** Writes back (name, version, entry) triples an instance serves; per name the greater version wins. */
const RESTORE = `${LIB}
nextVersion()
local written = 0
for i = 2, #ARGV, 3 do
  local v = tonumber(ARGV[i + 1])
  if tonumber(redis.call('HGET', KEYS[3], ARGV[i]) or '-1') < v then
    redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1] .. '\\n' .. ARGV[i + 2])
    redis.call('HSET', KEYS[3], ARGV[i], ARGV[i + 1])
    if tonumber(redis.call('GET', KEYS[2])) < v then redis.call('SET', KEYS[2], ARGV[i + 1]) end
    redis.call('PUBLISH', ARGV[1], ARGV[i] .. ' ' .. ARGV[i + 1])
    written = written + 1
  end
end
return written`;

interface Commands {
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
  hGet(key: string, field: string): Promise<string | null | undefined>;
  get(key: string): Promise<string | null>;
  set(key: string, value: string, options: { condition: "NX" }): Promise<string | null>;
  hGetAll(key: string): Promise<Record<string, string>>;
  time?(): Promise<unknown>;
  subscribe(channel: string, listener: (message: string) => void): Promise<void>;
  unsubscribe(channel?: string): Promise<void>;
  on(event: string, listener: (...args: unknown[]) => void): unknown;
  readonly isReady: boolean;
}

export interface RedisDeployStateOptions {
  url: string;
  instance: string;
  sharedDisk?: boolean;
  logger?: Logger;
  connectTimeoutMs?: number;
  /** Deadline of every Redis call (`SERVICE_REDIS_TIMEOUT`); a change Redis runs later is not applied. */
  timeoutMs?: number;
}

export class RedisDeployState implements DeployState {
  readonly shared = true;
  /** `--workers N` with Redis: the workers of one host share its pipelines directory. */
  readonly sharedDisk: boolean;
  private lastError?: string;
  private epoch = "";
  /** The loss was seen but the write-back has not succeeded yet (it is retried on the next check). */
  private restorePending = false;
  /** Redis clock minus ours (ms), to give scripts a deadline on the Redis clock. */
  private clockOffset = 0;
  private listener?: ChangeListener;
  private readonly watch: RedisWatch;

  private constructor(
    readonly instance: string,
    private readonly display: string,
    private readonly commandsKeyv: Keyv,
    private readonly eventsKeyv: Keyv,
    sharedDisk: boolean,
    private readonly timeoutMs: number,
    private readonly log?: Logger,
  ) {
    this.sharedDisk = sharedDisk;
    this.watch = new RedisWatch(() => this.commands, timeoutMs, (error) => this.stallChanged(error));
  }

  /** Connects twice (commands, and a subscriber); fails within the connect deadline with a clear message. */
  static async connect(options: RedisDeployStateOptions): Promise<RedisDeployState> {
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
    const timeoutMs = options.timeoutMs ?? DEFAULT_REDIS_TIMEOUT_MS;
    const state = new RedisDeployState(options.instance, display, commands, events, options.sharedDisk ?? false, timeoutMs, options.logger);
    try {
      await state.measureClock();
      await state.checkEpoch(true);
      await state.subscribe();
    } catch (error) {
      await state.close();
      throw error;
    }
    state.watch.start();
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
    const args = [entry.name, mode, JSON.stringify(entry), CHANGES_CHANNEL, this.deadline()];
    const version = Number(await this.call(() => this.commands.eval(PUT, { keys: [ENTRIES, SEQUENCE, VERSIONS], arguments: args })));
    this.refuseLate(version);
    return version === -1 ? { conflict: "exists" } : { version };
  }

  async remove(name: string): Promise<RemoveResult> {
    const args = [name, CHANGES_CHANNEL, this.deadline()];
    const version = Number(await this.call(() => this.commands.eval(REMOVE, { keys: [ENTRIES, SEQUENCE, VERSIONS], arguments: args })));
    this.refuseLate(version);
    return version === -1 ? { conflict: "missing" } : { version };
  }

  /** Compares the epoch key with the one seen before; a missing or new one means Redis lost its data. */
  async lostData(): Promise<boolean> {
    if (await this.checkEpoch(false)) this.restorePending = true;
    return this.restorePending;
  }

  /** Writes back what this process serves; per name the greater (newer) version wins, announced to all. */
  async restore(entries: readonly ManifestEntry[]): Promise<number> {
    const args = [CHANGES_CHANNEL, ...entries.flatMap(({ version, ...write }) => [write.name, String(version), JSON.stringify(write)])];
    const written = Number(await this.call(() => this.commands.eval(RESTORE, { keys: [ENTRIES, SEQUENCE, VERSIONS], arguments: args })));
    this.restorePending = false;
    return written;
  }

  follow(listener: ChangeListener): void {
    this.listener = listener;
  }

  health(): ClusterHealth {
    const stalled = this.watch.error;
    const connected = this.commands.isReady && this.events.isReady && stalled === undefined;
    const error = stalled ?? this.lastError;
    return { mode: "redis", instance: this.instance, connected, store: this.display, ...(connected || !error ? {} : { error }) };
  }

  async close(): Promise<void> {
    this.listener = undefined;
    this.watch.close();
    await Promise.all([closeKeyv(this.commandsKeyv), closeKeyv(this.eventsKeyv)]);
  }

  /** A fresh data set gets a new random epoch, so every instance that knew the old one sees the loss. */
  private async checkEpoch(first: boolean): Promise<boolean> {
    return this.call(async () => {
      const fresh = randomUuid();
      if (await this.commands.set(EPOCH, fresh, { condition: "NX" })) {
        this.epoch = fresh;
        return !first;
      }
      const current = await this.commands.get(EPOCH);
      if (current === null || current === this.epoch) return false;
      this.epoch = current;
      return !first;
    });
  }

  private async measureClock(): Promise<void> {
    const before = Date.now();
    if (typeof this.commands.time !== "function") return; // a cluster client: keyless commands go elsewhere
    const time = (await this.call(() => this.commands.time!())) as unknown;
    const after = Date.now();
    const redisMs = time instanceof Date ? time.getTime() : Array.isArray(time) ? Number(time[0]) * 1000 + Math.floor(Number(time[1]) / 1000) : Number.NaN;
    if (Number.isFinite(redisMs)) this.clockOffset = redisMs - Math.round((before + after) / 2);
  }

  /** The moment (Redis clock, ms) after which a change sent now must not be applied any more. */
  private deadline(): string {
    return String(Date.now() + this.clockOffset + this.timeoutMs);
  }

  private refuseLate(version: number): void {
    if (version === -2) throw deployErrors.clusterUnavailable(this.display, new RedisTimeoutError(this.timeoutMs));
  }

  private stallChanged(error: string | undefined): void {
    if (error) this.log?.warn(`Deploy state: Redis at ${this.display}: ${error}`);
    else {
      this.log?.info(`Deploy state: Redis at ${this.display} answers again`);
      // Messages sent while it stalled may be lost: check everything.
      void this.listener?.(undefined);
    }
  }

  /** Messages are `<name> <version>`; after a reconnect (messages may be lost) everything is reread. */
  private async subscribe(): Promise<void> {
    // The first connect already happened: every later `ready` is a reconnect.
    this.events.on("ready", () => void this.listener?.(undefined));
    this.commands.on("ready", () => {
      this.lastError = undefined;
      void this.measureClock().catch(() => undefined);
    });
    await this.call(() =>
      this.events.subscribe(CHANGES_CHANNEL, (message) => {
        const name = message.slice(0, message.lastIndexOf(" "));
        void this.listener?.(name === "*" ? undefined : name);
      }),
    );
  }

  private async call<T>(command: () => Promise<T>): Promise<T> {
    try {
      return await this.watch.call(command);
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
