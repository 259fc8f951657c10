/**
 * @module The settings of the `svc` program itself (not of a plugin), and the settings of every
 * built-in plugin: the first read (before the plugins are loaded) picks the plugins from them,
 * and a config file may name any of them even when its plugin is not loaded.
 */
import { mergeSettings, setting, settingTypes, type SettingValues } from "svc/plugin";
import { fieldsOf, kernelSettings, loadSettings, operatorAccessSettings, type DeclaredSettings, type SettingSources } from "svc/internal";
import { authSettings } from "../plugins/auth/settings.js";
import { chatUiSettings } from "../plugins/chat-ui/settings.js";
import { engineSettings } from "../plugins/engine/settings.js";
import { limitsSettings } from "../plugins/limits/settings.js";
import { mcpSettings } from "../plugins/mcp/settings.js";
import { metricsSettings } from "../plugins/metrics/settings.js";
import { monitoringSettings } from "../plugins/monitoring/settings.js";
import { objectStoreSettings } from "../plugins/object-store/settings.js";
import { openaiSettings } from "../plugins/openai/settings.js";
import { pgvectorSettings } from "../plugins/pgvector/settings.js";
import { platformSettings } from "../plugins/platform/settings.js";
import { runsSettings } from "../plugins/runs/settings.js";
import { tracingSettings } from "../plugins/tracing/settings.js";

const { integer, optionalText } = settingTypes;

export const cliSettings = {
  // The CLI forks the workers (cli/workers.ts); the kernel and plugins see the deploy state's mode.
  workers: setting(integer(1, 64), { env: "SERVICE_WORKERS", flag: "--workers", default: 1, help: "Worker processes serving one port." }),
  dashboardToken: setting(optionalText(), {
    env: "SERVICE_DASHBOARD_TOKEN",
    default: undefined,
    help: "Operator credential the terminal trace viewer sends.",
  }),
};

/** Every table `svc` knows, in the order the docs list them. */
export const knownSettingTables: readonly DeclaredSettings[] = [
  { owner: "svc:kernel", fields: kernelSettings },
  { owner: "svc:operator-access", fields: operatorAccessSettings },
  { owner: "svc (the CLI)", fields: cliSettings },
  { owner: "svc:limits", fields: limitsSettings },
  { owner: "svc:engine", fields: engineSettings },
  { owner: "svc:openai", fields: openaiSettings },
  { owner: "svc:mcp", fields: mcpSettings },
  { owner: "svc:tracing", fields: tracingSettings },
  { owner: "svc:monitoring", fields: monitoringSettings },
  { owner: "svc:runs", fields: runsSettings },
  { owner: "svc:metrics", fields: metricsSettings },
  { owner: "svc:chat-ui", fields: chatUiSettings },
  { owner: "svc:auth", fields: authSettings },
  { owner: "svc:object-store", fields: objectStoreSettings },
  { owner: "svc:platform", fields: platformSettings },
  { owner: "svc:pgvector", fields: pgvectorSettings },
];

/** Every known setting by key: a config file may name them even when their plugin is not loaded. */
export const knownSettings = fieldsOf(mergeSettings(knownSettingTables));

/**
 * What `svc` reads before any plugin is loaded: the kernel's settings, its own, and those that
 * pick the plugins. The other settings of a plugin are read when it is loaded (and ignored when
 * it is not).
 */
export const launcherSettings = {
  ...kernelSettings,
  ...cliSettings,
  tracingEnabled: tracingSettings.tracingEnabled,
  monitoringEnabled: monitoringSettings.monitoringEnabled,
  metricsEnabled: metricsSettings.metricsEnabled,
  chatUiEnabled: chatUiSettings.chatUiEnabled,
  platformApiKey: platformSettings.platformApiKey,
  platformApiKeyFromAuthHeader: platformSettings.platformApiKeyFromAuthHeader,
};

export type LauncherSettings = SettingValues<typeof launcherSettings>;

/** The first read of `svc`: the launcher's settings from the given sources. */
export function loadLauncherSettings(sources: SettingSources = {}): LauncherSettings {
  return loadSettings(sources, launcherSettings, { unknown: false });
}

/** The document whose configuration table `npm run docs:settings` writes (path from the repository root). */
export const SETTINGS_DOC_FILE = "docs/configuration.md";
