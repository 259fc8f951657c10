/**
 * @module `--workers N`: the primary forks N processes that share one port (node:cluster), each
 * with its own kernel. A worker that dies before it is ready fails the start; one that dies later
 * is replaced. SIGINT/SIGTERM are passed on and the primary exits once every worker has drained.
 * Without a cluster Redis the primary keeps the deploy state, so every worker serves every deploy
 * (and a replaced worker starts with the current pipelines).
 */
import cluster, { type Worker } from "node:cluster";
import { Logger } from "svc/plugin";
import type { LauncherSettings } from "./cli-settings.js";
import { WORKERS_STATE_ENV, WorkersManifest } from "svc/internal";

export function runPrimary(settings: LauncherSettings): void {
  const log = Logger.create(settings.logLevel, settings.logFormat);
  let stopping = false;
  const ready = new Set<number>();
  const manifest = settings.clusterRedisUrl ? undefined : new WorkersManifest(log);

  const fork = (): Worker => {
    const worker = cluster.fork(manifest ? { [WORKERS_STATE_ENV]: "1" } : {});
    manifest?.attach(worker);
    worker.on("message", (message: { svc?: string }) => {
      if (message?.svc === "ready") ready.add(worker.id);
    });
    return worker;
  };

  cluster.on("exit", (worker, code, signal) => {
    const wasReady = ready.delete(worker.id);
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
      return;
    }
    if (!wasReady) {
      log.error(`Worker ${worker.process.pid} exited during startup (code ${code ?? signal}); stopping`);
      stopping = true;
      for (const w of Object.values(cluster.workers ?? {})) w?.process.kill("SIGTERM");
      process.exitCode = 1;
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(1);
      return;
    }
    log.warn(`Worker ${worker.process.pid} exited (code ${code ?? signal}); starting a new one`);
    fork();
  });

  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    log.info(`${signal} received: stopping ${settings.workers} workers`);
    for (const w of Object.values(cluster.workers ?? {})) w?.process.kill("SIGTERM");
  };
  process.on("SIGINT", () => stop("SIGINT"));
  process.on("SIGTERM", () => stop("SIGTERM"));

  log.info(`Starting ${settings.workers} workers`, { pid: process.pid });
  for (let i = 0; i < settings.workers; i++) fork();
}
