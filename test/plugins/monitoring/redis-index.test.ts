import { suite } from "uvu";
import * as assert from "uvu/assert";
import { closeKeyv, connectRedisKeyv, redisClientOf } from "svc/plugin";
import { RedisExecutionIndex } from "../../../plugins/monitoring/redis-index.js";
import { redisSkipReason, startRedis, type TestRedis } from "../../helpers/redis.js";
import { executionIndexContract, record } from "./index-contract.js";

const skip = redisSkipReason();
let redis: TestRedis | undefined;
let namespaces = 0;
const retention = { maxRecords: 10, retentionMs: 60_000 };

const contract = suite("redis execution index: contract");
contract.before(async () => {
  redis = await startRedis({ password: "pw" });
});
contract.after(async () => {
  await redis?.stop();
});
// Each index gets its own namespace on the one server, so tests do not see each other's records.
executionIndexContract(contract, (retention) => RedisExecutionIndex.connect({ url: redis!.url, retention, namespace: `contract-${++namespaces}` }));

const own = suite("redis execution index");
own.before(async () => {
  redis = await startRedis();
});
own.after(async () => {
  await redis?.stop();
});

/** A raw view of the server, to see what the index wrote. */
async function probe<T>(fn: (command: (args: string[]) => Promise<unknown>, keyv: Awaited<ReturnType<typeof connectRedisKeyv>>) => Promise<T>, namespace = "probe"): Promise<T> {
  const keyv = await connectRedisKeyv({ url: redis!.url, namespace });
  const client = redisClientOf(keyv) as unknown as { sendCommand(args: string[]): Promise<unknown> };
  try {
    return await fn((args) => client.sendCommand(args), keyv);
  } finally {
    await closeKeyv(keyv);
  }
}

own("records live under one prefix, <namespace>::<id> with the retention as TTL; the order is <namespace>:order; run owners beside", async () => {
  const index = await RedisExecutionIndex.connect({ url: redis!.url, retention, namespace: "keys", instance: "box" });
  try {
    const r = record();
    await index.recordStart(r);
    await probe(async (command) => {
      const keys = ((await command(["KEYS", "keys*"])) as string[]).sort();
      const running = keys.find((k) => k.startsWith("keys:running:box/"));
      assert.ok(running, `the process's running set: ${keys}`);
      assert.equal(keys, [`keys:order`, `keys::${r.id}`, `keys:owners`, running].sort());
      assert.equal(await command(["SMEMBERS", running]), [r.id]);
      const ttl = Number(await command(["PTTL", `keys::${r.id}`]));
      assert.ok(ttl > 0 && ttl <= 60_000, `PTTL ${ttl}`);
    });
  } finally {
    await index.close();
  }
});

own("ids whose record is gone are skipped by a listing and removed from the order", async () => {
  const index = await RedisExecutionIndex.connect({ url: redis!.url, retention, namespace: "gone" });
  try {
    const a = record();
    const b = record();
    await index.recordStart(a);
    await index.recordStart(b);
    await probe((_, keyv) => keyv.delete(b.id), "gone");
    assert.equal((await index.list({ limit: 10 })).executions.map((r) => r.id), [a.id]);
    const members = await probe(async (command) => {
      for (let i = 0; i < 50; i++) {
        const m = (await command(["ZRANGE", "gone:order", "0", "-1"])) as string[];
        if (m.length === 1) return m;
        await new Promise((r) => setTimeout(r, 20));
      }
      return (await command(["ZRANGE", "gone:order", "0", "-1"])) as string[];
    });
    assert.equal(members, [a.id]);
  } finally {
    await index.close();
  }
});

own("a process that stops beating: another one marks its running runs failed; finished runs and live owners' runs are left alone", async () => {
  const options = { url: redis!.url, retention, namespace: "owners", heartbeatTimeoutMs: 600 };
  const dead = await RedisExecutionIndex.connect({ ...options, instance: "gone-box" });
  const alive = await RedisExecutionIndex.connect({ ...options, instance: "live-box" });
  try {
    const orphan = record({ pipeline: "orphan" });
    const done = record({ pipeline: "done" });
    const live = record({ pipeline: "live" });
    await dead.recordStart(orphan);
    await dead.recordStart(done);
    await dead.recordFinish({ ...done, status: "succeeded", ended_at: done.started_at, duration_ms: 0 });
    await alive.recordStart(live);
    await dead.close(); // no more heartbeats, as after kill -9
    let found = await alive.get(orphan.id);
    for (let i = 0; i < 100 && found?.status === "running"; i++) {
      await new Promise((r) => setTimeout(r, 50));
      found = await alive.get(orphan.id);
    }
    assert.is(found?.status, "failed");
    assert.match(found!.error!, /^The instance running it \(gone-box\) stopped sending heartbeats for over 1 s/);
    assert.ok(found!.ended_at !== null && found!.duration_ms! >= 0);
    assert.is((await alive.get(done.id))?.status, "succeeded");
    await new Promise((r) => setTimeout(r, 800)); // longer than the time-out: the live owner still beats
    assert.is((await alive.get(live.id))?.status, "running");
  } finally {
    await Promise.all([dead.close(), alive.close()]);
  }
});

own("a paused Redis: calls fail with 503 within the deadline, the stall is reported, and it clears on SIGCONT", async () => {
  const paused = await startRedis();
  const index = await RedisExecutionIndex.connect({ url: paused.url, retention, timeoutMs: 300 });
  try {
    process.kill(paused.pid, "SIGSTOP");
    const started = Date.now();
    try {
      await index.list({ limit: 10 });
      assert.unreachable("listed from a paused Redis");
    } catch (error) {
      assert.is((error as { status?: number }).status, 503);
      assert.match((error as Error).message, /execution index \(Redis at 127\.0\.0\.1:\d+\) is unreachable: Redis did not answer within 300 ms/);
    }
    assert.ok(Date.now() - started < 3000, "bounded by the deadline");
    assert.match(index.unavailable ?? "", /did not answer/);
    process.kill(paused.pid, "SIGCONT");
    for (let i = 0; i < 100 && index.unavailable; i++) await new Promise((r) => setTimeout(r, 50));
    assert.is(index.unavailable, undefined);
    assert.equal((await index.list({ limit: 10 })).executions, []);
  } finally {
    await index.close();
    await paused.stop();
  }
});

own("an unreachable Redis fails connect with a clear message", async () => {
  const stopped = await startRedis();
  await stopped.stop();
  try {
    await RedisExecutionIndex.connect({ url: stopped.url, retention });
    assert.unreachable("connected to a stopped server");
  } catch (error) {
    assert.match((error as Error).message, /Cannot connect to Redis at 127\.0\.0\.1:\d+: connection refused/);
  }
});

if (skip) {
  const skipped = suite(`redis execution index (${skip})`);
  skipped.skip("contract and Redis specifics", () => {});
  skipped.run();
} else {
  contract.run();
  own.run();
}
