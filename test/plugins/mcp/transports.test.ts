import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { MCP_TOOL_SERVER } from "svc/mcp";
import { openRequest, rawRequest, sleep, until } from "../../helpers/http.js";
import { ECHO, SLOW, httpClient, sseClient, text, withMcpKernel } from "./fixtures.js";

const MCP_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };
const INITIALIZE = {
  jsonrpc: "2.0",
  id: 0,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
};
const callSlow = (id: number) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "slow", arguments: {} } });

function post(url: string, body: unknown, headers: Record<string, string> = {}) {
  return rawRequest(`${url}/mcp`, { method: "POST", headers: { ...MCP_HEADERS, ...headers }, body: JSON.stringify(body) });
}

test("stateless by default: no session id, no server stream, tools/list without initialize", () =>
  withMcpKernel(async (k) => {
    await k.deployWrapper("echo", ECHO);
    const { client, transport } = await httpClient(k.url);
    try {
      assert.is(transport.sessionId, undefined);
      assert.ok((await client.listTools()).tools.some((t) => t.name === "echo"));
    } finally {
      await client.close();
    }
    const list = await post(k.url, { jsonrpc: "2.0", id: 1, method: "tools/list" });
    assert.is(list.status, 200);
    assert.match(list.body, /"name":"echo"/);
    assert.is((await rawRequest(`${k.url}/mcp`, { headers: { accept: "text/event-stream" } })).status, 405);
    assert.is((await rawRequest(`${k.url}/mcp`, { method: "DELETE" })).status, 400);
  }));

test("a request the SDK answers at once (unknown method) is answered once, with nothing logged as an error", async () => {
  for (const mcpJsonResponse of [false, true]) {
    await withMcpKernel(
      async (k) => {
        const unknown = await post(k.url, { jsonrpc: "2.0", id: 7, method: "no/such/method" });
        assert.is(unknown.status, 200);
        const reply = mcpJsonResponse ? JSON.parse(unknown.body) : JSON.parse(unknown.body.split("data: ")[1]!);
        assert.equal(reply, { jsonrpc: "2.0", id: 7, error: { code: -32601, message: "Method not found" } });
        const batch = await post(k.url, [{ jsonrpc: "2.0", id: 8, method: "no/such/method" }, { jsonrpc: "2.0", method: "notifications/initialized" }]);
        assert.is(batch.status, 200);
        assert.match(batch.body, /"id":8/);
        // The kernel logs a handler that writes after the answer went out (ERR_HTTP_HEADERS_SENT) at ERROR.
        await sleep(50);
        const errors = k.logs.filter((l) => / ERROR /.test(l) || l.includes("ERR_HTTP_HEADERS_SENT"));
        assert.equal(errors, [], `json=${mcpJsonResponse}`);
      },
      { mcpJsonResponse },
    );
  }
});

test("an unknown tool is a JSON-RPC error -32602, not an isError result (stateless, direct and in a batch; sessions)", async () => {
  for (const mcpStateful of [false, true]) {
    await withMcpKernel(
      async (k) => {
        const call = { jsonrpc: "2.0", id: 5, method: "tools/call", params: { name: "invalid_pipeline_name", arguments: {} } };
        const expected = { jsonrpc: "2.0", id: 5, error: { code: -32602, message: "Unknown tool: invalid_pipeline_name" } };
        const alone = await post(k.url, call);
        assert.equal(JSON.parse(alone.body.split("data: ")[1]!), expected);
        const batched = await post(k.url, [call, { jsonrpc: "2.0", id: 6, method: "ping" }]);
        const replies = batched.body.split("\n").filter((l) => l.startsWith("data: ")).map((l) => JSON.parse(l.slice(6)));
        assert.equal(replies.find((r) => r.id === 5), expected);
        const { client } = await httpClient(k.url);
        try {
          await client.callTool({ name: "invalid_pipeline_name", arguments: {} }).then(
            () => assert.unreachable("an unknown tool must be a protocol error"),
            (error: { code?: number; message?: string }) => {
              assert.is(error.code, -32602);
              assert.match(String(error.message), "Unknown tool: invalid_pipeline_name");
            },
          );
        } finally {
          await client.close();
        }
      },
      { mcpStateful },
    );
  }
});

test("bad requests: malformed JSON, an oversized body, a foreign Host header", () =>
  withMcpKernel(
    async (k) => {
      const malformed = await rawRequest(`${k.url}/mcp`, { method: "POST", headers: MCP_HEADERS, body: "{nope" });
      assert.is(malformed.status, 400);
      assert.is(JSON.parse(malformed.body).error.code, -32700);
      const big = await rawRequest(`${k.url}/mcp`, { method: "POST", headers: MCP_HEADERS, body: JSON.stringify({ x: "y".repeat(5000) }) });
      assert.is(big.status, 413);
      const rebinding = await post(k.url, { jsonrpc: "2.0", id: 1, method: "tools/list" }, { host: "evil.example:80" });
      assert.is(rebinding.status, 403);
    },
    { maxBodyBytes: 2000 },
  ));

