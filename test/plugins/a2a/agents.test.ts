/**
 * svc:a2a driven by the official SDK client: card discovery, SendMessage (completed and failed),
 * SendStreamingMessage (incremental artifact chunks, then completed), GetTask, ListTasks,
 * CancelTask of a running task (the wrapper's signal aborts), referenced tasks as history,
 * skipA2a, card overrides, bad input, and v0.3 requests.
 */
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { Role, TaskState, type StreamResponse } from "@a2a-js/sdk";
import { startKernel } from "../../helpers/kernel.js";
import runsPlugin from "svc/runs";
import a2aPlugin from "svc/a2a";
import { a2aKernel, asTask, clientOf, collect, message, textOf, until } from "./fixtures.js";
import type { PipelineKernel } from "../../helpers/pipelines.js";

const test = suite("a2a agents");
let k: PipelineKernel;

test.before(async () => {
  k = await a2aKernel();
});
test.after(async () => {
  await k.close();
});

const rpc = async (agent: string, body: unknown, headers: Record<string, string> = { "A2A-Version": "1.0" }) => {
  const res = await fetch(`${k.url}/${agent}/`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: typeof body === "string" ? body : JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as any };
};

test("agent card discovery: name, description, one default skill, the JSON-RPC interface; overrides from a2aCard", async () => {
  const client = await clientOf(k.url, "echo");
  const card = await client.getAgentCard();
  assert.is(card.name, "echo");
  assert.is(card.description, "Echoes the conversation");
  assert.is(card.version, "1.0.0");
  assert.is(card.capabilities?.streaming, true);
  assert.equal(card.skills.map((s) => s.id), ["echo"]);
  assert.equal(card.supportedInterfaces.map((i) => [i.url, i.protocolBinding, i.protocolVersion]), [
    [`${k.url}/echo/`, "JSONRPC", "1.0"],
    [`${k.url}/echo/`, "JSONRPC", "0.3"],
  ]);
  assert.is(Object.keys(card.securitySchemes ?? {}).length, 0);
  const carded = await (await fetch(`${k.url}/carded/.well-known/agent-card.json`, { headers: { "A2A-Version": "1.0" } })).json();
  assert.is(carded.name, "Weather Agent");
  assert.is(carded.version, "2.1.0");
  assert.equal(carded.skills, [{ id: "get_weather", name: "Weather Agent", description: "svc pipeline 'carded'", tags: ["weather"], examples: ["Weather in Berlin?"] }]);
  // A v0.3 client (no A2A-Version header) gets the 0.3 shape.
  const legacy = await (await fetch(`${k.url}/echo/.well-known/agent-card.json`)).json();
  assert.is(legacy.protocolVersion, "0.3.0");
  assert.is(legacy.url, `${k.url}/echo/`);
  assert.is(legacy.preferredTransport, "JSONRPC");
});

test("skipA2a, API-only and unknown pipelines are no agents (404 with the error body); undeploy removes an agent at once", async () => {
  for (const name of ["skipped", "api_only", "nope"]) {
    const res = await fetch(`${k.url}/${name}/.well-known/agent-card.json`);
    assert.is(res.status, 404, name);
    assert.match(((await res.json()) as any).error.message, /No A2A agent/);
    assert.is((await rpc(name, { jsonrpc: "2.0", id: 1, method: "GetTask", params: { id: "x" } })).status, 404);
  }
  const res = await fetch(`${k.url}/deploy_files`, { method: "POST", body: JSON.stringify({ name: "late", files: { "pipeline_wrapper.ts": (await import("./fixtures.js")).ECHO }, save_files: false }) });
  assert.is(res.status, 200);
  assert.is((await fetch(`${k.url}/late/.well-known/agent-card.json`)).status, 200);
  assert.is((await fetch(`${k.url}/undeploy/late`, { method: "POST" })).status, 200);
  assert.is((await fetch(`${k.url}/late/.well-known/agent-card.json`)).status, 404);
});

