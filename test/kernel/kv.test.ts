import { test } from "uvu";
import * as assert from "uvu/assert";
import { createServer, type Socket } from "node:net";
import { KernelError, closeKeyv, connectRedisKeyv, parseRedisTarget, redisClientOf } from "svc";
import { freePort, redisSkipReason, startRedis, type TestRedis } from "../helpers/redis.js";

const skip = redisSkipReason();
if (skip) console.log(`kv.test: ${skip}`);
const redisTest = skip ? test.skip : test;

/** Long enough that an error naming the cause proves we did not merely hit the deadline. */
const GENEROUS_MS = 20_000;

async function connectError(url: string, connectTimeoutMs = GENEROUS_MS): Promise<KernelError> {
  try {
    const keyv = await connectRedisKeyv({ url, namespace: "t", connectTimeoutMs });
    await closeKeyv(keyv);
  } catch (error) {
    assert.instance(error, KernelError);
    assert.is((error as KernelError).code, "KERNEL_ERR_KV_CONNECT");
    return error as KernelError;
  }
  return assert.unreachable("expected the connect to fail") as never;
}

test("parseRedisTarget: single, TLS, credentials kept out of display, cluster list", () => {
  const one = parseRedisTarget("redis://alice:s%40cret@cache:6380/2");
  assert.is(one.cluster, false);
  assert.is(one.tls, false);
  assert.is(one.username, "alice");
  assert.is(one.password, "s@cret");
  assert.is(one.display, "cache:6380");
  assert.not.match(one.display, /cret/);
  assert.is(parseRedisTarget("rediss://h").tls, true);
  assert.is(parseRedisTarget("rediss://h").display, "h:6379");
  const cluster = parseRedisTarget("redis://:pw@a:7000, redis://:pw@b:7001");
  assert.is(cluster.cluster, true);
  assert.equal(cluster.urls, ["redis://:pw@a:7000", "redis://:pw@b:7001"]);
  assert.is(cluster.display, "a:7000,b:7001");
  assert.is(cluster.password, "pw");
});

test("parseRedisTarget rejects other schemes, empty and mixed TLS lists", () => {
  for (const bad of ["http://h:6379", "", "not a url", "redis://a,rediss://b"]) {
    try {
      parseRedisTarget(bad);
      assert.unreachable(`accepted ${bad}`);
    } catch (error) {
      assert.instance(error, KernelError);
      assert.match((error as Error).message, /Invalid Redis URL/);
    }
  }
});

test("a server that accepts but never answers fails at the deadline, not never", async () => {
  const sockets: Socket[] = [];
  const silent = createServer((socket) => sockets.push(socket));
  await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
  const port = (silent.address() as { port: number }).port;
  try {
    const error = await connectError(`redis://127.0.0.1:${port}`, 300);
    assert.match(error.message, /127\.0\.0\.1:\d+: no answer within 300 ms/);
  } finally {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => silent.close(resolve));
  }
});

test("a refused port fails with 'connection refused' and no reconnect loop", async () => {
  const port = await freePort();
  const error = await connectError(`redis://127.0.0.1:${port}`);
  assert.match(error.message, new RegExp(`127\\.0\\.0\\.1:${port}: connection refused`));
});

let redis: TestRedis | undefined;
let locked: TestRedis | undefined;

redisTest("connects to a real redis-server; keys carry the namespace once", async () => {
  redis = await startRedis();
  const keyv = await connectRedisKeyv<{ n: number }>({ url: redis.url, namespace: "svc-test" });
  try {
    assert.ok(await keyv.set("k1", { n: 1 }));
    assert.equal(await keyv.get("k1"), { n: 1 });
    const client = redisClientOf(keyv) as unknown as { sendCommand(args: string[]): Promise<unknown> };
    const keys = await client.sendCommand(["KEYS", "*"]);
    assert.equal(keys, ["svc-test::k1"]);
  } finally {
    await closeKeyv(keyv);
  }
  assert.is(redisClientOf(keyv)!.isOpen, false);
});

redisTest("operations reject instead of hanging once Redis is gone", async () => {
  const own = await startRedis();
  const keyv = await connectRedisKeyv({ url: own.url, namespace: "gone" });
  try {
    await own.stop();
    let failed = false;
    await keyv.set("k", 1).catch(() => (failed = true));
    assert.ok(failed, "set should reject while Redis is down");
  } finally {
    await closeKeyv(keyv);
    await own.stop();
  }
});

redisTest("requirepass: the right password connects, a wrong or missing one fails with a clear reason", async () => {
  locked = await startRedis({ password: "right-pw" });
  const keyv = await connectRedisKeyv({ url: locked.url, namespace: "p" });
  await keyv.set("a", 1);
  assert.is(await keyv.get("a"), 1);
  await closeKeyv(keyv);

  const wrong = await connectError(`redis://:wrong-pw@127.0.0.1:${locked.port}`);
  assert.match(wrong.message, /rejected the credentials/);
  assert.not.match(wrong.message, /wrong-pw/);
  const missing = await connectError(`redis://127.0.0.1:${locked.port}`);
  assert.match(missing.message, /rejected the credentials/);
});

test.after(async () => {
  await redis?.stop();
  await locked?.stop();
});

test.run();
