import { test } from "uvu";
import * as assert from "uvu/assert";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { OBJECT_STORE, type ObjectStore } from "svc/plugin";
import { createContainer } from "svc/internal";
import mcpPlugin from "svc/mcp";
import objectStorePlugin from "svc/object-store";
import platformPlugin from "svc/platform";
import { mcpPluginSpecs } from "../../../cli/default-plugins.js";
import { loadLauncherSettings } from "../../../cli/cli-settings.js";
import { startKernel } from "../../helpers/kernel.js";
import { startPlatformFixture } from "../../fixtures/platform-server.js";

const text = (r: any): string => r.content[0].text;

test("svc:platform adds the platform tools beside the pipeline tools, sharing the OBJECT_STORE", async () => {
  const platform = await startPlatformFixture();
  const k = await startKernel({
    container: createContainer(),
    settings: { platformApiKey: "alice-key", platformApiUrl: platform.url, platformWorkspace: "default", platformTools: ["list_pipelines", "get_from_object_store"] },
    plugins: [mcpPlugin(), objectStorePlugin(), platformPlugin()],
  });
  const client = new Client({ name: "t", version: "1" });
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(`${k.url}/mcp`)));
    const names = (await client.listTools()).tools.map((t) => t.name);
    assert.ok(names.includes("list_pipelines") && names.includes("get_from_object_store"), names.join());
    assert.not.ok(names.includes("get_pipeline"));
    const out = text(await client.callTool({ name: "list_pipelines", arguments: {} }));
    const id = /^@(obj_\d+)/.exec(out)![1]!;
    const store = k.kernel.resolve(OBJECT_STORE);
    assert.ok(((await store.get(id)) as any).data.length >= 3, "stored in the container's store");
    assert.match(k.logs.join("\n"), /Platform tools: 2 registered \(object store: memory\)/);
  } finally {
    await client.close();
    await k.close();
    await platform.close();
  }
});

test("svc:platform without a key or header mode stops startup with the reason", async () => {
  let error: unknown;
  try {
    await startKernel({ container: createContainer(), plugins: [mcpPlugin(), platformPlugin()] });
  } catch (e) {
    error = e;
  }
  assert.match(String(error), /API key is required for authentication/);
});

test("svc mcp run loads the platform tools when a platform key or header mode is configured", () => {
  const uses = (env: Record<string, string>) => mcpPluginSpecs(loadLauncherSettings({ env })).map((s) => s.use);
  assert.not.ok(uses({}).includes("svc:platform"));
  assert.not.ok(uses({}).includes("svc:object-store"));
  assert.equal(uses({ PLATFORM_API_KEY: "k" }).slice(-2), ["svc:object-store", "svc:platform"]);
  assert.equal(uses({ PLATFORM_API_KEY_FROM_AUTH_HEADER: "true" }).slice(-2), ["svc:object-store", "svc:platform"]);
});

test.run();
