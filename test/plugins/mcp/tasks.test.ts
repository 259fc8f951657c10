/**
 * MCP tasks (spec 2025-11-25) on the run store, with the SDK's client and its experimental tasks
 * API: a task-augmented call answers with a working task, which completes (or fails) and gives its
 * result through tasks/result; tasks/list and tasks/cancel (the wrapper's signal aborted);
 * notifications/tasks/status on a session; owner scoping by API key; ttl; bad input with the spec's
 * -32602; without svc:runs a task-augmented call is a plain one; two instances on one Redis share tasks.
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { CallToolResultSchema, CreateTaskResultSchema, TaskStatusNotificationSchema, type Task } from "@modelcontextprotocol/sdk/types.js";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { Client as SdkClient } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import runsPlugin, { MemoryRunStore } from "svc/runs";
import { Logger } from "svc/plugin";
import { ToolServer, ToolTasks } from "svc/mcp";
import authPlugin from "../../../plugins/auth/index.js";
import { addKey } from "../../../cli/auth.js";
import { untilValue } from "../../helpers/http.js";
import { tempDir, wrapper } from "../../helpers/pipelines.js";
import { redisSkipReason, startRedis } from "../../helpers/redis.js";
import { ECHO, FAILING, STREAMING, httpClient, sseClient, startMcpKernel, text, withMcpKernel, type McpKernel } from "./fixtures.js";

const test = suite("mcp tasks");

/** Runs until its signal fires, and counts the aborts it saw (on globalThis: the test reads it). */
const HOLDING = wrapper(
  `runApi(_input: unknown, ctx: { signal: AbortSignal }) {
    const g = globalThis as any;
    g.__mcpTaskStarted = (g.__mcpTaskStarted ?? 0) + 1;
    return new Promise((_resolve, reject) => ctx.signal.addEventListener("abort", () => {
      g.__mcpTaskAborted = (g.__mcpTaskAborted ?? 0) + 1;
      reject(new Error("aborted"));
    }, { once: true }));
  }`,
);
const g = globalThis as { __mcpTaskAborted?: number; __mcpTaskStarted?: number };

async function deployAll(k: McpKernel): Promise<void> {
  await k.deployWrapper("echo", ECHO);
  await k.deployWrapper("fail", FAILING);
  await k.deployWrapper("stream", STREAMING);
  await k.deployWrapper("hold", HOLDING);
}

/** The JSON-RPC error code of a rejected request. */
async function errorCode(promise: Promise<unknown>): Promise<number> {
  try {
    await promise;
  } catch (error) {
    return (error as { code: number }).code;
  }
  throw new Error("expected the request to fail");
}

async function createTask(client: Client, name: string, args: Record<string, unknown>, ttl?: number): Promise<Task> {
  const result = await client.request({ method: "tools/call", params: { name, arguments: args, task: ttl === undefined ? {} : { ttl } } }, CreateTaskResultSchema);
  return result.task;
}

const untilStatus = (client: Client, id: string, ok: (t: Task) => boolean) => untilValue(() => client.experimental.tasks.getTask(id) as Promise<Task>, ok, 20_000);

