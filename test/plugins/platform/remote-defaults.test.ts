import { test } from "uvu";
import * as assert from "uvu/assert";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { createContainer } from "svc/internal";
import mcpPlugin, { ToolServer } from "svc/mcp";
import objectStorePlugin, { MemoryBackend, ObjectStore } from "svc/object-store";
import platformPlugin, { TOOL_REGISTRY, ValueError, configureMcpServer } from "svc/platform";
import { captureLogger, startKernel } from "../../helpers/kernel.js";
import { rejects } from "../../helpers/rejects.js";
import { memoryClient } from "../../helpers/mcp-client.js";
import { startPlatformFixture, type PlatformFixture } from "../../fixtures/platform-server.js";

// Defaults that matter once the tools serve remote users: whose key a call uses, whose preview
// limits a tool keeps, which deploy a name means, how long a platform call may take.
let platform: PlatformFixture;
test.before(async () => {
  platform = await startPlatformFixture();
});
test.after(() => platform.close());

const text = (r: any): string => r.content[0].text;
const quietServer = () => new ToolServer({ name: "remote-test", version: "1.0.0", logger: captureLogger().logger });
const memoryStore = () => new ObjectStore(new MemoryBackend());
const REFUSED = "No Authorization header found in the request: send 'Authorization: Bearer <platform API key>'.";

test("header mode with a static key: a call without Authorization is refused, not served with the operator's key", async () => {
  for (const asFallback of [undefined, false, true]) {
    const server = quietServer();
    await configureMcpServer(server, {
      getApiKeyFromAuthorizationHeader: true,
      platformApiKey: "alice-key",
      ...(asFallback === undefined ? {} : { platformApiKeyAsFallback: asFallback }),
      platformApiUrl: platform.url,
      toolsToRegister: ["get_current_user"],
      objectStore: memoryStore(),
    });
    const running = await server.run({ transport: "streamable-http", host: "127.0.0.1", port: 0 });
    const anonymous = new Client({ name: "anonymous", version: "1.0.0" });
    const bob = new Client({ name: "bob", version: "1.0.0" });
    try {
      await anonymous.connect(new StreamableHTTPClientTransport(new URL(running.url!)));
      await bob.connect(new StreamableHTTPClientTransport(new URL(running.url!), { requestInit: { headers: { Authorization: "Bearer bob-key" } } }));
      const before = platform.requests.length;
      const keyless: any = await anonymous.callTool({ name: "get_current_user", arguments: {} });
      if (asFallback) {
        assert.match(text(keyless), /"given_name": "Alice"/, "opted in: the static key serves keyless calls");
        assert.is(platform.requests.at(-1)!.authorization, "Bearer alice-key");
      } else {
        assert.equal([keyless.isError, text(keyless)], [true, REFUSED], `platformApiKeyAsFallback=${asFallback}`);
        assert.is(platform.requests.length, before, "the platform was never called");
      }
      assert.match(text(await bob.callTool({ name: "get_current_user", arguments: {} })), /"given_name": "Bob"/);
    } finally {
      await anonymous.close();
      await bob.close();
      await running.close();
    }
  }
});

test("a tool's own explorer limits survive the global explorerConfig (unset ones come from it)", async () => {
  const entry = TOOL_REGISTRY.get("list_pipelines")!;
  const original = entry.config;
  // As the original's get_models keeps max_depth=1000 whatever the server's limits are.
  entry.config = { ...original, explorerConfig: { maxStringLength: 3 } };
  const server = quietServer();
  try {
    await configureMcpServer(server, {
      platformApiKey: "alice-key",
      platformApiUrl: platform.url,
      platformWorkspace: "default",
      toolsToRegister: ["list_pipelines"],
      explorerConfig: { maxStringLength: 300, maxItems: 1 },
      objectStore: memoryStore(),
    });
  } finally {
    entry.config = original;
  }
  const client = await memoryClient(server);
  try {
    const preview = text(await client.callTool({ name: "list_pipelines", arguments: {} }));
    assert.match(preview, /"pipeline_id": "[0-9a-f]{3}…" \(\+33 chars\)/, "the tool's own maxStringLength");
    assert.match(preview, /\n {8}… \+2\n/, "the global maxItems still applies");
  } finally {
    await client.close();
  }
});