test("SendMessage: the task completes with the wrapper's text as its artifact; a failure is failed with the message; GetTask and ListTasks read them", async () => {
  const client = await clientOf(k.url, "echo");
  const task = asTask(await client.sendMessage(message("hi")));
  assert.is(task.status?.state, TaskState.TASK_STATE_COMPLETED);
  assert.is(textOf(task), "echo: user:hi");
  assert.is(task.artifacts[0]!.name, "response");
  assert.is(task.history.length, 1);
  assert.is(task.history[0]!.role, Role.ROLE_USER);
  assert.is(task.history[0]!.taskId, task.id);
  assert.ok(task.contextId);
  const failed = asTask(await client.sendMessage(message("fail")));
  assert.is(failed.status?.state, TaskState.TASK_STATE_FAILED);
  const reason = failed.status?.message?.parts[0]?.content;
  assert.ok(reason?.$case === "text" && reason.value.includes("boom"), JSON.stringify(reason));
  const read = await client.getTask({ tenant: "", id: task.id, historyLength: 0 });
  assert.is(textOf(read), "echo: user:hi");
  assert.equal(read.history, []);
  const listed = await client.listTasks({ tenant: "", contextId: "", status: TaskState.TASK_STATE_UNSPECIFIED, pageToken: "", statusTimestampAfter: undefined, pageSize: 10 });
  assert.ok(listed.tasks.some((t) => t.id === task.id) && listed.tasks.some((t) => t.id === failed.id));
  const onlyFailed = await client.listTasks({ tenant: "", contextId: "", status: TaskState.TASK_STATE_FAILED, pageToken: "", statusTimestampAfter: undefined, pageSize: 10 });
  assert.equal(onlyFailed.tasks.map((t) => t.id), [failed.id]);
  const byContext = await client.listTasks({ tenant: "", contextId: task.contextId, status: TaskState.TASK_STATE_UNSPECIFIED, pageToken: "", statusTimestampAfter: undefined, pageSize: 10 });
  assert.equal(byContext.tasks.map((t) => t.id), [task.id]);
});

test("ListTasks pages: pageSize tasks per page, newest first, nextPageToken until the last page; totalSize counts every matching task", async () => {
  const deployed = await fetch(`${k.url}/deploy_files`, { method: "POST", body: JSON.stringify({ name: "pager", files: { "pipeline_wrapper.ts": (await import("./fixtures.js")).ECHO }, save_files: false, overwrite: true }) });
  assert.is(deployed.status, 200);
  const client = await clientOf(k.url, "pager");
  const sent: string[] = [];
  for (let i = 0; i < 5; i++) sent.push(asTask(await client.sendMessage(message(`task ${i}`))).id);
  const list = (pageToken: string, extra: { status?: TaskState; contextId?: string } = {}) =>
    client.listTasks({ tenant: "", contextId: extra.contextId ?? "", status: extra.status ?? TaskState.TASK_STATE_UNSPECIFIED, pageToken, statusTimestampAfter: undefined, pageSize: 2, historyLength: 0, includeArtifacts: false });
  const pages = [];
  let token = "";
  do {
    const page = await list(token);
    pages.push(page);
    token = page.nextPageToken;
  } while (token && pages.length < 10);
  assert.equal(pages.map((p) => p.tasks.length), [2, 2, 1]);
  assert.equal(pages.map((p) => p.totalSize), [5, 5, 5]);
  assert.equal(pages.map((p) => p.pageSize), [2, 2, 2]);
  assert.equal(pages.flatMap((p) => p.tasks.map((t) => t.id)), [...sent].reverse());
  // Filters count too: one context, a state no task is in.
  const one = asTask(await client.getTask({ tenant: "", id: sent[2]! }));
  const byContext = await list("", { contextId: one.contextId });
  assert.equal([byContext.tasks.map((t) => t.id), byContext.totalSize, byContext.nextPageToken], [[sent[2]], 1, ""]);
  const none = await list("", { status: TaskState.TASK_STATE_FAILED });
  assert.equal([none.tasks, none.totalSize], [[], 0]);
});

