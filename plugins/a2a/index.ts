/**
 * @module svc:a2a: every deployed chat pipeline is an A2A agent (Agent2Agent protocol v1.0, v0.3
 * too while `SERVICE_A2A_V0_3_COMPAT` is on). Served by `svc a2a run` (port 1418) or mounted on the
 * main server with `--plugin svc:a2a`. Tasks are runs of the run store (svc:runs), so every
 * instance sharing it answers for them, a cancel reaches the instance running one, and a task
 * whose instance died fails when its lease expires. See docs/a2a.md.
 */
import { REGISTRY, definePlugin, type KernelPlugin } from "svc/plugin";
import { RUN_STORE } from "svc/runs";
import { AgentDirectory } from "./agents.js";
import { PushConfigs } from "./push-configs.js";
import { registerA2aRoutes } from "./routes.js";
import { a2aSettings } from "./settings.js";
import { TaskRunner } from "./task-runner.js";

export { a2aSettings } from "./settings.js";
export { CardOverride } from "./agent-card.js";

export default function a2aPlugin(): KernelPlugin {
  let runner: TaskRunner | undefined;
  return definePlugin({
    name: "svc:a2a",
    settings: a2aSettings,
    needs: [RUN_STORE],
    setup(api) {
      const store = api.resolve(RUN_STORE);
      const agents = new AgentDirectory(api, api.resolve(REGISTRY)).start();
      const push = new PushConfigs(store, { log: api.log });
      runner = new TaskRunner(api, store, api.log, api.settings.showTracebacks, (id) => push.notify(id));
      const services = { store, runner, push, pipeline: (name: string) => api.pipelineFor(name, "runChatCompletion") };
      registerA2aRoutes(api, agents, services, push.enabled);
    },
    async close() {
      await runner?.close();
    },
  });
}
