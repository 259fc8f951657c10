// Deploys across a crash, with real processes and real signals: a `svc run` child is killed while a
// deploy's slow setup() runs, then started again on the same pipelines directory.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runSvc } from "../helpers/cli.js";
import { answerOf, deployTo, pipelinesDirWith, post, startInstance, taggedWrapper, untilServes, type Instance } from "../helpers/cluster.js";
import { rawRequest } from "../helpers/http.js";
import { tempDir } from "../helpers/pipelines.js";
import { redisSkipReason, startRedis } from "../helpers/redis.js";

/** A wrapper answering `tag` whose setup() logs that it started and then takes two minutes. */
const slowWrapper = (tag: string) =>
  taggedWrapper(tag, `async setup() { console.error("setup of ${tag} started"); await new Promise((r) => setTimeout(r, 120_000)); }`);
/** A wrapper whose setup() kills its own process, as an out-of-memory kill would. */
const killerWrapper = taggedWrapper("killer", `setup() { process.kill(process.pid, "SIGKILL"); }`);

const cache = tempDir("svc-deploy-crash-cache-");
const start = (dir: string, env: Record<string, string> = {}) => startInstance({ dir, env: { XDG_CACHE_HOME: cache, ...env } });
const hidden = (dir: string) => readdirSync(dir).filter((e) => e.startsWith(".svc-"));

/** Starts a deploy of a slow wrapper and resolves once its setup() runs (the request is still open). */
async function deployingSlowly(svc: Instance, name: string, tag: string, extra: Record<string, unknown> = {}) {
  const answer = deployTo(svc.url, name, slowWrapper(tag), extra).catch((error: Error) => ({ status: 0, body: error.message }));
  await svc.waitFor(new RegExp(`setup of ${tag} started`));
  return { answer }; // wrapped: an async function returning the promise itself would wait for it

}

test("kill -9 during a new pipeline's slow setup(): after a restart it is not served and nothing of it is left", async () => {
  const dir = pipelinesDirWith({ keep: taggedWrapper("keep") });
  let svc = await start(dir);
  try {
    const { answer } = await deployingSlowly(svc, "fresh", "fresh");
    await svc.stop("SIGKILL");
    assert.is((await answer).status, 0, "the deploy was never acknowledged");

    svc = await start(dir);
    assert.is(await answerOf(svc.url, "keep"), "keep");
    assert.is(await answerOf(svc.url, "fresh"), "#404");
    assert.not.ok(existsSync(join(dir, "fresh")), "no saved form of an unacknowledged deploy");
    assert.equal(hidden(dir), [], "the staging and live copies the crash left were removed");
    assert.match(svc.output(), /Removed \d+ unfinished deploy folder/);
  } finally {
    await svc.stop("SIGKILL");
  }
});

test("an overwrite keeps serving the old version while the new one loads; SIGTERM or kill -9 mid-load leaves the old one on disk and serving", async () => {
  const dir = pipelinesDirWith({ greet: taggedWrapper("v1") });
  const before = readFileSync(join(dir, "greet", "pipeline_wrapper.ts"), "utf8");
  for (const signal of ["SIGTERM", "SIGKILL"] as const) {
    let svc = await start(dir, { SERVICE_GRACEFUL_SHUTDOWN_TIMEOUT: "1" });
    try {
      const { answer } = await deployingSlowly(svc, "greet", `v2-${signal}`, { overwrite: true });
      assert.is(await answerOf(svc.url, "greet"), "v1", "the old version serves while the new one loads");
      assert.is(readFileSync(join(dir, "greet", "pipeline_wrapper.ts"), "utf8"), before, "the saved form is untouched before the load");
      await svc.stop(signal);
      assert.is.not((await answer).status, 200, `the deploy was not acknowledged (${signal})`);

      svc = await start(dir);
      assert.is(await answerOf(svc.url, "greet"), "v1", `v1 serves after ${signal} and a restart`);
      assert.is(readFileSync(join(dir, "greet", "pipeline_wrapper.ts"), "utf8"), before);
      assert.equal(hidden(dir), []);
    } finally {
      await svc.stop("SIGKILL");
    }
  }
});

test("a crash between the two renames of a commit: the next start puts the saved version back and removes old leftovers", async () => {
  const dir = pipelinesDirWith({ keep: taggedWrapper("keep") });
  // What a process (pid 999999999: never running) killed inside a commit leaves: the saved form moved
  // aside, the new one not yet in place; and an older `.svc-old-` of a previous svc version.
  mkdirSync(join(dir, ".svc-old.999999999.greet.1700000000000"));
  writeFileSync(join(dir, ".svc-old.999999999.greet.1700000000000", "pipeline_wrapper.ts"), taggedWrapper("v1"));
  mkdirSync(join(dir, ".svc-staging.999999999.greet.abc123"));
  writeFileSync(join(dir, ".svc-staging.999999999.greet.abc123", "pipeline_wrapper.ts"), taggedWrapper("v2"));
  mkdirSync(join(dir, ".svc-old-keep-999999999-1700000000000"));
  const svc = await start(dir);
  try {
    assert.is(await answerOf(svc.url, "greet"), "v1");
    assert.is(await answerOf(svc.url, "keep"), "keep");
    assert.equal(hidden(dir), []);
    assert.match(svc.output(), /Pipeline 'greet': a deploy that a crash interrupted had moved its saved files aside/);
  } finally {
    await svc.stop("SIGKILL");
  }
});

