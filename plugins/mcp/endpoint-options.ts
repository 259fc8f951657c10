/**
 * @module The endpoint options that come from settings (`SERVICE_MCP_*`), shared by the plugin and
 * by `ToolServer.run`.
 */
import type { SettingValues } from "svc/plugin";
import type { mcpSettings } from "./settings.js";
import type { McpEndpointOptions } from "./endpoints.js";

export function endpointOptions(settings: SettingValues<typeof mcpSettings>): McpEndpointOptions {
  return {
    streamableHttp: settings.mcpTransport === "streamable-http",
    sse: settings.mcpTransport !== "stdio",
    stateful: settings.mcpStateful,
    jsonResponse: settings.mcpJsonResponse,
    maxSessions: settings.mcpMaxSessions,
    sessionIdleMs: settings.mcpSessionIdleTimeout * 1000,
  };
}
