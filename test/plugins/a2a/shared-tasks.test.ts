/**
 * svc:a2a with the rest of svc: svc:auth keys (the card's security schemes, run scope, pipeline
 * lists, tasks seen only by their key), push notifications on the run webhooks' allow-list, and two
 * instances on one real Redis (GetTask, subscription and cancel from the instance that does not
 * run the task; a task whose instance stopped renewing its lease fails).
 */
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { createServer, type IncomingHttpHeaders } from "node:http";
import { join } from "node:path";
import { TaskState, TaskPushNotificationConfig } from "@a2a-js/sdk";
import authPlugin from "../../../plugins/auth/index.js";
import { addKey } from "../../../cli/auth.js";
import { tempDir } from "../../helpers/pipelines.js";
import { redisSkipReason, startRedis } from "../../helpers/redis.js";
import { a2aKernel, asTask, clientOf, collect, message, textOf, until } from "./fixtures.js";

const auth = suite("a2a with svc:auth");

auth("keys: the card names the schemes; no key 401, a key without the pipeline 403; a task is seen by its key and admin only", async () => {
  const file = join(tempDir("svc-a2a-auth-"), "keys.yaml");
  const alice = await addKey("alice", { scope: "run", pipelines: "echo", keysFile: file });
  const bob = await addKey("bob", { scope: "run", keysFile: file });
  const admin = await addKey("ops", { scope: ["admin"], keysFile: file });
  const k = await a2aKernel({ plugins: [authPlugin()], settings: { authKeysFile: file }, headers: { authorization: `Bearer ${admin}` } });
  try {
    const cardRes = await fetch(`${k.url}/echo/.well-known/agent-card.json`, { headers: { "A2A-Version": "1.0" } });
    assert.is(cardRes.status, 200);
    const card = (await cardRes.json()) as any;
    assert.equal(Object.keys(card.securitySchemes).sort(), ["apiKey", "bearer"]);
    assert.is(card.securitySchemes.bearer.httpAuthSecurityScheme.scheme, "Bearer");
    const anonymous = await fetch(`${k.url}/echo/`, { method: "POST", headers: { "A2A-Version": "1.0" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "GetTask", params: { id: "x" } }) });
    assert.is(anonymous.status, 401);
    assert.is(((await anonymous.json()) as any).error.type, "authentication_error");
    const forbidden = await fetch(`${k.url}/streamer/`, { method: "POST", headers: { "A2A-Version": "1.0", authorization: `Bearer ${alice}` }, body: "{}" });
    assert.is(forbidden.status, 403);
    const aliceClient = await clientOf(k.url, "echo", { authorization: `Bearer ${alice}` });
    const task = asTask(await aliceClient.sendMessage(message("mine")));
    assert.is(textOf(task), "echo: user:mine");
    const bobClient = await clientOf(k.url, "echo", { "x-api-key": bob });
    let hidden: unknown;
    try {
      await bobClient.getTask({ tenant: "", id: task.id });
    } catch (error) {
      hidden = error;
    }
    assert.match(String((hidden as Error)?.message), /not found/i);
    const list = await bobClient.listTasks({ tenant: "", contextId: "", status: TaskState.TASK_STATE_UNSPECIFIED, pageToken: "", statusTimestampAfter: undefined, pageSize: 10 });
    assert.equal(list.tasks, []);
    const adminClient = await clientOf(k.url, "echo", { authorization: `Bearer ${admin}` });
    assert.is((await adminClient.getTask({ tenant: "", id: task.id })).id, task.id);
  } finally {
    await k.close();
  }
});

const push = suite("a2a push notifications");

