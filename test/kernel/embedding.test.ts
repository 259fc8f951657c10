import { test } from "uvu";
import * as assert from "uvu/assert";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createContainer } from "svc/internal";
import { createKernel, definePlugin, deny, allow, requestState, TRACE_ACCESS, type AccessPolicy } from "svc/plugin";
import { captureLogger } from "../helpers/kernel.js";

// A plugin standing in for the tracing plugin: an operator-only route.
const operatorRoute = definePlugin({
  name: "operator-view",
  setup(k) {
    k.route("GET", "/traces", (c) => ({ traces: [], operator: c.state.tracing_operator === true }), { scope: "traces" });
    k.route("GET", "/hello", (c) => ({ hello: "world", user: c.state.user ?? null }));
  },
});

async function hostServer(handler: (req: IncomingMessage, res: ServerResponse) => void) {
  const server = createServer(handler);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, close: () => new Promise<void>((r) => server.close(() => r())) };
}

test("a host mounts kernel.handler behind its own middleware, which marks verified operators", async () => {
  const kernel = await createKernel({ settings: { host: "127.0.0.1" }, plugins: [operatorRoute], logger: captureLogger().logger });
  const host = await hostServer((req, res) => {
    // The host's own middleware: its own routes, its own auth, then the kernel.
    if (req.url === "/host-health") {
      res.end("host ok");
      return;
    }
    if (req.headers.authorization === "Bearer host-verified-operator") requestState(req).tracing_operator = true;
    requestState(req).user = "alice";
    kernel.handler(req, res);
  });
  try {
    assert.is(await (await fetch(`${host.url}/host-health`)).text(), "host ok");
    assert.equal(await (await fetch(`${host.url}/hello`)).json(), { hello: "world", user: "alice" });
    assert.is((await fetch(`${host.url}/traces`)).status, 401);
    const ok = await fetch(`${host.url}/traces`, { headers: { authorization: "Bearer host-verified-operator" } });
    assert.equal(await ok.json(), { traces: [], operator: true });
    const missing = await fetch(`${host.url}/nope`);
    assert.is(missing.status, 404);
    assert.ok(missing.headers.get("x-request-id"));
  } finally {
    await host.close();
    await kernel.close();
  }
});

test("a host swaps the trace-access policy through the container before boot", async () => {
  const container = createContainer();
  const hostPolicy: AccessPolicy = ({ req }) => {
    const key = req.headers["x-api-key"];
    if (key === undefined) return deny(401, "API key required");
    return key === "ops-team" ? allow() : deny(403, "this key may not read traces");
  };
  container.register(TRACE_ACCESS, { useValue: hostPolicy });
  const kernel = await createKernel({ container, settings: { host: "127.0.0.1" }, plugins: [operatorRoute], logger: captureLogger().logger });
  const host = await hostServer(kernel.handler);
  try {
    const none = await fetch(`${host.url}/traces`);
    assert.is(none.status, 401);
    assert.equal(await none.json(), { error: { message: "API key required", type: "authentication_error", code: 401 } });
    const wrong = await fetch(`${host.url}/traces`, { headers: { "x-api-key": "intern" } });
    assert.is(wrong.status, 403);
    assert.equal(await wrong.json(), { error: { message: "this key may not read traces", type: "permission_error", code: 403 } });
    const right = await fetch(`${host.url}/traces`, { headers: { "x-api-key": "ops-team" } });
    assert.is(right.status, 200);
    assert.is(kernel.resolve(TRACE_ACCESS), hostPolicy as never);
  } finally {
    await host.close();
    await kernel.close();
  }
});

test.run();
