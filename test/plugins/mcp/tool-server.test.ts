import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { test } from "uvu";
import * as assert from "uvu/assert";
import * as v from "valibot";
import { ToolServer, type ToolContext } from "svc/mcp";
import { captureLogger } from "../../helpers/kernel.js";
import { until } from "../../helpers/http.js";

function quietServer(options: ConstructorParameters<typeof ToolServer>[0] = {}): ToolServer {
  return new ToolServer({ logger: captureLogger().logger, ...options });
}

async function connected(server: ToolServer): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "test", version: "1.0.0" });
  await client.connect(clientSide);
  return client;
}

const text = (result: any): string => result.content[0].text;

test("tools are listed with the JSON Schema generated from their valibot schema", async () => {
  const server = quietServer();
  server.addTool((args) => `hi ${args.who}`, {
    name: "greet",
    description: "Greets someone.",
    inputSchema: v.object({ who: v.pipe(v.string(), v.description("Who to greet")), times: v.optional(v.number(), 1) }),
  });
  server.addTool(() => "pong", { name: "ping" });
  const client = await connected(server);
  try {
    const { tools } = await client.listTools();
    assert.equal(tools.map((t) => t.name), ["greet", "ping"]);
    assert.equal(tools[0]!.description, "Greets someone.");
    assert.equal(tools[0]!.inputSchema.required, ["who"]);
    assert.equal((tools[0]!.inputSchema.properties as any).who, { type: "string", description: "Who to greet" });
    assert.equal(tools[1]!.inputSchema, { type: "object", additionalProperties: true });
    assert.equal(text(await client.callTool({ name: "greet", arguments: { who: "Ada" } })), "hi Ada");
  } finally {
    await client.close();
  }
});

test("arguments that fail the schema are an error result naming the field; nothing runs", async () => {
  const server = quietServer();
  let calls = 0;
  server.addTool(() => calls++, { name: "valibot", inputSchema: v.object({ count: v.number() }) });
  server.addTool(() => calls++, {
    name: "json",
    inputSchema: { type: "object", properties: { question: { type: "string" } }, required: ["question"] },
  });
  const client = await connected(server);
  try {
    const a: any = await client.callTool({ name: "valibot", arguments: { count: "three" } });
    assert.is(a.isError, true);
    assert.match(text(a), "Input validation error for tool 'valibot'");
    assert.match(text(a), /count: .*number/i);
    const b: any = await client.callTool({ name: "json", arguments: {} });
    assert.is(b.isError, true);
    assert.match(text(b), "question: is required");
    const c: any = await client.callTool({ name: "json", arguments: { question: 7 } });
    assert.match(text(c), "question: must be string");
    assert.is(calls, 0);
  } finally {
    await client.close();
  }
});

test("results: strings as text, values as JSON text, CallToolResults as they are", async () => {
  const server = quietServer();
  server.addTool(() => ({ answer: 42, list: [1, 2] }), { name: "object" });
  server.addTool(() => [1, "two"], { name: "array" });
  server.addTool(() => undefined, { name: "nothing" });
  server.addTool(() => ({ content: [{ type: "text", text: "raw" }], isError: false }), { name: "raw" });
  const client = await connected(server);
  try {
    assert.equal(JSON.parse(text(await client.callTool({ name: "object", arguments: {} }))), { answer: 42, list: [1, 2] });
    assert.equal(JSON.parse(text(await client.callTool({ name: "array", arguments: {} }))), [1, "two"]);
    assert.is(text(await client.callTool({ name: "nothing", arguments: {} })), "");
    assert.is(text(await client.callTool({ name: "raw", arguments: {} })), "raw");
  } finally {
    await client.close();
  }
});

test("a throwing tool is an isError result naming the tool; the stack only with tracebacks on", async () => {
  for (const showTracebacks of [false, true]) {
    const server = quietServer({ showTracebacks });
    server.addTool(() => {
      throw new Error("disk on fire");
    }, { name: "broken" });
    const client = await connected(server);
    try {
      const result: any = await client.callTool({ name: "broken", arguments: {} });
      assert.is(result.isError, true);
      assert.ok(text(result).startsWith("Error calling tool 'broken': disk on fire"));
      assert.is(text(result).includes("at "), showTracebacks, "stack shown only with tracebacks");
      const unknown = await client.callTool({ name: "nope", arguments: {} }).then(() => undefined, (e: { code?: number; message?: string }) => e);
      assert.is(unknown?.code, -32602, "an unknown tool is a protocol error, not an isError result");
      assert.match(String(unknown?.message), "Unknown tool: nope");
    } finally {
      await client.close();
    }
  }
});

test("bad tool definitions fail when added", () => {
  const server = quietServer();
  server.addTool(() => 1, { name: "one" });
  assert.throws(() => server.addTool(() => 1, { name: "one" }), /already exists/);
  assert.throws(() => server.addTool(() => 1, { name: "has space" }), /Invalid tool name/);
  assert.throws(() => server.addTool(() => 1, { name: "num", inputSchema: v.number() as any }), /must describe an object/);
  assert.throws(() => server.addTool(() => 1, { name: "arr", inputSchema: { type: "array" } as any }), /"type": "object"/);
});

test("connected clients hear list_changed once per burst of changes; the server advertises it", async () => {
  const server = quietServer();
  const client = await connected(server);
  try {
    assert.equal(client.getServerCapabilities()?.tools, { listChanged: true });
    let heard = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      heard++;
    });
    server.addTool(() => 1, { name: "a" });
    server.removeTool("a");
    server.addTool(() => 1, { name: "a" });
    await until(() => heard === 1);
    server.removeTool("a");
    await until(() => heard === 2);
    assert.equal((await client.listTools()).tools, []);
  } finally {
    await client.close();
  }
  assert.is(server.connections, 0, "a closed connection is forgotten");
});

test("run() serves the tools over Streamable HTTP; a tool sees the request's headers and signal", async () => {
  const server = quietServer();
  let seen: ToolContext | undefined;
  server.addTool((_args, ctx) => {
    seen = ctx;
    return "ok";
  }, { name: "whoami" });
  const running = await server.run({ transport: "streamable-http", host: "127.0.0.1", port: 0 });
  const client = new Client({ name: "test", version: "1.0.0" });
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(running.url!), { requestInit: { headers: { Authorization: "Bearer sekret" } } }));
    assert.is(text(await client.callTool({ name: "whoami", arguments: {} })), "ok");
    assert.is(seen!.headers.authorization, "Bearer sekret");
    assert.is(seen!.transport, "streamable-http");
    assert.is(seen!.signal.aborted, false);
  } finally {
    await client.close();
    await running.close();
  }
});

test.run();