push("a config on SendMessage gets the task as it works and ends, with its token; configs are listed, read and deleted; a URL off the allow-list is refused", async () => {
  const received: { headers: IncomingHttpHeaders; body: any }[] = [];
  const receiver = createServer((req, res) => {
    let text = "";
    req.on("data", (c) => (text += c));
    req.on("end", () => {
      received.push({ headers: req.headers, body: JSON.parse(text) });
      res.end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
  const hook = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hooks/a2a`;
  const k = await a2aKernel({ settings: { webhookAllowedUrls: [`http://127.0.0.1:${(receiver.address() as { port: number }).port}/hooks/`], webhookSecret: "a2a-test-secret" } });
  try {
    const client = await clientOf(k.url, "echo");
    const card = await client.getAgentCard();
    assert.is(card.capabilities?.pushNotifications, true);
    const request = message("notify me");
    request.configuration = { acceptedOutputModes: [], returnImmediately: false, historyLength: undefined, taskPushNotificationConfig: TaskPushNotificationConfig.fromJSON({ url: hook, token: "tok-1" }) };
    const task = asTask(await client.sendMessage(request));
    const got = await until(async () => received, (r) => r.some((n) => n.body.task?.status?.state === "TASK_STATE_COMPLETED"));
    const states = got.map((n) => n.body.task.status.state);
    assert.ok(states.includes("TASK_STATE_WORKING") && states.includes("TASK_STATE_COMPLETED"), JSON.stringify(states));
    const done = got.find((n) => n.body.task.status.state === "TASK_STATE_COMPLETED")!;
    assert.is(done.body.task.id, task.id);
    assert.is(done.body.task.artifacts[0].parts[0].text, "echo: user:notify me");
    assert.is(done.headers["x-a2a-notification-token"], "tok-1");
    assert.match(String(done.headers["content-type"]), /application\/a2a\+json/);
    assert.ok(done.headers["webhook-signature"], "signed as run webhooks are");
    const configs = await client.listTaskPushNotificationConfig({ tenant: "", taskId: task.id, pageSize: 0, pageToken: "" });
    assert.equal(configs.configs.map((c) => [c.url, c.taskId]), [[hook, task.id]]);
    await client.deleteTaskPushNotificationConfig({ tenant: "", taskId: task.id, id: configs.configs[0]!.id });
    // A task that ended keeps its configs (a delete changes nothing then, and is no error).
    const running = asTask(await (await clientOf(k.url, "streamer")).sendMessage(message("hold", { returnImmediately: true })));
    const streamer = await clientOf(k.url, "streamer");
    const created = await streamer.createTaskPushNotificationConfig(TaskPushNotificationConfig.fromJSON({ taskId: running.id, url: hook }));
    assert.ok(created.id);
    assert.equal((await streamer.getTaskPushNotificationConfig({ tenant: "", taskId: running.id, id: created.id })).url, hook);
    let refused: unknown;
    try {
      await streamer.createTaskPushNotificationConfig(TaskPushNotificationConfig.fromJSON({ taskId: running.id, url: "http://169.254.169.254/latest" }));
    } catch (error) {
      refused = error;
    }
    assert.match(String((refused as Error)?.message), /refused: the URL is not in SERVICE_WEBHOOK_ALLOWED_URLS/);
    await streamer.cancelTask({ tenant: "", id: running.id, metadata: undefined });
    await until(async () => received, (r) => r.some((n) => n.body.task?.id === running.id && n.body.task.status.state === "TASK_STATE_CANCELED"));
  } finally {
    await k.close();
    await new Promise((r) => receiver.close(r));
  }
});

push("delivery retries with backoff as run webhooks do: a receiver that fails first gets the same notification again, then the rest", async () => {
  const attempts: { state: string; status: number; id: unknown }[] = [];
  const receiver = createServer((req, res) => {
    let text = "";
    req.on("data", (c) => (text += c));
    req.on("end", () => {
      const status = attempts.length === 0 ? 503 : 200;
      attempts.push({ state: JSON.parse(text).task?.status?.state, status, id: req.headers["webhook-id"] });
      res.statusCode = status;
      res.end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
  const origin = `http://127.0.0.1:${(receiver.address() as { port: number }).port}`;
  const k = await a2aKernel({ settings: { webhookAllowedUrls: [origin], webhookSecret: "a2a-retry-secret", webhookRetrySeconds: 0.05, webhookMaxAttempts: 3 } });
  try {
    const client = await clientOf(k.url, "echo");
    const request = message("retry me", { returnImmediately: true });
    request.configuration!.taskPushNotificationConfig = TaskPushNotificationConfig.fromJSON({ url: `${origin}/hook` });
    const task = asTask(await client.sendMessage(request));
    // The first attempt fails; wait for its retry (after the backoff) and for the completed notification.
    const seen = await until(async () => attempts, (a) => a.some((n) => n.state === "TASK_STATE_COMPLETED" && n.status === 200) && a.filter((n) => n.id === a[0]!.id).length >= 2);
    const failed = seen[0]!;
    assert.is(failed.status, 503);
    const retried = seen.slice(1).filter((n) => n.id === failed.id);
    assert.equal(retried.map((n) => [n.state, n.status]), [[failed.state, 200]], JSON.stringify(seen));
    assert.match(String(failed.id), new RegExp(`^${task.id}\\.`));
    assert.ok(seen.every((n) => n.status === 200 || n === failed), "only the first attempt failed");
  } finally {
    await k.close();
    await new Promise((r) => receiver.close(r));
  }
});

const redisTest = suite("a2a on Redis");
const skip = redisSkipReason();

redisTest("two instances on one Redis: the other instance reads, follows and cancels a task; a task whose instance stops renewing its lease fails", async () => {
  if (skip) return console.log(skip);
  const redis = await startRedis();
  const settings = { clusterRedisUrl: redis.url, runLeaseSeconds: 1 };
  const a = await a2aKernel({ settings });
  const b = await a2aKernel({ settings });
  try {
    const onA = await clientOf(a.url, "streamer");
    const onB = await clientOf(b.url, "streamer");
    const done = asTask(await (await clientOf(a.url, "echo")).sendMessage(message("shared")));
    assert.is(textOf(await (await clientOf(b.url, "echo")).getTask({ tenant: "", id: done.id })), "echo: user:shared");
    const held = asTask(await onA.sendMessage(message("hold", { returnImmediately: true })));
    await until(() => onB.getTask({ tenant: "", id: held.id }), (t) => t.status?.state === TaskState.TASK_STATE_WORKING);
    const followed = collect(onB.resubscribeTask({ tenant: "", id: held.id }));
    await new Promise((r) => setTimeout(r, 200));
    const cancelled = await onB.cancelTask({ tenant: "", id: held.id, metadata: undefined });
    assert.is(cancelled.status?.state, TaskState.TASK_STATE_CANCELED);
    const events = await followed;
    const chunks = events.flatMap((e) => (e.payload?.$case === "artifactUpdate" ? [(e.payload.value.artifact!.parts[0]!.content as { value: string }).value] : []));
    assert.equal(chunks, ["Hello, "]);
    assert.is(events.at(-1)!.payload?.$case, "statusUpdate");
    // The instance running a task stops renewing leases (as if killed): the other fails the task.
    const orphan = asTask(await onA.sendMessage(message("hold", { returnImmediately: true })));
    await until(() => onB.getTask({ tenant: "", id: orphan.id }), (t) => t.status?.state === TaskState.TASK_STATE_WORKING);
    const { RUN_STORE } = await import("svc/runs");
    (a.kernel.resolve(RUN_STORE) as unknown as { abandonLeases(): void }).abandonLeases();
    const failed = await until(() => onB.getTask({ tenant: "", id: orphan.id }), (t) => t.status?.state === TaskState.TASK_STATE_FAILED, 20_000);
    assert.is(failed.status?.state, TaskState.TASK_STATE_FAILED);
    const why = failed.status?.message?.parts[0]?.content;
    assert.ok(why?.$case === "text" && /lease/.test(why.value), JSON.stringify(why));
  } finally {
    await Promise.all([a.close(), b.close()]);
    await redis.stop();
  }
});

auth.run();
push.run();
redisTest.run();
