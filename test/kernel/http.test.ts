import { test } from "uvu";
import * as assert from "uvu/assert";
import * as v from "valibot";
import { definePlugin, HttpError, type KernelPlugin, type SseWriter } from "svc/plugin";
import { startKernel, type TestKernel } from "../helpers/kernel.js";
import { openRequest, rawRequest, sleep, until } from "../helpers/http.js";

const Body = v.object({ question: v.string(), top_k: v.optional(v.number()) });
const observed = { aborted: false, abortedAtClose: undefined as boolean | undefined };
/** A head shared by every answer of a route, as a module constant would be. */
const SHARED_HEAD = Object.freeze({ "content-type": "text/plain" });

const routes: KernelPlugin = definePlugin({
  name: "test-routes",
  setup(k) {
    k.route("POST", "/echo", async (c) => ({ got: await c.json(Body) }));
    k.route("POST", "/raw", async (c) => ({ value: await c.json() }));
    k.route("GET", "/echo", () => ({ ok: true }));
    k.route("POST", "/then", (c) => {
      c.bodyThen((raw) => c.send(200, { text: raw.toString() }));
    });
    k.route("POST", "/then-throws", (c) => {
      c.bodyThen(() => {
        throw new HttpError(422, "not this body");
      });
    });
    k.route("POST", "/then-rejects", (c) => {
      c.bodyThen(() => Promise.reject(new Error("secret detail")));
    });
    // `body()` asked while the read is under way, and again after it.
    k.route("POST", "/then-body", (c) => {
      c.bodyThen(async (raw) => {
        const after = await c.body();
        c.send(200, { during: (await during) === raw, after: after === raw, text: raw.toString() });
      });
      const during = c.body();
      during.catch(() => {}); // a refused body fails it too, and `use` never runs then
    });
    // A body read before: `bodyThen` is handed the same bytes.
    k.route("POST", "/body-then", async (c) => {
      const before = await c.body();
      c.bodyThen((raw) => c.send(200, { same: raw === before }));
    });
    // Answers that write their head in every way Node allows: each carries the request id, once.
    k.route("GET", "/head/end", (c) => {
      c.res.statusCode = 204;
      c.res.end();
    });
    k.route("GET", "/head/shared", (c) => void c.res.writeHead(200, SHARED_HEAD).end("shared"));
    k.route("GET", "/head/array", (c) => void c.res.writeHead(200, ["content-type", "text/plain", "x-a", "1"]).end("array"));
    k.route("GET", "/head/merged", (c) => {
      c.res.setHeader("x-a", "1");
      c.res.writeHead(201, "Made", { "x-b": "2" }).end();
    });
    k.route("GET", "/head/own-object", (c) => void c.res.writeHead(200, { "X-Request-Id": "mine" }).end());
    k.route("GET", "/head/own-header", (c) => {
      c.res.setHeader("x-request-id", "mine-too");
      return { ok: true };
    });
    k.route("DELETE", "/things/:id", (c) => ({ deleted: c.params.id }));
    k.route("GET", "/operator", () => ({ secret: 1 }), { scope: "traces" });
    k.route("GET", "/fail", () => {
      throw new Error("secret detail");
    });
    k.route("GET", "/teapot", () => {
      throw new HttpError(418, "I am a teapot", { headers: { "x-extra": "1" } });
    });
    k.route("GET", "/wait-abort", async (c) => {
      observed.aborted = false;
      c.res.on("close", () => (observed.abortedAtClose = c.signal.aborted));
      await new Promise<void>((resolve) => c.signal.addEventListener("abort", () => resolve()));
      observed.aborted = true;
    });
  },
});

async function withKernel(settings: Record<string, unknown>, fn: (k: TestKernel) => Promise<void>, plugins: KernelPlugin[] = [routes]) {
  const k = await startKernel({ settings, plugins });
  try {
    await fn(k);
  } finally {
    await k.close();
  }
}

