import { test } from "uvu";
import * as assert from "uvu/assert";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { fileURLToPath } from "node:url";
import { createContainer } from "svc/internal";
import { OBJECT_STORE } from "svc/plugin";
import { Explorer, createObjectStore, objectStorePlugin, type ObjectStore } from "svc/object-store";
import { startRedis } from "../../helpers/redis.js";
import { clusterSkipReason, startRedisCluster } from "../../helpers/redis-cluster.js";
import { certificateSkipReason, createTestCertificate, type TestCertificate } from "../../helpers/test-certificate.js";
import { startKernel } from "../../helpers/kernel.js";
import { rejects } from "../../helpers/rejects.js";

// OBJECT_STORE_REDIS_URL in each documented form, the way a user sets it, against real servers.
const skip = clusterSkipReason() ?? certificateSkipReason();
if (skip) console.log(`redis-url-forms.test: ${skip}`);
const redisTest = skip ? test.skip : test;
const stops: (() => Promise<void>)[] = [];
const PACKAGE_ROOT = fileURLToPath(new URL("../../../../", import.meta.url));

redisTest("OBJECT_STORE_REDIS_URL=redis://h1:p1,h2:p2,h3:p3: the plugin's store runs on a three-node cluster", async () => {
  const cluster = await startRedisCluster();
  stops.push(cluster.stop);
  const k = await startKernel({ container: createContainer(), settings: { objectStoreBackend: "redis", objectStoreRedisUrl: cluster.url }, plugins: [objectStorePlugin()] });
  try {
    const store = k.kernel.resolve(OBJECT_STORE);
    assert.is(store.backend.kind, "redis");
    const ids = [];
    for (let i = 0; i < 12; i++) ids.push(await store.put({ n: i, items: ["a", "b"] }));
    for (const [i, id] of ids.entries()) assert.equal(await store.get(id), { n: i, items: ["a", "b"] });
    assert.match(await new Explorer(store).explore(`@${ids[3]}`, "items"), /→ array \(length: 2\)/);
  } finally {
    await k.close();
  }
});

redisTest("OBJECT_STORE_REDIS_URL with user:password@ of an ACL user", async () => {
  const server = await startRedis({ user: { name: "objects", password: "0bj-pw" } });
  stops.push(server.stop);
  const store = await createObjectStore({ backend: "redis", redisUrl: server.url });
  try {
    assert.equal(await store.get(await store.put([1, 2])), [1, 2]);
  } finally {
    await store.close();
  }
  await rejects(() => createObjectStore({ backend: "redis", redisUrl: server.url.replace("0bj-pw", "bad") }), /rejected the credentials/);
});

let cert: TestCertificate | undefined;

redisTest("OBJECT_STORE_REDIS_URL=rediss://… with the CA in NODE_EXTRA_CA_CERTS (a fresh process, as a user runs it)", async () => {
  cert = await createTestCertificate();
  const server = await startRedis({ tls: cert });
  stops.push(server.stop);
  const script = `
    import { createObjectStore } from "@svc-serve/svc/object-store";
    const store = await createObjectStore({ backend: "redis", redisUrl: process.env.OBJECT_STORE_REDIS_URL, redisUrlSetting: "OBJECT_STORE_REDIS_URL" });
    const id = await store.put({ over: "tls" });
    console.log(JSON.stringify(await store.get(id)));
    await store.close();`;
  const run = (env: Record<string, string>) =>
    promisify(execFile)(process.execPath, ["--input-type=module", "-e", script], { cwd: PACKAGE_ROOT, env: { ...process.env, ...env, OBJECT_STORE_REDIS_URL: server.url } });
  const { stdout } = await run({ NODE_EXTRA_CA_CERTS: cert.certFile });
  assert.equal(JSON.parse(stdout), { over: "tls" });
  const untrusted = await rejects(() => run({}), /OBJECT_STORE_REDIS_URL\): TLS failed/);
  assert.match(String(untrusted), /NODE_EXTRA_CA_CERTS/);
});

test("a malformed OBJECT_STORE_REDIS_URL stops the plugin at once with the setting named", async () => {
  const started = Date.now();
  const failure = rejects(
    () => startKernel({ container: createContainer(), settings: { objectStoreBackend: "redis", objectStoreRedisUrl: "redis://h1:6379,h2:6379/1" }, plugins: [objectStorePlugin()] }),
    /Invalid Redis URL in OBJECT_STORE_REDIS_URL/,
  );
  await failure;
  assert.ok(Date.now() - started < 3000);
});

test.after(async () => {
  await Promise.allSettled(stops.map((stop) => stop()));
  await cert?.remove();
});

test.run();
