/**
 * @module `configureMcpServer`: registers the platform tools on a tool server. Everything is
 * checked before anything is registered or connected (no network calls: the store's Redis
 * connection is the only I/O); a missing key, an unknown tool name or backend is a ValueError.
 */
import * as v from "valibot";
import { Explorer, ValueError, initializeOrGetInitializedStore, type ExplorerOptions } from "svc/object-store";
import type { ObjectStore } from "svc/plugin";
import { platformSettings } from "./settings.js";
import { buildTool, type PlatformTool } from "./build-tool.js";
import { ALL_PLATFORM_TOOLS, TOOL_REGISTRY } from "./registry.js";
import type { ToolServerLike } from "./tool-config.js";
import { OBJECT_STORE_TOOLS, objectStoreTools } from "./tools/store-tools.js";

export interface ConfigureOptions {
  /** The tool server (`ToolServer` of `svc/mcp`, or anything with its `addTool`). */
  mcpServerInstance?: ToolServerLike;
  /** Names of the tools to register; all when absent. */
  toolsToRegister?: Iterable<string>;
  platformApiKey?: string;
  /** Base URL of the platform API; the public API by default. */
  platformApiUrl?: string;
  /** Fixed workspace; absent, every workspace-scoped tool takes a required `workspace` argument. */
  platformWorkspace?: string;
  /** Accepted for compatibility and unused: `search_docs` searches local documentation (`docsPaths`). */
  platformDocsShareablePrototypeUrl?: string;
  /** Markdown files or directories `search_docs` searches (default: this package's README, docs/ pages and skill guides). */
  docsPaths?: string[];
  /** Take each call's key from its `Authorization: Bearer …` header (default false). */
  getApiKeyFromAuthorizationHeader?: boolean;
  /**
   * In header mode, let a call without an `Authorization` header use `platformApiKey` (default
   * false: such a call is refused, so nobody acts with the operator's key by leaving the header out).
   */
  platformApiKeyAsFallback?: boolean;
  /** `memory` (default) or `redis`. */
  objectStoreBackend?: string;
  objectStoreRedisUrl?: string;
  /** Seconds (default 600); 0 keeps objects until deleted. */
  objectStoreTtl?: number;
  /** Use this store instead of initialising one from the three options above. */
  objectStore?: ObjectStore;
  /** Limits of the previews the tools return; a tool's own limits (its `ToolConfig.explorerConfig`) win. */
  explorerConfig?: ExplorerOptions;
  /** Per-call time-out of platform requests in milliseconds (default: `PLATFORM_CLIENT_TIMEOUT` seconds, else 30 s; searches get 180 s). */
  timeoutMs?: number;
  /** Register tools under other names (`{ deploy_pipeline: "deploy_platform_pipeline" }`). */
  toolNames?: Record<string, string>;
}

/**
 * The second name of a platform tool whose own name a server may already use: `svc mcp run`'s
 * management tools include a `deploy_pipeline` that deploys on this server.
 */
export const PLATFORM_TOOL_SECOND_NAMES: Readonly<Record<string, string>> = { deploy_pipeline: "deploy_platform_pipeline" };

export interface ConfiguredTools {
  toolNames: string[];
  objectStore: ObjectStore;
}