test("referenceTaskIds: the earlier task's conversation and answer become the wrapper's history; its context is kept", async () => {
  const client = await clientOf(k.url, "echo");
  const first = asTask(await client.sendMessage(message("hi")));
  const second = asTask(await client.sendMessage(message("again", { referenceTaskIds: [first.id] })));
  assert.is(textOf(second), "echo: user:hi|assistant:echo: user:hi|user:again");
  assert.is(second.contextId, first.contextId);
});

test("SendStreamingMessage: the task, working, artifact chunks as they come (append, last), then completed", async () => {
  const client = await clientOf(k.url, "streamer");
  const events = await collect(client.sendMessageStream(message("q")));
  const kinds = events.map((e) => e.payload?.$case);
  assert.equal(kinds, ["task", "statusUpdate", "artifactUpdate", "artifactUpdate", "artifactUpdate", "statusUpdate"]);
  const chunks = events.filter((e): e is StreamResponse & { payload: { $case: "artifactUpdate" } } => e.payload?.$case === "artifactUpdate").map((e) => e.payload.value);
  assert.equal(chunks.map((c) => (c.artifact!.parts[0]!.content as { value: string }).value), ["Hello, ", "world", " (q)"]);
  assert.equal(chunks.map((c) => [c.append, c.lastChunk]), [[false, false], [true, false], [true, true]]);
  assert.is(new Set(chunks.map((c) => c.artifact!.artifactId)).size, 1);
  const states = events.flatMap((e) => (e.payload?.$case === "statusUpdate" ? [e.payload.value.status!.state] : []));
  assert.equal(states, [TaskState.TASK_STATE_WORKING, TaskState.TASK_STATE_COMPLETED]);
  const taskId = (events[0]!.payload as { value: { id: string } }).value.id;
  assert.is(textOf(await client.getTask({ tenant: "", id: taskId })), "Hello, world (q)");
});

test("CancelTask of a running task aborts the wrapper's signal and ends it canceled; a subscriber sees the end; an ended task is not cancelable", async () => {
  const client = await clientOf(k.url, "streamer");
  const g = globalThis as { __a2aAborted?: number };
  const before = g.__a2aAborted ?? 0;
  const started = asTask(await client.sendMessage(message("hold", { returnImmediately: true })));
  assert.ok([TaskState.TASK_STATE_SUBMITTED, TaskState.TASK_STATE_WORKING].includes(started.status!.state));
  const working = await until(() => client.getTask({ tenant: "", id: started.id }), (t) => t.status?.state === TaskState.TASK_STATE_WORKING);
  assert.is(working.status?.state, TaskState.TASK_STATE_WORKING);
  const followed = collect(client.resubscribeTask({ tenant: "", id: started.id }));
  await new Promise((r) => setTimeout(r, 100));
  const cancelled = await client.cancelTask({ tenant: "", id: started.id, metadata: undefined });
  assert.is(cancelled.status?.state, TaskState.TASK_STATE_CANCELED);
  assert.is(g.__a2aAborted, before + 1);
  const events = await followed;
  assert.is(events[0]!.payload?.$case, "task");
  const last = events.at(-1)!.payload;
  assert.ok(last?.$case === "statusUpdate" && last.value.status?.state === TaskState.TASK_STATE_CANCELED, JSON.stringify(last));
  let refused: unknown;
  try {
    await client.cancelTask({ tenant: "", id: (asTask(await client.sendMessage(message("done")))).id, metadata: undefined });
  } catch (error) {
    refused = error;
  }
  assert.match(String((refused as Error)?.message), /cannot be cancelled|not cancelable/i);
});

