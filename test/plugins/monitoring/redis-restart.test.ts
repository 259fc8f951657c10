import { suite } from "uvu";
import * as assert from "uvu/assert";
import { redisSkipReason, startRedis, type TestRedis } from "../../helpers/redis.js";
import { startMonitored, withMonitored, wrapperWith } from "./helpers.js";

const skip = redisSkipReason();
const redisSuite = suite(skip ? `monitoring with Redis (${skip})` : "monitoring with Redis");
let redis: TestRedis | undefined;

redisSuite.before(async () => {
  if (!skip) redis = await startRedis({ password: "s3cret" });
});
redisSuite.after(async () => {
  await redis?.stop();
});

const echo = wrapperWith(`runApi(input: { fail?: string }) { if (input.fail) throw new Error(input.fail); return "ok"; }`);

(skip ? redisSuite.skip : redisSuite)("records survive a restart: a second svc on the same Redis reads the first one's runs", async () => {
  const settings = { monitoringRedisUrl: redis!.url };
  const first = await startMonitored({ settings });
  let id: string;
  try {
    await first.deploy("echo", echo);
    assert.is((await first.post("/echo/run", {})).status, 200);
    assert.is((await first.post("/echo/run", { fail: "kaput" })).status, 500);
    id = (await first.latest("echo")).id;
    assert.ok(first.logs.some((l) => l.includes("Execution index: Redis")));
  } finally {
    await first.close();
  }
  await withMonitored(
    async (second) => {
      const listed = await second.get("/executions?pipeline=echo");
      assert.is(listed.status, 200);
      assert.equal(listed.body.executions.map((r: any) => r.status), ["failed", "succeeded"]);
      assert.is(listed.body.executions[0].id, id);
      const one = await second.get(`/executions/${id}`);
      assert.equal([one.body.status, one.body.error, one.body.transport], ["failed", "kaput", "rest"]);
    },
    { settings },
  );
});

(skip ? redisSuite.skip : redisSuite)("a wrong password stops startup with a clear message, without the password", async () => {
  const url = redis!.url.replace("s3cret", "wrong-one");
  try {
    const k = await startMonitored({ settings: { monitoringRedisUrl: url } });
    await k.close();
    assert.unreachable("started with a wrong Redis password");
  } catch (error) {
    const message = (error as Error).message;
    assert.match(message, /svc:monitoring/);
    assert.match(message, /Cannot connect to Redis at 127\.0\.0\.1:\d+: the server rejected the credentials/);
    assert.not.match(message, /wrong-one/);
  }
});

redisSuite.run();
