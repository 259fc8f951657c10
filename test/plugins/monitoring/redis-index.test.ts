import { suite } from "uvu";
import * as assert from "uvu/assert";
import { closeKeyv, connectRedisKeyv, redisClientOf } from "svc";
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

own("records live under one prefix, <namespace>::<id> with the retention as TTL; the order is <namespace>:order", async () => {
  const index = await RedisExecutionIndex.connect({ url: redis!.url, retention, namespace: "keys" });
  try {
    const r = record();
    await index.recordStart(r);
    await probe(async (command) => {
      assert.equal(((await command(["KEYS", "keys*"])) as string[]).sort(), [`keys:order`, `keys::${r.id}`].sort());
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
