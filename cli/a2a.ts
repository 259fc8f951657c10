/**
 * @module `svc a2a run`: the A2A server as its own app (default port 1418, as Hayhooks). It
 * deploys the pipelines directory (wrappers and YAML), follows it for changes, and serves every
 * chat pipeline as an A2A agent: `/{name}/.well-known/agent-card.json` and JSON-RPC at `/{name}/`.
 */
import type { CAC } from "cac";
import { createKernel, Logger } from "svc/plugin";
import { loadPlugins } from "svc/internal";
import { a2aSettings } from "../plugins/a2a/settings.js";
import { knownSettings, launcherSettings } from "./cli-settings.js";
import { UsageError } from "./client.js";
import { a2aPluginSpecs, builtinPlugins } from "./default-plugins.js";
import { ensurePortFree } from "./port-check.js";
import { resolveConfig } from "./run-settings.js";
import { shutdownOnSignals } from "./shutdown.js";

interface A2aFlags {
  host?: string;
  port?: string | number;
  pipelinesDir?: string;
  additionalModulePath?: string;
  externalUrl?: string;
  plugin?: string[];
}

function flagSettings(flags: A2aFlags): Record<string, unknown> {
  return {
    a2aHost: flags.host,
    a2aPort: flags.port,
    a2aExternalUrl: flags.externalUrl,
    pipelinesDir: flags.pipelinesDir,
    additionalModulePath: flags.additionalModulePath,
    plugins: flags.plugin?.length ? flags.plugin : undefined,
  };
}

export function registerA2aCommand(cli: CAC): void {
  cli
    .command("a2a <action>", "The A2A server: `svc a2a run` serves every chat pipeline as an A2A agent")
    .usage("a2a run [options]")
    .option("--host <host>", "Bind host (default: localhost, SERVICE_A2A_HOST)")
    .option("--port <port>", "Port (default: 1418, SERVICE_A2A_PORT)")
    .option("--pipelines-dir <dir>", "Pipelines directory, deployed at startup and followed for changes (default: ./pipelines)")
    .option("--additional-module-path, --additional-python-path <dir>", "Extra resolution root for shared wrapper code")
    .option("--external-url <url>", "Base URL agent cards advertise, behind a proxy (SERVICE_A2A_EXTERNAL_URL)")
    .option("--plugin <spec>", "Load a plugin: a path or a package (repeatable)", { type: [String] })
    .example("svc a2a run --port 1418")
    .example("svc a2a run --external-url https://agents.example.com")
    .action(async (action: string, flags: A2aFlags) => {
      if (action !== "run") throw new UsageError(`unknown a2a action '${action}' (expected: run)`);
      await runA2a(flags, process.cwd());
    });
}

async function runA2a(flags: A2aFlags, cwd: string): Promise<void> {
  const config = resolveConfig(flagSettings(flags), a2aPluginSpecs, cwd, process.env, { ...launcherSettings, ...a2aSettings });
  for (const [k, v] of Object.entries(config.dotenv)) process.env[k] ??= v;
  const { settings } = config;
  const log = Logger.create(settings.logLevel, settings.logFormat);
  await ensurePortFree(settings.a2aHost, settings.a2aPort);
  const entries = await loadPlugins(config.plugins, { cwd, builtins: builtinPlugins });
  const kernel = await createKernel({
    sources: config.sources,
    settings: { host: settings.a2aHost, port: settings.a2aPort },
    plugins: entries,
    logger: log,
    knownSettings,
  });
  await kernel.deployer.deployAll();
  await kernel.watchPipelines();
  const address = await kernel.listen();
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  const root = settings.rootPath === "/" ? "" : settings.rootPath;
  // "svc listening on" as `svc run` and `svc mcp run` say it (scripts and tests wait for it).
  log.info(`svc listening on http://${host}:${address.port}${root} (A2A agents: cards at /{name}/.well-known/agent-card.json, JSON-RPC at /{name}/)`, { pid: process.pid });
  if (!settings.a2aExternalUrl && /^(0\.0\.0\.0|::|\[::\])$/.test(settings.a2aHost)) {
    log.warn("Agent cards advertise the address each request came to; behind a proxy set SERVICE_A2A_EXTERNAL_URL (--external-url) to the URL clients reach");
  }
  shutdownOnSignals(log, () => kernel.close());
}
