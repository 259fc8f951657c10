import { existsSync } from "node:fs";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { CALC_YAML, CHAT_ONLY, ECHO, FAILING, SKIPPED, STREAMING, UPPER, httpClient, text, withMcpKernel } from "./fixtures.js";

test("every deployed pipeline with runApi is a tool after the core tools; skipped ones are logged", () =>
  withMcpKernel(async (k) => {
    await k.deployWrapper("echo", ECHO);
    await k.deployWrapper("upper", UPPER);
    await k.deployWrapper("hidden", SKIPPED);
    await k.deployWrapper("chatty", CHAT_ONLY);
    await k.kernel.deployer.deploy({ kind: "yaml", name: "calc", source: CALC_YAML, description: "Adds two, then doubles." });
    const { client } = await httpClient(k.url);
    try {
      const { tools } = await client.listTools();
      assert.equal(tools.map((t) => t.name), ["get_all_pipeline_statuses", "get_pipeline_status", "undeploy_pipeline", "deploy_pipeline", "echo", "upper", "calc"]);
      const echo = tools.find((t) => t.name === "echo")!;
      assert.is(echo.description, "Echoes the text back.");
      assert.equal(echo.inputSchema.required, ["text"]);
      assert.equal((echo.inputSchema.properties as any).text, { type: "string", description: "What to echo" });
      assert.is(tools.find((t) => t.name === "upper")!.description, "upper", "without a description: the name");
      assert.is(tools.find((t) => t.name === "calc")!.description, "Adds two, then doubles.");
      assert.ok(k.logs.some((l) => l.includes("Skipping pipeline 'hidden' as an MCP tool: skipMcp is set")));
      assert.ok(k.logs.some((l) => l.includes("Skipping pipeline 'chatty' as an MCP tool: it has no runApi")));
      assert.equal(client.getServerCapabilities()?.tools, { listChanged: true });
    } finally {
      await client.close();
    }
  }));

test("calling a pipeline tool runs it through the run hook with transport mcp", () =>
  withMcpKernel(async (k) => {
    await k.deployWrapper("echo", ECHO);
    await k.deployWrapper("upper", UPPER);
    await k.deployWrapper("stream", STREAMING);
    await k.kernel.deployer.deploy({ kind: "yaml", name: "calc", source: CALC_YAML });
    const { client } = await httpClient(k.url);
    try {
      assert.equal(JSON.parse(text(await client.callTool({ name: "echo", arguments: { text: "hello" } }))), { echo: "hello" });
      assert.is(text(await client.callTool({ name: "upper", arguments: { text: "shout" } })), "SHOUT");
      assert.equal(JSON.parse(text(await client.callTool({ name: "calc", arguments: { value: 3 } }))), { double: { value: 10 } });
      assert.is(text(await client.callTool({ name: "stream", arguments: {} })), "abc", "a stream is drained into one text");
      const echoCall = k.calls.find((c) => c.call.pipeline === "echo")!;
      assert.is(echoCall.call.transport, "mcp");
      assert.is(echoCall.call.method, "runApi");
      assert.equal(echoCall.call.input, { text: "hello", delay_ms: 0 }, "the schema's defaults applied");
      assert.is(echoCall.outcome, "ok");
    } finally {
      await client.close();
    }
  }));

test("bad arguments are rejected with the field named, before the pipeline runs", () =>
  withMcpKernel(async (k) => {
    await k.deployWrapper("echo", ECHO);
    await k.kernel.deployer.deploy({ kind: "yaml", name: "calc", source: CALC_YAML });
    const { client } = await httpClient(k.url);
    try {
      const missing: any = await client.callTool({ name: "echo", arguments: {} });
      assert.is(missing.isError, true);
      assert.match(text(missing), /Input validation error for tool 'echo': text: /);
      const wrongType: any = await client.callTool({ name: "calc", arguments: { value: "three" } });
      assert.is(wrongType.isError, true);
      assert.match(text(wrongType), /value: /);
      assert.is(k.calls.length, 0);
    } finally {
      await client.close();
    }
  }));

test("a failing pipeline is an isError result naming the tool and the cause; tracebacks only when enabled", async () => {
  for (const showTracebacks of [false, true]) {
    await withMcpKernel(
      async (k) => {
        await k.deployWrapper("failing", FAILING);
        const { client } = await httpClient(k.url);
        try {
          const result: any = await client.callTool({ name: "failing", arguments: {} });
          assert.is(result.isError, true);
          assert.ok(text(result).startsWith("Error calling tool 'failing': Pipeline 'failing' failed: the pipeline broke"), text(result));
          assert.is(/\n\s+at /.test(text(result)), showTracebacks);
          assert.is(k.calls[0]!.outcome, "error");
        } finally {
          await client.close();
        }
      },
      { showTracebacks },
    );
  }
});