test("a task-augmented call answers with a working task; it completes, tasks/result gives the tool's result, tasks/list lists it", async () => {
  await withMcpKernel(
    async (k) => {
      await deployAll(k);
      const { client } = await httpClient(k.url);
      try {
        assert.ok(client.getServerCapabilities()?.tasks?.requests?.tools?.call, "the server declares task-augmented tools/call");
        const { tools } = await client.listTools();
        assert.is(tools.find((t) => t.name === "echo")?.execution?.taskSupport, "optional");
        // The SDK's streaming helper: taskCreated, status polls, then the result.
        const seen: string[] = [];
        let result: any;
        for await (const message of client.experimental.tasks.callToolStream({ name: "echo", arguments: { text: "hi", delay_ms: 200 } }, CallToolResultSchema, { task: { ttl: 60_000 } })) {
          seen.push(message.type);
          if (message.type === "taskCreated") {
            assert.is(message.task.status, "working");
            assert.is(message.task.ttl, 60_000);
            assert.match(message.task.taskId, /^run_/);
          }
          if (message.type === "result") result = message.result;
          if (message.type === "error") throw message.error;
        }
        assert.is(seen[0], "taskCreated");
        assert.is(seen.at(-1), "result");
        assert.equal(JSON.parse(text(result)), { echo: "hi" });
        // The same by hand: get, result, list.
        const task = await createTask(client, "stream", {});
        const done = await untilStatus(client, task.taskId, (t) => t.status === "completed");
        assert.is(done.createdAt, task.createdAt);
        assert.ok(typeof done.pollInterval === "number");
        const payload = await client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
        assert.is(text(payload), "abc");
        assert.is((payload._meta as any)?.["io.modelcontextprotocol/related-task"]?.taskId, task.taskId);
        const listed = await client.experimental.tasks.listTasks();
        assert.ok(listed.tasks.some((t) => t.taskId === task.taskId && t.status === "completed"));
        // A task is a run of kind mcp: the REST API shows it with its output events.
        const run = (await (await fetch(`${k.url}/runs/${task.taskId}`)).json()) as any;
        assert.is(run.kind, "mcp");
        assert.is(run.pipeline, "stream");
        const events = await (await fetch(`${k.url}/runs/${task.taskId}/events`)).text();
        assert.is(events.match(/event: run\.output/g)?.length, 3, events);
        // A plain call of the same tool is still a plain call.
        assert.is(text(await client.callTool({ name: "stream", arguments: {} })), "abc");
      } finally {
        await client.close();
      }
    },
    {},
    [runsPlugin()],
  );
});

test("a tool failing makes a failed task whose result is the isError result; a cancel aborts the wrapper's signal (session and SSE: status notifications)", async () => {
  for (const mode of ["session", "sse"] as const) await withMcpKernel(
    async (k) => {
      await deployAll(k);
      const client = mode === "sse" ? await sseClient(k.url) : (await httpClient(k.url)).client;
      const statuses: Task[] = [];
      client.setNotificationHandler(TaskStatusNotificationSchema, (n) => void statuses.push(n.params as Task));
      try {
        const failing = await createTask(client, "fail", {});
        const failed = await untilStatus(client, failing.taskId, (t) => t.status === "failed");
        assert.match(failed.statusMessage ?? "", /the pipeline broke/);
        const payload = await client.experimental.tasks.getTaskResult(failing.taskId, CallToolResultSchema);
        assert.is(payload.isError, true);
        assert.match(text(payload), /the pipeline broke/);

        const before = g.__mcpTaskAborted ?? 0;
        const started = g.__mcpTaskStarted ?? 0;
        const held = await createTask(client, "hold", {});
        await untilValue(async () => g.__mcpTaskStarted ?? 0, (n) => n > started);
        assert.is((await client.experimental.tasks.getTask(held.taskId)).status, "working");
        const cancelled = await client.experimental.tasks.cancelTask(held.taskId);
        assert.is(cancelled.status, "cancelled", "the task is cancelled before the answer");
        assert.is(g.__mcpTaskAborted, before + 1, "the wrapper's signal was aborted");
        assert.is((await client.experimental.tasks.getTask(held.taskId)).status, "cancelled");
        // Cancelling again: it is final (-32602).
        assert.is(await errorCode(client.experimental.tasks.cancelTask(held.taskId)), -32602);
        // The session heard each task end.
        const ends = await untilValue(async () => statuses.map((t) => `${t.taskId}:${t.status}`), (s) => s.length >= 2);
        assert.ok(ends.includes(`${failing.taskId}:failed`), ends.join());
        assert.ok(ends.includes(`${held.taskId}:cancelled`), `${mode}: ${ends.join()}`);
      } finally {
        await client.close();
      }
    },
    { mcpStateful: true },
    [runsPlugin()],
  );
});

