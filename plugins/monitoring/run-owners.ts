/**
 * @module Which process runs what, for the Redis execution index. A process killed with -9 (or a
 * host that vanished) never writes its runs' final records, so they would stay `running` for the
 * whole retention. Each process therefore keeps, in Redis, a heartbeat (a sorted set of owners
 * scored by the Redis clock) and the set of its runs still running. On every beat it also looks
 * for owners whose heartbeat is older than the time-out: one survivor claims each (atomically) and
 * marks that owner's running runs failed. Scores use the Redis clock, so host clocks may differ.
 */
import { randomUUID } from "node:crypto";
import type { ExecutionRecord, Keyv, Logger } from "svc/plugin";
import { isoTime } from "./execution-id.js";

export interface RunOwnersOptions {
  /** This process's name (the instance name); a random suffix tells restarts apart. */
  instance: string;
  /** An owner whose last heartbeat is older than this is dead (ms). */
  deadAfterMs: number;
  /** How long the set of running runs may outlive its owner's last heartbeat (ms): the retention. */
  retentionMs: number;
}

interface OwnerCommands {
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
  sAdd(key: string, member: string): Promise<number>;
  sRem(key: string, member: string): Promise<number>;
  sMembers(key: string): Promise<string[]>;
  del(key: string): Promise<number>;
}

const NOW = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)`;

/** Beats: the owner's score becomes now; its set of running runs lives on for the retention. */
const BEAT = `${NOW}
redis.call('ZADD', KEYS[1], string.format('%.0f', now), ARGV[1])
redis.call('PEXPIRE', KEYS[2], ARGV[2])
return 1`;

/** Takes the owners silent for longer than ARGV[1] ms out of the set: whoever removes one reaps it. */
const CLAIM = `${NOW}
local dead = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', string.format('%.0f', now - tonumber(ARGV[1])), 'LIMIT', 0, 20)
for _, owner in ipairs(dead) do redis.call('ZREM', KEYS[1], owner) end
return dead`;

export class RunOwners {
  /** `<instance>/<random>`: unique per process, readable in the failure message. */
  readonly owner: string;
  private readonly aliveKey: string;

  constructor(
    private readonly keyv: Keyv<ExecutionRecord>,
    private readonly commands: OwnerCommands,
    private readonly namespace: string,
    private readonly options: RunOwnersOptions,
    private readonly log?: Logger,
  ) {
    this.owner = `${options.instance}/${randomUUID().slice(0, 8)}`;
    this.aliveKey = `${namespace}:owners`;
  }

  /** The beat interval: a third of the time-out, so two missed beats are not yet death. */
  get intervalMs(): number {
    return Math.max(100, Math.floor(this.options.deadAfterMs / 3));
  }

  started(id: string): Promise<unknown> {
    return this.commands.sAdd(this.runningKey(this.owner), id);
  }

  finished(id: string): Promise<unknown> {
    return this.commands.sRem(this.runningKey(this.owner), id);
  }

  /** One beat, then the reaping of dead owners; returns how many runs were marked failed. */
  async beat(): Promise<number> {
    await this.commands.eval(BEAT, { keys: [this.aliveKey, this.runningKey(this.owner)], arguments: [this.owner, String(this.options.retentionMs)] });
    const dead = (await this.commands.eval(CLAIM, { keys: [this.aliveKey], arguments: [String(this.options.deadAfterMs)] })) as string[];
    let failed = 0;
    for (const owner of dead) if (owner !== this.owner) failed += await this.reap(owner);
    return failed;
  }

  private async reap(owner: string): Promise<number> {
    const key = this.runningKey(owner);
    const ids = await this.commands.sMembers(key);
    const instance = owner.slice(0, owner.lastIndexOf("/"));
    const seconds = Math.round(this.options.deadAfterMs / 1000);
    const error = `The instance running it (${instance}) stopped sending heartbeats for over ${seconds} s (killed or frozen?): the run's outcome is unknown.`;
    let failed = 0;
    for (const id of ids) {
      const record = await this.keyv.get(id);
      if (record?.status !== "running") continue;
      const endedMs = Date.now();
      const startedMs = Date.parse(record.started_at);
      await this.keyv.set(id, { ...record, status: "failed", ended_at: isoTime(endedMs), duration_ms: Math.max(0, endedMs - startedMs), error }, this.options.retentionMs);
      failed++;
    }
    await this.commands.del(key);
    if (ids.length > 0) this.log?.warn(`Execution index: instance ${instance} stopped sending heartbeats; marked ${failed} of its running executions failed`);
    return failed;
  }

  private runningKey(owner: string): string {
    return `${this.namespace}:running:${owner}`;
  }
}