export async function configureMcpServer(options: ConfigureOptions): Promise<ConfiguredTools>;
export async function configureMcpServer(server: ToolServerLike, options?: Omit<ConfigureOptions, "mcpServerInstance">): Promise<ConfiguredTools>;
export async function configureMcpServer(first: ConfigureOptions | ToolServerLike, rest: ConfigureOptions = {}): Promise<ConfiguredTools> {
  const options: ConfigureOptions = isServer(first) ? { ...rest, mcpServerInstance: first } : first;
  const server = options.mcpServerInstance;
  if (!isServer(server)) throw new ValueError("'mcpServerInstance' is required: pass the tool server to register the tools on.");
  const headerMode = options.getApiKeyFromAuthorizationHeader ?? false;
  if (!options.platformApiKey && !headerMode) {
    throw new ValueError("API key is required for authentication. Please provide 'platformApiKey' or enable 'getApiKeyFromAuthorizationHeader'.");
  }
  if (options.platformApiUrl) checkUrl(options.platformApiUrl);
  const names = options.toolsToRegister ? [...new Set(options.toolsToRegister)] : [...ALL_PLATFORM_TOOLS];
  const unknown = names.filter((n) => !ALL_PLATFORM_TOOLS.includes(n)).sort();
  if (unknown.length) throw new ValueError(`Unknown tools: ${unknown.join(", ")}\nAvailable tools: ${ALL_PLATFORM_TOOLS.join(", ")}`);
  const nameOf = (name: string) => options.toolNames?.[name] ?? name;
  const taken = names.map(nameOf).filter((n) => server.hasTool?.(n));
  if (taken.length) throw new ValueError(`The tool server already has tools named ${taken.join(", ")}.`);
  const timeoutMs = options.timeoutMs ?? clientTimeoutFromEnv();
  const ttl = options.objectStoreTtl;
  if (ttl !== undefined && (!Number.isInteger(ttl) || ttl < 0)) throw new ValueError(`'objectStoreTtl' must be a whole number of seconds (0 for no expiry), got ${ttl}.`);

  const objectStore =
    options.objectStore ??
    (await initializeOrGetInitializedStore({
      backend: options.objectStoreBackend ?? "memory",
      redisUrl: options.objectStoreRedisUrl,
      redisUrlSetting: "objectStoreRedisUrl",
      ttl,
    }));
  const storeTools = objectStoreTools(new Explorer(objectStore, options.explorerConfig));
  for (const name of names) {
    const entry = TOOL_REGISTRY.get(name);
    const config = name === "search_docs" && options.docsPaths?.length ? { ...entry!.config, customArgs: { docs_paths: options.docsPaths } } : entry?.config;
    const tool: PlatformTool = entry
      ? buildTool(
          entry.base,
          { ...config!, explorerConfig: withDefaults(config!.explorerConfig, options.explorerConfig) },
          {
            apiKey: options.platformApiKey,
            apiKeyAsFallback: options.platformApiKeyAsFallback ?? false,
            workspace: options.platformWorkspace,
            useRequestContext: headerMode,
            baseUrl: options.platformApiUrl,
            objectStore,
            timeoutMs,
          },
        )
      : storeTools[name as (typeof OBJECT_STORE_TOOLS)[number]];
    const renamed = nameOf(name) !== name;
    addTool(server, tool, {
      name: nameOf(name),
      // A second name says which tool it is, so a model can tell it from the server's own.
      ...(renamed ? { description: `(The platform's \`${name}\`, registered as \`${nameOf(name)}\`.) ${tool.description}` } : {}),
      annotations: { readOnlyHint: entry ? entry.readOnly : true },
    });
  }
  return { toolNames: names.map(nameOf), objectStore };
}

/**
 * Registers a built tool (or any `ToolDefinition`) on a tool server, under `name` and with
 * `description` as its prompt when given (else the tool's own name and description).
 */
export function addTool(
  server: ToolServerLike,
  tool: PlatformTool,
  options: { name?: string; description?: string; annotations?: Record<string, unknown> } = {},
): void {
  server.addTool((args, ctx) => tool.handler(args, ctx), {
    name: options.name ?? tool.name,
    description: options.description ?? tool.description,
    inputSchema: v.object(tool.parameters),
    ...(options.annotations ? { annotations: options.annotations } : {}),
  });
}

/** A tool's own explorer limits over the global ones (unset fields of the tool's fall back). */
function withDefaults(own: ExplorerOptions | undefined, global: ExplorerOptions | undefined): ExplorerOptions | undefined {
  if (!own) return global;
  const given = Object.fromEntries(Object.entries(own).filter(([, value]) => value !== undefined));
  return { ...global, ...given };
}

/** `PLATFORM_CLIENT_TIMEOUT` (seconds, like the original's `DEEPSET_CLIENT_TIMEOUT`) in milliseconds; unset: the client's default. */
export function clientTimeoutFromEnv(env: NodeJS.ProcessEnv = process.env): number | undefined {
  const raw = env.PLATFORM_CLIENT_TIMEOUT?.trim();
  if (!raw) return undefined;
  const field = platformSettings.platformClientTimeout;
  const parsed = v.safeParse(field.schema, raw);
  if (!parsed.success) throw new ValueError(`PLATFORM_CLIENT_TIMEOUT must be ${field.accepts} (seconds), got '${raw}'.`);
  return Math.round(parsed.output * 1000);
}

function isServer(value: unknown): value is ToolServerLike {
  return typeof (value as ToolServerLike | undefined)?.addTool === "function";
}

function checkUrl(url: string): void {
  try {
    const parsed = new URL(url);
    if (parsed.protocol === "http:" || parsed.protocol === "https:") return;
  } catch {
    // reported below
  }
  throw new ValueError(`'platformApiUrl' must be an http(s) URL, got '${url}'.`);
}
