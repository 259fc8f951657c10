import { test } from "uvu";
import * as assert from "uvu/assert";
import { join } from "node:path";
import enginePlugin from "svc/engine";
import mcpPlugin from "svc/mcp";
import tracingPlugin from "../../../plugins/tracing/index.js";
import type { WireTrace } from "../../../plugins/tracing/index.js";
import { startKernel } from "../../helpers/kernel.js";
import { sleep } from "../../helpers/http.js";
import { tempDir } from "../../helpers/pipelines.js";
import { CALC_YAML, ECHO, FAILING, httpClient, text } from "../mcp/fixtures.js";
import { OPERATOR_TOKEN, flatten, tagsOf } from "./tracing-helpers.js";

test("MCP tool calls are traced: svc.mcp.run (transport mcp) below the call span, engine spans below, failures tagged", async () => {
  const k = await startKernel({
    settings: { pipelinesDir: join(tempDir("svc-mcp-tracing-"), "pipelines"), operatorToken: OPERATOR_TOKEN },
    plugins: [tracingPlugin(), enginePlugin(), mcpPlugin()],
  });
  const { client, transport } = await httpClient(k.url);
  try {
    await k.kernel.deployer.deploy({ kind: "files", name: "echo", files: { "pipeline_wrapper.ts": ECHO } });
    await k.kernel.deployer.deploy({ kind: "files", name: "broken", files: { "pipeline_wrapper.ts": FAILING } });
    await k.kernel.deployer.deploy({ kind: "yaml", name: "calc", source: CALC_YAML });
    const echoed = text(await client.callTool({ name: "echo", arguments: { text: "hi" } }));
    assert.equal(JSON.parse(echoed.startsWith("{") ? echoed : JSON.stringify(echoed)), { echo: "hi" });
    assert.equal(JSON.parse(text(await client.callTool({ name: "calc", arguments: { value: 3 } }))), { double: { value: 10 } });
    await client.callTool({ name: "broken", arguments: {} });

    let traces: WireTrace[] = [];
    for (let i = 0; i < 100 && traces.filter((t) => t.kind === "mcp" && t.state !== "running").length < 3; i++) {
      const res = await fetch(`${k.url}/traces?limit=100`, { headers: { authorization: `Bearer ${OPERATOR_TOKEN}` } });
      traces = ((await res.json()) as { traces: WireTrace[] }).traces;
      await sleep(20);
    }
    const byPipeline = Object.fromEntries(traces.filter((t) => t.kind === "mcp").map((t) => [t.entrypoint, t]));
    // The MCP server's own call span is the root; the run span nests below it.
    assert.equal(flatten(byPipeline.echo!.root_span).map((s) => s.name), ["svc.mcp.call_tool", "svc.mcp.run"]);
    assert.is(tagsOf(flatten(byPipeline.echo!.root_span)[1]!)["svc.transport"], "mcp");
    assert.is(byPipeline.echo!.state, "ok");
    assert.equal(flatten(byPipeline.calc!.root_span).map((s) => s.name), [
      "svc.mcp.call_tool",
      "svc.mcp.run",
      "haystack.pipeline.run",
      "haystack.component.run",
      "haystack.component.run",
    ]);
    assert.is(byPipeline.broken!.state, "failed");
    assert.is(tagsOf(flatten(byPipeline.broken!.root_span)[1]!)["svc.error.message"], "the pipeline broke");
  } finally {
    await client.close();
    await transport.close();
    await k.close();
  }
});

test.run();
