/**
 * @module svc:mcp — the MCP server (`svc mcp run`): every deployed pipeline with a `runApi` is a
 * tool, next to the core management tools, over Streamable HTTP (`/mcp`), legacy SSE (`/sse`) or
 * stdio. Also the public `svc/mcp` entry: `ToolServer`, a reusable tool server on the SDK's
 * low-level `Server` that other plugins (the platform tools) register on.
 */
import { DEPLOYER, REGISTRY, ROUTES, definePlugin, packageVersion, token, type KernelPlugin, type SettingValues } from "svc/plugin";
import { RUN_STORE, type runsSettings } from "svc/runs";
import { McpEndpoints } from "./endpoints.js";
import { endpointOptions } from "./endpoint-options.js";
import { MANAGEMENT_TOOLS, addManagementTools } from "./management-tools.js";
import { PipelineTools } from "./pipeline-tools.js";
import { ToolServer } from "./tool-server.js";
import { toolAccess } from "./tool-access.js";
import { ToolTasks } from "./tool-tasks.js";
import { mcpSettings } from "./settings.js";
import type { McpSessionCounts } from "./sessions.js";

export { ToolServer, type ToolAccess, type ToolCaller, type McpTransportKind, type ToolContext, type ToolFn, type ToolOptions, type ToolServerOptions } from "./tool-server.js";
export { runToolServer, type RunOptions, type RunningToolServer } from "./serve-tools.js";
export { McpEndpoints, type McpEndpointOptions } from "./endpoints.js";
export { ToolError, errorResult, textResult, toToolResult } from "./tool-result.js";
export { compileSchema, type JsonSchemaObject, type ToolInputSchema } from "./tool-schema.js";
export { MANAGEMENT_TOOLS } from "./management-tools.js";
export { ToolTasks, type TaskCall, type ToolTasksOptions } from "./tool-tasks.js";
export { RunTaskStore, TASK_KIND } from "./run-task-store.js";
export type { McpSessionCounts, SessionTransport } from "./sessions.js";

/** The tool server of `svc:mcp`, for plugins that add tools to it. */
export const MCP_TOOL_SERVER = token<ToolServer>("mcp.toolServer", "svc:mcp");

/** The open and opened MCP sessions by transport (for `/metrics`); all zero over stdio. */
export const MCP_SESSIONS = token<McpSessionCounts>("mcp.sessions", "svc:mcp");

const NO_SESSIONS: McpSessionCounts = { open: () => ({ "streamable-http": 0, sse: 0 }), opened: () => ({ "streamable-http": 0, sse: 0 }) };

export const MCP_SERVER_NAME = "svc-mcp-server";

/** The longest task ttl when the host's run store comes without svc:runs' retention setting: a day. */
const DEFAULT_TASK_TTL_SECONDS = 86_400;

export default function mcpPlugin(): KernelPlugin {
  let tools: ToolServer | undefined;
  let endpoints: McpEndpoints | undefined;
  let tasks: ToolTasks | undefined;
  return definePlugin({
    name: "svc:mcp",
    settings: mcpSettings,
    provides: [MCP_TOOL_SERVER, MCP_SESSIONS],
    optional: [RUN_STORE],
    setup(api) {
      const settings = api.settings;
      // With a run store (svc:runs), tool calls may be MCP tasks kept in it.
      const store = api.optional(RUN_STORE);
      if (store) {
        const retention = (settings as Partial<SettingValues<typeof runsSettings>>).runRetentionSeconds ?? DEFAULT_TASK_TTL_SECONDS;
        tasks = new ToolTasks({ store, log: api.log, maxTtlMs: retention * 1000 });
      }
      tools = new ToolServer({
        name: MCP_SERVER_NAME,
        version: packageVersion(),
        logger: api.log,
        tracer: api.tracer,
        showTracebacks: settings.showTracebacks,
        access: toolAccess(api, api.resolve(REGISTRY)),
        tasks,
      });
      api.provide(MCP_TOOL_SERVER, tools);
      const reserved = new Set<string>();
      if (settings.mcpManagementTools) {
        addManagementTools(tools, api.resolve(REGISTRY), api.resolve(DEPLOYER));
        for (const name of MANAGEMENT_TOOLS) reserved.add(name);
      }
      new PipelineTools(api, tools, api.resolve(REGISTRY), reserved).start();
      if (settings.mcpTransport !== "stdio") {
        endpoints = new McpEndpoints(tools, endpointOptions(settings));
        endpoints.mount(api);
        api.provide(MCP_SESSIONS, endpoints.sessions);
      } else api.provide(MCP_SESSIONS, NO_SESSIONS);
      // The MCP app's health check, unless the app already has one (svc:management's).
      if (!api.resolve(ROUTES).some((r) => r.method === "GET" && r.path === "/status")) {
        api.route("GET", "/status", () => ({ status: "ok" }), { docs: false });
      }
    },
    async close() {
      await endpoints?.close();
      await tasks?.close();
      await tools?.close();
    },
  });
}
export { mcpSettings } from "./settings.js";
