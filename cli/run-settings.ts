/**
 * @module From `svc run`'s flags and the working directory to settings and plugin specs.
 */
import { loadSettings, readConfigFile, readDotEnv, type ConfigFile, type PluginSpec, type SettingSources } from "svc/internal";
import { type SettingFields, type SettingValues } from "svc/plugin";
import { launcherSettings, type LauncherSettings } from "./cli-settings.js";
import { defaultPluginSpecs } from "./default-plugins.js";

export interface RunFlags {
  host?: string;
  port?: string | number;
  workers?: string | number;
  pipelinesDir?: string;
  additionalModulePath?: string;
  rootPath?: string;
  reload?: boolean;
  withoutTracing?: boolean;
  withoutMonitoring?: boolean;
  withoutMetrics?: boolean;
  withChatUi?: boolean;
  plugin?: string[];
}

export interface RunConfig<S = LauncherSettings> {
  /** The settings read before the plugins are loaded (the kernel reads the plugins' at boot). */
  readonly settings: S;
  /** Where settings come from, for the kernel to read the loaded plugins' settings too. */
  readonly sources: Omit<SettingSources, "overrides">;
  readonly plugins: PluginSpec[];
  readonly dotenv: Record<string, string>;
}

/** Only flags the user gave: an absent flag must not hide the environment. */
function flagSettings(flags: RunFlags): Record<string, unknown> {
  return {
    host: flags.host,
    port: flags.port,
    workers: flags.workers,
    pipelinesDir: flags.pipelinesDir,
    additionalModulePath: flags.additionalModulePath,
    rootPath: flags.rootPath,
    tracingEnabled: flags.withoutTracing ? false : undefined,
    monitoringEnabled: flags.withoutMonitoring ? false : undefined,
    metricsEnabled: flags.withoutMetrics ? false : undefined,
    chatUiEnabled: flags.withChatUi ? true : undefined,
    plugins: flags.plugin?.length ? flags.plugin : undefined,
  };
}

export function resolveRunConfig(flags: RunFlags, cwd: string, env: NodeJS.ProcessEnv): RunConfig {
  return resolveConfig(flagSettings(flags), defaultPluginSpecs, cwd, env, launcherSettings);
}

/** Settings from every source, and the plugins: the command's defaults, the config file's, then `--plugin`. */
export function resolveConfig<F extends SettingFields & typeof launcherSettings>(
  flags: Record<string, unknown>,
  /** The command's default plugins; `env` includes `.env` (OpenTelemetry variables). */
  defaults: (settings: LauncherSettings, env: NodeJS.ProcessEnv) => PluginSpec[],
  cwd: string,
  env: NodeJS.ProcessEnv,
  /** The settings the command reads before loading plugins. */
  fields: F,
): RunConfig<SettingValues<F>> {
  const config: ConfigFile | undefined = readConfigFile(cwd);
  const dotenv = readDotEnv(cwd) ?? {};
  const sources = { config: config && { file: config.file, values: config.settings }, dotenv, env, flags };
  // Names of plugins not known yet may be in the config file: the kernel checks them at boot.
  const settings = loadSettings(sources, fields, { unknown: false });
  const plugins = [
    ...defaults(settings, { ...dotenv, ...env }),
    ...(config?.plugins ?? []),
    ...settings.plugins.map((use) => ({ use, from: "SERVICE_PLUGINS or --plugin" })),
  ];
  return { settings, sources, plugins, dotenv };
}