test("bad input: unknown task ids, a bad cursor and an unknown tool are -32602; the ttl is capped by the retention and honoured", async () => {
  await withMcpKernel(
    async (k) => {
      await deployAll(k);
      const { client } = await httpClient(k.url);
      try {
        const tasks = client.experimental.tasks;
        for (const id of ["nope", "run_00000000000000000000000000ff"]) {
          assert.is(await errorCode(tasks.getTask(id)), -32602, `tasks/get ${id}`);
          assert.is(await errorCode(tasks.getTaskResult(id, CallToolResultSchema)), -32602, `tasks/result ${id}`);
          assert.is(await errorCode(tasks.cancelTask(id)), -32602, `tasks/cancel ${id}`);
        }
        assert.is(await errorCode(tasks.listTasks("not-a-cursor")), -32602);
        assert.is(await errorCode(createTask(client, "no_such_tool", {})), -32602);
        // Another kind of run (a REST run) is not a task.
        const rest = (await (await fetch(`${k.url}/echo/runs`, { method: "POST", body: JSON.stringify({ text: "x" }) })).json()) as { id: string };
        assert.is(await errorCode(tasks.getTask(rest.id)), -32602);
        // At most the retention (60 s here); a short ttl ends the task's life.
        assert.is((await createTask(client, "echo", { text: "a" }, 10 * 86_400_000)).ttl, 60_000);
        const short = await createTask(client, "echo", { text: "b" }, 1500);
        assert.is(short.ttl, 1500);
        await untilStatus(client, short.taskId, (t) => t.status === "completed");
        await untilValue(() => errorCode(tasks.getTask(short.taskId)).catch(() => 0), (code) => code === -32602, 20_000);
        assert.ok(!(await tasks.listTasks()).tasks.some((t) => t.taskId === short.taskId));
      } finally {
        await client.close();
      }
    },
    { runRetentionSeconds: 60 },
    [runsPlugin()],
  );
});

test("without svc:runs a task-augmented call is answered as a plain call, and tasks/get is not a method", async () => {
  for (const mcpStateful of [false, true]) {
    await withMcpKernel(
      async (k) => {
        await deployAll(k);
        const { client } = await httpClient(k.url);
        try {
          assert.is(client.getServerCapabilities()?.tasks, undefined);
          assert.is((await client.listTools()).tools.find((t) => t.name === "echo")?.execution, undefined);
          const result = await client.request({ method: "tools/call", params: { name: "echo", arguments: { text: "plain" }, task: { ttl: 1000 } } }, CallToolResultSchema);
          assert.equal(JSON.parse(text(result)), { echo: "plain" }, `stateful: ${mcpStateful}`);
          assert.is(await errorCode(client.request({ method: "tasks/get", params: { taskId: "x" } } as never, CallToolResultSchema)), -32601);
        } finally {
          await client.close();
        }
      },
      { mcpStateful },
    );
  }
});

test("with svc:auth a key sees only its own tasks (admin: all), stateless and in sessions", async () => {
  const file = join(tempDir("svc-mcp-tasks-"), "keys.yaml");
  const a = await addKey("alice", { scope: "run", keysFile: file });
  const b = await addKey("bob", { scope: "run", keysFile: file });
  const admin = await addKey("ops", { scope: ["admin"], keysFile: file });
  for (const mcpStateful of [false, true]) await withMcpKernel(
    async (k) => {
      await deployAll(k);
      const as = async (key: string) => (await httpClient(k.url, { authorization: `Bearer ${key}` })).client;
      const [alice, bob, ops] = await Promise.all([as(a), as(b), as(admin)]);
      try {
        const task = await createTask(alice, "echo", { text: "mine" });
        await untilStatus(alice, task.taskId, (t) => t.status === "completed");
        assert.is(await errorCode(bob.experimental.tasks.getTask(task.taskId)), -32602);
        assert.is(await errorCode(bob.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema)), -32602);
        assert.is(await errorCode(bob.experimental.tasks.cancelTask(task.taskId)), -32602);
        assert.ok(!(await bob.experimental.tasks.listTasks()).tasks.some((t) => t.taskId === task.taskId));
        assert.ok((await alice.experimental.tasks.listTasks()).tasks.some((t) => t.taskId === task.taskId));
        assert.is((await ops.experimental.tasks.getTask(task.taskId)).status, "completed");
      } finally {
        await Promise.all([alice.close(), bob.close(), ops.close()]);
      }
    },
    { authKeysFile: file, mcpStateful },
    [runsPlugin(), authPlugin()],
  );
});