test("unknown route: 404 with the error body and a request id", () =>
  withKernel({}, async ({ url }) => {
    const res = await fetch(`${url}/nope`);
    assert.is(res.status, 404);
    assert.match(res.headers.get("x-request-id") ?? "", /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.equal(await res.json(), { error: { message: "Not found: GET /nope", type: "invalid_request_error", code: 404 } });
    const echoed = await fetch(`${url}/nope`, { headers: { "x-request-id": "client-id-1" } });
    assert.is(echoed.headers.get("x-request-id"), "client-id-1");
    const unsafe = await fetch(`${url}/nope`, { headers: { "x-request-id": "bad id with spaces" } });
    assert.match(unsafe.headers.get("x-request-id") ?? "", /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  }));

test("x-request-id: on an answer whatever way its head is written, once; a handler's own id wins; a shared head object is left alone", () =>
  withKernel({}, async ({ url }) => {
    const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    const end = await fetch(`${url}/head/end`, { headers: { "x-request-id": "from-client" } });
    assert.is(end.status, 204);
    assert.is(end.headers.get("x-request-id"), "from-client");
    for (let i = 0; i < 2; i++) {
      const shared = await fetch(`${url}/head/shared`);
      assert.match(shared.headers.get("x-request-id") ?? "", UUID);
      assert.is(await shared.text(), "shared");
    }
    assert.equal(Object.keys(SHARED_HEAD), ["content-type"]);
    const array = await fetch(`${url}/head/array`);
    assert.match(array.headers.get("x-request-id") ?? "", UUID);
    assert.is(array.headers.get("x-a"), "1");
    assert.is(await array.text(), "array");
    const merged = await fetch(`${url}/head/merged`);
    assert.is(merged.status, 201);
    assert.is(merged.statusText, "Made");
    assert.match(merged.headers.get("x-request-id") ?? "", UUID);
    assert.is(merged.headers.get("x-a"), "1");
    assert.is(merged.headers.get("x-b"), "2");
    assert.is((await fetch(`${url}/head/own-object`)).headers.get("x-request-id"), "mine");
    assert.is((await fetch(`${url}/head/own-header`)).headers.get("x-request-id"), "mine-too");
    // A JSON answer: the type and the length Node counted go out with the id.
    const json = await fetch(`${url}/echo`, { headers: { "x-request-id": "json-1" } });
    assert.is(json.headers.get("x-request-id"), "json-1");
    assert.is(json.headers.get("content-type"), "application/json; charset=utf-8");
    assert.is(json.headers.get("content-length"), "11");
    assert.is(json.headers.get("transfer-encoding"), null);
    assert.equal(await json.json(), { ok: true });
    const error = await fetch(`${url}/teapot`, { headers: { "x-request-id": "tea-1" } });
    assert.is(error.status, 418);
    assert.is(error.headers.get("x-request-id"), "tea-1");
    assert.is(error.headers.get("x-extra"), "1");
    assert.is(error.headers.get("content-length"), String((await error.arrayBuffer()).byteLength));
  }));

test("wrong method: 405 with Allow", () =>
  withKernel({}, async ({ url }) => {
    const res = await fetch(`${url}/echo`, { method: "PUT" });
    assert.is(res.status, 405);
    assert.is(res.headers.get("allow"), "GET, HEAD, POST");
    assert.equal(await res.json(), { error: { message: "Method PUT is not allowed for /echo", type: "invalid_request_error", code: 405 } });
    const params = await fetch(`${url}/things/42`);
    assert.is(params.status, 405);
    assert.is((await fetch(`${url}/things/42`, { method: "DELETE" })).status, 200);
  }));

test("JSON bodies: valid, malformed (400), failing the schema (400 naming the field)", () =>
  withKernel({}, async ({ url }) => {
    const post = (body: string) => fetch(`${url}/echo`, { method: "POST", headers: { "content-type": "application/json" }, body });
    const ok = await post(JSON.stringify({ question: "hi" }));
    assert.equal(await ok.json(), { got: { question: "hi" } });
    const malformed = await post("{not json");
    assert.is(malformed.status, 400);
    const m = (await malformed.json()) as { error: { message: string; type: string; code: number } };
    assert.match(m.error.message, /^Malformed JSON body: /);
    assert.is(m.error.type, "invalid_request_error");
    assert.is(m.error.code, 400);
    const invalid = await post(JSON.stringify({ question: 1, top_k: "x" }));
    assert.is(invalid.status, 400);
    const i = (await invalid.json()) as { error: { message: string } };
    assert.match(i.error.message, /^Invalid request body: question: Invalid type: Expected string but received 1; top_k: /);
    const missing = await post("");
    assert.is(missing.status, 400);
  }));

test("bodyThen: the body without a promise; what fails is answered with the error body; body() gives the same bytes", () =>
  withKernel({}, async ({ url, logs }) => {
    const post = (path: string, body: string) => fetch(`${url}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body });
    assert.equal(await (await post("/then", '{"a":1}')).json(), { text: '{"a":1}' });
    const thrown = await post("/then-throws", "{}");
    assert.is(thrown.status, 422);
    assert.equal(await thrown.json(), { error: { message: "not this body", type: "invalid_request_error", code: 422 } });
    const rejected = await post("/then-rejects", "{}");
    assert.is(rejected.status, 500);
    assert.equal(await rejected.json(), { error: { message: "Internal server error", type: "server_error", code: 500 } });
    assert.ok(logs.some((l) => l.includes("ERROR") && l.includes("Error: secret detail")), "the failure is logged with its stack");
    assert.equal(await (await post("/then-body", "abc")).json(), { during: true, after: true, text: "abc" });
    assert.equal(await (await post("/body-then", "abc")).json(), { same: true });
  }));

/** The status of a chunked body of 500 bytes with no declared length. */
function streamedStatus(url: string): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    const req = openRequest(url, { method: "POST", headers: { "transfer-encoding": "chunked" } });
    req.on("response", (res) => {
      res.resume();
      resolve(res.statusCode!);
    });
    req.on("error", reject);
    for (let i = 0; i < 10; i++) req.write("x".repeat(50));
    req.end();
  });
}

test("oversize bodies get 413, declared or streamed", () =>
  withKernel({ maxBodyBytes: 100 }, async ({ url }) => {
    const big = JSON.stringify({ value: "x".repeat(200) });
    const declared = await rawRequest(`${url}/raw`, { method: "POST", body: big, headers: { "content-type": "application/json" } });
    assert.is(declared.status, 413);
    assert.equal(JSON.parse(declared.body), {
      error: { message: "Request body exceeds the limit of 100 bytes.", type: "invalid_request_error", code: 413 },
    });
    assert.is(await streamedStatus(`${url}/raw`), 413);
    const small = await fetch(`${url}/raw`, { method: "POST", body: JSON.stringify({ a: 1 }) });
    assert.equal(await small.json(), { value: { a: 1 } });
    // The same through `bodyThen`: the failure reaches the error answer, and body() waiting on the read fails alike.
    for (const path of ["/then", "/then-body"]) {
      const refused = await rawRequest(`${url}${path}`, { method: "POST", body: big, headers: { "content-type": "application/json" } });
      assert.is(refused.status, 413, path);
      assert.equal(JSON.parse(refused.body).error.code, 413);
    }
    assert.is(await streamedStatus(`${url}/then-body`), 413);
  }));

test("a body that arrives in pieces is read whole and in order", () =>
  withKernel({}, async ({ url }) => {
    const pieces = ['{"a":', '"', "x".repeat(30), "y".repeat(30), '"}'];
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = openRequest(`${url}/raw`, { method: "POST", headers: { "transfer-encoding": "chunked", "content-type": "application/json" } });
      req.on("response", (res) => {
        let body = "";
        res.setEncoding("utf8").on("data", (text: string) => (body += text));
        res.on("end", () => resolve({ status: res.statusCode!, body }));
      });
      req.on("error", reject);
      // Each piece after a pause, so the server gets them as separate chunks.
      void (async () => {
        for (const piece of pieces) {
          req.write(piece);
          await sleep(20);
        }
        req.end();
      })();
    });
    assert.is(answer.status, 200);
    assert.equal(JSON.parse(answer.body), { value: { a: "x".repeat(30) + "y".repeat(30) } });
  }));

test("errors: 500 hides the cause from the client and logs the stack; HttpError passes status and headers", () =>
  withKernel({}, async ({ url, logs }) => {
    const res = await fetch(`${url}/fail`);
    assert.is(res.status, 500);
    assert.equal(await res.json(), { error: { message: "Internal server error", type: "server_error", code: 500 } });
    assert.ok(logs.some((l) => l.includes("ERROR") && l.includes("Error: secret detail") && l.includes("at ")), "stack logged");
    const teapot = await fetch(`${url}/teapot`);
    assert.is(teapot.status, 418);
    assert.is(teapot.headers.get("x-extra"), "1");
    assert.equal(await teapot.json(), { error: { message: "I am a teapot", type: "invalid_request_error", code: 418 } });
  }));

test("SERVICE_SHOW_TRACEBACKS puts the stack into 500 responses", () =>
  withKernel({ showTracebacks: true }, async ({ url }) => {
    const body = (await (await fetch(`${url}/fail`)).json()) as { error: { message: string } };
    assert.match(body.error.message, /^Internal server error\nError: secret detail\n\s+at /);
  }));

test("loopback guard: foreign Host or Origin gets 403; loopback names pass", () =>
  withKernel({}, async ({ url }) => {
    const port = new URL(url).port;
    const evilHost = await rawRequest(`${url}/echo`, { headers: { host: `attacker.example:${port}` } });
    assert.is(evilHost.status, 403);
    assert.equal(JSON.parse(evilHost.body), {
      error: { message: `Host 'attacker.example:${port}' is not allowed: it is not a loopback name or a name in SERVICE_ALLOWED_HOSTS.`, type: "permission_error", code: 403 },
    });
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`, "localhost"]) {
      assert.is((await rawRequest(`${url}/echo`, { headers: { host } })).status, 200, host);
    }
    const evilOrigin = await rawRequest(`${url}/echo`, { headers: { origin: "http://attacker.example" } });
    assert.is(evilOrigin.status, 403);
    assert.is((await rawRequest(`${url}/echo`, { headers: { origin: "null" } })).status, 403);
    assert.is((await rawRequest(`${url}/echo`, { headers: { origin: "http://localhost:5173" } })).status, 200);
  }));

test("bound to all interfaces, a Host listed in SERVICE_ALLOWED_HOSTS passes, others get 403", () =>
  withKernel({ host: "0.0.0.0", allowedHosts: ["svc.example.com"] }, async ({ kernel, url }) => {
    assert.is(kernel.settings.host, "0.0.0.0");
    const res = await rawRequest(`${url}/echo`, { headers: { host: "svc.example.com", origin: "https://app.example.com" } });
    assert.is(res.status, 200);
    assert.is((await rawRequest(`${url}/echo`, { headers: { host: "app.example.com" } })).status, 403);
  }));

test("CORS: no headers unless origins are configured", () =>
  withKernel({}, async ({ url }) => {
    const res = await fetch(`${url}/echo`, { headers: { origin: "http://localhost:3000" } });
    assert.is(res.headers.get("access-control-allow-origin"), null);
    const preflight = await fetch(`${url}/echo`, {
      method: "OPTIONS",
      headers: { origin: "http://localhost:3000", "access-control-request-method": "POST" },
    });
    assert.is(preflight.status, 405);
  }));

test("CORS with configured origins: headers, preflight, and allowed origins pass the guard", () =>
  withKernel({ corsAllowOrigins: ["https://app.example.com"] }, async ({ url }) => {
    const res = await fetch(`${url}/echo`, { headers: { origin: "https://app.example.com" } });
    assert.is(res.status, 200);
    assert.is(res.headers.get("access-control-allow-origin"), "https://app.example.com");
    assert.is(res.headers.get("vary"), "Origin");
    const preflight = await fetch(`${url}/echo`, {
      method: "OPTIONS",
      headers: {
        origin: "https://app.example.com",
        "access-control-request-method": "POST",
        "access-control-request-headers": "content-type,authorization",
      },
    });
    assert.is(preflight.status, 204);
    assert.match(preflight.headers.get("access-control-allow-methods") ?? "", /POST/);
    assert.is(preflight.headers.get("access-control-allow-headers"), "content-type,authorization");
    assert.is(preflight.headers.get("access-control-max-age"), "600");
    const other = await rawRequest(`${url}/echo`, { headers: { origin: "https://other.example.com" } });
    assert.is(other.status, 403);
    assert.is(other.headers["access-control-allow-origin"], undefined);
  }));

test("CORS '*' allows any origin", () =>
  withKernel({ corsAllowOrigins: "*", host: "0.0.0.0" }, async ({ url }) => {
    const res = await fetch(`${url}/echo`, { headers: { origin: "https://anything.example" } });
    assert.is(res.headers.get("access-control-allow-origin"), "*");
  }));

test("a route with a scope is authorized through the auth hook", () =>
  withKernel({}, async ({ url }) => {
    const res = await fetch(`${url}/operator`);
    assert.is(res.status, 401);
    assert.equal(await res.json(), {
      error: { message: "Operator access is required: send Authorization: Bearer <token> (SERVICE_OPERATOR_TOKEN, or the local operator credential).", type: "authentication_error", code: 401 },
    });
  }));

test("a client that disconnects aborts the request's signal, before a close listener of the handler runs", () =>
  withKernel({}, async ({ kernel, url }) => {
    const req = openRequest(`${url}/wait-abort`);
    req.on("error", () => undefined);
    req.end();
    await until(() => kernel.http.inflight.size === 1, 2000, "request in flight");
    req.destroy();
    await until(() => observed.aborted, 2000, "abort observed");
    assert.is(observed.abortedAtClose, true, "the app is told of the close first");
    await until(() => kernel.http.inflight.size === 0, 2000, "request gone");
  }));

// ---- SSE

function sseRoutes(state: { release?: () => void; sends: number; writer?: SseWriter }): KernelPlugin {
  return definePlugin({
    name: "sse-routes",
    setup(k) {
      k.route("GET", "/events", async (c) => {
        const sse = c.sse();
        await sse.send({ data: { n: 1 } });
        await new Promise<void>((r) => (state.release = r));
        await sse.send({ event: "done", data: "two\nlines", id: "2" });
        sse.end();
      });
      k.route("GET", "/idle", async (c) => {
        state.writer = c.sse();
        await new Promise<void>((r) => c.signal.addEventListener("abort", () => r()));
      });
      k.route("GET", "/flood", async (c) => {
        const sse = c.sse();
        const chunk = "x".repeat(64 * 1024);
        for (let i = 0; i < 100; i++) {
          await sse.send({ data: chunk });
          state.sends++;
        }
        sse.end();
      });
    },
  });
}

test("SSE: headers, one flushed event at a time, named events, multi-line data", async () => {
  const state: { release?: () => void; sends: number } = { sends: 0 };
  await withKernel(
    {},
    async ({ url }) => {
      const res = await fetch(`${url}/events`);
      assert.is(res.headers.get("content-type"), "text/event-stream; charset=utf-8");
      assert.is(res.headers.get("cache-control"), "no-cache");
      assert.is(res.headers.get("x-accel-buffering"), "no");
      const reader = res.body!.getReader();
      const first = new TextDecoder().decode((await reader.read()).value);
      assert.is(first, 'data: {"n":1}\n\n', "the first event arrives before the second is produced");
      state.release!();
      let rest = "";
      for (let r = await reader.read(); !r.done; r = await reader.read()) rest += new TextDecoder().decode(r.value);
      assert.is(rest, "event: done\nid: 2\ndata: two\ndata: lines\n\n");
    },
    [sseRoutes(state)],
  );
});

test("SSE: a comment heartbeat keeps an idle stream alive", async () => {
  const state: { sends: number; writer?: SseWriter } = { sends: 0 };
  await withKernel(
    { sseHeartbeatMs: 100 },
    async ({ url }) => {
      const controller = new AbortController();
      const res = await fetch(`${url}/idle`, { signal: controller.signal });
      const reader = res.body!.getReader();
      const text = new TextDecoder().decode((await reader.read()).value);
      assert.is(text, ": ping\n\n");
      controller.abort();
      await until(() => state.writer?.closed === true, 2000, "writer closed after disconnect");
    },
    [sseRoutes(state)],
  );
});

test("SSE: send waits while the client does not read (back-pressure)", async () => {
  const state = { sends: 0 };
  await withKernel(
    {},
    async ({ url }) => {
      let sendsWhilePaused = -1;
      const received = await new Promise<number>((resolve, reject) => {
        const req = openRequest(`${url}/flood`);
        req.on("response", async (res) => {
          res.pause();
          await sleep(300);
          sendsWhilePaused = state.sends;
          let bytes = 0;
          res.on("data", (c: Buffer) => (bytes += c.length));
          res.on("end", () => resolve(bytes));
          res.resume();
        });
        req.on("error", reject);
        req.end();
      });
      // 100 events of 64 KiB cannot all fit in socket buffers while nobody reads.
      assert.ok(sendsWhilePaused >= 0 && sendsWhilePaused < 100, `sends completed while paused: ${sendsWhilePaused}`);
      assert.is(state.sends, 100);
      assert.ok(received >= 100 * 64 * 1024);
    },
    [sseRoutes(state as { sends: number })],
  );
});

// ---- graceful shutdown

const slowRoute = (seen: { aborted?: boolean }) =>
  definePlugin({
    name: "slow",
    setup(k) {
      k.route("GET", "/slow", async (c) => {
        const ms = Number(c.query.ms);
        seen.aborted = await new Promise<boolean>((resolve) => {
          const t = setTimeout(() => resolve(false), ms);
          c.signal.addEventListener("abort", () => {
            clearTimeout(t);
            resolve(true);
          });
        });
        return { ms };
      });
    },
  });

test("close lets an in-flight request finish within the grace period and refuses new ones", async () => {
  const seen: { aborted?: boolean } = {};
  const k = await startKernel({ settings: { gracefulShutdownTimeout: 5 }, plugins: [slowRoute(seen)] });
  const pending = fetch(`${k.url}/slow?ms=300`).then(async (r) => ({ status: r.status, body: await r.json() }));
  await until(() => k.kernel.http.inflight.size === 1, 2000, "request in flight");
  const started = Date.now();
  await k.close();
  const result = await pending;
  assert.equal(result, { status: 200, body: { ms: 300 } });
  assert.is(seen.aborted, false);
  assert.ok(Date.now() - started < 5000, "close returned once the request finished, not after the whole grace period");
  try {
    await fetch(`${k.url}/slow?ms=1`);
    assert.unreachable("the server no longer accepts connections");
  } catch (error) {
    assert.match(String((error as Error).cause ?? error), /ECONNREFUSED/);
  }
});

test("close aborts requests still running after the grace period", async () => {
  const seen: { aborted?: boolean } = {};
  const k = await startKernel({ settings: { gracefulShutdownTimeout: 0.2 }, plugins: [slowRoute(seen)] });
  const pending = fetch(`${k.url}/slow?ms=10000`).then(
    (r) => r.status,
    () => "cut",
  );
  await until(() => k.kernel.http.inflight.size === 1, 2000, "request in flight");
  const started = Date.now();
  await k.close();
  assert.ok(Date.now() - started < 8000, "close did not wait for the slow (10 s) request");
  assert.is(seen.aborted, true);
  await pending;
});

test.run();