test("under svc mcp run the platform's deploy_pipeline is deploy_platform_pipeline beside the server's own", async () => {
  const k = await startKernel({
    container: createContainer(),
    settings: { platformApiKey: "alice-key", platformApiUrl: platform.url, platformWorkspace: "default" },
    plugins: [mcpPlugin(), objectStorePlugin(), platformPlugin()],
  });
  const client = new Client({ name: "t", version: "1" });
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(`${k.url}/mcp`)));
    const listed = (await client.listTools()).tools;
    const own = listed.find((t) => t.name === "deploy_pipeline")!;
    const second = listed.find((t) => t.name === "deploy_platform_pipeline")!;
    assert.ok(own && second, listed.map((t) => t.name).join());
    assert.not.match(own.description ?? "", /platform/i, "deploy_pipeline is still the server's own");
    assert.match(second.description!, /^\(The platform's `deploy_pipeline`, registered as `deploy_platform_pipeline`\.\) Deploys a pipeline/);
    assert.equal(Object.keys(second.inputSchema.properties ?? {}), ["pipeline_name", "version_id"]);
    // The platform answers: a pipeline it does not have cannot be deployed there.
    const unknown = text(await client.callTool({ name: "deploy_platform_pipeline", arguments: { pipeline_name: "ghost" } }));
    assert.is(unknown, "There is no pipeline named 'ghost' in workspace 'default'.");
    const sent = platform.requests.at(-1)!;
    assert.equal([sent.method, sent.path, sent.authorization], ["POST", "v1/workspaces/default/pipelines/ghost/deploy", "Bearer alice-key"]);
    assert.not.match(k.logs.join("\n"), /left out/);
  } finally {
    await client.close();
    await k.close();
  }
});

async function toolNamesOf(settings: Record<string, unknown>): Promise<string[]> {
  const k = await startKernel({
    container: createContainer(),
    settings: { platformApiKey: "alice-key", platformApiUrl: platform.url, platformWorkspace: "default", ...settings },
    plugins: [mcpPlugin(), objectStorePlugin(), platformPlugin()],
  });
  const client = new Client({ name: "t", version: "1" });
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(`${k.url}/mcp`)));
    return (await client.listTools()).tools.map((t) => t.name);
  } finally {
    await client.close();
    await k.close();
  }
}

test("PLATFORM_TOOLS may name the second name; without management tools the own name is free; a library caller renames with toolNames", async () => {
  const listed = await toolNamesOf({ platformTools: ["deploy_platform_pipeline", "get_pipeline"] });
  assert.ok(listed.includes("deploy_platform_pipeline") && listed.includes("get_pipeline"), listed.join());
  const asked = await toolNamesOf({ platformTools: ["deploy_platform_pipeline"], mcpManagementTools: false });
  assert.equal(asked.filter((n) => n.startsWith("deploy")), ["deploy_platform_pipeline"]);
  const free = await toolNamesOf({ mcpManagementTools: false });
  assert.ok(free.includes("deploy_pipeline") && !free.includes("deploy_platform_pipeline"), free.join());
  const server = quietServer();
  const { toolNames } = await configureMcpServer(server, {
    platformApiKey: "k",
    toolsToRegister: ["deploy_pipeline"],
    toolNames: { deploy_pipeline: "deploy_on_platform" },
    objectStore: memoryStore(),
  });
  assert.equal(toolNames, ["deploy_on_platform"]);
  assert.ok(server.hasTool("deploy_on_platform"));
  assert.not.ok(server.hasTool("deploy_pipeline"));
});

test("the platform client's time-out: PLATFORM_CLIENT_TIMEOUT (seconds) in the service and the library", async () => {
  platform.slow(/\/pipelines\/chat$/, 400);
  const k = await startKernel({
    container: createContainer(),
    settings: { platformApiKey: "alice-key", platformApiUrl: platform.url, platformWorkspace: "default", platformTools: ["get_pipeline"], platformClientTimeout: 0.1 },
    plugins: [mcpPlugin(), objectStorePlugin(), platformPlugin()],
  });
  const client = new Client({ name: "t", version: "1" });
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(`${k.url}/mcp`)));
    const slow: any = await client.callTool({ name: "get_pipeline", arguments: { pipeline_name: "chat" } });
    assert.is(slow.isError, true);
    assert.match(text(slow), /Request timed out after .* \(limit: 0\.1s\)/);
  } finally {
    await client.close();
    await k.close();
  }

  const previous = process.env.PLATFORM_CLIENT_TIMEOUT;
  try {
    process.env.PLATFORM_CLIENT_TIMEOUT = "0.1";
    const server = quietServer();
    await configureMcpServer(server, { platformApiKey: "alice-key", platformApiUrl: platform.url, platformWorkspace: "default", toolsToRegister: ["get_pipeline"], objectStore: memoryStore() });
    const c = await memoryClient(server);
    try {
      assert.match(text(await c.callTool({ name: "get_pipeline", arguments: { pipeline_name: "chat" } })), /\(limit: 0\.1s\)/);
    } finally {
      await c.close();
    }
    process.env.PLATFORM_CLIENT_TIMEOUT = "soon";
    const bad = await rejects(() => configureMcpServer(quietServer(), { platformApiKey: "k", objectStore: memoryStore() }), /PLATFORM_CLIENT_TIMEOUT must be a number from 0\.1 to 3600 \(seconds\), got 'soon'/);
    assert.instance(bad, ValueError);
  } finally {
    if (previous === undefined) delete process.env.PLATFORM_CLIENT_TIMEOUT;
    else process.env.PLATFORM_CLIENT_TIMEOUT = previous;
  }
});

test.run();
