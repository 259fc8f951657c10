/**
 * @module svc:platform, and the `svc/platform` library: MCP tools over an AI platform's REST API
 * (pipelines and their versions, debug runs, searches, search history and traces, indexes,
 * models, templates, components, custom component installations, secrets, workspaces, the
 * current user), skill guides, documentation search and the object-store tools, with a static or
 * per-request API key, a static or per-call workspace, and large results returned as
 * `@obj_<id>` references.
 *
 * The plugin adds the tools to the tool server of `svc mcp run` (`svc:mcp`), configured from the
 * `PLATFORM_*` and `OBJECT_STORE_*` settings or its options; it uses the `OBJECT_STORE` of
 * `svc:object-store` when that plugin is loaded.
 */
import * as v from "valibot";
import { OBJECT_STORE, definePlugin, token, type KernelPlugin, type ObjectStore } from "svc";
import { createObjectStore } from "svc/object-store";
import { configureMcpServer } from "./configure.js";
import type { ToolServerLike } from "./tool-config.js";
import { ALL_PLATFORM_TOOLS } from "./registry.js";

/** The tool server `svc:mcp` provides (the same token as `MCP_TOOL_SERVER` of `svc/mcp`). */
const MCP_TOOL_SERVER = token<ToolServerLike>("mcp.toolServer");

const options = v.object({
  apiKey: v.optional(v.string()),
  apiUrl: v.optional(v.string()),
  workspace: v.optional(v.string()),
  apiKeyFromAuthHeader: v.optional(v.boolean()),
  tools: v.optional(v.array(v.string())),
  /** Markdown files or directories `search_docs` searches (default: the README and the skills). */
  docsPaths: v.optional(v.array(v.string())),
});

export function platformPlugin(): KernelPlugin<v.InferOutput<typeof options>> {
  let ownStore: ObjectStore | undefined;
  return definePlugin({
    name: "svc:platform",
    dependsOn: ["svc:mcp"],
    options,
    async setup(kernel, opts) {
      const s = kernel.settings;
      const shared = kernel.container.isRegistered(OBJECT_STORE, true) ? kernel.resolve(OBJECT_STORE) : undefined;
      // Without svc:object-store the plugin owns a store of its own (closed with the plugin).
      const objectStore =
        shared ?? (ownStore = await createObjectStore({ backend: s.objectStoreBackend, redisUrl: s.objectStoreRedisUrl, ttl: s.objectStoreTtl, logger: kernel.log }));
      const server = kernel.resolve(MCP_TOOL_SERVER);
      const explicit = opts.tools ?? s.platformTools;
      // By default every platform tool whose name is free: svc:mcp's management tools include a
      // `deploy_pipeline` of their own (SERVICE_MCP_MANAGEMENT_TOOLS=false frees the name).
      const taken = ALL_PLATFORM_TOOLS.filter((n) => server.hasTool?.(n));
      for (const name of taken) if (!explicit.length) kernel.log.warn(`Platform tool '${name}' left out: the MCP server already has a tool of that name`);
      const tools = explicit.length ? explicit : ALL_PLATFORM_TOOLS.filter((n) => !taken.includes(n));
      const configured = configureMcpServer(server, {
        platformApiKey: opts.apiKey ?? s.platformApiKey,
        platformApiUrl: opts.apiUrl ?? s.platformApiUrl,
        platformWorkspace: opts.workspace ?? s.platformWorkspace,
        getApiKeyFromAuthorizationHeader: opts.apiKeyFromAuthHeader ?? s.platformApiKeyFromAuthHeader,
        toolsToRegister: tools,
        docsPaths: opts.docsPaths,
        objectStore,
      });
      const { toolNames } = await configured.catch(async (error) => {
        await ownStore?.close();
        ownStore = undefined;
        throw error;
      });
      kernel.log.info(`Platform tools: ${toolNames.length} registered (object store: ${objectStore.backend.kind})`);
    },
    async close() {
      await ownStore?.close();
      ownStore = undefined;
    },
  });
}

export default platformPlugin;

export { configureMcpServer, addTool, type ConfigureOptions, type ConfiguredTools } from "./configure.js";
export { buildTool, type BuildToolOptions, type PlatformTool } from "./build-tool.js";
export { MemoryType, type ToolConfig, type BaseTool, type ToolArgs, type ToolCallContext, type ToolServerLike } from "./tool-config.js";
export { TOOL_REGISTRY, ALL_PLATFORM_TOOLS, type RegistryEntry } from "./registry.js";
export { PlatformClient, DEFAULT_PLATFORM_API_URL, DEFAULT_TIMEOUT_MS, SEARCH_TIMEOUT_MS, type PlatformClientOptions, type RequestOptions, type PlatformResponse } from "./client/platform-client.js";
export { PlatformApiError, BadRequestError, ResourceNotFoundError, UnexpectedApiError, RequestTimeoutError, PlatformConnectionError } from "./client/errors.js";
export { toPage, type Page } from "./client/pagination.js";
export { OBJECT_STORE_TOOLS, objectStoreTools } from "./tools/store-tools.js";
export * as tools from "./tools/index.js";
export { ToolError, ValueError, initializeOrGetInitializedStore } from "svc/object-store";
