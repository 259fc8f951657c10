/**
 * @module The bridge from svc spans to an OpenTelemetry tracer: each svc span becomes an OTel span
 * under its parent's, under the caller's span from its `traceparent` (a remote parent, so the
 * SDK's sampler decides as for any remote parent: parent-based by default), or under the host's
 * active span for a root; tags become attributes and failures exceptions with an error status.
 * Its ids are the ones svc records, so a trace id in `GET /traces` is the one a collector shows.
 */
import type * as otel from "@opentelemetry/api";
import { RemoteSpan, type TagValue, type Tags } from "svc/plugin";
import { boundedJson } from "../render.js";
import type { ExportedSpan, SpanExporter } from "../tracer.js";

/** Attribute values longer than this are cut (collectors reject huge attributes). */
const ATTRIBUTE_LIMIT = 4096;

function attribute(value: TagValue): otel.AttributeValue | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") return value;
  if (Array.isArray(value) && value.every((v) => typeof v === "string")) return value as string[];
  return boundedJson(value, { limit: ATTRIBUTE_LIMIT });
}

function attributes(tags: Tags | undefined): otel.Attributes | undefined {
  if (!tags) return undefined;
  const out: otel.Attributes = {};
  for (const key in tags) {
    const value = attribute(tags[key]);
    if (value !== undefined) out[key] = value;
  }
  return out;
}

class OtelSpan implements ExportedSpan {
  readonly traceId: string;
  readonly spanId: string;
  readonly sampled: boolean;

  constructor(
    readonly span: otel.Span,
    private readonly api: typeof otel,
  ) {
    const context = span.spanContext();
    this.traceId = context.traceId;
    this.spanId = context.spanId;
    this.sampled = (context.traceFlags & api.TraceFlags.SAMPLED) !== 0;
  }

  setTag(key: string, value: TagValue): void {
    const v = attribute(value);
    if (v !== undefined) this.span.setAttribute(key, v);
  }

  end(error?: unknown): void {
    if (error !== undefined) {
      this.span.recordException(error instanceof Error ? error : String(error));
      this.span.setStatus({ code: this.api.SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
    }
    this.span.end();
  }
}

export class OtelExporter implements SpanExporter {
  constructor(
    private readonly api: typeof otel,
    private readonly tracer: otel.Tracer,
  ) {}

  start(name: string, tags: Tags | undefined, parent: ExportedSpan | RemoteSpan | undefined): ExportedSpan {
    const { api } = this;
    let context: otel.Context;
    if (parent instanceof OtelSpan) context = api.trace.setSpan(api.ROOT_CONTEXT, parent.span);
    else if (parent instanceof RemoteSpan) context = api.trace.setSpanContext(api.ROOT_CONTEXT, this.remoteContext(parent));
    else context = api.context.active();
    return new OtelSpan(this.tracer.startSpan(name, { attributes: attributes(tags) }, context), api);
  }

  private remoteContext(remote: RemoteSpan): otel.SpanContext {
    return {
      traceId: remote.traceId,
      spanId: remote.spanId,
      // OpenTelemetry knows the sampled bit only.
      traceFlags: remote.sampled ? this.api.TraceFlags.SAMPLED : this.api.TraceFlags.NONE,
      traceState: remote.traceState ? this.api.createTraceState(remote.traceState) : undefined,
      isRemote: true,
    };
  }
}
