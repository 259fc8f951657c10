import { test } from "uvu";
import * as assert from "uvu/assert";
import { createServer } from "node:http";
import { createContainer } from "svc/internal";
import { definePlugin, EXECUTION_INDEX, requestState, type ExecutionIndex, type Span } from "svc/plugin";
import { MemoryExecutionIndex } from "../../../plugins/monitoring/memory-index.js";
import { defaultPluginSpecs, mcpPluginSpecs } from "../../../cli/default-plugins.js";
import { loadLauncherSettings } from "../../../cli/cli-settings.js";
import { openRequest, until } from "../../helpers/http.js";
import { startKernel } from "../../helpers/kernel.js";
import managementPlugin from "../../../plugins/management/index.js";
import runApiPlugin from "../../../plugins/run-api/index.js";
import monitoringPlugin from "../../../plugins/monitoring/index.js";
import { closedGate, withMonitored, wrapperWith } from "./helpers.js";
import { record } from "./index-contract.js";

const echo = wrapperWith(`runApi(input: { fail?: string; http?: boolean }) {
    if (input.http) throw new HttpError(422, "no answer found");
    if (input.fail) throw new Error(input.fail);
    return { ok: true };
  }`);

test("a REST run gets a succeeded record with every field; GET /executions/{id} returns it", () =>
  withMonitored(async (k) => {
    await k.deploy("echo", echo);
    const run = await k.post("/echo/run", {});
    assert.is(run.status, 200);
    const listed = await k.latest("echo");
    const done = await k.waitFor(listed.id, (r) => r.status !== "running");
    assert.equal(Object.keys(done).sort(), ["duration_ms", "ended_at", "error", "id", "method", "pipeline", "request_id", "started_at", "status", "trace_id", "transport"]);
    assert.is(done.pipeline, "echo");
    assert.is(done.transport, "rest");
    assert.is(done.method, "runApi");
    assert.is(done.status, "succeeded");
    assert.is(done.error, null);
    assert.is(done.trace_id, null);
    assert.is(done.request_id, run.headers.get("x-request-id"));
    assert.ok(typeof done.duration_ms === "number" && done.duration_ms >= 0);
    assert.ok(Date.parse(done.ended_at) >= Date.parse(done.started_at));
    assert.match(done.id, /^[0-9a-z]{19}$/);
  }));

test("failures are recorded with their message; HttpError too; the answer is unchanged", () =>
  withMonitored(async (k) => {
    await k.deploy("echo", echo);
    const failed = await k.post("/echo/run", { fail: "This is a test error" });
    assert.is(failed.status, 500);
    const record = await k.waitFor((await k.latest("echo")).id, (r) => r.status !== "running");
    assert.is(record.status, "failed");
    assert.is(record.error, "This is a test error");
    assert.is((await k.post("/echo/run", { http: true })).status, 422);
    const http = await k.waitFor((await k.latest("echo")).id, (r) => r.status !== "running");
    assert.equal([http.status, http.error], ["failed", "no answer found"]);
  }));

test("a streamed run is running while its stream is open and succeeds when it ends", () =>
  withMonitored(async (k) => {
    await k.deploy("streamer", wrapperWith(`async *runApi() { yield "first "; await gate("stream-open"); yield "last"; }`));
    const open = closedGate("stream-open");
    const res = await fetch(`${k.url}/streamer/run`, { method: "POST", body: "{}" });
    const reader = res.body!.getReader();
    const first = await reader.read();
    assert.match(new TextDecoder().decode(first.value), /first/);
    const running = await k.latest("streamer");
    assert.is(running.status, "running");
    assert.is(running.ended_at, null);
    open();
    while (!(await reader.read()).done);
    const done = await k.waitFor(running.id, (r) => r.status !== "running");
    assert.is(done.status, "succeeded");
  }));

