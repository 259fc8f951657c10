/**
 * @module svc:a2a: every deployed chat pipeline is an A2A agent (Agent2Agent protocol v1.0, v0.3
 * too while `SERVICE_A2A_V0_3_COMPAT` is on). Served by `svc a2a run` (port 1418) or mounted on the
 * main server with `--plugin svc:a2a`. Tasks are runs of the run store (svc:runs), so every
 * instance sharing it answers for them, a cancel reaches the instance running one, and a task
 * whose instance died fails when its lease expires. See docs/a2a.md.
 */
import { REGISTRY, definePlugin, type KernelPlugin, type SettingValues } from "svc/plugin";
import { RUN_STORE, WebhookAllowList, WebhookSigner, type webhookSettings } from "svc/runs";
import { AgentDirectory } from "./agents.js";
import { PushConfigs } from "./push-configs.js";
import { registerA2aRoutes } from "./routes.js";
import { a2aSettings } from "./settings.js";
import { TaskRunner } from "./task-runner.js";
import { TASK_KIND } from "./task-view.js";

export { a2aSettings } from "./settings.js";
export { CardOverride } from "./agent-card.js";

export default function a2aPlugin(): KernelPlugin {
  let runner: TaskRunner | undefined;
  let push: PushConfigs | undefined;
  let unsubscribe: (() => void) | undefined;
  return definePlugin({
    name: "svc:a2a",
    settings: a2aSettings,
    needs: [RUN_STORE],
    setup(api) {
      const store = api.resolve(RUN_STORE);
      const agents = new AgentDirectory(api, api.resolve(REGISTRY)).start();
      // svc:runs' webhook settings (absent when a host provides the run store without svc:runs).
      const hooks = api.settings as Partial<SettingValues<typeof webhookSettings>>;
      push = new PushConfigs(store, {
        allowList: hooks.webhookAllowedUrls && new WebhookAllowList(hooks.webhookAllowedUrls),
        signer: hooks.webhookSecret === undefined ? undefined : new WebhookSigner(hooks.webhookSecret),
        // Run webhooks' retries (their defaults when a host provides the store without svc:runs).
        retry: {
          maxAttempts: hooks.webhookMaxAttempts ?? 5,
          backoffMs: (hooks.webhookRetrySeconds ?? 1) * 1000,
          timeoutMs: (hooks.webhookTimeoutSeconds ?? 10) * 1000,
        },
        log: api.log,
      });
      // Final states are told by whichever instance made them (the runner, a cancel, a dead instance's lease).
      const notify = push;
      unsubscribe = store.onFinal?.((run) => run.kind === TASK_KIND && notify.notify(run));
      runner = new TaskRunner(api, store, api.log, api.settings.showTracebacks, (id) => notify.notify(id));
      const services = { store, runner, push: notify, pipeline: (name: string) => api.pipelineFor(name, "runChatCompletion") };
      registerA2aRoutes(api, agents, services, notify.enabled);
    },
    async close() {
      unsubscribe?.();
      await runner?.close();
      await push?.close();
    },
  });
}
