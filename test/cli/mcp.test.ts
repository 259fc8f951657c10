import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { cleanEnv, cliPath, runSvc, startSvc } from "../helpers/cli.js";
import { openRequest, until } from "../helpers/http.js";
import { tempDir, wrapper } from "../helpers/pipelines.js";
import { CALC_YAML } from "../plugins/mcp/fixtures.js";

const text = (result: any): string => result.content[0].text;

function pipelinesDir(): string {
  const dir = join(tempDir("svc-mcp-cli-"), "pipelines");
  mkdirSync(join(dir, "shout"), { recursive: true });
  writeFileSync(
    join(dir, "shout", "pipeline_wrapper.ts"),
    wrapper(
      `runApi(input: { text: string }) { console.log("printed by a wrapper"); return input.text.toUpperCase() + "!"; }`,
      `static description = "Shouts the text."; static inputSchema = v.object({ text: v.string() });`,
    ),
  );
  writeFileSync(join(dir, "calc.yml"), CALC_YAML);
  return dir;
}

test("svc mcp run serves wrappers and YAML as tools over Streamable HTTP and follows the pipelines directory", async () => {
  const dir = pipelinesDir();
  const svc = await startSvc(["mcp", "run", "--host", "127.0.0.1", "--port", "0", "--pipelines-dir", dir, "--stateful"]);
  const client = new Client({ name: "test", version: "1.0.0" });
  try {
    assert.match(svc.output(), /deployed 2\/2 pipelines/);
    assert.match(svc.output(), /\(MCP at \/mcp, legacy SSE at \/sse\)/);
    await client.connect(new StreamableHTTPClientTransport(new URL(`${svc.url}/mcp`)));
    let changes = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      changes++;
    });
    const names = async () => (await client.listTools()).tools.map((t) => t.name);
    assert.equal((await names()).slice(4), ["calc", "shout"]);
    assert.is(text(await client.callTool({ name: "shout", arguments: { text: "hey" } })), "HEY!");
    assert.equal(JSON.parse(text(await client.callTool({ name: "calc", arguments: { value: 1 } }))), { double: { value: 6 } });

    // A folder that appears becomes a tool without a restart; a change redeploys; removal undeploys.
    mkdirSync(join(dir, "whisper"));
    writeFileSync(join(dir, "whisper", "pipeline_wrapper.ts"), wrapper(`runApi() { return "psst"; }`));
    await until(() => changes > 0, 10_000, "list_changed after a folder appeared");
    await until(() => svc.output().includes("Pipeline 'whisper' deployed"), 5000, "the deploy");
    assert.ok((await names()).includes("whisper"));
    assert.is(text(await client.callTool({ name: "whisper", arguments: {} })), "psst");
    writeFileSync(join(dir, "whisper", "pipeline_wrapper.ts"), wrapper(`runApi() { return "PSST"; }`));
    await until(() => svc.output().includes("Pipeline 'whisper' redeployed"), 10_000, "the redeploy");
    assert.is(text(await client.callTool({ name: "whisper", arguments: {} })), "PSST");
    rmSync(join(dir, "whisper"), { recursive: true });
    await until(() => svc.output().includes("Pipeline 'whisper' undeployed"), 10_000, "the undeploy");
    assert.not.ok((await names()).includes("whisper"));

    // Files the deploy tool writes are not deployed a second time by the watcher.
    const before = svc.output().length;
    await client.callTool({ name: "deploy_pipeline", arguments: { name: "echo", files: { "pipeline_wrapper.ts": wrapper(`runApi() { return "e"; }`) } } });
    await new Promise((r) => setTimeout(r, 1000));
    assert.is(svc.output().slice(before).match(/Pipeline 'echo' (re)?deployed/g)?.length, 1);
  } finally {
    await client.close();
    await svc.stop("SIGKILL");
  }
});

test("SIGTERM ends svc mcp run promptly even with an SSE client connected", async () => {
  const svc = await startSvc(["mcp", "run", "--host", "127.0.0.1", "--port", "0", "--pipelines-dir", pipelinesDir()], { env: { SERVICE_GRACEFUL_SHUTDOWN_TIMEOUT: "30" } });
  const req = openRequest(`${svc.url}/sse`, { headers: { accept: "text/event-stream" } });
  req.on("error", () => undefined);
  req.end();
  await new Promise((resolve) => req.once("response", resolve));
  const started = Date.now();
  assert.is(await svc.stop("SIGTERM"), 0);
  assert.ok(Date.now() - started < 10_000, "did not wait the 30 s grace period for the SSE stream");
  req.destroy();
});

test("svc mcp run --transport stdio: tools over stdin/stdout, logs and wrapper prints on stderr, progress of a stream", async () => {
  const dir = pipelinesDir();
  mkdirSync(join(dir, "count"));
  writeFileSync(join(dir, "count", "pipeline_wrapper.ts"), wrapper(`async *runApi() { yield "one "; yield "two"; }`));
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cliPath, "mcp", "run", "--transport", "stdio", "--pipelines-dir", dir],
    env: cleanEnv() as Record<string, string>,
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (c: Buffer) => (stderr += c.toString()));
  const client = new Client({ name: "desktop", version: "1.0.0" });
  try {
    await client.connect(transport);
    const { tools } = await client.listTools();
    assert.ok(tools.some((t) => t.name === "shout" && t.description === "Shouts the text."));
    assert.is(text(await client.callTool({ name: "shout", arguments: { text: "quiet" } })), "QUIET!");
    await until(() => stderr.includes("printed by a wrapper"), 5000, "the wrapper's print on stderr");
    assert.match(stderr, /deployed 3\/3 pipelines/);
    const progress: [number, string | undefined][] = [];
    const wire: string[] = [];
    const handle = transport.onmessage!;
    transport.onmessage = (message) => {
      if ("method" in message && message.method === "notifications/progress") wire.push(String(message.params?.message));
      handle(message);
    };
    client.onerror = () => undefined; // typescript-sdk#2580: see test/plugins/mcp/progress.test.ts
    assert.is(text(await client.callTool({ name: "count", arguments: {} }, undefined, { onprogress: (p) => void progress.push([p.progress, p.message]) })), "one two");
    assert.equal(wire, ["one ", "two"], "each part as a progress notification, before the result");
    assert.ok(progress.every(([n, m], i) => n === i + 1 && m === wire[i]), "what onprogress heard counts up");
  } finally {
    await client.close();
  }
});

test("svc mcp: bad options are clear errors", async () => {
  const transport = await runSvc(["mcp", "run", "--transport", "carrier-pigeon"]);
  assert.is(transport.code, 1);
  assert.match(transport.stderr, /--transport/);
  assert.match(transport.stderr, /streamable-http, sse, stdio/);
  const action = await runSvc(["mcp", "serve"]);
  assert.is(action.code, 1);
  assert.match(action.stderr, /unknown mcp action 'serve'/);
  const help = await runSvc(["mcp", "--help"]);
  for (const flag of ["--host", "--port", "--pipelines-dir", "--additional-module-path", "--transport", "--stateful", "--json-response"]) {
    assert.ok(help.stdout.includes(flag), flag);
  }
});

test.run();
