import { test } from "uvu";
import * as assert from "uvu/assert";
import { createClient } from "@keyv/redis";
import { KernelError, closeKeyv, connectRedisKeyv, redisClientOf, type Keyv } from "svc/plugin";
import { startRedis, type TestRedis } from "../helpers/redis.js";
import { clusterSkipReason, startRedisCluster, type TestRedisCluster } from "../helpers/redis-cluster.js";
import { certificateSkipReason, createTestCertificate, type TestCertificate } from "../helpers/test-certificate.js";
import { rejects } from "../helpers/rejects.js";

// The three documented URL forms beyond `redis://host:port`, each against real servers.
const skip = clusterSkipReason() ?? certificateSkipReason();
if (skip) console.log(`kv-url-forms.test: ${skip}`);
const redisTest = skip ? test.skip : test;

const GENEROUS_MS = 20_000;
const opened: Keyv<any>[] = [];
const stops: (() => Promise<void>)[] = [];

async function connect(url: string, extra: { tls?: { ca: string } } = {}): Promise<Keyv<any>> {
  const keyv = await connectRedisKeyv({ url, namespace: "forms", connectTimeoutMs: GENEROUS_MS, ...extra });
  opened.push(keyv);
  return keyv;
}

redisTest("user:password@ with an ACL user: the user connects, a wrong password or no user is rejected", async () => {
  const server: TestRedis = await startRedis({ user: { name: "svc-app", password: "p@ss word" } });
  stops.push(server.stop);
  assert.match(server.url, /^redis:\/\/svc-app:p%40ss%20word@127\.0\.0\.1:\d+$/);
  const keyv = await connect(server.url);
  await keyv.set("k", { ok: true });
  assert.equal(await keyv.get("k"), { ok: true });
  const who = await (redisClientOf(keyv) as unknown as { sendCommand(a: string[]): Promise<unknown> }).sendCommand(["ACL", "WHOAMI"]);
  assert.is(who, "svc-app");
  const wrong = await rejects(() => connect(server.url.replace("p%40ss%20word", "nope")), /rejected the credentials/);
  assert.instance(wrong, KernelError);
  assert.not.match(String(wrong), /nope/);
  await rejects(() => connect(`redis://127.0.0.1:${server.port}`), /rejected the credentials/);
});

let cert: TestCertificate | undefined;

redisTest("rediss:// connects over TLS with the CA given; an untrusted certificate fails with a clear reason", async () => {
  cert = await createTestCertificate();
  const server = await startRedis({ tls: cert, password: "tls-pw" });
  stops.push(server.stop);
  assert.match(server.url, /^rediss:\/\//);
  const keyv = await connect(server.url, { tls: { ca: cert.certPem } });
  await keyv.set("secure", "yes");
  assert.is(await keyv.get("secure"), "yes");
  const client = redisClientOf(keyv) as unknown as { sendCommand(a: string[]): Promise<string[]> };
  assert.equal(await client.sendCommand(["CONFIG", "GET", "port"]), ["port", "0"], "the server has no plain TCP port: the data went over TLS");
  const untrusted = await rejects(() => connect(server.url), /TLS failed .*NODE_EXTRA_CA_CERTS/);
  assert.instance(untrusted, KernelError);
  // Plain redis:// against the TLS port gets no usable answer: it fails, it does not hang.
  await rejects(() => connectRedisKeyv({ url: server.url.replace("rediss:", "redis:"), namespace: "x", connectTimeoutMs: 1000 }), /Cannot connect to Redis/);
});

let cluster: TestRedisCluster | undefined;

redisTest("redis://host1,host2,host3 is a cluster: keys spread over the three masters and read back", async () => {
  cluster = await startRedisCluster({ password: "cluster-pw" });
  stops.push(cluster.stop);
  // The documented form: the first node a URL, the others bare host:port.
  const url = cluster.url;
  assert.match(url, /^redis:\/\/:cluster-pw@127\.0\.0\.1:\d+,127\.0\.0\.1:\d+,127\.0\.0\.1:\d+$/);
  const keyv = await connect(url);
  const keys = Array.from({ length: 30 }, (_, i) => `key-${i}`);
  for (const key of keys) await keyv.set(key, { key });
  for (const key of keys) assert.equal(await keyv.get(key), { key });
  // Each master holds some of the keys: the client really is a cluster client.
  for (const port of cluster.ports) {
    const node = createClient({ url: `redis://:cluster-pw@127.0.0.1:${port}` });
    await node.connect();
    try {
      const size = await node.dbSize();
      assert.ok(size > 0 && size < keys.length, `node ${port} holds ${size} of ${keys.length} keys`);
    } finally {
      await node.close();
    }
  }
  await closeKeyv(keyv);
  assert.is(redisClientOf(keyv)!.isOpen, false);
  await rejects(() => connect(url.replace("cluster-pw", "wrong")), /rejected the credentials/);
});

redisTest("a node list pointing at servers without cluster mode says so", async () => {
  const a = await startRedis();
  const b = await startRedis();
  stops.push(a.stop, b.stop);
  await rejects(() => connect(`redis://127.0.0.1:${a.port},127.0.0.1:${b.port}`), /not a cluster node/);
});

test.after(async () => {
  await Promise.allSettled(opened.map((k) => closeKeyv(k)));
  await Promise.allSettled(stops.map((stop) => stop()));
  await cert?.remove();
});

test.run();
