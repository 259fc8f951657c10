/**
 * @module One serving process: load plugins, create the kernel, listen, and shut down gracefully
 * on SIGINT/SIGTERM (drain within the grace period, abort the rest, exit 0).
 */
import cluster from "node:cluster";
import { createKernel, Logger } from "svc/plugin";
import { loadPlugins } from "svc/internal";
import { knownSettings } from "./cli-settings.js";
import { builtinPlugins } from "./default-plugins.js";
import type { RunConfig } from "./run-settings.js";
import { shutdownOnSignals } from "./shutdown.js";
import { RELOAD_CHILD_ENV } from "./reload.js";

export async function serve({ settings, sources, plugins }: RunConfig, cwd: string): Promise<void> {
  const log = Logger.create(settings.logLevel, settings.logFormat);
  const entries = await loadPlugins(plugins, { cwd, builtins: builtinPlugins });
  const kernel = await createKernel({ sources, plugins: entries, logger: log, knownSettings });
  await kernel.deployer.deployAll();
  // Under --reload, a changed wrapper is redeployed in place (in one process only: workers share one manifest).
  if (process.env[RELOAD_CHILD_ENV] === "1" && !cluster.isWorker) await kernel.watchPipelines();
  const address = await kernel.listen();
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  log.info(`svc listening on http://${host}:${address.port}${settings.rootPath}`, {
    pid: process.pid,
    plugins: kernel.pluginNames.length ? kernel.pluginNames.join(",") : undefined,
  });
  if (cluster.isWorker) process.send?.({ svc: "ready", port: address.port });

  shutdownOnSignals(log, () => kernel.close(), { graceSeconds: settings.gracefulShutdownTimeout });
}
