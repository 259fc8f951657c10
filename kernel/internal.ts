/**
 * @module `svc/internal`: what only the CLI (cli/) and the host entry (host/) use to boot a kernel
 * from a folder — config files and settings sources, plugin loading, deploy states and the
 * pipelines watcher, the HTTP server, the dashboard credential. Not a published entry (package.json
 * does not export it; the build rewrites the imports into relative paths), so these names can
 * change with the CLI; test/boundaries.test.ts lets only cli/ and host/ import it. Plugins use
 * `svc/plugin`; a host application uses `svc/host`, which re-exports `createContainer` and the
 * dashboard credential's readers from here. The repository's tests also take kernel parts from here.
 */
import "reflect-metadata";

// The container a kernel is built on (a host passes its own to createKernel).
export { createContainer } from "./container.js";

// Where settings come from: the config file, .env, the environment; the kernel's own table.
export { readConfigFile, readDotEnv, CONFIG_FILE_NAMES, type ConfigFile, type PluginSpec } from "./config-sources.js";
export { loadSettings, kernelSettings, type SettingSources, type LoadSettingsOptions } from "./settings.js";
// The settings tables of `svc settings` and of docs/configuration.md (plugins keep theirs with withSettingsTable).
export { fieldsOf, type DeclaredSettings } from "./settings-table.js";
export { settingsMarkdown, SETTINGS_START, SETTINGS_END } from "./settings-docs.js";

// Loading plugins and user modules (`use:` entries, wrappers) by specifier.
export { loadPlugins, type LoadPluginsOptions, type PluginModule } from "./plugin-loader.js";
export { createModuleLoader, type ModuleLoader } from "./module-loader.js";

// Deploy states the CLI chooses between (one process, Redis, `svc run --workers`) and the watcher.
export { LocalDeployState } from "./deploy/local-deploy-state.js";
export { RedisDeployState } from "./deploy/redis-deploy-state.js";
export { WorkersManifest, WorkerDeployState, WORKERS_STATE_ENV } from "./deploy/workers-deploy-state.js";
export { PipelinesWatcher } from "./deploy/pipelines-watcher.js";

// Serving and operator access: the HTTP server, the dashboard credential file.
export { createHttpServer, type ServerTimeouts } from "./http/server.js";
export { OperatorAccess, isLoopbackBind } from "./operator-access/operator-access.js";
export { operatorAccessSettings } from "./operator-access/settings.js";
export {
  cacheDir,
  dashboardTokenPath,
  ensureDashboardToken,
  readDashboardToken,
  InsecureCredentialError,
  DASHBOARD_TOKEN_FILE,
} from "./operator-access/credential-file.js";

// Kernel parts the repository's tests drive directly.
export { KernelHooks } from "./hooks/index.js";
export { providerOf } from "./tokens.js";
export { InvocationStream } from "./invoke/invocation-stream.js";
export { bindSignalSpan } from "./hooks/tracer.js";
export { parseTraceparent, parseTracestate } from "./hooks/trace-context.js";
export { checkYamlEntries } from "./yaml-text.js";
export type { DeployStaging } from "./deploy/source-staging.js";
export { checkPipelineName, checkRelativePath } from "./deploy/names.js";
