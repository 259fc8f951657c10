import { test } from "uvu";
import * as assert from "uvu/assert";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { cleanEnv, cliPath } from "../../helpers/cli.js";
import { tempDir } from "../../helpers/pipelines.js";
import { startPlatformFixture, type PlatformFixture } from "../../fixtures/platform-server.js";

let platform: PlatformFixture;
test.before(async () => {
  platform = await startPlatformFixture();
});
test.after(() => platform.close());

const text = (r: any): string => r.content[0].text;

async function stdioClient(cwd: string, env: Record<string, string>): Promise<{ client: Client; stderr: () => string }> {
  const pipelines = join(cwd, "pipelines");
  mkdirSync(pipelines, { recursive: true });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cliPath, "mcp", "run", "--transport", "stdio", "--pipelines-dir", pipelines],
    cwd,
    env: cleanEnv(env) as Record<string, string>,
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (c: Buffer) => (stderr += c.toString()));
  const client = new Client({ name: "desktop", version: "1.0.0" });
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

test("svc mcp run over stdio serves the platform tools configured from the environment", async () => {
  const { client, stderr } = await stdioClient(tempDir("svc-platform-cli-"), {
    PLATFORM_API_KEY: "alice-key",
    PLATFORM_API_URL: platform.url,
    PLATFORM_WORKSPACE: "default",
    OBJECT_STORE_TTL: "60",
  });
  try {
    const names = (await client.listTools()).tools.map((t) => t.name);
    assert.ok(names.includes("list_pipelines") && names.includes("get_from_object_store"), names.join());
    const listed = text(await client.callTool({ name: "list_pipelines", arguments: {} }));
    assert.match(listed, /"rag-qa"/);
    const ref = /^(@obj_\d+)/.exec(listed)![1]!;
    assert.match(text(await client.callTool({ name: "get_from_object_store", arguments: { object_id: ref, path: "data.1.name" } })), /\n\nchat$/);
    assert.match(stderr(), /Platform tools: \d+ registered/);
    // svc:mcp's management tools own the name deploy_pipeline: the platform's has its second name.
    assert.ok(names.includes("deploy_pipeline") && names.includes("deploy_platform_pipeline"), names.join());
    assert.not.match(stderr(), /left out/);
  } finally {
    await client.close();
  }
});

test("svc mcp run takes the platform plugin and its options from svc.config.yaml", async () => {
  const cwd = tempDir("svc-platform-config-");
  writeFileSync(
    join(cwd, "svc.config.yaml"),
    `plugins:\n  - use: svc:platform\n    options: { apiKey: bob-key, apiUrl: "${platform.url}", tools: [list_pipelines, get_current_user] }\n`,
  );
  const { client } = await stdioClient(cwd, {});
  try {
    const tools = (await client.listTools()).tools.filter((t) => ["list_pipelines", "get_current_user"].includes(t.name));
    assert.is(tools.length, 2);
    assert.equal(tools.find((t) => t.name === "list_pipelines")!.inputSchema.required, ["workspace"]);
    assert.match(text(await client.callTool({ name: "list_pipelines", arguments: { workspace: "bobs" } })), /"bob-search"/);
    assert.match(text(await client.callTool({ name: "get_current_user", arguments: {} })), /"given_name": "Bob"/);
  } finally {
    await client.close();
  }
});

test.run();
