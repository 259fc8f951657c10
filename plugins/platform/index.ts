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
import { OBJECT_STORE, definePlugin, type KernelPlugin, type ObjectStore } from "svc/plugin";
import { MCP_TOOL_SERVER } from "svc/mcp";
import { createObjectStore, objectStoreSettings } from "svc/object-store";
import { PLATFORM_TOOL_SECOND_NAMES, configureMcpServer } from "./configure.js";
import type { ToolServerLike } from "./tool-config.js";
import { ALL_PLATFORM_TOOLS } from "./registry.js";
import { platformSettings } from "./settings.js";

const options = v.object({
  apiKey: v.optional(v.string()),
  apiUrl: v.optional(v.string()),
  workspace: v.optional(v.string()),
  apiKeyFromAuthHeader: v.optional(v.boolean()),
  apiKeyAsFallback: v.optional(v.boolean()),
  /** Seconds a platform request may take. */
  timeout: v.optional(v.pipe(v.number(), v.minValue(0.1), v.maxValue(3600))),
  tools: v.optional(v.array(v.string())),
  /** Markdown files or directories `search_docs` searches (default: the README, the docs pages and the skills). */
  docsPaths: v.optional(v.array(v.string())),
});

export function platformPlugin(): KernelPlugin<v.InferOutput<typeof options>> {
  let ownStore: ObjectStore | undefined;
  return definePlugin({
    name: "svc:platform",
    // Without svc:object-store it makes its own store from the same settings.
    settings: { ...platformSettings, ...objectStoreSettings },
    needs: [MCP_TOOL_SERVER],
    optional: [OBJECT_STORE],
    options,
    async setup(kernel, opts) {
      const s = kernel.settings;
      const shared = kernel.optional(OBJECT_STORE);
      // Without svc:object-store the plugin owns a store of its own (closed with the plugin).
      const objectStore =
        shared ??
        (ownStore = await createObjectStore({
          backend: s.objectStoreBackend,
          redisUrl: s.objectStoreRedisUrl,
          redisUrlSetting: "OBJECT_STORE_REDIS_URL",
          ttl: s.objectStoreTtl,
          logger: kernel.log,
        }));
      const server = kernel.resolve(MCP_TOOL_SERVER);
      const { tools, toolNames } = chooseNames(opts.tools ?? s.platformTools, server, (message) => kernel.log.warn(message));
      const platformApiKey = opts.apiKey ?? s.platformApiKey;
      const headerMode = opts.apiKeyFromAuthHeader ?? s.platformApiKeyFromAuthHeader;
      const asFallback = opts.apiKeyAsFallback ?? s.platformApiKeyAsFallback;
      if (headerMode && platformApiKey && !asFallback) {
        kernel.log.info("Platform tools: keys come from each call's Authorization header; calls without one are refused (PLATFORM_API_KEY_AS_FALLBACK=true serves them with PLATFORM_API_KEY)");
      }
      const configured = configureMcpServer(server, {
        platformApiKey,
        platformApiUrl: opts.apiUrl ?? s.platformApiUrl,
        platformWorkspace: opts.workspace ?? s.platformWorkspace,
        getApiKeyFromAuthorizationHeader: headerMode,
        platformApiKeyAsFallback: asFallback,
        timeoutMs: (opts.timeout ?? s.platformClientTimeout) * 1000,
        toolsToRegister: tools,
        toolNames,
        docsPaths: opts.docsPaths,
        objectStore,
      });
      const registered = await configured.catch(async (error) => {
        await ownStore?.close();
        ownStore = undefined;
        throw error;
      });
      kernel.log.info(`Platform tools: ${registered.toolNames.length} registered (object store: ${objectStore.backend.kind})`);
    },
    async close() {
      await ownStore?.close();
      ownStore = undefined;
    },
  });
}

export default platformPlugin;

/**
 * The tools to register (all by default; a listed second name means its tool) and the second
 * names of those whose own name the server already uses — `deploy_pipeline` of svc:mcp's
 * management tools makes the platform's `deploy_platform_pipeline`. A taken name without a
 * second one is left out with a warning (when not listed explicitly; then configuring fails).
 */
function chooseNames(listed: readonly string[], server: ToolServerLike, warn: (message: string) => void) {
  const firstNames = new Map(Object.entries(PLATFORM_TOOL_SECOND_NAMES).map(([first, second]) => [second, first]));
  const wanted = listed.length ? listed.map((n) => firstNames.get(n) ?? n) : [...ALL_PLATFORM_TOOLS];
  const toolNames: Record<string, string> = {};
  const tools: string[] = [];
  for (const name of wanted) {
    const second = PLATFORM_TOOL_SECOND_NAMES[name];
    if (second && (server.hasTool?.(name) || listed.includes(second))) toolNames[name] = second;
    else if (server.hasTool?.(name) && !listed.length) {
      warn(`Platform tool '${name}' left out: the MCP server already has a tool of that name`);
      continue;
    }
    tools.push(name);
  }
  return { tools, toolNames };
}

export { configureMcpServer, addTool, clientTimeoutFromEnv, PLATFORM_TOOL_SECOND_NAMES, type ConfigureOptions, type ConfiguredTools } from "./configure.js";
export { buildTool, type BuildToolOptions, type PlatformTool } from "./build-tool.js";
export { MemoryType, type ToolConfig, type BaseTool, type ToolArgs, type ToolCallContext, type ToolServerLike } from "./tool-config.js";
export { TOOL_REGISTRY, ALL_PLATFORM_TOOLS, type RegistryEntry } from "./registry.js";
export { PlatformClient, DEFAULT_PLATFORM_API_URL, DEFAULT_TIMEOUT_MS, SEARCH_TIMEOUT_MS, type PlatformClientOptions, type RequestOptions, type PlatformResponse } from "./client/platform-client.js";
export { PlatformApiError, BadRequestError, ResourceNotFoundError, UnexpectedApiError, RequestTimeoutError, PlatformConnectionError } from "./client/errors.js";
export { toPage, type Page } from "./client/pagination.js";
export { OBJECT_STORE_TOOLS, objectStoreTools } from "./tools/store-tools.js";
export * as tools from "./tools/index.js";
export { ToolError, ValueError, initializeOrGetInitializedStore } from "svc/object-store";
export { platformSettings } from "./settings.js";
