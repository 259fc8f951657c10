/**
 * @module svc:metrics: `GET /metrics` in Prometheus' text format (prom-client), guarded like
 * `/traces` (operator access: the local credential, `SERVICE_TRACING_TOKEN`, or an API key with
 * the `traces` scope). HTTP requests are counted and timed by route pattern (the kernel's
 * `answered` hook); runs through the `run` hook, which settles a streamed run when its stream
 * ends (with the time to its first item); streams in flight through the `stream` hook; deploys
 * through the `deploy` hook; plus Node's process metrics. `--without-metrics` (SERVICE_METRICS_ENABLED=false) leaves it out.
 */
import { definePlugin, REGISTRY, RUN_LIMITS, StreamedRun, type KernelPlugin } from "svc";
import { ServiceMetrics } from "./service-metrics.js";

export { ServiceMetrics } from "./service-metrics.js";

export default function metricsPlugin(): KernelPlugin {
  return definePlugin({
    name: "svc:metrics",
    setup(kernel) {
      // Read at scrape time, so the limits plugin may load before or after this one.
      const m = new ServiceMetrics(function* () {
        if (kernel.container.isRegistered(RUN_LIMITS, true)) yield* kernel.resolve(RUN_LIMITS).pipelines();
      });
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
          const streamed = result instanceof StreamedRun ? result : undefined;
          const firstItemMs = streamed?.stats.firstItemMs;
          if (firstItemMs !== undefined) m.firstItemSeconds.labels(call.pipeline, call.transport).observe(firstItemMs / 1000);
          const cancelled = streamed ? streamed.aborted : call.signal.aborted;
          m.runs.labels(call.pipeline, call.transport, cancelled ? "cancelled" : "succeeded").inc();
          return result;
        } catch (error) {
          m.runs.labels(call.pipeline, call.transport, call.signal.aborted ? "cancelled" : "failed").inc();
          throw error;
        } finally {
          inFlight.dec();
        }
      });

      kernel.hooks.stream.tap({
        start: (info) => m.streamsInFlight.labels(info.pipeline, info.transport).inc(),
        end: (info) => m.streamsInFlight.labels(info.pipeline, info.transport).dec(),
        error: (info) => m.streamsInFlight.labels(info.pipeline, info.transport).dec(),
        abort: (info) => m.streamsInFlight.labels(info.pipeline, info.transport).dec(),
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
