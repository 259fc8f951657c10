/**
 * @module Chooses the deploy state from the settings: Redis when `SERVICE_CLUSTER_REDIS_URL` is set,
 * the primary's manifest in a `--workers` worker, else memory.
 */
import cluster from "node:cluster";
import { hostname } from "node:os";
import type { Logger } from "../logger.js";
import type { Settings } from "../settings.js";
import type { DeployState } from "./deploy-state.js";
import { LocalDeployState } from "./local-deploy-state.js";
import { RedisDeployState } from "./redis-deploy-state.js";
import { WORKERS_STATE_ENV, WorkerDeployState } from "./workers-deploy-state.js";

export function instanceName(settings: Settings): string {
  return settings.instanceName ?? `${hostname()}:${process.pid}`;
}

export async function createDeployState(settings: Settings, log: Logger): Promise<DeployState> {
  const instance = instanceName(settings);
  if (settings.clusterRedisUrl) {
    // Workers of one host share its pipelines directory: only the deploying one writes there.
    const state = await RedisDeployState.connect({ url: settings.clusterRedisUrl, instance, sharedDisk: cluster.isWorker, logger: log, timeoutMs: settings.redisTimeout * 1000 });
    log.info(`Deploy state: Redis at ${state.health().store} (instance ${instance})`);
    return state;
  }
  if (cluster.isWorker && process.env[WORKERS_STATE_ENV] === "1") return WorkerDeployState.join(instance);
  return new LocalDeployState(instance);
}
