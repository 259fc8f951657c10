/**
 * @module From `svc run`'s flags and the working directory to settings and plugin specs.
 */
import { loadSettings, readConfigFile, readDotEnv, type ConfigFile, type PluginSpec, type SettingKey, type Settings } from "svc";
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

export interface RunConfig {
  readonly settings: Settings;
  readonly plugins: PluginSpec[];
  readonly dotenv: Record<string, string>;
}

/** Only flags the user gave: an absent flag must not hide the environment. */
function flagSettings(flags: RunFlags): Partial<Record<SettingKey, unknown>> {
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
  return resolveConfig(flagSettings(flags), defaultPluginSpecs, cwd, env);
}

/** Settings from every source, and the plugins: the command's defaults, the config file's, then `--plugin`. */
export function resolveConfig(
  flags: Partial<Record<SettingKey, unknown>>,
  /** The command's default plugins; `env` includes `.env` (OpenTelemetry variables). */
  defaults: (settings: Settings, env: NodeJS.ProcessEnv) => PluginSpec[],
  cwd: string,
  env: NodeJS.ProcessEnv,
): RunConfig {
  const config: ConfigFile | undefined = readConfigFile(cwd);
  const dotenv = readDotEnv(cwd) ?? {};
  const settings = loadSettings({
    config: config && { file: config.file, values: config.settings },
    dotenv,
    env,
    flags,
  });
  const plugins = [
    ...defaults(settings, { ...dotenv, ...env }),
    ...(config?.plugins ?? []),
    ...settings.plugins.map((use) => ({ use, from: "SERVICE_PLUGINS or --plugin" })),
  ];
  return { settings, plugins, dotenv };
}
