/**
 * Faults of a cluster on one Redis, with real processes and real signals: instances paused
 * (SIGSTOP) while Redis restarts empty, Redis itself paused, an instance killed with -9.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { deployTo, post, startInstance, stopAll, taggedWrapper, untilServes, answerOf, type Instance } from "../helpers/cluster.js";
import { rawRequest, sleep } from "../helpers/http.js";
import { wrapper } from "../helpers/pipelines.js";
import { redisSkipReason, startRedis, type TestRedis } from "../helpers/redis.js";

const skip = redisSkipReason();
const TOKEN = "operator-token";
const operator = { authorization: `Bearer ${TOKEN}` };

const json = async (url: string, headers: Record<string, string> = {}) => {
  const res = await rawRequest(url, { headers });
  return { status: res.status, body: JSON.parse(res.body) };
};
const status = async (i: Instance) => (await json(`${i.url}/status`)).body.cluster;
const signal = (pid: number, name: NodeJS.Signals) => {
  try {
    process.kill(pid, name);
  } catch {
    // already gone
  }
};

/** Polls `check` until it returns true; throws with `what` after `ms`. */
async function eventually(what: string, check: () => Promise<boolean>, ms = 30_000): Promise<number> {
  const started = Date.now();
  while (!(await check().catch(() => false))) {
    if (Date.now() - started > ms) throw new Error(`timed out after ${ms} ms waiting until ${what}`);
    await sleep(100);
  }
  return Date.now() - started;
}

async function withCluster(fn: (redis: TestRedis, a: Instance, b: Instance) => Promise<void>): Promise<void> {
  const redis = await startRedis();
  const instances: Instance[] = [];
  try {
    for (let i = 0; i < 2; i++) instances.push(await startInstance({ redisUrl: redis.url, env: { SERVICE_TRACING_TOKEN: TOKEN } }));
    await fn(redis, instances[0]!, instances[1]!);
  } finally {
    for (const i of instances) signal(i.proc.pid!, "SIGCONT");
    await stopAll(...instances);
    await redis.stop();
  }
}

/** Stops Redis and starts an empty one on the same port; the caller stops the new one. */
async function restartEmpty(redis: TestRedis): Promise<TestRedis> {
  await redis.stop();
  return startRedis({ port: redis.port });
}