test("sessions: an id on initialize, list_changed over the session stream, 404 for an unknown id, DELETE ends it", () =>
  withMcpKernel(
    async (k) => {
      const { client, transport } = await httpClient(k.url);
      let heard = 0;
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
        heard++;
      });
      try {
        assert.type(transport.sessionId, "string");
        await sleep(100); // the client opens its GET stream after initialize
        await k.deployWrapper("echo", ECHO);
        await until(() => heard === 1, 5000, "list_changed after a deploy");
        assert.ok((await client.listTools()).tools.some((t) => t.name === "echo"));
        await k.kernel.deployer.undeploy("echo");
        await until(() => heard === 2, 5000, "list_changed after an undeploy");

        assert.is((await post(k.url, { jsonrpc: "2.0", id: 1, method: "tools/list" }, { "mcp-session-id": "no-such-session" })).status, 404);
        const id = transport.sessionId!;
        await transport.terminateSession();
        const gone = await post(k.url, { jsonrpc: "2.0", id: 1, method: "tools/list" }, { "mcp-session-id": id, "mcp-protocol-version": "2025-06-18" });
        assert.is(gone.status, 404);
      } finally {
        await client.close();
      }
    },
    { mcpStateful: true },
  ));

test("a refused initialize opens no session and leaves no server behind", () =>
  withMcpKernel(
    async (k) => {
      const refused = await rawRequest(`${k.url}/mcp`, { method: "POST", headers: { "content-type": "application/json", accept: "application/json" }, body: JSON.stringify(INITIALIZE) });
      assert.is(refused.status, 406);
      assert.is(refused.headers["mcp-session-id"], undefined);
      assert.is(k.kernel.resolve(MCP_TOOL_SERVER).connections, 0);
    },
    { mcpStateful: true },
  ));

test("sessions are capped, and idle ones are reaped", () =>
  withMcpKernel(
    async (k) => {
      const first = await post(k.url, INITIALIZE);
      assert.is(first.status, 200);
      const id = first.headers["mcp-session-id"] as string;
      assert.ok(id);
      const second = await post(k.url, INITIALIZE);
      assert.is(second.status, 503);
      assert.match(JSON.parse(second.body).error.message, /Too many open MCP sessions/);
      // Requests without a session id are still served statelessly.
      assert.is((await post(k.url, { jsonrpc: "2.0", id: 1, method: "tools/list" })).status, 200);
      await until(() => k.logs.some((l) => l.includes(`Closing idle MCP session ${id}`)), 5000, "the reaper");
      assert.is((await post(k.url, { jsonrpc: "2.0", id: 1, method: "tools/list" }, { "mcp-session-id": id })).status, 404);
      assert.is((await post(k.url, INITIALIZE)).status, 200, "the reaped session freed its place");
    },
    { mcpStateful: true, mcpMaxSessions: 1, mcpSessionIdleTimeout: 1 },
  ));

test("legacy SSE: list, call and list_changed", () =>
  withMcpKernel(async (k) => {
    await k.deployWrapper("echo", ECHO);
    const client = await sseClient(k.url);
    let heard = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      heard++;
    });
    try {
      assert.ok((await client.listTools()).tools.some((t) => t.name === "echo"));
      assert.equal(JSON.parse(text(await client.callTool({ name: "echo", arguments: { text: "over sse" } }))), { echo: "over sse" });
      await k.kernel.deployer.undeploy("echo");
      await until(() => heard === 1, 5000, "list_changed over SSE");
      assert.is(k.calls[0]!.call.transport, "mcp");
    } finally {
      await client.close();
    }
    assert.is((await rawRequest(`${k.url}/messages?sessionId=nope`, { method: "POST", headers: MCP_HEADERS, body: "{}" })).status, 404);
  }));

test("a client's cancel notification aborts the pipeline (sessions and SSE)", async () => {
  for (const mode of ["session", "sse"] as const) {
    await withMcpKernel(
      async (k) => {
        await k.deployWrapper("slow", SLOW);
        const client = mode === "sse" ? await sseClient(k.url) : (await httpClient(k.url)).client;
        try {
          const controller = new AbortController();
          const pending = client.callTool({ name: "slow", arguments: {} }, undefined, { signal: controller.signal, timeout: 10_000 });
          await until(() => k.calls.length === 1, 5000, "the call to start");
          controller.abort("user pressed stop");
          await pending.then(
            () => assert.unreachable("the call should reject locally"),
            () => undefined,
          );
          await until(() => k.calls[0]!.call.signal.aborted && k.calls[0]!.outcome === "error", 5000, `the pipeline to see the abort (${mode})`);
        } finally {
          await client.close();
        }
      },
      { mcpStateful: mode === "session" },
    );
  }
});

