/**
 * @module Test helper: a real MCP SDK client connected to a tool server in the same process
 * (linked in-memory transports). Close the client when done.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { ToolServer } from "svc/mcp";

export async function memoryClient(server: ToolServer): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "test", version: "1.0.0" });
  await client.connect(clientSide);
  return client;
}
