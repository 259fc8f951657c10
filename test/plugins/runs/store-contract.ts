/**
 * @module The contract every RunStore backend passes (DESIGN §3: protocols with reference
 * backends). `runStoreContract` adds its tests to a uvu suite; the backend's test file makes a
 * store with the options it is given and runs the suite.
 */
import * as assert from "uvu/assert";
import type { Test } from "uvu";
import type { BaseRunStore, RunEvent, RunSignal, RunStoreOptions } from "svc/runs";
import { until } from "../../helpers/http.js";

export type MakeStore = (options: RunStoreOptions) => Promise<BaseRunStore>;

export const OPTIONS: RunStoreOptions = { retentionMs: 60_000, maxEvents: 100, leaseMs: 60_000 };

export function runStoreContract(suite: Test, make: MakeStore): void {
  const opened: BaseRunStore[] = [];
  const open = async (options: Partial<RunStoreOptions> = {}) => {
    const store = await make({ ...OPTIONS, ...options });
    opened.push(store);
    return store;
  };
  suite.after.each(async () => {
    for (const store of opened.splice(0)) await store.close();
  });

  suite("a new run is queued and reads back as created; unknown ids are undefined", async () => {
    const store = await open();
    const run = await store.create({ pipeline: "p", kind: "rest", owner: { id: "h1", name: "alice" }, input: { q: "hi", list: [] }, metadata: { m: 1 } });
    assert.match(run.id, /^run_[0-9a-f]{28}$/);
    assert.is(run.status, "queued");
    assert.is(run.owner, "alice");
    assert.is(run.owner_id, "h1");
    assert.equal(await store.get(run.id), run);
    assert.is(await store.get("run_0000000000000000000000000000"), undefined);
  });

  suite("update changes a running run; finish makes it final once and logs run.<status>; a final run no longer changes", async () => {
    const store = await open();
    const run = await store.create({ pipeline: "p", kind: "rest" });
    const started = await store.update(run.id, { status: "in_progress", started_at: new Date().toISOString() });
    assert.is(started?.changed, true);
    assert.is((await store.get(run.id))?.status, "in_progress");
    const done = await store.finish(run.id, "completed", { result: { answer: [1, 2], empty: [] } });
    assert.is(done?.changed, true);
    assert.equal(done?.record.result, { answer: [1, 2], empty: [] });
    assert.ok(done?.record.ended_at);
    const again = await store.finish(run.id, "failed", { error: { code: "x", message: "late" } });
    assert.is(again?.changed, false);
    assert.is(again?.record.status, "completed");
    assert.is((await store.update(run.id, { status: "in_progress" }))?.changed, false);
    const stored = await store.get(run.id);
    assert.is(stored?.status, "completed");
    assert.equal(stored?.result, { answer: [1, 2], empty: [] });
    const events = await store.events(run.id);
    assert.equal(events.map((e) => [e.seq, e.type]), [[1, "run.completed"]]);
    assert.equal(events[0]!.data, { status: "completed", result: { answer: [1, 2], empty: [] }, error: null });
    assert.is(await store.update("run_0000000000000000000000000000", { status: "failed" }), undefined);
    try {
      await store.finish(run.id, "in_progress");
      assert.unreachable("finish took a status that is not final");
    } catch (error) {
      assert.match((error as Error).message, /final status/);
    }
  });

  suite("events are numbered from 1 in order; events(after) replays the rest; the cap keeps the newest", async () => {
    const store = await open({ maxEvents: 5 });
    const run = await store.create({ pipeline: "p", kind: "rest" });
    for (let i = 1; i <= 3; i++) assert.is((await store.append(run.id, "run.output", { text: `t${i}` })).seq, i);
    assert.equal((await store.events(run.id, 1)).map((e) => e.data), [{ text: "t2" }, { text: "t3" }]);
    assert.equal(await store.events(run.id, 3), []);
    for (let i = 4; i <= 8; i++) await store.append(run.id, "run.output", { text: `t${i}` });
    assert.equal((await store.events(run.id)).map((e) => e.seq), [4, 5, 6, 7, 8]);
    assert.equal((await store.events(run.id, 6)).map((e) => e.seq), [7, 8]);
    // A resume from before the oldest kept event starts at the oldest kept.
    assert.equal((await store.events(run.id, 2)).map((e) => e.seq), [4, 5, 6, 7, 8]);
    try {
      await store.append("run_0000000000000000000000000000", "x");
      assert.unreachable("appended to a run that does not exist");
    } catch (error) {
      assert.match((error as Error).message, /No run/);
    }
  });

  suite("subscribers get each new event once; after unsubscribing, none", async () => {
    const store = await open();
    const run = await store.create({ pipeline: "p", kind: "rest" });
    const seen: RunSignal[] = [];
    const unsubscribe = await store.subscribe(run.id, (signal) => seen.push(signal));
    await store.append(run.id, "a", 1);
    await store.append(run.id, "b", { x: "y" });
    await until(() => seen.length >= 2, 5000, "two events");
    assert.equal(seen.map((s) => (s.type === "event" ? [s.event.seq, s.event.type, s.event.data] : s.type)), [[1, "a", 1], [2, "b", { x: "y" }]]);
    await unsubscribe();
    await store.append(run.id, "c");
    await new Promise((r) => setTimeout(r, 100));
    assert.is(seen.length, 2);
  });

  suite("list: newest first, filtered by pipeline, status and owner, paged exactly once through", async () => {
    const store = await open();
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) {
      const run = await store.create({ pipeline: i % 2 ? "odd" : "even", kind: "rest", owner: i < 3 ? { id: "k1", name: "one" } : undefined });
      ids.push(run.id);
      await new Promise((r) => setTimeout(r, 2)); // distinct creation times
    }
    await store.finish(ids[0]!, "completed");
    const all = await store.list({ limit: 100 });
    assert.equal(all.runs.map((r) => r.id), [...ids].reverse());
    assert.is(all.next, null);
    assert.equal((await store.list({ limit: 100, pipeline: "odd" })).runs.map((r) => r.id), [ids[5], ids[3], ids[1]]);
    assert.equal((await store.list({ limit: 100, status: "completed" })).runs.map((r) => r.id), [ids[0]]);
    assert.equal((await store.list({ limit: 100, ownerId: "k1" })).runs.map((r) => r.id), [ids[2], ids[1], ids[0]]);
    const seen: string[] = [];
    let before: string | undefined;
    for (let pages = 0; pages < 10; pages++) {
      const page = await store.list({ limit: 3, before });
      assert.ok(page.runs.length <= 3);
      seen.push(...page.runs.map((r) => r.id));
      if (page.next === null) break;
      before = page.next;
    }
    assert.equal(seen, [...ids].reverse());
    const exact = await store.list({ limit: 7 });
    assert.is(exact.next, null, "an exact fit is not reported as more");
  });

  suite("cancel: a queued run is cancelled at once; a held run's runner is told; a final run stays as it is", async () => {
    const store = await open();
    const queued = await store.create({ pipeline: "p", kind: "rest" });
    const cancelled = await store.cancel(queued.id);
    assert.is(cancelled?.record.status, "cancelled");
    assert.equal((await store.events(queued.id)).map((e) => e.type), ["run.cancelled"]);
    const running = await store.create({ pipeline: "p", kind: "rest" });
    let told = 0;
    await store.hold(running.id, () => told++);
    await store.update(running.id, { status: "in_progress" });
    const asked = await store.cancel(running.id);
    assert.is(asked?.record.status, "in_progress");
    assert.is(asked?.record.cancel_requested, true);
    await until(() => told === 1, 5000, "the runner told");
    assert.is((await store.cancel(running.id))?.changed, false, "asking twice changes nothing");
    await store.finish(running.id, "cancelled", { error: { code: "cancelled", message: "stopped" } });
    await store.release(running.id);
    assert.is((await store.cancel(running.id))?.record.status, "cancelled");
    assert.is(await store.cancel("run_0000000000000000000000000000"), undefined);
    assert.is(told, 1);
  });

  suite("a lease that is renewed keeps its run; an abandoned one expires and the run fails with a clear error", async () => {
    const store = await open({ leaseMs: 600 });
    const kept = await store.create({ pipeline: "p", kind: "rest" });
    const lost = await store.create({ pipeline: "p", kind: "rest" });
    await store.hold(lost.id, () => undefined);
    await store.update(lost.id, { status: "in_progress" });
    store.abandonLeases(); // as if the process running it died
    await store.hold(kept.id, () => undefined);
    await store.update(kept.id, { status: "in_progress" });
    const started = Date.now();
    let run = await store.get(lost.id);
    while (run?.status === "in_progress" && Date.now() - started < 10_000) {
      await new Promise((r) => setTimeout(r, 50));
      run = await store.get(lost.id);
    }
    assert.is(run?.status, "failed");
    assert.is(run?.error?.code, "lease_expired");
    assert.match(run!.error!.message, /stopped renewing its lease for over 0\.6 s/);
    const events: RunEvent[] = await store.events(lost.id);
    assert.is(events.at(-1)?.type, "run.failed");
    await new Promise((r) => setTimeout(r, 700));
    assert.is((await store.get(kept.id))?.status, "in_progress", "a renewed lease does not expire");
    await store.release(kept.id);
  });

  suite("runs expire after the retention; delete removes one", async () => {
    const store = await open({ retentionMs: 300 });
    const run = await store.create({ pipeline: "p", kind: "rest" });
    await store.append(run.id, "a");
    const other = await store.create({ pipeline: "p", kind: "rest" });
    assert.is(await store.delete(other.id), true);
    assert.is(await store.get(other.id), undefined);
    assert.is(await store.delete(other.id), false);
    const started = Date.now();
    while ((await store.get(run.id)) && Date.now() - started < 5000) await new Promise((r) => setTimeout(r, 50));
    assert.is(await store.get(run.id), undefined);
    assert.equal(await store.events(run.id), []);
    assert.equal((await store.list({ limit: 10 })).runs, []);
  });
}
