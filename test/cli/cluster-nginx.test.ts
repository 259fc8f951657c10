/**
 * The worked example of docs/several-instances.md, run: three `svc run` instances sharing a real
 * Redis behind Debian's nginx, configured with that page's nginx block.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import type { ChildProcess } from "node:child_process";
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { repoRoot } from "../helpers/cli.js";
import { answerOf, deployTo, post, startInstance, stopAll, taggedWrapper, type Instance } from "../helpers/cluster.js";
import { nginxSkipReason, startNginx, stopNginx, unprivileged } from "../helpers/nginx.js";
import { tempDir } from "../helpers/pipelines.js";
import { freePort, redisSkipReason, startRedis } from "../helpers/redis.js";

const skip = redisSkipReason() ?? nginxSkipReason();

/** The docs' nginx configuration with this test's ports, and paths a non-root nginx may write. */
function docsConfig(ports: number[], listen: number, dir: string): string {
  const page = readFileSync(join(repoRoot, "docs/several-instances.md"), "utf8");
  const block = /<!-- example: nginx-conf[^>]*-->\n```nginx\n([\s\S]*?)```/.exec(page)?.[1];
  if (!block) throw new Error("docs/several-instances.md: no nginx block marked <!-- example: nginx-conf -->");
  let config = block;
  for (const [i, port] of [1416, 1426, 1436].entries()) config = config.replaceAll(`127.0.0.1:${port}`, `127.0.0.1:${ports[i]}`);
  return unprivileged(config.replace(/listen 8080;/, `listen 127.0.0.1:${listen};`), dir);
}

test(skip ? `skipped: ${skip}` : "three instances behind nginx: deploys through the balancer are served on every connection", async () => {
  if (skip) return;
  const redis = await startRedis();
  const instances: Instance[] = [];
  let nginx: ChildProcess | undefined;
  try {
    for (let i = 0; i < 3; i++) instances.push(await startInstance({ redisUrl: redis.url }));
    const dir = tempDir("svc-nginx-");
    mkdirSync(join(dir, "logs"));
    const port = await freePort();
    nginx = await startNginx(docsConfig(instances.map((i) => i.port), port, dir), dir, async () => (await answerOf(`http://127.0.0.1:${port}`, "status")) !== "#0");
    const lb = `http://127.0.0.1:${port}`;

    const servedEverywhere = async (expected: string) => {
      // The deploying instance serves at once, the others within a moment: wait for 30 in a row.
      const deadline = Date.now() + 15_000;
      let streak = 0;
      while (streak < 30) {
        if (Date.now() > deadline) throw new Error(`not served as '${expected}' on every connection`);
        streak = (await answerOf(lb, "greet")) === expected ? streak + 1 : 0;
      }
    };
    assert.is((await deployTo(lb, "greet", taggedWrapper("hello"))).status, 200);
    await servedEverywhere("hello");
    for (const instance of instances) assert.is(await answerOf(instance.url, "greet"), "hello", "each instance serves it");
    for (let i = 0; i < 6; i++) assert.is((await deployTo(lb, "greet", taggedWrapper("again"))).status, 409);
    assert.is((await deployTo(lb, "greet", taggedWrapper("bonjour"), { overwrite: true })).status, 200);
    await servedEverywhere("bonjour");
    assert.is((await post(`${lb}/undeploy/greet`, {})).status, 200);
    await servedEverywhere("#404");
  } finally {
    await stopNginx(nginx);
    await stopAll(...instances);
    await redis.stop();
  }
});

test.run();
