/**
 * Hayhooks' MCP tests (deepset-ai/hayhooks 051d5a8: tests/test_it_mcp_server.py, test_mcp.py),
 * ported as values over the MCP SDK client. Deliberate differences (docs/moving-from-hayhooks.md):
 * an unknown tool is a JSON-RPC error -32602 (the current spec; Hayhooks: an isError result); tool
 * schemas are generated from the wrapper's valibot schema (no Pydantic `title`s); svc advertises
 * `listChanged: true` and its server is named `svc-mcp-server`; error texts are svc's.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { httpClient, text, withMcpKernel } from "../plugins/mcp/fixtures.js";
import { CALC_YAML } from "../fixtures/calc-yaml.js";
import * as W from "./wrappers.js";

const CORE_TOOLS = ["get_all_pipeline_statuses", "get_pipeline_status", "undeploy_pipeline", "deploy_pipeline"];
const MOCK = "This is a mock response from the pipeline";

test("listing: only the core tools, then one per pipeline with its description and schema; skipMcp hides one", () =>
  withMcpKernel(async (k) => {
    const { client } = await httpClient(k.url);
    try {
      assert.equal((await client.listTools()).tools.map((t) => t.name), CORE_TOOLS);
      await k.kernel.deployer.deploy({ kind: "files", name: "chat_with_website", files: W.CHAT_WITH_WEBSITE_MCP, save: false });
      await k.kernel.deployer.deploy({ kind: "files", name: "chat_with_website_mcp_skip", files: W.CHAT_WITH_WEBSITE_MCP_SKIP, save: false });
      const tools = (await client.listTools()).tools;
      assert.equal(tools.map((t) => t.name), [...CORE_TOOLS, "chat_with_website"]);
      const tool = tools.at(-1)!;
      assert.is(tool.description, "Ask a question about one or more websites using a Haystack pipeline.");
      assert.equal(tool.inputSchema.required, ["urls", "question"]);
      assert.equal(tool.inputSchema.properties, { urls: { type: "array", items: { type: "string" } }, question: { type: "string" } });
      const core = Object.fromEntries(tools.map((t) => [t.name, t]));
      assert.is(core.get_all_pipeline_statuses!.description, "Get the status of all pipelines and list available pipeline names.");
      assert.is(core.get_pipeline_status!.description, "Get status of a specific pipeline.");
      assert.equal(core.get_pipeline_status!.inputSchema.required, ["pipeline_name"]);
    } finally {
      await client.close();
    }
  }));

test("calls: a pipeline tool answers its text; bad arguments and an unknown tool are refused", () =>
  withMcpKernel(async (k) => {
    await k.kernel.deployer.deploy({ kind: "files", name: "chat_with_website", files: W.CHAT_WITH_WEBSITE_MCP, save: false });
    const { client } = await httpClient(k.url);
    try {
      const ok = await client.callTool({ name: "chat_with_website", arguments: { urls: ["https://www.google.com"], question: "What is the capital of France?" } });
      assert.equal(ok.content, [{ type: "text", text: MOCK }]);
      assert.not.ok(ok.isError);

      const missing: any = await client.callTool({ name: "chat_with_website", arguments: { urls: ["https://www.google.com"] } });
      assert.is(missing.isError, true);
      assert.match(text(missing), "Input validation error");
      assert.match(text(missing), "question");

      const unknown = await client.callTool({ name: "invalid_pipeline_name", arguments: { urls: [], question: "q" } }).then(() => undefined, (e: { code?: number; message?: string }) => e);
      assert.is(unknown?.code, -32602, "a protocol error (Hayhooks: an isError result)");
      assert.match(String(unknown?.message), "Unknown tool: invalid_pipeline_name");
    } finally {
      await client.close();
    }
  }));

test("a YAML pipeline is a tool with its declared input (test_list_tools_with_yaml_pipeline_deployed)", () =>
  withMcpKernel(async (k) => {
    await k.kernel.deployer.deploy({ kind: "yaml", name: "calc", source: CALC_YAML, save: false });
    const { client } = await httpClient(k.url);
    try {
      const tool = (await client.listTools()).tools.find((t) => t.name === "calc");
      assert.is(tool?.inputSchema.type, "object");
      assert.ok("value" in (tool?.inputSchema.properties ?? {}));
      const result: any = await client.callTool({ name: "calc", arguments: { value: 3 } });
      assert.not.ok(result.isError);
      assert.ok(JSON.stringify(JSON.parse(text(result))).includes("10"), "(3 + 2) * 2 in the result");
    } finally {
      await client.close();
    }
  }));

test("the deploy tool: deploys, keeps a wrapper's skipMcp unless the call sets it; files:{} is an error result", () =>
  withMcpKernel(async (k) => {
    const { client } = await httpClient(k.url);
    try {
      const deployed = await client.callTool({ name: "deploy_pipeline", arguments: { name: "chat_with_website", files: W.CHAT_WITH_WEBSITE_MCP, save_files: false, overwrite: false } });
      assert.equal(deployed.content, [{ type: "text", text: "Pipeline 'chat_with_website' deployed successfully" }]);

      await client.callTool({ name: "deploy_pipeline", arguments: { name: "skipped", files: W.CHAT_WITH_WEBSITE_MCP_SKIP, save_files: false } });
      assert.is(k.kernel.registry.get("skipped")?.skipMcp, true, "the wrapper's skipMcp holds when the call does not set skip_mcp");
      await client.callTool({ name: "deploy_pipeline", arguments: { name: "listed", files: W.CHAT_WITH_WEBSITE_MCP_SKIP, save_files: false, skip_mcp: false } });
      assert.is(k.kernel.registry.get("listed")?.skipMcp, false, "the call's skip_mcp wins");
      const names = (await client.listTools()).tools.map((t) => t.name);
      assert.ok(names.includes("listed") && !names.includes("skipped"), names.join(","));

      const empty: any = await client.callTool({ name: "deploy_pipeline", arguments: { name: "chat_with_website", files: {}, save_files: false, overwrite: false } });
      assert.is(empty.isError, true);
      assert.match(text(empty), "deploy_pipeline");
    } finally {
      await client.close();
    }
  }));

test("HTTP initialize answers the server info (test_mcp_http_transport_initialize); GET /status", () =>
  withMcpKernel(
    async (k) => {
      const init = await fetch(`${k.url}/mcp`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json,text/event-stream" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2024-11-05", capabilities: {}, clientInfo: { name: "test-client", version: "1.0.0" } } }),
      });
      assert.is(init.status, 200);
      const body = (await init.json()) as any;
      assert.equal([body.jsonrpc, body.id], ["2.0", 1]);
      assert.is(body.result.serverInfo.name, "svc-mcp-server");
      assert.is(body.result.capabilities.tools.listChanged, true, "svc does notify (Hayhooks advertises false and notifies anyway)");
      assert.equal(await (await fetch(`${k.url}/status`)).json(), { status: "ok" });
    },
    { mcpJsonResponse: true },
  ));

test.run();
