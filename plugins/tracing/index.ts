/**
 * @module svc:tracing: installs the tracer on the kernel's `trace` hook (deploy, undeploy and
 * startup spans come from the kernel, engine spans from the engine), traces every pipeline
 * invocation (streamed ones until their stream ends) through the `run` hook, keeps the process-local
 * trace buffer behind `GET /traces` (operator access, scope `traces`), and exports to
 * OpenTelemetry when configured.
 *
 * With SERVICE_TRACING_ENABLED=false the buffer and `GET /traces` are left out; `svc run` then
 * loads this plugin only when OpenTelemetry export is configured.
 */
import { definePlugin, type KernelPlugin } from "svc/plugin";
import { setupOpenTelemetry, type OpenTelemetryExport } from "./otel/bootstrap.js";
import { runObserver } from "./run-spans.js";
import { TraceBuffer } from "./trace-buffer.js";
import { registerTracesRoute } from "./traces-route.js";
import { SvcTracer } from "./tracer.js";
import { tracingSettings } from "./settings.js";

export { SvcTracer, TracingSpan } from "./tracer.js";
export { TraceBuffer } from "./trace-buffer.js";
export { snapshot, normalizeTrace, kindOf, TAG_PRIORITY, type WireTrace, type WireSpan } from "./snapshot.js";
export { payloadTag, isSensitiveKey, shapeOf } from "./payload.js";
export { otlpEndpointConfigured, hostTracerProviderRegistered } from "./otel/bootstrap.js";

export default function tracingPlugin(): KernelPlugin {
  let otel: OpenTelemetryExport | undefined;
  return definePlugin({
    name: "svc:tracing",
    settings: tracingSettings,
    async setup(kernel) {
      const s = kernel.settings;
      otel = await setupOpenTelemetry(kernel.log);
      const buffer = s.tracingEnabled ? new TraceBuffer(s.tracingBufferCapacity) : undefined;
      if (!buffer && !otel) {
        kernel.log.debug("Tracing is off and no OpenTelemetry export is configured: no tracer installed");
        return;
      }
      const tracer = new SvcTracer({
        buffer,
        exporter: otel?.exporter,
        includeFrameworkSpans: s.tracingIncludeFrameworkSpans,
        excludedSpans: s.tracingExcludedSpans,
        showTracebacks: s.showTracebacks,
      });
      kernel.hooks.trace.tap(tracer);
      // Outermost, so the layers inside (limits, monitoring) see the run span on the call.
      kernel.hooks.run.observe(runObserver(tracer, s.tracingIncludePayloadValues), { order: "pre" });
      if (buffer) registerTracesRoute(kernel, buffer);
    },
    async close() {
      await otel?.shutdown();
      otel = undefined;
    },
  });
}
export { tracingSettings } from "./settings.js";
