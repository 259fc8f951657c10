import { suite } from "uvu";
import * as assert from "uvu/assert";
import { RedisRunStore } from "svc/runs";
import { until, untilValue } from "../../helpers/http.js";
import { redisSkipReason, startRedis, type TestRedis } from "../../helpers/redis.js";
import { runStoreContract, OPTIONS } from "./store-contract.js";

const skip = redisSkipReason();
let redis: TestRedis | undefined;
let namespaces = 0;

const contract = suite("redis run store: contract");
contract.before(async () => {
  redis = await startRedis({ password: "pw" });
});
contract.after(async () => {
  await redis?.stop();
});
// Each store gets its own namespace on the one server, so tests do not see each other's runs.
runStoreContract(contract, (options) => RedisRunStore.connect({ ...options, url: redis!.url, namespace: `contract-${++namespaces}` }));

const own = suite("redis run store");
own.before(async () => {
  redis = await startRedis();
});
own.after(async () => {
  await redis?.stop();
});

own("two instances on one Redis: one creates, the other reads, follows and cancels it; the runner is told", async () => {
  const options = { ...OPTIONS, url: redis!.url, namespace: "pair" };
  const [a, b] = await Promise.all([RedisRunStore.connect(options), RedisRunStore.connect(options)]);
  try {
    const run = await a.create({ pipeline: "p", kind: "rest", input: { q: 1 } });
    assert.equal(await b.get(run.id), run);
    const seen: number[] = [];
    const unsubscribe = await b.subscribe(run.id, (s) => s.type === "event" && seen.push(s.event.seq));
    let told = 0;
    await a.hold(run.id, () => told++);
    await a.update(run.id, { status: "in_progress" });
    await a.append(run.id, "run.output", { text: "x" });
    await until(() => seen.length === 1, 5000, "the event on the other instance");
    await b.cancel(run.id);
    await until(() => told === 1, 5000, "the cancel reached the runner");
    await a.finish(run.id, "cancelled");
    await until(() => seen.length === 2, 5000, "the terminal event");
    assert.is((await b.get(run.id))?.status, "cancelled");
    await unsubscribe();
    await a.release(run.id);
  } finally {
    await Promise.all([a.close(), b.close()]);
  }
});

own("a cancel whose message was missed still reaches the runner at its next lease renewal", async () => {
  const options = { ...OPTIONS, leaseMs: 600, url: redis!.url, namespace: "missed" };
  const [a, b] = await Promise.all([RedisRunStore.connect(options), RedisRunStore.connect(options)]);
  try {
    const run = await a.create({ pipeline: "p", kind: "rest" });
    let told = 0;
    await a.hold(run.id, () => told++);
    await a.update(run.id, { status: "in_progress" });
    // Marked as cancelled without the pub/sub message (as when the subscriber was reconnecting).
    await (b as unknown as { change(id: string, f: (r: object) => object): Promise<unknown> }).change(run.id, (r) => ({ ...r, cancel_requested: true }));
    await until(() => told === 1, 5000, "the runner told by the renewal");
    await a.release(run.id);
  } finally {
    await Promise.all([a.close(), b.close()]);
  }
});

own("a run whose instance died before it started fails when its lease expires, not queued for ever", async () => {
  const options = { ...OPTIONS, leaseMs: 600, url: redis!.url, namespace: "unstarted" };
  const a = await RedisRunStore.connect(options);
  const run = await a.create({ pipeline: "p", kind: "rest" });
  await a.close(); // gone before hold(): nobody renews the lease it was created with
  const b = await RedisRunStore.connect(options);
  try {
    const failed = await untilValue(() => b.get(run.id), (r) => r?.status !== "queued", 10_000);
    assert.is(failed?.status, "failed");
    assert.is(failed?.error?.code, "lease_expired");
  } finally {
    await b.close();
  }
});

own("a paused Redis: calls fail with 503 naming the run store within the deadline", async () => {
  const paused = await startRedis();
  const store = await RedisRunStore.connect({ ...OPTIONS, url: paused.url, timeoutMs: 300 });
  try {
    process.kill(paused.pid, "SIGSTOP");
    try {
      await store.get("run_0000000000000000000000000000");
      assert.unreachable("read from a paused Redis");
    } catch (error) {
      assert.is((error as { status?: number }).status, 503);
      assert.match((error as Error).message, /run store \(Redis at 127\.0\.0\.1:\d+\) is unreachable/);
    }
    process.kill(paused.pid, "SIGCONT");
  } finally {
    await store.close();
    await paused.stop();
  }
});

if (skip) {
  const skipped = suite(`redis run store (${skip})`);
  skipped.skip("contract and Redis specifics", () => {});
  skipped.run();
} else {
  contract.run();
  own.run();
}
