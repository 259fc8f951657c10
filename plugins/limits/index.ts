/**
 * @module svc:limits: per-pipeline run limits on every transport (REST, OpenAI, MCP), through the
 * `run` hook. A pipeline's `max_concurrency` and `timeout_seconds` come from its deploy request,
 * else its wrapper's static `maxConcurrency` / `timeoutSeconds`, else the service-wide defaults
 * (SERVICE_DEFAULT_MAX_CONCURRENCY, SERVICE_DEFAULT_TIMEOUT_SECONDS; 0 means none); calls waiting
 * for a slot are bounded by SERVICE_MAX_QUEUE. The state is offered as `RUN_LIMITS` (for metrics).
 */
import { REGISTRY, definePlugin, type KernelPlugin } from "svc/plugin";
import { RunLimiter } from "./limits-interceptor.js";
import { limitsSettings } from "./settings.js";
import { RUN_LIMITS } from "./run-limits-token.js";

export { RunLimiter } from "./limits-interceptor.js";
export { RunGate } from "./run-gate.js";
export { limitsSettings } from "./settings.js";
export { RUN_LIMITS, type PipelineLimitStatus, type RunLimitsStatus } from "./run-limits-token.js";

export default function limitsPlugin(): KernelPlugin {
  return definePlugin({
    name: "svc:limits",
    settings: limitsSettings,
    provides: [RUN_LIMITS],
    setup(kernel) {
      const s = kernel.settings;
      const limiter = new RunLimiter(kernel.resolve(REGISTRY), {
        maxConcurrency: s.limitsDefaultMaxConcurrency,
        timeoutSeconds: s.limitsDefaultTimeoutSeconds,
        maxQueue: s.limitsMaxQueue,
      });
      // Outside the other interceptors (after tracing): a refused call never becomes a run record,
      // and a queued call's wait is inside its trace.
      // Left out of the runs of pipelines without limits: no layer, no promise for them.
      kernel.hooks.run.tap(limiter.interceptor, { order: "pre", appliesTo: (call) => limiter.applies(call) });
      kernel.hooks.deploy.undeployed.tap((name) => limiter.forget(name));
      kernel.provide(RUN_LIMITS, {
        *pipelines() {
          for (const [pipeline, { gate, rejected, timedOut }] of limiter.pipelines) {
            yield { pipeline, running: gate?.running ?? 0, queued: gate?.queued ?? 0, maxConcurrency: gate?.max ?? 0, rejected, timedOut };
          }
        },
      });
    },
  });
}