test("bad input: unknown task, a message without text, malformed JSON, a continued task, unknown method; nothing is stored for a refused message", async () => {
  const unknown = await rpc("echo", { jsonrpc: "2.0", id: 1, method: "GetTask", params: { id: "run_0000000000000000000000000000" } });
  assert.is(unknown.status, 200);
  assert.is(unknown.body.error.code, -32001);
  const empty = await rpc("echo", { jsonrpc: "2.0", id: 2, method: "SendMessage", params: { message: { messageId: "e1", role: "ROLE_USER", parts: [] } } });
  assert.match(empty.body.error.message, /no text/);
  const parse = await rpc("echo", "{not json");
  assert.is(parse.body.error.code, -32700);
  const method = await rpc("echo", { jsonrpc: "2.0", id: 3, method: "Nope", params: {} });
  assert.is(method.body.error.code, -32601);
  const done = await rpc("echo", { jsonrpc: "2.0", id: 4, method: "SendMessage", params: { message: { messageId: "c1", role: "ROLE_USER", parts: [{ text: "x" }] } } });
  const taskId = done.body.result.task.id;
  const continued = await rpc("echo", { jsonrpc: "2.0", id: 5, method: "SendMessage", params: { message: { messageId: "c2", role: "ROLE_USER", taskId, parts: [{ text: "y" }] } } });
  assert.match(continued.body.error.message, /referenceTaskIds/);
  // A task of another agent is not this agent's.
  const other = await rpc("streamer", { jsonrpc: "2.0", id: 6, method: "GetTask", params: { id: taskId } });
  assert.is(other.body.error.code, -32001);
  const version = await rpc("echo", { jsonrpc: "2.0", id: 7, method: "GetTask", params: { id: taskId } }, { "A2A-Version": "9.9" });
  assert.match(version.body.error.message, /not supported/);
});

test("v0.3 requests (no A2A-Version header): message/send and tasks/get answer in the 0.3 shape", async () => {
  const sent = await rpc("echo", { jsonrpc: "2.0", id: 1, method: "message/send", params: { message: { kind: "message", messageId: "l1", role: "user", parts: [{ kind: "text", text: "old" }] } } }, {});
  assert.is(sent.status, 200, JSON.stringify(sent.body));
  assert.is(sent.body.result.kind, "task");
  assert.is(sent.body.result.status.state, "completed");
  assert.is(sent.body.result.artifacts[0].parts[0].text, "echo: user:old");
  const read = await rpc("echo", { jsonrpc: "2.0", id: 2, method: "tasks/get", params: { id: sent.body.result.id } }, {});
  assert.is(read.body.result.status.state, "completed");
});

const alone = suite("a2a server app");

alone("GET /status lists the agents when nothing else serves /status", async () => {
  const t = await startKernel({ plugins: [runsPlugin(), a2aPlugin()] });
  try {
    assert.equal(await (await fetch(`${t.url}/status`)).json(), { status: "ok", agents: [] });
  } finally {
    await t.close();
  }
});

alone("SERVICE_A2A_V0_3_COMPAT off: the card has no 0.3 interface and a v0.3 request is refused; the external URL is advertised", async () => {
  const t = await a2aKernel({ settings: { a2aV03Compat: false, a2aExternalUrl: "https://agents.example.com/base/" } });
  try {
    const card = await (await fetch(`${t.url}/echo/.well-known/agent-card.json`)).json();
    assert.equal(card.supportedInterfaces.map((i: any) => [i.url, i.protocolVersion]), [["https://agents.example.com/base/echo/", "1.0"]]);
    const res = await fetch(`${t.url}/echo/`, { method: "POST", body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "message/send", params: { message: { kind: "message", messageId: "l1", role: "user", parts: [{ kind: "text", text: "old" }] } } }) });
    const body = (await res.json()) as any;
    assert.ok(body.error, JSON.stringify(body));
  } finally {
    await t.close();
  }
});

test.run();
alone.run();
