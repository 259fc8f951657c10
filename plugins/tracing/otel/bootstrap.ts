/**
 * @module OpenTelemetry export, loaded only when it is used (the SDK is large; startup stays fast
 * without it):
 * 1. A tracer provider a host registered before svc started is used as it is.
 * 2. Otherwise, when OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT is set, an
 *    `@opentelemetry/sdk-node` SDK is started with an OTLP exporter for the protocol from
 *    OTEL_EXPORTER_OTLP_TRACES_PROTOCOL / OTEL_EXPORTER_OTLP_PROTOCOL (`http/protobuf` by default,
 *    `http` meaning the same, or `grpc`), the service name OTEL_SERVICE_NAME (default `svc`), and
 *    the sampler from OTEL_TRACES_SAMPLER(_ARG). The exporters read endpoint, headers and time-out
 *    from the standard variables themselves. Traces only: no metrics or logs are exported.
 * Export runs in the background (batched); a collector that is down costs a logged warning, never
 * a blocked request or a crash, and shutdown waits for the last flush a bounded time.
 */
import type { Logger } from "svc/plugin";
import type { SpanExporter } from "../tracer.js";

export interface OpenTelemetryExport {
  readonly exporter: SpanExporter;
  /** `host`: the host's provider; `sdk`: the SDK svc started. */
  readonly source: "host" | "sdk";
  readonly protocol?: string;
  shutdown(): Promise<void>;
}

const API_GLOBAL = Symbol.for("opentelemetry.js.api.1");
const SHUTDOWN_WAIT_MS = 3000;
/** Export failures repeat while a collector is down: log one per interval. */
const FAILURE_LOG_INTERVAL_MS = 60_000;

/** Whether a host registered a global tracer provider (checked without loading the API). */
export function hostTracerProviderRegistered(): boolean {
  return (globalThis as Record<symbol, { trace?: unknown } | undefined>)[API_GLOBAL]?.trace !== undefined;
}

/** OTel reports exceptions as JSON text; the log gets their message. */
function readable(message: string, args: unknown[]): string {
  const parts = [message, ...args].map((part) => {
    if (part instanceof Error) return part.message;
    if (typeof part !== "string") return JSON.stringify(part);
    try {
      const parsed = JSON.parse(part) as { message?: unknown };
      return typeof parsed?.message === "string" ? parsed.message : part;
    } catch {
      return part;
    }
  });
  return parts.filter(Boolean).join(" ");
}

export function otlpEndpointConfigured(env: NodeJS.ProcessEnv = process.env): boolean {
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim());
}

export function otlpProtocol(env: NodeJS.ProcessEnv = process.env): string {
  return (env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL?.trim() || env.OTEL_EXPORTER_OTLP_PROTOCOL?.trim() || "http/protobuf").toLowerCase();
}

async function tracerOf(name: string) {
  const api = await import("@opentelemetry/api");
  const { OtelExporter } = await import("./otel-exporter.js");
  return { api, exporter: new OtelExporter(api, api.trace.getTracer(name)) };
}

export async function setupOpenTelemetry(log: Logger, env: NodeJS.ProcessEnv = process.env): Promise<OpenTelemetryExport | undefined> {
  if (hostTracerProviderRegistered()) {
    const { exporter } = await tracerOf("svc");
    log.info("Exporting spans through the host's OpenTelemetry tracer provider");
    return { exporter, source: "host", shutdown: async () => undefined };
  }
  if (!otlpEndpointConfigured(env)) return undefined;
  const protocol = otlpProtocol(env);
  if (protocol !== "http/protobuf" && protocol !== "http" && protocol !== "grpc") {
    log.warn(`OpenTelemetry export is off: unsupported OTLP protocol '${protocol}' (use http/protobuf or grpc)`);
    return undefined;
  }
  let sdkModule: typeof import("@opentelemetry/sdk-node");
  let otlp: { OTLPTraceExporter: new () => import("@opentelemetry/sdk-trace-base").SpanExporter };
  try {
    sdkModule = await import("@opentelemetry/sdk-node");
    otlp = protocol === "grpc" ? await import("@opentelemetry/exporter-trace-otlp-grpc") : await import("@opentelemetry/exporter-trace-otlp-proto");
  } catch (error) {
    const missing = (error as { code?: string }).code === "ERR_MODULE_NOT_FOUND";
    // The SDK and exporters are optional peers of the published package (large, used only with OTLP).
    const hint = missing ? `; install it: npm install @opentelemetry/sdk-node ${protocol === "grpc" ? "@opentelemetry/exporter-trace-otlp-grpc" : "@opentelemetry/exporter-trace-otlp-proto"}` : "";
    log.warn(`OpenTelemetry export is off: the SDK could not be loaded (${(error as Error).message})${hint}`);
    return undefined;
  }
  const { api, exporter } = await tracerOf("svc");
  let lastFailureLog = -Infinity;
  const report = (message: string, ...args: unknown[]) => {
    const now = Date.now();
    if (now - lastFailureLog < FAILURE_LOG_INTERVAL_MS) return;
    lastFailureLog = now;
    log.warn(`OpenTelemetry export problem (repeats are not logged for a minute): ${readable(message, args)}`);
  };
  const noop = () => undefined;
  api.diag.setLogger({ error: report, warn: report, info: noop, debug: noop, verbose: noop }, api.DiagLogLevel.WARN);

  const serviceName = env.OTEL_SERVICE_NAME?.trim() || "svc";
  const sdk = new sdkModule.NodeSDK({
    serviceName,
    traceExporter: new otlp.OTLPTraceExporter(),
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations: [],
  });
  sdk.start();
  log.info(`Exporting spans over OTLP (${protocol})`, {
    endpoint: env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || env.OTEL_EXPORTER_OTLP_ENDPOINT,
    service: serviceName,
  });
  return {
    exporter,
    source: "sdk",
    protocol,
    async shutdown() {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, SHUTDOWN_WAIT_MS)));
      try {
        await Promise.race([sdk.shutdown(), timeout]);
      } catch (error) {
        log.warn(`OpenTelemetry shutdown: the last spans may not have been exported (${(error as Error).message})`);
      } finally {
        clearTimeout(timer);
        // Unregister, so a later kernel in this process can set up its own.
        api.trace.disable();
        api.context.disable();
        api.propagation.disable();
        api.diag.disable();
      }
    },
  };
}