test("a setup() that kills its process: a deploy through the API is not saved; on disk it is quarantined after two crashed starts", async () => {
  const dir = pipelinesDirWith({ keep: taggedWrapper("keep") });
  const args = ["run", "--host", "127.0.0.1", "--port", "0", "--pipelines-dir", dir];
  let svc = await start(dir);
  try {
    // Through the API: the process dies in the load, before anything is committed.
    const answer = await deployTo(svc.url, "killer", killerWrapper).catch(() => ({ status: 0 }));
    assert.is(answer.status, 0);
    await svc.exited;
    assert.not.ok(existsSync(join(dir, "killer")));

    // Copied onto disk (as a deploy tool or a volume would): two starts die on it...
    mkdirSync(join(dir, "killer"));
    writeFileSync(join(dir, "killer", "pipeline_wrapper.ts"), killerWrapper);
    for (let i = 0; i < 2; i++) {
      const crashed = await runSvc(args, { env: { XDG_CACHE_HOME: cache } });
      assert.is(crashed.code, null, `start ${i + 1} was killed by its pipeline:\n${crashed.stderr}`);
      assert.not.match(crashed.stderr, /quarantined/);
    }
    // ...the third serves the others and says why 'killer' is not deployed.
    svc = await start(dir);
    assert.is(await answerOf(svc.url, "keep"), "keep");
    assert.is(await answerOf(svc.url, "killer"), "#404");
    assert.match(svc.output(), /Pipeline 'killer' is quarantined and not deployed: loading it took the process down on 2 starts in a row.*delete \S*\.svc-quarantine\.killer/);
    const status = JSON.parse((await rawRequest(`${svc.url}/status`)).body);
    assert.equal(status.quarantined, ["killer"]);
    await svc.stop("SIGTERM");

    // Still quarantined at the next start; a fixed version deployed through the API lifts it.
    svc = await start(dir);
    assert.match(svc.output(), /'killer' is quarantined/);
    assert.is((await deployTo(svc.url, "killer", taggedWrapper("fixed"))).status, 200);
    assert.is(await answerOf(svc.url, "killer"), "fixed");
    assert.not.ok(existsSync(join(dir, ".svc-quarantine.killer")));
    await svc.stop("SIGTERM");
    svc = await start(dir);
    assert.is(await answerOf(svc.url, "killer"), "fixed");
    assert.not.match(svc.output(), /quarantined/);
  } finally {
    await svc.stop("SIGKILL");
  }
});

test("undeploying a quarantined pipeline removes its files and the quarantine", async () => {
  const dir = pipelinesDirWith({ killer: killerWrapper });
  writeFileSync(join(dir, ".svc-quarantine.killer"), JSON.stringify({ crashes: 2, since: new Date().toISOString() }));
  const svc = await start(dir);
  try {
    assert.match(svc.output(), /'killer' is quarantined/);
    assert.is((await post(`${svc.url}/undeploy/killer`, {})).status, 200);
    assert.is((await post(`${svc.url}/undeploy/killer`, {})).status, 404, "gone");
    assert.not.ok(existsSync(join(dir, "killer")));
    assert.equal(hidden(dir), []);
  } finally {
    await svc.stop("SIGKILL");
  }
});

/** setup() kills only the processes started with SVC_TEST_KILL set: the instance that deploys it lives. */
const pickyKiller = taggedWrapper("picky", `setup() { if (process.env.SVC_TEST_KILL) process.kill(process.pid, "SIGKILL"); }`);
const redisSkip = redisSkipReason();

(redisSkip ? test.skip : test)("in a cluster, the manifest version that kills an instance is quarantined there after two crashed starts; a newer version is tried", async () => {
  const redis = await startRedis();
  const a = await start(pipelinesDirWith(), { SERVICE_CLUSTER_REDIS_URL: redis.url });
  const dir = pipelinesDirWith({ keep: taggedWrapper("keep") });
  const clustered = { XDG_CACHE_HOME: cache, SERVICE_CLUSTER_REDIS_URL: redis.url, SVC_TEST_KILL: "1" };
  let b: Instance | undefined;
  try {
    assert.is((await deployTo(a.url, "picky", pickyKiller)).status, 200);
    for (let i = 0; i < 2; i++) {
      const crashed = await runSvc(["run", "--host", "127.0.0.1", "--port", "0", "--pipelines-dir", dir], { env: clustered });
      assert.is(crashed.code, null, `start ${i + 1} was killed by the manifest's pipeline:\n${crashed.stderr}`);
    }
    b = await start(dir, clustered);
    assert.is(await answerOf(b.url, "keep"), "keep");
    assert.is(await answerOf(b.url, "picky"), "#404");
    assert.match(b.output(), /Pipeline 'picky' is quarantined and not deployed/);
    assert.equal(JSON.parse((await rawRequest(`${b.url}/status`)).body).quarantined, ["picky"]);
    assert.is(await answerOf(a.url, "picky"), "picky", "the instance that deployed it still serves it");

    // A newer version from the cluster is tried here, and lifts the quarantine once it loads.
    assert.is((await deployTo(a.url, "picky", taggedWrapper("fixed"), { overwrite: true })).status, 200);
    await untilServes(b.url, "picky", "fixed", 30_000);
    assert.not.ok(existsSync(join(dir, ".svc-quarantine.picky")));
  } finally {
    await b?.stop("SIGKILL");
    await a.stop("SIGKILL");
    await redis.stop();
  }
});

test.run();
