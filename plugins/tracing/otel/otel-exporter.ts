/**
 * @module The bridge from svc spans to an OpenTelemetry tracer: each svc span becomes an OTel span
 * under its parent's (or under the host's active span for a root), with tags as attributes and
 * failures recorded as exceptions with an error status. Its ids are the ones svc records, so a
 * trace id in `GET /traces` is the one a collector shows.
 */
import type * as otel from "@opentelemetry/api";
import type { TagValue, Tags } from "svc";
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

  constructor(
    readonly span: otel.Span,
    private readonly api: typeof otel,
  ) {
    const context = span.spanContext();
    this.traceId = context.traceId;
    this.spanId = context.spanId;
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

  start(name: string, tags: Tags | undefined, parent: ExportedSpan | undefined): ExportedSpan {
    const { api } = this;
    const context = parent instanceof OtelSpan ? api.trace.setSpan(api.ROOT_CONTEXT, parent.span) : api.context.active();
    return new OtelSpan(this.tracer.startSpan(name, { attributes: attributes(tags) }, context), api);
  }
}
