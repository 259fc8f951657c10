/**
 * @module The plugins `svc run` loads by default, and the names of built-in plugins a config file
 * can refer to (`use: svc:<name>`) to pass options. Feature issues add their plugin here.
 */
import type { PluginModule, PluginSpec } from "svc/internal";
import type { LauncherSettings } from "./cli-settings.js";

/** Built-in plugins by name, imported only when used. */
export const builtinPlugins: Readonly<Record<string, () => Promise<PluginModule>>> = {
  "svc:tracing": async () => (await import("../plugins/tracing/index.js")).default,
  "svc:engine": async () => (await import("../plugins/engine/index.js")).default,
  "svc:management": async () => (await import("../plugins/management/index.js")).default,
  "svc:frameworks": async () => (await import("../plugins/frameworks/index.js")).default,
  "svc:run-api": async () => (await import("../plugins/run-api/index.js")).default,
  "svc:openai": async () => (await import("../plugins/openai/index.js")).default,
  "svc:openapi": async () => (await import("../plugins/openapi/index.js")).default,
  "svc:mcp": async () => (await import("../plugins/mcp/index.js")).default,
  "svc:chat-ui": async () => (await import("../plugins/chat-ui/index.js")).default,
  "svc:monitoring": async () => (await import("../plugins/monitoring/index.js")).default,
  "svc:object-store": async () => (await import("../plugins/object-store/index.js")).default,
  "svc:platform": async () => (await import("../plugins/platform/index.js")).default,
  "svc:auth": async () => (await import("../plugins/auth/index.js")).default,
  "svc:metrics": async () => (await import("../plugins/metrics/index.js")).default,
  "svc:limits": async () => (await import("../plugins/limits/index.js")).default,
  "svc:pgvector": async () => (await import("../plugins/pgvector/index.js")).default,
  "svc:runs": async () => (await import("../plugins/runs/index.js")).default,
};

/** The default set, in load order; settings such as `--without-tracing` leave plugins out. */
export function defaultPluginSpecs(settings: LauncherSettings, env: NodeJS.ProcessEnv = process.env): PluginSpec[] {
  // svc:pgvector is cheap at start (one import; its stores connect on first use), so Haystack YAML
  // naming its types deploys without configuration.
  const names = ["svc:limits", "svc:engine", "svc:pgvector", "svc:management", "svc:frameworks", "svc:run-api", "svc:runs", "svc:openai", "svc:openapi"];
  // Tracing first: OpenTelemetry is set up before anything starts spans. Without the trace API it
  // is still needed for OpenTelemetry export.
  if (settings.tracingEnabled || otlpConfigured(env)) names.unshift("svc:tracing");
  if (settings.chatUiEnabled) names.push("svc:chat-ui");
  if (settings.monitoringEnabled) names.push("svc:monitoring");
  if (settings.metricsEnabled) names.push("svc:metrics");
  return names.map((use) => ({ use, from: "the default plugin set" }));
}

/**
 * The default set of `svc mcp run`: tracing (tool calls are traced runs), run limits, the engine (YAML
 * pipelines), the MCP server, monitoring (tool calls are runs too), and the object store and
 * platform tools when a platform key (or per-request keys) is configured.
 */
export function mcpPluginSpecs(settings: LauncherSettings, env: NodeJS.ProcessEnv = process.env): PluginSpec[] {
  const names = ["svc:limits", "svc:engine", "svc:frameworks", "svc:mcp"];
  if (settings.tracingEnabled || otlpConfigured(env)) names.unshift("svc:tracing");
  if (settings.monitoringEnabled) names.push("svc:monitoring");
  // With the store plugin loaded the platform tools use its OBJECT_STORE (declared optional, so it sets up first).
  if (settings.platformApiKey || settings.platformApiKeyFromAuthHeader) names.push("svc:object-store", "svc:platform");
  return names.map((use) => ({ use, from: "the default plugin set of svc mcp run" }));
}

/** OTLP export configured in the environment (checked here so the SDK is not loaded without it). */
function otlpConfigured(env: NodeJS.ProcessEnv): boolean {
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim());
}
