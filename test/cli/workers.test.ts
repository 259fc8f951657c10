import { test } from "uvu";
import * as assert from "uvu/assert";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { repoRoot } from "../helpers/cli.js";
import { answerOf, deployTo, pipelinesDirWith, post, startInstance, stopAll, taggedWrapper, untilServes } from "../helpers/cluster.js";
import { rawRequest } from "../helpers/http.js";

const slowPlugin = join(repoRoot, "test/fixtures/plugins/slow.ts");

async function workerPids(url: string): Promise<Set<number>> {
  const pids = new Set<number>();
  for (let i = 0; i < 20 && pids.size < 2; i++) pids.add(JSON.parse((await rawRequest(`${url}/pid`)).body).pid);
  return pids;
}

async function answers(url: string, name: string, count: number): Promise<string[]> {
  const out: string[] = [];
  for (let i = 0; i < count; i++) out.push(await answerOf(url, name));
  return out;
}

test("--workers 2: deploys, 409s, undeploys and a restarted worker hold on every worker", async () => {
  const dir = pipelinesDirWith({ seeded: taggedWrapper("seeded") });
  const svc = await startInstance({ dir, args: ["--workers", "2", "--plugin", slowPlugin] });
  try {
    await svc.waitFor(/svc listening[^\n]*\n(.|\n)*svc listening/, 60_000);
    assert.is((await workerPids(svc.url)).size, 2, "two workers answer");
    assert.equal(new Set(await answers(svc.url, "seeded", 10)), new Set(["seeded"]), "the startup pipeline on both workers");

    const deployed = await deployTo(svc.url, "qa", taggedWrapper("v1"));
    assert.is(deployed.status, 200);
    assert.equal(new Set(await answers(svc.url, "qa", 40)), new Set(["v1"]), "40 fresh connections all see the deploy");

    for (let i = 0; i < 6; i++) {
      const again = await deployTo(svc.url, "qa", taggedWrapper("v2"));
      assert.is(again.status, 409, "a second deploy without overwrite is refused by every worker");
      assert.equal(again.body, { error: { message: "Pipeline 'qa' already exists", type: "invalid_request_error", code: 409 } });
    }
    assert.is((await deployTo(svc.url, "qa", taggedWrapper("v2"), { overwrite: true })).status, 200);
    assert.equal(new Set(await answers(svc.url, "qa", 20)), new Set(["v2"]));

    // Racing deploys on fresh connections (so on both workers): one create wins; overwrites never deadlock.
    const creates = await Promise.all([1, 2, 3, 4].map((i) => deployTo(svc.url, "race", taggedWrapper(`c${i}`))));
    assert.equal(creates.map((r) => r.status).sort(), [200, 409, 409, 409]);
    const overwrites = await Promise.all([1, 2, 3, 4].map((i) => deployTo(svc.url, "race", taggedWrapper(`o${i}`), { overwrite: true })));
    assert.equal(overwrites.map((r) => r.status), [200, 200, 200, 200]);
    const settled = new Set(await answers(svc.url, "race", 10));
    assert.is(settled.size, 1, `every worker serves the same version: ${[...settled]}`);
    const status = JSON.parse((await rawRequest(`${svc.url}/status`)).body);
    assert.is(status.cluster.mode, "workers");

    // A worker that dies is replaced and comes back with the current pipelines.
    const victim = [...(await workerPids(svc.url))][0]!;
    const mark = svc.output().length;
    process.kill(victim, "SIGKILL");
    await svc.waitFor(/svc listening/, 60_000, mark);
    const pids = await workerPids(svc.url);
    assert.not.ok(pids.has(victim));
    assert.equal(new Set(await answers(svc.url, "qa", 20)), new Set(["v2"]), "the new worker serves the redeployed version");

    const gone = await post(`${svc.url}/undeploy/qa`, {});
    assert.is(gone.status, 200);
    assert.equal(new Set(await answers(svc.url, "qa", 20)), new Set(["#404"]), "undeployed on every worker");
    assert.not.ok(existsSync(join(dir, "qa")), "saved files removed");
    for (let i = 0; i < 4; i++) assert.is((await post(`${svc.url}/undeploy/qa`, {})).status, 404);
    await untilServes(svc.url, "seeded", "seeded");
  } finally {
    await stopAll(svc);
  }
});

test.run();
