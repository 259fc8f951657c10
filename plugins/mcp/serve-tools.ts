/**
 * @module `ToolServer.run`: serves a tool server on its own. Over HTTP it runs a small kernel with
 * only the MCP endpoints, so the same body limits, Host/Origin guard and graceful shutdown apply
 * as in `svc run`; over stdio it connects one server to this process's stdin/stdout (anything the
 * tools print to stdout would corrupt the protocol: log to stderr).
 */
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { createKernel, definePlugin, type Logger, type SettingKey } from "svc/plugin";
import { mcpSettings } from "./settings.js";
import { McpEndpoints } from "./endpoints.js";
import { endpointOptions } from "./endpoint-options.js";
import type { McpTransportKind, ToolServer } from "./tool-server.js";

export interface RunOptions {
  readonly transport?: Exclude<McpTransportKind, "memory">;
  readonly host?: string;
  readonly port?: number;
  /** Issue sessions on initialize (see `SERVICE_MCP_STATEFUL`). */
  readonly stateful?: boolean;
  readonly jsonResponse?: boolean;
  /** Further settings for the HTTP app, by setting key (`maxBodyBytes`, `cors`, …). */
  readonly settings?: Partial<Record<SettingKey, unknown>>;
  readonly logger?: Logger;
}

export interface RunningToolServer {
  /** The Streamable HTTP endpoint; undefined over stdio. */
  readonly url?: string;
  close(): Promise<void>;
}

export async function runToolServer(tools: ToolServer, options: RunOptions = {}): Promise<RunningToolServer> {
  const transport = options.transport ?? "streamable-http";
  if (transport === "stdio") {
    const server = await tools.connect(new StdioServerTransport(), "stdio");
    return { close: () => server.close() };
  }
  let endpoints: McpEndpoints | undefined;
  const kernel = await createKernel({
    logger: options.logger ?? tools.log,
    settings: {
      ...options.settings,
      host: options.host ?? "localhost",
      port: options.port ?? 1417,
      mcpTransport: transport,
      ...(options.stateful !== undefined ? { mcpStateful: options.stateful } : {}),
      ...(options.jsonResponse !== undefined ? { mcpJsonResponse: options.jsonResponse } : {}),
    },
    plugins: [
      definePlugin({
        name: "svc:mcp-endpoints",
        settings: mcpSettings,
        setup(api) {
          endpoints = new McpEndpoints(tools, endpointOptions(api.settings));
          endpoints.mount(api);
        },
        close: () => endpoints?.close(),
      }),
    ],
  });
  const address = await kernel.listen();
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return { url: `http://${host}:${address.port}/mcp`, close: () => kernel.close() };
}
