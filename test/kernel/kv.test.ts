import { test } from "uvu";
import * as assert from "uvu/assert";
import { createServer, type Socket } from "node:net";
import { KernelError, closeKeyv, connectRedisKeyv, parseRedisTarget, redisClientOf } from "svc/plugin";
import { freePort, redisSkipReason, startRedis, type TestRedis } from "../helpers/redis.js";

const skip = redisSkipReason();
if (skip) console.log(`kv.test: ${skip}`);
const redisTest = skip ? test.skip : test;

/** Long enough that an error naming the cause proves we did not merely hit the deadline. */
const GENEROUS_MS = 20_000;

async function connectError(url: string, connectTimeoutMs = GENEROUS_MS, setting?: string): Promise<KernelError> {
  try {
    const keyv = await connectRedisKeyv({ url, namespace: "t", connectTimeoutMs, setting });
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

test("parseRedisTarget: the documented cluster form — bare nodes share the first URL's scheme and credentials", () => {
  const cluster = parseRedisTarget("redis://host1:6379,host2:6379,host3:6379");
  assert.is(cluster.cluster, true);
  assert.equal(cluster.nodes, [
    { host: "host1", port: 6379 },
    { host: "host2", port: 6379 },
    { host: "host3", port: 6379 },
  ]);
  assert.is(cluster.display, "host1:6379,host2:6379,host3:6379");
  const secured = parseRedisTarget("rediss://app:s%40cret@h1:7000, h2:7001,h3");
  assert.is(secured.tls, true);
  assert.equal(secured.urls, ["rediss://app:s%40cret@h1:7000", "rediss://app:s%40cret@h2:7001", "rediss://app:s%40cret@h3"]);
  assert.equal([secured.username, secured.password], ["app", "s@cret"]);
  assert.equal(secured.nodes[2], { host: "h3", port: 6379 });
  assert.not.match(secured.display, /cret|app/);
  assert.equal(parseRedisTarget("redis://[::1]:7000,[::1]:7001").nodes, [
    { host: "::1", port: 7000 },
    { host: "::1", port: 7001 },
  ]);
  assert.is(parseRedisTarget("redis://h/3").database, 3);
});

test("parseRedisTarget rejects other schemes, empty and mixed lists, naming the setting and never the password", () => {
  const cases: [string, RegExp][] = [
    ["http://h:6379", /unsupported scheme 'http:\/\/'/],
    ["", /no URL given/],
    ["not a url", /must be a URL with its scheme/],
    ["redis://a,rediss://b", /mixes redis:\/\/ and rediss:\/\//],
    ["host1:6379,host2:6379", /must be a URL with its scheme/],
    ["redis://:pw1@a,redis://:pw2@b", /different credentials/],
    ["redis://:pw@a,,b", /empty entry/],
    ["redis://a/2,b", /only database 0/],
    ["redis://a,b:notaport", /not a valid URL/],
    ["redis://a,user:pw@b", /bare cluster node is host\[:port\] only/],
  ];
  for (const [bad, reason] of cases) {
    try {
      parseRedisTarget(bad, "OBJECT_STORE_REDIS_URL");
      assert.unreachable(`accepted ${bad}`);
    } catch (error) {
      assert.instance(error, KernelError);
      const message = (error as Error).message;
      assert.match(message, /^Invalid Redis URL in OBJECT_STORE_REDIS_URL /);
      assert.match(message, reason);
      assert.not.match(message, /pw1|pw2|:pw@/);
      assert.match(message, /comma-separated nodes/, "the message shows the accepted forms");
    }
  }
});

test("a bad URL fails at once through connectRedisKeyv, naming the setting", async () => {
  const started = Date.now();
  const error = await connectError("redis://host1:6379,host2:6379/0,", 60_000, "SERVICE_CLUSTER_REDIS_URL");
  assert.match(error.message, /Invalid Redis URL in SERVICE_CLUSTER_REDIS_URL/);
  assert.ok(Date.now() - started < 2000);
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
  const named = await connectError(`redis://127.0.0.1:${port}`, GENEROUS_MS, "OBJECT_STORE_REDIS_URL");
  assert.match(named.message, new RegExp(`127\\.0\\.0\\.1:${port} \\(OBJECT_STORE_REDIS_URL\\): connection refused`));
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
