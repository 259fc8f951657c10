/**
 * @module svc:metrics: `GET /metrics` in Prometheus' text format (prom-client), guarded like
 * `/traces` (operator access: the local credential, `SERVICE_OPERATOR_TOKEN`, or an API key with
 * the `traces` scope). HTTP requests are counted and timed by route pattern (the kernel's
 * `answered` hook); runs through the `run` hook, which settles a streamed run when its stream
 * ends (with the time to its first item); streams in flight through the `stream` hook; deploys
 * and their durations through the kernel's `svc.deploy` / `svc.undeploy` spans (deploy-timer.ts),
 * the deployed count through the `deploy` hook; MCP sessions from `svc:mcp`'s counts at scrape
 * time; plus Node's process metrics. `--without-metrics` (SERVICE_METRICS_ENABLED=false) leaves it out.
 */
import { definePlugin, REGISTRY, type KernelPlugin } from "svc/plugin";
import { RUN_LIMITS } from "svc/limits";
import { deployTimer } from "./deploy-timer.js";
import { MCP_SESSIONS } from "./mcp-sessions.js";
import { ServiceMetrics } from "./service-metrics.js";
import { metricsSettings } from "./settings.js";
import { RunCount } from "./run-count.js";

export { ServiceMetrics } from "./service-metrics.js";

export default function metricsPlugin(): KernelPlugin {
  return definePlugin({
    name: "svc:metrics",
    settings: metricsSettings,
    // Without svc:mcp or svc:limits their series stay empty (the kernel sets their providers up first).
    optional: [RUN_LIMITS, MCP_SESSIONS],
    setup(kernel) {
      const limits = kernel.optional(RUN_LIMITS);
      const sessions = kernel.optional(MCP_SESSIONS);
      const m = new ServiceMetrics({
        mcpSessions: () => sessions,
        *limits() {
          if (limits) yield* limits.pipelines();
        },
      });
      const registry = kernel.resolve(REGISTRY);

      kernel.hooks.answered.tap(({ method, route = "unmatched", status, durationMs }) => m.routeSeries.answered(route, method, status, durationMs / 1000));

      // An observer layer, not an interceptor: counting a run costs no promise of its own.
      kernel.hooks.run.observe({ start: (call) => new RunCount(m, call) });

      kernel.hooks.stream.tap({
        start: (info) => m.streamsInFlight.labels(info.pipeline, info.transport).inc(),
        end: (info) => m.streamsInFlight.labels(info.pipeline, info.transport).dec(),
        error: (info) => m.streamsInFlight.labels(info.pipeline, info.transport).dec(),
        abort: (info) => m.streamsInFlight.labels(info.pipeline, info.transport).dec(),
      });

      kernel.hooks.trace.tap(
        deployTimer((action, kind, outcome, seconds) => {
          m.deploys.labels(action, kind, outcome).inc();
          m.deploySeconds.labels(action, kind, outcome).observe(seconds);
        }),
      );
      const countPipelines = () => m.pipelines.set(registry.list().length);
      kernel.hooks.deploy.deployed.tap(countPipelines);
      kernel.hooks.deploy.undeployed.tap(countPipelines);

      kernel.route(
        "GET",
        "/metrics",
        async (c) => {
          const text = await m.registry.metrics();
          c.res.writeHead(200, { "content-type": m.registry.contentType, "cache-control": "no-store" }).end(text);
        },
        { scope: "traces", docs: { summary: "Prometheus metrics (operator access)", tags: ["observability"], operationId: "get_metrics" } },
      );
    },
  });
}
export { metricsSettings } from "./settings.js";
