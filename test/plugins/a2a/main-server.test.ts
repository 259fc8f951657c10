/**
 * svc:a2a mounted on the main server beside other routes: its JSON-RPC route is `POST /{name}/`
 * only (with the slash, as Hayhooks' per-agent mounts), so it takes no path from the routes beside
 * it — not `POST /{name}/run`, not a route a plugin registers after it — and unknown paths keep
 * the kernel's 404 with svc's error body.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { definePlugin } from "svc/plugin";
import runsPlugin from "svc/runs";
import a2aPlugin from "svc/a2a";
import { startPipelineKernel, wrapper } from "../../helpers/pipelines.js";
import { asTask, clientOf, message, textOf } from "./fixtures.js";

/** A plugin set up after svc:a2a, with one-segment routes of its own. */
const later = definePlugin({
  name: "test-later-routes",
  setup(kernel) {
    kernel.route("POST", "/later", () => ({ later: true }));
    kernel.route("GET", "/later", () => ({ later: "get" }));
  },
});

test("POST /{name}/ is the only A2A JSON-RPC path: other routes, later plugins' routes and unknown paths are untouched", async () => {
  const k = await startPipelineKernel({ plugins: [runsPlugin(), a2aPlugin(), later] });
  try {
    const both = wrapper(`runApi() { return "api"; }
  runChatCompletion() { return "chat"; }`);
    assert.is((await k.deploy({ name: "echo", files: { "pipeline_wrapper.ts": both }, save_files: false })).status, 200);
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${k.url}${path}`, { method, headers: { "content-type": "application/json", "A2A-Version": "1.0" }, body: body === undefined ? undefined : JSON.stringify(body) });
      return { status: res.status, allow: res.headers.get("allow"), body: (await res.json()) as any };
    };
    assert.equal((await call("POST", "/later", {})).body, { later: true }, "a route registered after svc:a2a");
    assert.equal((await call("GET", "/later")).body, { later: "get" });
    assert.equal(await call("POST", "/echo/run", {}), { status: 200, allow: null, body: { result: "api" } }, "POST /{name}/run is the run API's");
    for (const [method, path] of [["POST", "/nope"], ["GET", "/nope"], ["POST", "/echo"], ["PUT", "/echo"], ["GET", "/favicon.ico"]] as const) {
      const res = await call(method, path, method === "GET" ? undefined : {});
      assert.is(res.status, 404, `${method} ${path}`);
      assert.equal(res.body, { error: { message: `Not found: ${method} ${path}`, type: "invalid_request_error", code: 404 } }, `${method} ${path}`);
    }
    const notAgent = await call("POST", "/nope/", { jsonrpc: "2.0", id: 1, method: "GetTask", params: { id: "x" } });
    assert.is(notAgent.status, 404);
    assert.match(notAgent.body.error.message, /No A2A agent 'nope'/);
    const wrongMethod = await call("GET", "/echo/");
    assert.equal([wrongMethod.status, wrongMethod.allow], [405, "POST"]);
    // The agent answers at the URL its card names.
    const client = await clientOf(k.url, "echo");
    assert.is((await client.getAgentCard()).supportedInterfaces[0]!.url, `${k.url}/echo/`);
    assert.is(textOf(asTask(await client.sendMessage(message("beside the rest")))), "chat");
  } finally {
    await k.close();
  }
});

test.run();