test("a client that leaves mid-stream cancels the run; one that leaves during a plain run too", () =>
  withMonitored(async (k) => {
    await k.deploy("endless", wrapperWith(`async *runApi() { for (let i = 0; ; i++) { yield "tick "; await new Promise((r) => setTimeout(r, 5)); } }`));
    const req = openRequest(`${k.url}/endless/run`, { method: "POST" });
    req.end("{}");
    await new Promise<void>((resolve) => req.once("response", (res) => res.once("data", () => resolve())));
    req.destroy();
    const streamed = await k.waitFor((await k.latest("endless")).id, (r) => r.status !== "running");
    assert.is(streamed.status, "cancelled");

    await k.deploy("waiter", wrapperWith(`async runApi(_: unknown, ctx: any) {
      await new Promise((_, reject) => ctx.signal.addEventListener("abort", () => reject(new Error("client went away"))));
    }`));
    const plain = openRequest(`${k.url}/waiter/run`, { method: "POST" });
    plain.on("error", () => undefined);
    plain.end("{}");
    const running = await (async () => {
      for (let i = 0; i < 500; i++) {
        const r = await k.latest("waiter");
        if (r) return r;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      throw new Error("no record for waiter");
    })();
    plain.destroy();
    const cancelled = await k.waitFor(running.id, (r) => r.status !== "running");
    assert.is(cancelled.status, "cancelled");
    assert.is(cancelled.error, "client went away");

    // A run that ignores the signal and completes after its client left: no one got the answer.
    const open = closedGate("stubborn");
    await k.deploy("stubborn", wrapperWith(`async runApi() { await gate("stubborn"); return "too late"; }`));
    const stubborn = openRequest(`${k.url}/stubborn/run`, { method: "POST" });
    stubborn.on("error", () => undefined);
    stubborn.end("{}");
    let started: any;
    for (let i = 0; i < 500 && !(started = await k.latest("stubborn")); i++) await new Promise((resolve) => setTimeout(resolve, 10));
    stubborn.destroy();
    await new Promise((resolve) => setTimeout(resolve, 50));
    open();
    const late = await k.waitFor(started.id, (r) => r.status !== "running");
    assert.is(late.status, "cancelled");
    assert.match(late.error, /client left before the answer was sent/);
  }));

/** A test tracer's span: the trace id as a property, or OpenTelemetry-style through spanContext(). */
const spanWith = (ids: Partial<{ traceId: string; otel: string }>): Span =>
  Object.assign(
    { name: "test", setTag: () => spanWith(ids), setTags: () => spanWith(ids), end: () => undefined },
    ids.traceId ? { traceId: ids.traceId } : {},
    ids.otel ? { spanContext: () => ({ traceId: ids.otel, spanId: "0000000000000001" }) } : {},
  ) as Span;

test("the trace id comes from the run's span when the tracer exposes one", () => {
  const spans = [spanWith({ traceId: "trace-a" }), spanWith({ otel: "4bf92f3577b34da6a3ce929d0e0e4736" })];
  let n = 0;
  const spanning = definePlugin({
    name: "test:spans",
    setup(kernel) {
      kernel.hooks.run.tap((_call, next) => next({ span: spans[n++ % spans.length] }));
    },
  });
  return withMonitored(
    async (k) => {
      await k.deploy("echo", echo);
      await k.post("/echo/run", {});
      assert.is((await k.latest("echo")).trace_id, "trace-a");
      await k.post("/echo/run", {});
      assert.is((await k.latest("echo")).trace_id, "4bf92f3577b34da6a3ce929d0e0e4736");
    },
    { before: [spanning] },
  );
});

test("operator access: none → 401, a wrong token → 403, on the list and on one record", () =>
  withMonitored(async (k) => {
    await k.deploy("echo", echo);
    await k.post("/echo/run", {});
    const id = (await k.latest("echo")).id;
    for (const path of ["/executions", `/executions/${id}`]) {
      const none = await k.get(path, {});
      assert.is(none.status, 401);
      assert.equal(none.body.error, { message: "Operator access is required.", type: "authentication_error", code: 401 });
      const wrong = await k.get(path, { authorization: "Bearer nope" });
      assert.is(wrong.status, 403);
      assert.is(wrong.body.error.type, "permission_error");
    }
  }));

test("without a host policy the kernel's traces policy applies: trusted middleware's tracing_operator grants access", async () => {
  const k = await startKernel({ plugins: [managementPlugin(), runApiPlugin(), monitoringPlugin()] });
  const trusted = createServer((req, res) => {
    if (req.headers["x-trusted-test-proxy"] === "verified") requestState(req).tracing_operator = true;
    k.kernel.handler(req, res);
  });
  await new Promise<void>((resolve) => trusted.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(trusted.address() as { port: number }).port}`;
  try {
    assert.is((await fetch(`${url}/executions`)).status, 401);
    const ok = await fetch(`${url}/executions`, { headers: { "x-trusted-test-proxy": "verified" } });
    assert.is(ok.status, 200);
    assert.equal(await ok.json(), { executions: [], has_more: false, next_cursor: null });
  } finally {
    trusted.closeAllConnections();
    await new Promise((resolve) => trusted.close(resolve));
    await k.close();
  }
});

test("query validation: 400 in the spec's error body; unknown or malformed ids 404", () =>
  withMonitored(async (k) => {
    for (const query of ["limit=0", "limit=abc", "limit=-1", "limit=1.5", "status=done", "pipeline=", "cursor=nope", "cursor=ZTEuMTIz", "limit=1&limit=2"]) {
      const res = await k.get(`/executions?${query}`);
      assert.is(res.status, 400, query);
      assert.is(res.body.error.type, "invalid_request_error", query);
      assert.is(res.body.error.code, 400, query);
      assert.match(res.body.error.message, /^Invalid query parameters: /, query);
    }
    assert.match((await k.get("/executions?status=done")).body.error.message, /status: must be one of running, succeeded, failed, cancelled/);
    for (const id of ["0000000000000000000", "not-an-id"]) {
      const res = await k.get(`/executions/${id}`);
      assert.is(res.status, 404);
      assert.is(res.body.error.message, `Execution '${id}' not found`);
    }
  }));

test("a host's index is used; limit defaults to 25 and is capped at 100; the cursor pages; filters apply", async () => {
  const index = new MemoryExecutionIndex({ maxRecords: 1000, retentionMs: 3_600_000 });
  for (let i = 0; i < 130; i++) await index.recordStart(record({ pipeline: i % 2 ? "odd" : "even", status: i % 5 ? "succeeded" : "failed" }));
  const container = createContainer();
  container.register(EXECUTION_INDEX, { useValue: index });
  await withMonitored(
    async (k) => {
      const first = await k.get("/executions");
      assert.is(first.body.executions.length, 25);
      assert.is(first.body.has_more, true);
      const capped = await k.get("/executions?limit=1000");
      assert.is(capped.body.executions.length, 100);
      const ids: string[] = [];
      let cursor: string | null = null;
      do {
        const page: any = await k.get(`/executions?limit=40${cursor ? `&cursor=${cursor}` : ""}`);
        assert.is(page.status, 200);
        ids.push(...page.body.executions.map((r: any) => r.id));
        cursor = page.body.next_cursor;
        assert.is(page.body.has_more, cursor !== null);
      } while (cursor);
      assert.is(ids.length, 130);
      assert.equal(ids, [...ids].sort().reverse(), "newest first");
      const filtered = await k.get("/executions?pipeline=odd&status=failed&transport=rest&limit=100");
      assert.is(filtered.body.executions.length, 13);
      assert.ok(filtered.body.executions.every((r: any) => r.pipeline === "odd" && r.status === "failed"));
      assert.is((await k.get("/executions?transport=mcp")).body.executions.length, 0);
    },
    { container },
  );
});

test("an index that fails or never answers does not break or hold up a run; the failure is logged once", async () => {
  const failing: ExecutionIndex = {
    recordStart: async () => {
      throw new Error("index down");
    },
    recordFinish: async () => {
      throw new Error("index down");
    },
    get: async () => undefined,
    list: async () => ({ executions: [], next: null }),
  };
  const stuck: ExecutionIndex = { ...failing, recordStart: () => new Promise(() => undefined), recordFinish: () => new Promise(() => undefined) };
  for (const index of [failing, stuck]) {
    const container = createContainer();
    container.register(EXECUTION_INDEX, { useValue: index });
    await withMonitored(
      async (k) => {
        await k.deploy("echo", echo);
        for (let i = 0; i < 3; i++) assert.equal((await k.post("/echo/run", {})).body, { result: { ok: true } });
        if (index === failing) {
          await until(() => k.logs.some((l) => l.includes("Execution record not written: index down")), 5000, "the warning");
          assert.is(k.logs.filter((l) => l.includes("Execution record not written")).length, 1);
        }
      },
      { container },
    );
  }
});

test("svc run and svc mcp run load monitoring by default; --without-monitoring leaves it out", () => {
  const names = (flags: Record<string, unknown>) => defaultPluginSpecs(loadLauncherSettings({ flags })).map((s) => s.use);
  assert.ok(names({}).includes("svc:monitoring"));
  assert.not.ok(names({ monitoringEnabled: false }).includes("svc:monitoring"));
  assert.ok(mcpPluginSpecs(loadLauncherSettings()).some((s) => s.use === "svc:monitoring"));
  assert.not.ok(mcpPluginSpecs(loadLauncherSettings({ flags: { monitoringEnabled: false } })).some((s) => s.use === "svc:monitoring"));
  assert.not.ok(defaultPluginSpecs(loadLauncherSettings({ env: { SERVICE_MONITORING_ENABLED: "false" } })).some((s) => s.use === "svc:monitoring"));
});

test.run();