test("management tools: statuses, deploy (validated and contained like REST), undeploy", () =>
  withMcpKernel(async (k) => {
    const { client } = await httpClient(k.url);
    try {
      assert.is(text(await client.callTool({ name: "get_all_pipeline_statuses", arguments: {} })), "Available pipelines:");
      const deployed: any = await client.callTool({ name: "deploy_pipeline", arguments: { name: "echo", files: { "pipeline_wrapper.ts": ECHO } } });
      assert.is(text(deployed), "Pipeline 'echo' deployed successfully");
      assert.ok(existsSync(join(k.dir, "echo", "pipeline_wrapper.ts")), "save_files defaults to true");
      assert.ok((await client.listTools()).tools.some((t) => t.name === "echo"), "the new pipeline is a tool at once");
      assert.is(text(await client.callTool({ name: "get_all_pipeline_statuses", arguments: {} })), "Available pipelines:\necho");
      assert.is(text(await client.callTool({ name: "get_pipeline_status", arguments: { pipeline_name: "echo" } })), "Pipeline 'echo' is deployed: true");
      assert.is(text(await client.callTool({ name: "get_pipeline_status", arguments: { pipeline_name: "nope" } })), "Pipeline 'nope' is deployed: false");

      const again: any = await client.callTool({ name: "deploy_pipeline", arguments: { name: "echo", files: { "pipeline_wrapper.ts": ECHO } } });
      assert.is(again.isError, true);
      assert.match(text(again), /already exists/);
      const escape: any = await client.callTool({
        name: "deploy_pipeline",
        arguments: { name: "evil", files: { "pipeline_wrapper.ts": ECHO, "../escape.ts": "x" } },
      });
      assert.is(escape.isError, true);
      assert.match(text(escape), /escape\.ts/);
      assert.not.ok(existsSync(join(k.dir, "..", "escape.ts")), "nothing written outside the pipelines directory");
      const empty: any = await client.callTool({ name: "deploy_pipeline", arguments: { name: "empty", files: {} } });
      assert.is(empty.isError, true);
      assert.match(text(empty), /^Error calling tool 'deploy_pipeline': /);
      const badName: any = await client.callTool({ name: "deploy_pipeline", arguments: { name: "../x", files: { "pipeline_wrapper.ts": ECHO } } });
      assert.is(badName.isError, true);
      const badArgs: any = await client.callTool({ name: "deploy_pipeline", arguments: { name: "x", files: "not an object" } });
      assert.match(text(badArgs), /Input validation error for tool 'deploy_pipeline': files: /);
      assert.not.ok(/\n\s+at /.test(text(escape)), "a deploy refusal carries no stack");

      assert.is(text(await client.callTool({ name: "undeploy_pipeline", arguments: { pipeline_name: "echo" } })), "Pipeline 'echo' undeployed");
      assert.not.ok(existsSync(join(k.dir, "echo")));
      assert.not.ok((await client.listTools()).tools.some((t) => t.name === "echo"));
      const unknown: any = await client.callTool({ name: "undeploy_pipeline", arguments: { pipeline_name: "echo" } });
      assert.is(unknown.isError, true);
      assert.match(text(unknown), /not found/);
    } finally {
      await client.close();
    }
  }));

test("SERVICE_MCP_MANAGEMENT_TOOLS=false leaves the core tools out", () =>
  withMcpKernel(
    async (k) => {
      await k.deployWrapper("echo", ECHO);
      const { client } = await httpClient(k.url);
      try {
        assert.equal((await client.listTools()).tools.map((t) => t.name), ["echo"]);
        const error = await client.callTool({ name: "deploy_pipeline", arguments: { name: "x", files: {} } }).then(() => undefined, (e: { code?: number; message?: string }) => e);
        assert.is(error?.code, -32602, "an unknown tool is a protocol error");
        assert.match(String(error?.message), "Unknown tool: deploy_pipeline");
      } finally {
        await client.close();
      }
    },
    { mcpManagementTools: false },
  ));

test("GET /status answers the MCP app's health check", () =>
  withMcpKernel(async (k) => {
    const res = await fetch(`${k.url}/status`);
    assert.equal(await res.json(), { status: "ok" });
  }));

test.run();