test("a ToolServer of one's own serves tasks from a run store; a tool with taskSupport forbidden refuses them with -32601", async () => {
  const log = new Logger("ERROR");
  const store = new MemoryRunStore({ retentionMs: 60_000, maxEvents: 100, leaseMs: 10_000, maxRuns: 100 });
  const tasks = new ToolTasks({ store, log, maxTtlMs: 60_000, pollIntervalMs: 50 });
  const tools = new ToolServer({ logger: log, tasks });
  tools.addTool(({ n }) => Number(n) * 2, { name: "double" });
  tools.addTool(() => "quick", { name: "quick", taskSupport: "forbidden" });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await tools.connect(serverSide);
  const client = new SdkClient({ name: "t", version: "1" });
  const ended: Task[] = [];
  client.setNotificationHandler(TaskStatusNotificationSchema, (n) => void ended.push(n.params as Task));
  await client.connect(clientSide);
  try {
    const listed = (await client.listTools()).tools;
    assert.equal(listed.map((t) => [t.name, t.execution?.taskSupport]), [["double", "optional"], ["quick", "forbidden"]]);
    const task = await createTask(client, "double", { n: 21 });
    assert.is(task.pollInterval, 50);
    assert.is(text(await client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema)), "42");
    await untilValue(async () => ended, (e) => e.some((t) => t.taskId === task.taskId && t.status === "completed"));
    assert.is(await errorCode(createTask(client, "quick", {})), -32601);
    assert.is(text(await client.callTool({ name: "quick", arguments: {} })), "quick");
  } finally {
    await client.close();
    await tasks.close();
    await tools.close();
    await store.close();
  }
});

const redisTest = suite("mcp tasks on Redis");
const skip = redisSkipReason();

redisTest("two instances on one Redis: a task made on one is read, listed and cancelled on the other", async () => {
  if (skip) return console.log(skip);
  const redis = await startRedis();
  const settings = { clusterRedisUrl: redis.url };
  const a = await startMcpKernel(settings, [runsPlugin()]);
  const b = await startMcpKernel(settings, [runsPlugin()]);
  const clients: Client[] = [];
  try {
    // Deployments are shared through Redis too: B gets A's.
    await deployAll(a);
    const onA = (await httpClient(a.url)).client;
    const onB = (await httpClient(b.url)).client;
    clients.push(onA, onB);
    await untilValue(() => onB.listTools(), (r) => r.tools.some((t) => t.name === "hold"), 20_000);
    const task = await createTask(onA, "echo", { text: "shared", delay_ms: 100 });
    const done = await untilStatus(onB, task.taskId, (t) => t.status === "completed");
    assert.is(done.taskId, task.taskId);
    assert.equal(JSON.parse(text(await onB.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema))), { echo: "shared" });
    assert.ok((await onB.experimental.tasks.listTasks()).tasks.some((t) => t.taskId === task.taskId));
    // A held task runs on A; B cancels it: A's wrapper is aborted.
    const before = g.__mcpTaskAborted ?? 0;
    const started = g.__mcpTaskStarted ?? 0;
    const held = await createTask(onA, "hold", {});
    await untilValue(async () => g.__mcpTaskStarted ?? 0, (n) => n > started);
    const cancelled = await onB.experimental.tasks.cancelTask(held.taskId);
    assert.is(cancelled.status, "cancelled");
    assert.is(g.__mcpTaskAborted, before + 1);
    assert.is((await onA.experimental.tasks.getTask(held.taskId)).status, "cancelled");
  } finally {
    await Promise.all(clients.map((c) => c.close()));
    await Promise.all([a.close(), b.close()]);
    await redis.stop();
  }
});

test.run();
redisTest.run();
