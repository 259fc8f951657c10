import { test } from "uvu";
import * as assert from "uvu/assert";
import { createContainer } from "svc/internal";
import { TRACE_ACCESS } from "svc/plugin";
import enginePlugin from "svc/engine";
import mcpPlugin from "svc/mcp";
import monitoringPlugin from "../../../plugins/monitoring/index.js";
import { startKernel } from "../../helpers/kernel.js";
import { tempDir } from "../../helpers/pipelines.js";
import { sleep } from "../../helpers/http.js";
import { ECHO, FAILING, STREAMING, httpClient } from "../mcp/fixtures.js";
import { OPERATOR, operatorPolicy } from "./helpers.js";

test("MCP tool calls are recorded with transport mcp: succeeded, failed, streamed", async () => {
  const container = createContainer();
  container.register(TRACE_ACCESS, { useValue: operatorPolicy });
  const k = await startKernel({ container, settings: { pipelinesDir: `${tempDir()}/pipelines` }, plugins: [enginePlugin(), mcpPlugin(), monitoringPlugin()] });
  const { client } = await httpClient(k.url);
  try {
    for (const [name, source] of [["echo", ECHO], ["failing", FAILING], ["streaming", STREAMING]] as const) {
      await k.kernel.deployer.deploy({ kind: "files", name, files: { "pipeline_wrapper.ts": source } });
    }
    await client.callTool({ name: "echo", arguments: { text: "hi" } });
    const failed = await client.callTool({ name: "failing", arguments: {} });
    assert.ok(failed.isError);
    await client.callTool({ name: "streaming", arguments: {} });
    let records: any[] = [];
    for (let i = 0; i < 200; i++) {
      const res = await fetch(`${k.url}/executions?transport=mcp`, { headers: OPERATOR });
      records = (await res.json()).executions;
      if (records.length === 3 && records.every((r) => r.status !== "running")) break;
      await sleep(10);
    }
    assert.equal(records.map((r) => [r.pipeline, r.transport, r.method, r.status]), [
      ["streaming", "mcp", "runApi", "succeeded"],
      ["failing", "mcp", "runApi", "failed"],
      ["echo", "mcp", "runApi", "succeeded"],
    ]);
    assert.is(records[1].error, "the pipeline broke");
  } finally {
    await client.close();
    await k.close();
  }
});

test.run();