test("a client that disconnects aborts the pipeline (stateless and in a session)", async () => {
  for (const stateful of [false, true]) {
    await withMcpKernel(
      async (k) => {
        await k.deployWrapper("slow", SLOW);
        let session: Record<string, string> = {};
        if (stateful) {
          const init = await post(k.url, INITIALIZE);
          session = { "mcp-session-id": init.headers["mcp-session-id"] as string, "mcp-protocol-version": "2025-06-18" };
          await post(k.url, { jsonrpc: "2.0", method: "notifications/initialized" }, session);
        }
        const req = openRequest(`${k.url}/mcp`, { method: "POST", headers: { ...MCP_HEADERS, ...session } });
        req.on("error", () => undefined);
        req.end(JSON.stringify(callSlow(7)));
        await until(() => k.calls.length === 1, 5000, "the call to start");
        req.destroy();
        await until(() => k.calls[0]!.call.signal.aborted, 5000, `the abort (stateful: ${stateful})`);
      },
      { mcpStateful: stateful },
    );
  }
});

test("two clients using identical JSON-RPC ids each get their own results", async () => {
  for (const stateful of [false, true]) {
    await withMcpKernel(
      async (k) => {
        await k.deployWrapper("echo", ECHO);
        const a = await httpClient(k.url);
        const b = await httpClient(k.url);
        try {
          const results = await Promise.all([
            a.client.callTool({ name: "echo", arguments: { text: "from a", delay_ms: 150 } }),
            b.client.callTool({ name: "echo", arguments: { text: "from b", delay_ms: 10 } }),
            a.client.callTool({ name: "echo", arguments: { text: "a again", delay_ms: 5 } }),
            b.client.callTool({ name: "echo", arguments: { text: "b again", delay_ms: 100 } }),
          ]);
          assert.equal(
            results.map((r) => JSON.parse(text(r)).echo),
            ["from a", "from b", "a again", "b again"],
          );
          const ids = k.calls.map((c) => c.call.requestId);
          assert.ok(new Set(ids).size < ids.length, `the clients really reused ids: ${ids.join(",")}`);
        } finally {
          await a.client.close();
          await b.client.close();
        }
      },
      { mcpStateful: stateful },
    );
  }
});

test("a lone stateless tools/call is answered as a server answers it in a batch", () =>
  withMcpKernel(async (k) => {
    await k.deployWrapper("echo", ECHO);
    const tools = k.kernel.resolve(MCP_TOOL_SERVER);
    tools.addTool(() => ({ content: [{ type: "bogus" }] }), { name: "bad_result" });
    tools.addTool(() => {
      throw new Error("broke");
    }, { name: "failing" });
    tools.addTool(() => ({ content: [{ type: "text", text: "kept", extra: "dropped" }], structuredContent: { n: 1 } }), { name: "ready_result" });
    const ping = { jsonrpc: "2.0", id: 99, method: "ping" };
    /** The `data:` of the reply with `id` in an SSE answer. */
    const reply = (body: string, id: number) => body.split("\n").filter((l) => l.startsWith("data: ")).map((l) => l.slice(6)).find((d) => JSON.parse(d).id === id);
    const calls = [
      { name: "echo", arguments: { text: "hi" } },
      { name: "echo", arguments: { text: 1 } },
      { name: "missing" },
      { name: "bad_result" },
      { name: "failing", arguments: {} },
      { name: "ready_result", _meta: { progressToken: 1 } },
      { arguments: {} },
    ];
    for (const [i, params] of calls.entries()) {
      const call = { jsonrpc: "2.0", id: i + 1, method: "tools/call", params };
      const alone = await post(k.url, call);
      const batched = await post(k.url, [call, ping]);
      assert.is(alone.status, 200);
      assert.is(alone.headers["content-type"], "text/event-stream");
      assert.is(alone.body, `event: message\ndata: ${reply(batched.body, i + 1)}\n\n`, JSON.stringify(params));
    }
    assert.is(JSON.parse(reply((await post(k.url, { jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: "bad_result" } })).body, 4)!).error.code, -32602);
  }));

test("with JSON responses, a lone tools/call and a batch are answered as JSON bodies", () =>
  withMcpKernel(
    async (k) => {
      await k.deployWrapper("echo", ECHO);
      const call = { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "echo", arguments: { text: "hi" } } };
      const alone = await post(k.url, call);
      assert.is(alone.status, 200);
      assert.match(String(alone.headers["content-type"]), /^application\/json/);
      const reply = JSON.parse(alone.body);
      assert.equal(reply, { result: { content: [{ type: "text", text: '{"echo":"hi"}' }] }, jsonrpc: "2.0", id: 3 });
      const batch = JSON.parse((await post(k.url, [call, { jsonrpc: "2.0", id: 4, method: "ping" }])).body) as { id: number }[];
      assert.equal(batch.find((m) => m.id === 3), reply);
    },
    { mcpJsonResponse: true },
  ));

test.run();