if (skip) {
  test(`cluster fault tests skipped: ${skip}`, () => {});
} else {
  test("split: A paused, v2 deployed through B, B paused, Redis restarted empty, A then B resumed: both serve v2", () =>
    withCluster(async (redis, a, b) => {
      assert.is((await deployTo(a.url, "qa", taggedWrapper("v1"))).status, 200);
      await untilServes(b.url, "qa", "v1");
      signal(a.proc.pid!, "SIGSTOP");
      assert.is((await deployTo(b.url, "qa", taggedWrapper("v2"), { overwrite: true })).status, 200);
      signal(b.proc.pid!, "SIGSTOP");
      const back = await restartEmpty(redis);
      try {
        signal(a.proc.pid!, "SIGCONT");
        // A alone writes back what it serves (v1) before B returns.
        await eventually("A is connected to the new Redis", async () => (await status(a)).connected);
        await sleep(500);
        signal(b.proc.pid!, "SIGCONT");
        const ms = await untilServes(a.url, "qa", "v2", 30_000);
        await untilServes(b.url, "qa", "v2", 30_000);
        console.log(`  converged ${ms} ms after B resumed`);
        // One manifest again: an overwrite through A reaches B.
        assert.is((await deployTo(a.url, "qa", taggedWrapper("v3"), { overwrite: true })).status, 200);
        await untilServes(b.url, "qa", "v3");
      } finally {
        await back.stop();
      }
    }));

  test("split: a deploy made after Redis came back empty wins over the older version a paused instance brings back", () =>
    withCluster(async (redis, a, b) => {
      assert.is((await deployTo(a.url, "qa", taggedWrapper("v1"))).status, 200);
      await untilServes(b.url, "qa", "v1");
      signal(a.proc.pid!, "SIGSTOP");
      assert.is((await deployTo(b.url, "qa", taggedWrapper("v2"), { overwrite: true })).status, 200);
      const back = await restartEmpty(redis);
      try {
        // B writes back v2; a deploy through B on the new data set makes v3.
        await eventually("B deploys v3 on the new Redis", async () => (await deployTo(b.url, "qa", taggedWrapper("v3"), { overwrite: true })).status === 200);
        signal(a.proc.pid!, "SIGCONT");
        await untilServes(a.url, "qa", "v3", 30_000);
        await sleep(1500); // A's write-back of v1 (an older version) must not win later
        assert.is(await answerOf(a.url, "qa"), "v3");
        assert.is(await answerOf(b.url, "qa"), "v3");
      } finally {
        await back.stop();
      }
    }));

  test("Redis paused: deploy, undeploy and /executions answer 503 within the deadline; /status and /readyz tell; all recover on SIGCONT; the refused undeploy is not applied later", () =>
    withCluster(async (redis, a, b) => {
      assert.is((await deployTo(a.url, "kept", taggedWrapper("kept"))).status, 200);
      await untilServes(b.url, "kept", "kept");
      assert.is((await json(`${a.url}/readyz`)).status, 200);
      signal(redis.pid, "SIGSTOP");
      try {
        // The default deadline is 2 s; the bounds below leave room for a loaded machine.
        let started = Date.now();
        const deploy = await deployTo(a.url, "fresh", taggedWrapper("fresh"));
        const deployMs = Date.now() - started;
        assert.is(deploy.status, 503);
        assert.is(deploy.body.error.type, "server_error");
        assert.is(deploy.body.error.code, 503);
        assert.match(deploy.body.error.message, /did not answer within 2000 ms/);
        started = Date.now();
        const undeploy = await post(`${b.url}/undeploy/kept`, {});
        const undeployMs = Date.now() - started;
        assert.is(undeploy.status, 503);
        assert.is(undeploy.body.error.code, 503);
        started = Date.now();
        const executions = await json(`${a.url}/executions`, operator);
        const executionsMs = Date.now() - started;
        assert.is(executions.status, 503);
        assert.match(executions.body.error.message, /execution index .* unreachable/);
        console.log(`  during the stall: deploy ${deployMs} ms, undeploy ${undeployMs} ms, /executions ${executionsMs} ms`);
        for (const ms of [deployMs, undeployMs, executionsMs]) assert.ok(ms < 5000, `answered within the deadline plus slack (${ms} ms)`);

        const cluster = await status(a);
        assert.is(cluster.connected, false);
        assert.match(cluster.error, /did not answer/);
        const readyz = await json(`${b.url}/readyz`);
        assert.is(readyz.status, 503);
        assert.is(readyz.body.checks.deploy_state.ready, false);
        assert.is(await answerOf(a.url, "kept"), "kept", "deployed pipelines keep serving");
      } finally {
        signal(redis.pid, "SIGCONT");
      }
      for (const i of [a, b]) {
        await eventually("/status reports Redis connected again", async () => (await status(i)).connected === true, 15_000);
        await eventually("/readyz answers 200 again", async () => (await json(`${i.url}/readyz`)).status === 200, 15_000);
      }
      await sleep(1500);
      // Redis ran the queued undeploy after its deadline: the script refused it.
      for (const i of [a, b]) assert.is(await answerOf(i.url, "kept"), "kept");
      assert.is((await deployTo(a.url, "kept", taggedWrapper("again"))).status, 409, "the manifest still has 'kept'");
      assert.is(await answerOf(b.url, "fresh"), "#404", "the refused deploy is applied nowhere");
      assert.is((await json(`${a.url}/executions`, operator)).status, 200);
      assert.is((await deployTo(a.url, "fresh", taggedWrapper("fresh"))).status, 200);
      await untilServes(b.url, "fresh", "fresh");
    }));

  test("an instance killed with -9 mid-run: the others mark its run failed in the shared execution index", () =>
    withCluster(async (_redis, a, b) => {
      const slow = wrapper(`async runApi() { await new Promise((resolve) => setTimeout(resolve, 120_000)); return "late"; }`);
      assert.is((await deployTo(a.url, "slow", slow)).status, 200);
      const pending = post(`${a.url}/slow/run`, {}).catch(() => undefined);
      const list = async () => (await json(`${b.url}/executions?pipeline=slow`, operator)).body.executions as { id: string; status: string; error: string | null }[];
      await eventually("B lists the run as running", async () => (await list())[0]?.status === "running");
      const [run] = await list();
      await a.stop("SIGKILL");
      await pending;
      const ms = await eventually("B lists the run as failed", async () => (await list())[0]?.status === "failed", 40_000);
      console.log(`  the killed instance's run was marked failed ${ms} ms after the kill`);
      const [after] = await list();
      assert.is(after!.id, run!.id);
      assert.match(after!.error!, /stopped sending heartbeats for over 10 s/);
      const one = await json(`${b.url}/executions/${run!.id}`, operator);
      assert.is(one.body.status, "failed");
      assert.ok(one.body.ended_at !== null && one.body.duration_ms >= 0);
    }));
}

test.run();
