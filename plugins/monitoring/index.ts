/**
 * @module svc:monitoring: the execution index. Every pipeline invocation that goes through the
 * kernel's `run` hook (REST, OpenAI chat and Responses, MCP, CLI) gets a record; `GET /executions`
 * and `GET /executions/{id}` list them for operators. The backend is the one registered under
 * `EXECUTION_INDEX` by the host, else Redis when `SERVICE_MONITORING_REDIS_URL` (or the cluster's
 * `SERVICE_CLUSTER_REDIS_URL`) is set (shared by workers and instances, kept across restarts), else memory.
 */
import { EXECUTION_INDEX, definePlugin, type ExecutionIndex, type KernelPlugin } from "svc/plugin";
import { MemoryExecutionIndex, type RetentionOptions } from "./memory-index.js";
import { ExecutionRecorder } from "./recorder.js";
import { RedisExecutionIndex } from "./redis-index.js";
import { registerExecutionRoutes } from "./routes.js";
import { monitoringSettings } from "./settings.js";

export { MemoryExecutionIndex, type RetentionOptions } from "./memory-index.js";
export { RedisExecutionIndex } from "./redis-index.js";

export default function monitoringPlugin(): KernelPlugin {
  let owned: ExecutionIndex | undefined;
  let recorder: ExecutionRecorder | undefined;
  return definePlugin({
    name: "svc:monitoring",
    settings: monitoringSettings,
    provides: [EXECUTION_INDEX],
    async setup(kernel) {
      const { settings, log } = kernel;
      // Before this plugin provides it, the token holds only a host's own index.
      let index = kernel.optional(EXECUTION_INDEX);
      if (index) {
        log.debug("Execution index: the host's");
      } else {
        const retention: RetentionOptions = { maxRecords: settings.monitoringMaxRecords, retentionMs: settings.monitoringRetentionHours * 3_600_000 };
        const redisUrl = settings.monitoringRedisUrl ?? settings.clusterRedisUrl;
        if (redisUrl) {
          index = owned = await RedisExecutionIndex.connect({
            url: redisUrl,
            retention,
            logger: log,
            timeoutMs: settings.redisTimeout * 1000,
            instance: settings.instanceName,
            heartbeatTimeoutMs: settings.monitoringHeartbeatTimeout * 1000,
          });
          log.info("Execution index: Redis");
        } else {
          index = owned = new MemoryExecutionIndex(retention);
          log.debug("Execution index: in memory");
        }
        kernel.provide(EXECUTION_INDEX, index);
      }
      recorder = new ExecutionRecorder(index, log);
      kernel.hooks.run.observe(recorder.observer);
      registerExecutionRoutes(kernel, index);
    },
    async close() {
      await recorder?.flush();
      await owned?.close?.();
    },
  });
}
export { monitoringSettings } from "./settings.js";
