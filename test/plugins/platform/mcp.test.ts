import { test } from "uvu";
import * as assert from "uvu/assert";
import * as v from "valibot";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ToolServer, type RunningToolServer } from "svc/mcp";
import { MemoryBackend, ObjectStore, closeInitializedStores } from "svc/object-store";
import { ALL_PLATFORM_TOOLS, MemoryType, ValueError, addTool, buildTool, configureMcpServer, tools, type BaseTool } from "svc/platform";
import { captureLogger } from "../../helpers/kernel.js";
import { rejects } from "../../helpers/rejects.js";
import { memoryClient } from "../../helpers/mcp-client.js";
import { startPlatformFixture, type PlatformFixture } from "../../fixtures/platform-server.js";

let platform: PlatformFixture;
test.before(async () => {
  platform = await startPlatformFixture();
});
test.after(async () => {
  await platform.close();
  await closeInitializedStores();
});

const quietServer = () => new ToolServer({ name: "platform-test", version: "1.0.0", logger: captureLogger().logger });
const text = (r: any): string => r.content[0].text;

async function httpClient(url: string, apiKey?: string): Promise<Client> {
  const headers: Record<string, string> = apiKey ? { Authorization: `Bearer ${apiKey}` } : {};
  const client = new Client({ name: `client-${apiKey ?? "anon"}`, version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return client;
}

test("configuration errors are value errors and register nothing; no network call happens", async () => {
  const server = quietServer();
  const before = platform.requests.length;
  const noKey = await rejects(() => configureMcpServer({ mcpServerInstance: server }), /API key is required for authentication\. Please provide 'platformApiKey' or enable 'getApiKeyFromAuthorizationHeader'\./);
  assert.instance(noKey, ValueError);
  await rejects(() => configureMcpServer(server, { platformApiKey: "k", toolsToRegister: ["list_pipelines", "fly", "dance"] }), /^ValueError: Unknown tools: dance, fly\nAvailable tools: create_index, create_pipeline,/);
  await rejects(() => configureMcpServer(server, { platformApiKey: "k", objectStoreBackend: "disk" }), /Unknown object store backend 'disk'/);
  await rejects(() => configureMcpServer(server, { platformApiKey: "k", objectStoreBackend: "redis" }), /'objectStoreRedisUrl' is not set/);
  await rejects(() => configureMcpServer(server, { platformApiKey: "k", platformApiUrl: "ftp://x" }), /'platformApiUrl' must be an http\(s\) URL/);
  await rejects(() => configureMcpServer({ platformApiKey: "k" }), /'mcpServerInstance' is required/);
  assert.is(server.tools.length, 0);
  await configureMcpServer(server, { platformApiKey: "k", toolsToRegister: ["get_pipeline"], platformDocsShareablePrototypeUrl: "https://example.com/share?share_token=x" });
  await rejects(() => configureMcpServer(server, { platformApiKey: "k", toolsToRegister: ["get_pipeline"] }), /already has tools named get_pipeline/);
  assert.is(platform.requests.length, before);
});

test("all tools are registered by default; injected parameters never reach the schema", async () => {
  const server = quietServer();
  const { toolNames } = await configureMcpServer(server, { platformApiKey: "alice-key", platformApiUrl: platform.url, platformWorkspace: "default" });
  assert.equal([...toolNames].sort(), [...ALL_PLATFORM_TOOLS]);
  for (const name of ["list_pipelines", "get_pipeline", "search_pipeline", "create_pipeline", "update_pipeline", "deploy_pipeline", "validate_pipeline", "get_pipeline_logs", "get_from_object_store", "get_current_user", "search_object_store", "get_slice_from_object_store"]) {
    assert.ok(toolNames.includes(name), name);
  }
  const client = await memoryClient(server);
  try {
    const listed = new Map((await client.listTools()).tools.map((t) => [t.name, t]));
    const props = (name: string) => Object.keys((listed.get(name)!.inputSchema.properties ?? {}) as object);
    assert.equal(props("list_pipelines"), ["after"]);
    assert.equal(props("deploy_pipeline"), ["pipeline_name", "version_id"]);
    assert.equal(props("create_pipeline"), ["pipeline_name", "yaml_configuration"]);
    assert.equal(props("get_from_object_store"), ["object_id", "path"]);
    for (const t of listed.values()) assert.not.ok(["client", "ctx", "signal"].some((p) => props(t.name).includes(p)), t.name);
    assert.match(listed.get("get_pipeline")!.description!, /Fetches one pipeline by name/);
    assert.is(listed.get("list_pipelines")!.annotations?.readOnlyHint, true);
    assert.is(listed.get("create_pipeline")!.annotations?.readOnlyHint, false);
    const out = text(await client.callTool({ name: "list_pipelines", arguments: {} }));
    assert.match(out, /^@obj_\d{3} → object/);
    assert.match(out, /"data": \[\n {8}\{/);
  } finally {
    await client.close();
  }
});

test("explorerConfig sets the preview limits of every tool", async () => {
  const server = quietServer();
  await configureMcpServer(server, { platformApiKey: "alice-key", platformApiUrl: platform.url, platformWorkspace: "default", toolsToRegister: ["list_pipelines"], explorerConfig: { maxDepth: 2 }, objectStore: new ObjectStore(new MemoryBackend()) });
  const client = await memoryClient(server);
  try {
    assert.match(text(await client.callTool({ name: "list_pipelines", arguments: {} })), /"data": \[\n {8}\{…\},/);
  } finally {
    await client.close();
  }
});

test("over Streamable HTTP, two clients with two keys see their own data; references work across calls", async () => {
  const server = quietServer();
  await configureMcpServer(server, { getApiKeyFromAuthorizationHeader: true, platformApiUrl: platform.url, objectStoreTtl: 600 });
  const running: RunningToolServer = await server.run({ transport: "streamable-http", host: "127.0.0.1", port: 0 });
  const alice = await httpClient(running.url!, "alice-key");
  const bob = await httpClient(running.url!, "bob-key");
  const anonymous = await httpClient(running.url!);
  try {
    const schema = (await alice.listTools()).tools.find((t) => t.name === "list_pipelines")!.inputSchema;
    assert.equal(schema.required, ["workspace"]);
    const mine = text(await alice.callTool({ name: "list_pipelines", arguments: { workspace: "default" } }));
    assert.match(mine, /"rag-qa"/);
    assert.not.match(mine, /bob-search/);
    const theirs = text(await bob.callTool({ name: "list_pipelines", arguments: { workspace: "bobs" } }));
    assert.match(theirs, /"bob-search"/);
    const denied: any = await bob.callTool({ name: "list_pipelines", arguments: { workspace: "default" } });
    assert.is(denied.isError, true);
    assert.is(text(denied), "There is no workspace named 'default'. Did you mean to configure it?");
    const keyless: any = await anonymous.callTool({ name: "get_current_user", arguments: {} });
    assert.is(keyless.isError, true);
    assert.match(text(keyless), /No Authorization header found/);
    assert.match(text(await bob.callTool({ name: "get_current_user", arguments: {} })), /"given_name": "Bob"/);

    const ref = /^(@obj_\d+)/.exec(mine)![1]!;
    const part = text(await alice.callTool({ name: "get_from_object_store", arguments: { object_id: ref, path: "data.0.name" } }));
    assert.is(part, `${ref}.data.0.name → string (length: 6)\n\nrag-qa`);
    assert.match(text(await alice.callTool({ name: "get_from_object_store", arguments: { object_id: `${ref}.data.0` } })), /"status": "DEPLOYED"/);
    assert.match(text(await alice.callTool({ name: "search_object_store", arguments: { object_id: ref, pattern: "summar" } })), /^Found 1 matches/);
    assert.match(text(await alice.callTool({ name: "get_slice_from_object_store", arguments: { object_id: ref, path: "data", start: 1, end: 2 } })), /^List slice \[1:2\] \(showing 1 of 3 items\)/);
    const missing: any = await alice.callTool({ name: "get_from_object_store", arguments: { object_id: "@obj_999" } });
    assert.equal([missing.isError, text(missing)], [true, "Object @obj_999 not found or expired."]);
    const badPath: any = await alice.callTool({ name: "get_from_object_store", arguments: { object_id: ref, path: "data.9" } });
    assert.equal([badPath.isError, text(badPath)], [true, `Object '${ref}' does not have a value at path 'data.9'.`]);

    // A stored YAML, passed by reference into a referenceable tool.
    const yamlRef = /^(@obj_\d+)/.exec(text(await alice.callTool({ name: "get_pipeline_yaml", arguments: { workspace: "default", pipeline_name: "rag-qa" } })))![1]!;
    const validated = text(await alice.callTool({ name: "validate_pipeline", arguments: { workspace: "default", yaml_configuration: yamlRef } }));
    assert.match(validated, /"valid": true/);
  } finally {
    await Promise.all([alice.close(), bob.close(), anonymous.close()]);
    await running.close();
  }
});

test("custom tools and tools wrapping one named pipeline", async () => {
  const server = quietServer();
  const store = new ObjectStore(new MemoryBackend());
  const common = { apiKey: "alice-key", workspace: "default", baseUrl: platform.url, useRequestContext: false, objectStore: store };
  const searchFaq = buildTool(tools.searchPipeline, { needsClient: true, needsWorkspace: true, customArgs: { pipelineName: "rag-qa" } }, common);
  addTool(server, searchFaq, { name: "search_faq", description: "Answers questions about the product from the FAQ." });
  const whoAmI: BaseTool = {
    name: "who_am_i",
    description: "Tells who the API key belongs to.",
    parameters: { greeting: v.optional(v.string(), "Hello") },
    async run({ client, greeting }) {
      const me = await client!.get("v1/users/me");
      return `${greeting}, ${me.given_name} ${me.family_name}`;
    },
  };
  addTool(server, buildTool(whoAmI, { needsClient: true }, common));
  addTool(server, buildTool(whoAmI, { needsClient: true, memoryType: MemoryType.EXPLORABLE }, { ...common, name: "who_am_i_stored" }));
  const client = await memoryClient(server);
  try {
    const listed = (await client.listTools()).tools;
    const faq = listed.find((t) => t.name === "search_faq")!;
    assert.is(faq.description, "Answers questions about the product from the FAQ.");
    assert.equal(Object.keys(faq.inputSchema.properties!), ["query"]);
    const faqOut = text(await client.callTool({ name: "search_faq", arguments: { query: "pricing" } }));
    assert.match(faqOut, /"answer":\s*"The answer to 'pricing'"/, faqOut);
    assert.is(text(await client.callTool({ name: "who_am_i", arguments: {} })), "Hello, Alice Liddell");
    assert.is(text(await client.callTool({ name: "who_am_i_stored", arguments: { greeting: "Hi" } })), "@obj_001 → string (length: 17)\n\nHi, Alice Liddell");
    assert.throws(() => buildTool(whoAmI, { memoryType: MemoryType.EXPLORABLE }, {}), /ObjectStore instance is required for memory decorators/);
    assert.throws(() => buildTool(whoAmI, { memoryType: "FOREVER" as MemoryType }, {}), /Invalid memory type: FOREVER/);
  } finally {
    await client.close();
  }
});

test.run();
