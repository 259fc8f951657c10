import { suite } from "uvu";
import * as assert from "uvu/assert";
import { KernelError, RedisTimeoutError, OBJECT_STORE } from "svc/plugin";
import { createContainer } from "svc/internal";
import {
  Explorer,
  ObjectStore,
  RedisBackend,
  REDIS_NAMESPACE,
  closeInitializedStores,
  connectRedisBackend,
  createObjectStore,
  initializeOrGetInitializedStore,
  objectStorePlugin,
} from "svc/object-store";
import { freePort, redisSkipReason, startRedis, type TestRedis } from "../../helpers/redis.js";
import { startKernel } from "../../helpers/kernel.js";
import { rejects } from "../../helpers/rejects.js";
import { storeContract } from "./store-contract.js";

const skip = redisSkipReason();
if (skip) console.log(`redis-store.test: ${skip}`);

/** Long enough that an error naming the cause proves we did not merely hit the deadline. */
const GENEROUS_MS = 20_000;
const UUID_ID = /^obj_[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

let redis: TestRedis;
const backends: RedisBackend[] = [];
const connected = async () => {
  const b = await connectRedisBackend(redis.url);
  backends.push(b);
  return b;
};

const contract = suite("redis backend contract");
const live = suite("redis store");
for (const s of [contract, live]) {
  s.before(async () => {
    redis ??= await startRedis();
  });
}

// The contract needs a backend synchronously: connect one up front and share it.
let shared: RedisBackend;
contract.before(async () => {
  shared = await connected();
});
storeContract(contract, () => shared, UUID_ID);

live("references survive a store restart: a new connection reads what the old one stored", async () => {
  const first = new ObjectStore(await connected(), 600);
  const id = await first.put({ pipelines: [{ name: "rag-qa" }] });
  await first.close();
  const second = new ObjectStore(await connected(), 600);
  assert.equal(await second.get(id), { pipelines: [{ name: "rag-qa" }] });
  assert.is(await new Explorer(second).explore(`@${id}.pipelines.0`, "name"), `@${id}.pipelines.0.name → string (length: 6)\n\nrag-qa`);
});

live("keys live under one namespace and Redis itself holds the TTL", async () => {
  const store = new ObjectStore(await connected(), 30);
  const id = await store.put(1);
  const { createClient } = await import("@keyv/redis");
  const raw = createClient({ url: redis.url });
  await raw.connect();
  try {
    const ttl = await raw.pTTL(`${REDIS_NAMESPACE}::${id}`);
    assert.ok(ttl > 0 && ttl <= 30_000, `PTTL ${ttl}`);
  } finally {
    await raw.close();
  }
});

live("initializeOrGetInitializedStore caches a Redis store per URL and TTL", async () => {
  const a = await initializeOrGetInitializedStore({ backend: "redis", redisUrl: redis.url, ttl: 60 });
  const b = await initializeOrGetInitializedStore({ backend: "redis", redisUrl: redis.url, ttl: 60 });
  assert.is(a, b);
  assert.is(a.backend.kind, "redis");
  await closeInitializedStores();
});

live("a refused connection, a wrong password and a bad URL fail with their cause, never hang", async () => {
  const port = await freePort();
  const refused = await rejects(() => createObjectStore({ backend: "redis", redisUrl: `redis://127.0.0.1:${port}`, connectTimeoutMs: GENEROUS_MS }), /connection refused/);
  assert.instance(refused, KernelError);
  const guarded = await startRedis({ password: "s3cret" });
  try {
    const wrong = guarded.url.replace("s3cret", "wrong");
    await rejects(() => createObjectStore({ backend: "redis", redisUrl: wrong, connectTimeoutMs: GENEROUS_MS }), /rejected the credentials/);
    const store = await createObjectStore({ backend: "redis", redisUrl: guarded.url });
    assert.equal(await store.get(await store.put({ ok: true })), { ok: true });
    await store.close();
  } finally {
    await guarded.stop();
  }
  await rejects(() => createObjectStore({ backend: "redis", redisUrl: "http://127.0.0.1:6379" }), /Invalid Redis URL .*unsupported scheme/);
});

live("a paused Redis fails store calls at their deadline, and they work again once it answers", async () => {
  const paused = await startRedis();
  const store = await createObjectStore({ backend: "redis", redisUrl: paused.url, callTimeoutMs: 500 });
  try {
    const id = await store.put({ kept: 1 });
    process.kill(paused.pid, "SIGSTOP");
    const failed = await rejects(() => store.get(id), /did not answer within 500 ms/);
    assert.instance(failed, RedisTimeoutError);
    await rejects(() => store.put({ lost: true }), /did not answer within 500 ms/);
    process.kill(paused.pid, "SIGCONT");
    assert.equal(await store.get(id), { kept: 1 });
  } finally {
    process.kill(paused.pid, "SIGCONT");
    await store.close();
    await paused.stop();
  }
});

live("the svc:object-store plugin provides the Redis store under OBJECT_STORE and closes it", async () => {
  const k = await startKernel({ container: createContainer(), settings: { objectStoreBackend: "redis", objectStoreRedisUrl: redis.url, objectStoreTtl: 5 }, plugins: [objectStorePlugin()] });
  try {
    const store = k.kernel.resolve(OBJECT_STORE);
    assert.is(store.backend.kind, "redis");
    assert.is(store.ttl, 5);
    assert.match(await store.put("x"), UUID_ID);
  } finally {
    await k.close();
  }
});

live.after(async () => {
  await Promise.allSettled(backends.map((b) => b.close()));
  await redis?.stop();
});

if (skip) {
  contract.skip("redis-server missing", () => {});
} else {
  contract.run();
  live.run();
}
