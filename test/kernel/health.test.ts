import { test } from "uvu";
import * as assert from "uvu/assert";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { READINESS, definePlugin, notReady, ready, type KernelPlugin } from "svc/plugin";
import authPlugin from "../../plugins/auth/index.js";
import { addKey } from "../../cli/auth.js";
import { startKernel } from "../helpers/kernel.js";
import { until } from "../helpers/http.js";
import { redisSkipReason, startRedis } from "../helpers/redis.js";
import { tempDir, wrapper } from "../helpers/pipelines.js";

const get = (url: string) => fetch(url).then(async (r) => ({ status: r.status, body: (await r.json()) as any, headers: r.headers }));

test("/healthz answers Up!; /readyz answers Ready with the kernel's checks", async () => {
  const k = await startKernel();
  try {
    assert.equal((await get(`${k.url}/healthz`)).body, { status: "Up!" });
    const readyz = await get(`${k.url}/readyz`);
    assert.is(readyz.status, 200);
    assert.is(readyz.body.status, "Ready");
    assert.equal(Object.keys(readyz.body.checks), ["startup", "shutdown", "deploy_state"]);
    assert.is(readyz.headers.get("cache-control"), "no-store");
  } finally {
    await k.close();
  }
});

test("a plugin's readiness check: failing, hanging past its deadline or throwing makes /readyz 503 with the error body", async () => {
  const state = { mode: "ok" as "ok" | "down" | "hang" | "throw" };
  const plugin: KernelPlugin = definePlugin({
    name: "test-queue",
    setup(kernel) {
      kernel.resolve(READINESS).add(
        "queue",
        () => {
          if (state.mode === "down") return notReady("the queue is disconnected");
          if (state.mode === "throw") throw new Error("probe exploded");
          if (state.mode === "hang") return new Promise(() => undefined);
          return ready();
        },
        { deadlineMs: 200 },
      );
    },
  });
  const k = await startKernel({ plugins: [plugin] });
  try {
    assert.is((await get(`${k.url}/readyz`)).status, 200);
    state.mode = "down";
    const down = await get(`${k.url}/readyz`);
    assert.is(down.status, 503);
    assert.equal(down.body.error, { message: "Not ready: queue: the queue is disconnected", type: "server_error", code: 503 });
    assert.equal(down.body.checks.queue, { ready: false, message: "the queue is disconnected" });
    assert.equal(down.body.checks.startup, { ready: true });
    assert.is((await get(`${k.url}/healthz`)).status, 200, "alive while not ready");
    state.mode = "hang";
    const hung = await get(`${k.url}/readyz`);
    assert.is(hung.status, 503);
    assert.match(hung.body.checks.queue.message, /did not answer within 200 ms/);
    state.mode = "throw";
    assert.match((await get(`${k.url}/readyz`)).body.error.message, /queue: the 'queue' check failed: probe exploded/);
    state.mode = "ok";
    assert.is((await get(`${k.url}/readyz`)).status, 200);
  } finally {
    await k.close();
  }
});

test("a check can be replaced by name and removed", async () => {
  const k = await startKernel();
  try {
    const readiness = k.kernel.readiness;
    const remove = readiness.add("extra", () => notReady("first"));
    readiness.add("extra", () => notReady("second"));
    assert.is((await readiness.report()).checks.extra!.message, "second");
    remove();
    assert.ok(readiness.names.includes("extra"), "removing a replaced check leaves its replacement");
    readiness.add("extra", () => ready())();
    assert.not.ok(readiness.names.includes("extra"));
  } finally {
    await k.close();
  }
});

test("/readyz is 503 while the startup deploys run and while the kernel shuts down", async () => {
  const dir = join(tempDir(), "pipelines");
  mkdirSync(join(dir, "slow"), { recursive: true });
  const gate = `svcReadyzGate${process.pid}`;
  writeFileSync(
    join(dir, "slow", "pipeline_wrapper.ts"),
    wrapper(`runApi() { return 1; }`, `async setup() { await new Promise((r) => ((globalThis as any).${gate} = r)); }`),
  );
  const k = await startKernel({ settings: { pipelinesDir: dir } });
  try {
    const startup = k.kernel.deployer.deployAll();
    await until(() => typeof (globalThis as any)[gate] === "function", 30_000, "the wrapper's setup to start");
    const during = await get(`${k.url}/readyz`);
    assert.is(during.status, 503);
    assert.equal(during.body.checks.startup, { ready: false, message: "deploying the pipelines folder" });
    (globalThis as any)[gate]();
    await startup;
    assert.is((await get(`${k.url}/readyz`)).status, 200);
    const closing = k.close();
    const report = await k.kernel.readiness.report();
    assert.equal(report.checks.shutdown, { ready: false, message: "shutting down: draining requests in flight" });
    await closing;
  } finally {
    delete (globalThis as any)[gate];
    await k.close();
  }
});

test("with svc:auth on, /healthz and /readyz need no key", async () => {
  const file = join(tempDir("svc-auth-"), "keys.yaml");
  await addKey("runner", { scope: "run", keysFile: file });
  const k = await startKernel({ settings: { authKeysFile: file }, plugins: [authPlugin()] });
  try {
    assert.is((await get(`${k.url}/healthz`)).status, 200);
    assert.is((await get(`${k.url}/readyz`)).status, 200);
  } finally {
    await k.close();
  }
});

const noRedis = redisSkipReason();
(noRedis ? test.skip : test)(`cluster mode: /readyz is 503 while Redis is unreachable, 200 again once it is back${noRedis ? ` (${noRedis})` : ""}`, async () => {
  let redis = await startRedis();
  const port = redis.port;
  const k = await startKernel({ settings: { pipelinesDir: join(tempDir(), "pipelines"), clusterRedisUrl: redis.url } });
  try {
    assert.is((await get(`${k.url}/readyz`)).status, 200);
    await redis.stop();
    let body: any;
    for (const start = Date.now(); Date.now() - start < 30_000; await new Promise((r) => setTimeout(r, 100))) {
      const answer = await get(`${k.url}/readyz`);
      if (answer.status === 503) {
        body = answer.body;
        break;
      }
    }
    assert.ok(body, "503 once Redis is gone");
    assert.is(body.checks.deploy_state.ready, false);
    assert.match(body.error.message, /deploy_state: the redis deploy state is unreachable/);
    redis = await startRedis({ port });
    for (const start = Date.now(); Date.now() - start < 30_000; await new Promise((r) => setTimeout(r, 100))) {
      if ((await get(`${k.url}/readyz`)).status === 200) break;
    }
    assert.is((await get(`${k.url}/readyz`)).status, 200, "ready again");
  } finally {
    await k.close();
    await redis.stop();
  }
});

test.run();
