/**
 * @module The settings svc:mcp declares; the kernel merges them into its table when the plugin is loaded.
 */
import { setting, settingTypes } from "svc/plugin";

const { boolean, choice, decimal, integer, text } = settingTypes;

export const mcpSettings = {
  mcpHost: setting(text(), { env: "SERVICE_MCP_HOST", flag: "--host", command: "svc mcp run", default: "localhost", help: "MCP server bind host." }),
  mcpPort: setting(integer(0, 65535), { env: "SERVICE_MCP_PORT", flag: "--port", command: "svc mcp run", default: 1417, help: "MCP server port." }),
  mcpTransport: setting(choice(["streamable-http", "sse", "stdio"] as const), {
    env: "SERVICE_MCP_TRANSPORT", command: "svc mcp run",
    flag: "--transport",
    default: "streamable-http",
    help: "`streamable-http` (`/mcp`, plus legacy SSE at `/sse`), `sse` (legacy SSE only) or `stdio`.",
  }),
  mcpStateful: setting(boolean(), {
    env: "SERVICE_MCP_STATEFUL", command: "svc mcp run",
    flag: "--stateful",
    default: false,
    help: "Issue a session on `initialize`; requests without a session id are still served statelessly.",
  }),
  mcpJsonResponse: setting(boolean(), {
    env: "SERVICE_MCP_JSON_RESPONSE", command: "svc mcp run",
    flag: "--json-response",
    default: false,
    help: "Answer Streamable HTTP POSTs with one JSON body instead of an SSE stream.",
  }),
  mcpMaxSessions: setting(integer(1), { env: "SERVICE_MCP_MAX_SESSIONS", default: 100, help: "Open MCP sessions (Streamable HTTP and SSE) at most; more get 503." }),
  mcpSessionIdleTimeout: setting(decimal(1, 86_400), {
    env: "SERVICE_MCP_SESSION_IDLE_TIMEOUT",
    default: 300,
    help: "Seconds after which an idle session is closed (a session with an open stream or a running call is not idle).",
  }),
  mcpManagementTools: setting(boolean(), {
    env: "SERVICE_MCP_MANAGEMENT_TOOLS",
    default: true,
    help: "List the deploy, undeploy and status tools.",
  }),
};
