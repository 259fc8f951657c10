/**
 * @module `@svc-serve/svc/host`: what a host application needs to serve pipelines from its own
 * server. `createKernel` boots the kernel and deploys the pipelines folder before it resolves (as
 * `svc run` does before listening); `defaultPlugins()` is the plugin set `svc run` loads; every
 * built-in plugin is exported to add more (`mcpPlugin()`, `authPlugin()`, …); `createContainer`,
 * the access tokens and `requestState` let the host replace dependencies and mark its own
 * operators. Plugins import `@svc-serve/svc/plugin`; wrappers `@svc-serve/svc`. docs/install.md
 * lists this entry's names.
 */
import { createKernel as bootKernel, type Kernel, type KernelOptions, type KernelPlugin, type PluginEntry } from "svc/plugin";
import type { PluginModule } from "svc/internal";
import { loadLauncherSettings } from "../cli/cli-settings.js";
import { defaultPluginSpecs } from "../cli/default-plugins.js";
import authPlugin from "../plugins/auth/index.js";
import chatUiPlugin from "../plugins/chat-ui/index.js";
import enginePlugin from "../plugins/engine/index.js";
import frameworksPlugin from "../plugins/frameworks/index.js";
import limitsPlugin from "../plugins/limits/index.js";
import managementPlugin from "../plugins/management/index.js";
import mcpPlugin from "../plugins/mcp/index.js";
import metricsPlugin from "../plugins/metrics/index.js";
import monitoringPlugin from "../plugins/monitoring/index.js";
import objectStorePlugin from "../plugins/object-store/index.js";
import openaiPlugin from "../plugins/openai/index.js";
import openapiPlugin from "../plugins/openapi/index.js";
import pgvectorPlugin from "../plugins/pgvector/index.js";
import platformPlugin from "../plugins/platform/index.js";
import runApiPlugin from "../plugins/run-api/index.js";
import runsPlugin from "../plugins/runs/index.js";
import tracingPlugin from "../plugins/tracing/index.js";

export type { Kernel, KernelOptions, KernelPlugin, PluginEntry } from "svc/plugin";
// What a host replaces or marks before a request reaches svc: dependencies in the container it
// passes to createKernel (e.g. who may read traces), and the request's principal.
export { createContainer } from "svc/internal";
export {
  requestState,
  allow,
  deny,
  ADMIN_ACCESS,
  RUN_ACCESS,
  TRACE_ACCESS,
  type AccessPolicy,
  type AccessRequest,
  type DependencyContainer,
  type RequestState,
} from "svc/plugin";
// The operator credential a loopback server keeps (docs/observability.md): where it is, reading it.
export { dashboardTokenPath, readDashboardToken } from "svc/internal";
export {
  authPlugin,
  chatUiPlugin,
  enginePlugin,
  frameworksPlugin,
  limitsPlugin,
  managementPlugin,
  mcpPlugin,
  metricsPlugin,
  monitoringPlugin,
  objectStorePlugin,
  openaiPlugin,
  openapiPlugin,
  pgvectorPlugin,
  platformPlugin,
  runApiPlugin,
  runsPlugin,
  tracingPlugin,
};

/**
 * The built-in plugins by the name a config file uses (`use: svc:<name>`). `svc run` keeps the same
 * names as lazy imports (cli/default-plugins.ts `builtinPlugins`, so it never loads a plugin it
 * does not use); test/host/builtins.test.ts holds the two lists equal.
 */
export const builtinPlugins: Readonly<Record<string, PluginModule>> = {
  "svc:auth": authPlugin,
  "svc:chat-ui": chatUiPlugin,
  "svc:engine": enginePlugin,
  "svc:frameworks": frameworksPlugin,
  "svc:limits": limitsPlugin,
  "svc:management": managementPlugin,
  "svc:mcp": mcpPlugin,
  "svc:metrics": metricsPlugin,
  "svc:monitoring": monitoringPlugin,
  "svc:object-store": objectStorePlugin,
  "svc:openai": openaiPlugin,
  "svc:openapi": openapiPlugin,
  "svc:pgvector": pgvectorPlugin,
  "svc:platform": platformPlugin,
  "svc:run-api": runApiPlugin,
  "svc:runs": runsPlugin,
  "svc:tracing": tracingPlugin,
};

/**
 * The plugins `svc run` loads, in its order. The settings that choose them (`tracingEnabled`,
 * `chatUiEnabled`, `monitoringEnabled`, `metricsEnabled`) are read from `settings` — pass the same
 * object as to `createKernel` — and default as in `svc run`; `env` only tells whether OpenTelemetry
 * export is configured (tracing is then loaded even without the trace API).
 */
export function defaultPlugins(settings: KernelOptions["settings"] = {}, env: NodeJS.ProcessEnv = process.env): KernelPlugin[] {
  const launcher = loadLauncherSettings({ overrides: settings });
  return defaultPluginSpecs(launcher, env).map(({ use }) => {
    const plugin = builtinPlugins[use];
    if (!plugin) throw new Error(`no built-in plugin ${use}`);
    // Built-in factories build their plugin synchronously; objects are used as they are.
    return (typeof plugin === "function" ? plugin() : plugin) as KernelPlugin;
  });
}

export interface HostKernelOptions extends KernelOptions {
  /** Deploy the pipelines folder before resolving (default true), as `svc run` does before listening. */
  readonly deploy?: boolean;
}

/**
 * Boots a kernel and deploys every pipeline of `settings.pipelinesDir` (default `./pipelines`);
 * `kernel.handler` then serves them inside the host's own `node:http` server (or under a prefix of
 * Express, Fastify, …). Close it with `kernel.close()`.
 */
export async function createKernel(options: HostKernelOptions = {}): Promise<Kernel> {
  const { deploy = true, ...kernelOptions } = options;
  const kernel = await bootKernel(kernelOptions);
  if (!deploy) return kernel;
  try {
    await kernel.deployer.deployAll();
  } catch (error) {
    await kernel.close();
    throw error;
  }
  return kernel;
}
