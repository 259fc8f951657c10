/**
 * @module svc:metrics: `GET /metrics` in Prometheus' text format (prom-client), guarded like
 * `/traces` (operator access: the local credential, `SERVICE_TRACING_TOKEN`, or an API key with
 * the `traces` scope). HTTP requests are counted and timed by route pattern (the kernel's
 * `answered` hook); runs through the
 * `run` hook (a plain answer's outcome there, a streamed one's when its stream ends, through the
 * `stream` hook, which also times the first item); deploys through the `deploy` hook; plus Node's
 * process metrics. `--without-metrics` (SERVICE_METRICS_ENABLED=false) leaves it out.
 */
import { definePlugin, isStreamable, REGISTRY, SseStream, type KernelPlugin, type StreamInfo } from "svc";
import { ServiceMetrics } from "./service-metrics.js";
import { metricsSettings } from "./settings.js";

export { ServiceMetrics } from "./service-metrics.js";

export default function metricsPlugin(): KernelPlugin {
  return definePlugin({
    name: "svc:metrics",
    settings: metricsSettings,
    setup(kernel) {
      const m = new ServiceMetrics();
      const registry = kernel.resolve(REGISTRY);

      kernel.hooks.answered.tap(({ method, route = "unmatched", status, durationMs }) => {
        m.requests.labels(route, method, String(status)).inc();
        m.requestSeconds.labels(route, method).observe(durationMs / 1000);
      });

      kernel.hooks.run.tap(async (call, next) => {
        const inFlight = m.runsInFlight.labels(call.pipeline, call.transport);
        inFlight.inc();
        try {
          const result = await next();
          // A stream's outcome is counted when it ends (stream hook below).
          if (!(result instanceof SseStream) && !isStreamable(result)) {
            m.runs.labels(call.pipeline, call.transport, call.signal.aborted ? "cancelled" : "succeeded").inc();
          }
          return result;
        } catch (error) {
          m.runs.labels(call.pipeline, call.transport, call.signal.aborted ? "cancelled" : "failed").inc();
          throw error;
        } finally {
          inFlight.dec();
        }
      });

      const started = new WeakMap<StreamInfo, number>();
      const ended = (info: StreamInfo, outcome: string) => {
        started.delete(info);
        m.streamsInFlight.labels(info.pipeline, info.transport).dec();
        m.runs.labels(info.pipeline, info.transport, outcome).inc();
      };
      kernel.hooks.stream.tap({
        start(info) {
          started.set(info, performance.now());
          m.streamsInFlight.labels(info.pipeline, info.transport).inc();
        },
        item(_item, info) {
          const at = started.get(info);
          if (at !== undefined && at >= 0) {
            m.firstItemSeconds.labels(info.pipeline, info.transport).observe((performance.now() - at) / 1000);
            started.set(info, -1);
          }
          return undefined;
        },
        end: (info) => ended(info, "succeeded"),
        error: (info) => ended(info, "failed"),
        abort: (info) => ended(info, "cancelled"),
      });

      kernel.hooks.deploy.deployed.tap(() => {
        m.deploys.labels("deployed").inc();
        m.pipelines.set(registry.list().length);
      });
      kernel.hooks.deploy.undeployed.tap(() => {
        m.deploys.labels("undeployed").inc();
        m.pipelines.set(registry.list().length);
      });

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
