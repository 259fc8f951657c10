/**
 * @module svc:runs: runs that outlive their request. The run store (memory, or Redis when
 * `SERVICE_CLUSTER_REDIS_URL` is set: one store for every worker and instance) keeps each run's
 * record and numbered event log; leases fail the runs of a dead instance; cancels reach the runner
 * on any instance. The REST API (`POST /{name}/runs`, `/runs…`) is built on it, and other plugins
 * use the store through `RUN_STORE`. A run may carry a completion webhook; the allow-list, the
 * signer and the delivery are exported for other plugins that call back (A2A push notifications).
 * See docs/runs.md.
 */
import { definePlugin, type KernelPlugin } from "svc/plugin";
import { MemoryRunStore } from "./memory-store.js";
import { RedisRunStore } from "./redis-store.js";
import { registerRunRoutes } from "./routes.js";
import type { RunStore } from "./run-store.js";
import { BackgroundRunner } from "./runner.js";
import { RunWebhooks } from "./run-webhooks.js";
import { runsSettings } from "./settings.js";
import { RUN_STORE } from "./tokens.js";

export { RUN_STORE } from "./tokens.js";
export { BaseRunStore, DEFAULT_LEASE_MS, type RunChange, type RunListener, type RunSignal, type RunStore, type RunStoreOptions, type Unsubscribe } from "./run-store.js";
export { MemoryRunStore, type MemoryRunStoreOptions } from "./memory-store.js";
export { RedisRunStore, type RedisRunStoreOptions } from "./redis-store.js";
export { followRun } from "./follow.js";
export { BackgroundRunner } from "./runner.js";
export { RunExecutor, type RunInterruption, type RunJob, type RunOutcome } from "./run-executor.js";
export {
  RUN_STATUSES,
  FINAL_STATUSES,
  finalEventType,
  isFinal,
  isFinalEvent,
  isRunId,
  newRunId,
  type RunError,
  type RunEvent,
  type RunInit,
  type RunPage,
  type RunPatch,
  type RunQuery,
  type RunRecord,
  type RunStatus,
} from "./run-record.js";
export { runsSettings, webhookSettings } from "./settings.js";
export { WebhookAllowList } from "./webhook-allow-list.js";
export { WebhookSigner, type WebhookHeaders } from "./webhook-signer.js";
export { deliverWebhook, type WebhookDelivery, type WebhookOutcome } from "./webhook-delivery.js";
export { RunWebhooks, webhookRun } from "./run-webhooks.js";

export default function runsPlugin(): KernelPlugin {
  let owned: RunStore | undefined;
  let runner: BackgroundRunner | undefined;
  let webhooks: RunWebhooks | undefined;
  return definePlugin({
    name: "svc:runs",
    settings: runsSettings,
    provides: [RUN_STORE],
    async setup(kernel) {
      const { settings, log } = kernel;
      let store = kernel.optional(RUN_STORE);
      if (store) {
        log.debug("Run store: the host's");
      } else {
        const options = {
          retentionMs: settings.runRetentionSeconds * 1000,
          maxEvents: settings.runMaxEvents,
          leaseMs: settings.runLeaseSeconds * 1000,
          instance: settings.instanceName,
          logger: log,
        };
        if (settings.clusterRedisUrl) {
          store = owned = await RedisRunStore.connect({ ...options, url: settings.clusterRedisUrl, timeoutMs: settings.redisTimeout * 1000 });
          log.info("Run store: Redis");
        } else {
          store = owned = new MemoryRunStore({ ...options, maxRuns: settings.runMaxRuns });
          log.debug("Run store: in memory (runs are lost on restart)");
        }
        kernel.provide(RUN_STORE, store);
      }
      webhooks = new RunWebhooks(settings, log);
      const notify = webhooks;
      if (store.onFinal) store.onFinal((run) => notify.notify(run));
      else log.warn("The host's run store has no onFinal(): completion webhooks are not sent");
      runner = new BackgroundRunner(kernel, store, log);
      registerRunRoutes(kernel, store, runner, webhooks);
    },
    async close() {
      await runner?.close();
      await webhooks?.close();
      await owned?.close();
    },
  });
}
