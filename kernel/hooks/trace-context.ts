/**
 * @module W3C Trace Context (levels 1 and 2): reading an incoming `traceparent` / `tracestate`
 * into a remote parent span, and writing the headers for the current span on outgoing calls.
 *
 * Parsing and writing are OpenTelemetry's `W3CTraceContextPropagator` (`@opentelemetry/core`):
 * version `ff`, upper-case hex, wrong lengths and all-zero ids are invalid and ignored (the run
 * then starts a new trace); a version above `00` is read leniently. An invalid `traceparent` also
 * drops `tracestate`; its malformed members are left out, at most 32 and 512 characters kept, and
 * a key given twice keeps its first place with its last value. Two choices of ours on top: a
 * `traceparent` sent as two headers is invalid (the spec's advice), and flags this version does
 * not define are not passed on.
 */
import { createRequire } from "node:module";
import type * as OtelApi from "@opentelemetry/api";
import type { TextMapGetter, TextMapSetter } from "@opentelemetry/api";
import type * as OtelCore from "@opentelemetry/core";
import type { Span, TagValue, Tags } from "./tracer.js";

/** Trace flags: bit 0 `sampled` (level 1), bit 1 `random` trace id (level 2). */
export const TRACE_FLAG_SAMPLED = 0x01;
export const TRACE_FLAG_RANDOM = 0x02;

/**
 * OpenTelemetry, loaded at the first trace header read or written: loading it costs ~90 ms,
 * which a start (and a service whose callers send no trace context) does not pay.
 */
let otel: { api: typeof OtelApi; core: typeof OtelCore; propagator: OtelCore.W3CTraceContextPropagator } | undefined;
function loadOtel(): NonNullable<typeof otel> {
  if (!otel) {
    const require = createRequire(import.meta.url);
    const core = require("@opentelemetry/core") as typeof OtelCore;
    otel = { api: require("@opentelemetry/api") as typeof OtelApi, core, propagator: new core.W3CTraceContextPropagator() };
  }
  return otel;
}

/**
 * The caller's span, from its `traceparent`: a parent for spans started in this process. It
 * records nothing itself.
 */
export class RemoteSpan implements Span {
  readonly name = "remote";
  constructor(
    readonly traceId: string,
    readonly spanId: string,
    readonly traceFlags: number,
    /** The caller's `tracestate`, normalised; undefined when absent or invalid. */
    readonly traceState: string | undefined,
  ) {}
  get sampled(): boolean {
    return (this.traceFlags & TRACE_FLAG_SAMPLED) !== 0;
  }
  setTag(_key: string, _value: TagValue): Span {
    return this;
  }
  setTags(_tags: Tags): Span {
    return this;
  }
  end(): void {}
}

type HeaderValue = string | readonly string[] | undefined;

/** The two headers of one incoming call: `traceparent` counts only when sent once. */
interface Incoming {
  traceparent: HeaderValue;
  tracestate: HeaderValue;
}

const getter: TextMapGetter<Incoming> = {
  keys: () => ["traceparent", "tracestate"],
  get(carrier, key) {
    if (key === "tracestate") return carrier.tracestate as string | string[] | undefined;
    const value = carrier.traceparent;
    return typeof value === "string" ? value : value?.length === 1 ? value[0] : undefined;
  },
};

const setter: TextMapSetter<Record<string, string>> = {
  set(carrier, key, value) {
    carrier[key] = value;
  },
};

/** The remote parent a `traceparent` value names, or undefined when it is absent or invalid. */
export function parseTraceparent(value: HeaderValue, tracestate?: HeaderValue): RemoteSpan | undefined {
  const { api, propagator } = loadOtel();
  const remote = api.trace.getSpanContext(propagator.extract(api.ROOT_CONTEXT, { traceparent: value, tracestate }, getter));
  if (!remote) return undefined;
  // Flags this version does not define are not passed on (the spec's advice for unknown bits).
  const traceFlags = remote.traceFlags & (TRACE_FLAG_SAMPLED | TRACE_FLAG_RANDOM);
  return new RemoteSpan(remote.traceId, remote.spanId, traceFlags, remote.traceState?.serialize() || undefined);
}

/** `tracestate` with malformed members left out, or undefined when nothing valid remains. */
export function parseTracestate(value: HeaderValue): string | undefined {
  const raw = typeof value === "string" ? value : value?.join(",");
  return (raw && new (loadOtel().core.TraceState)(raw).serialize()) || undefined;
}

/** The remote parent named by a request's headers (lower-cased names), if any. */
export function remoteParentOf(headers: Readonly<Record<string, HeaderValue>> | undefined): RemoteSpan | undefined {
  const traceparent = headers?.traceparent;
  return traceparent === undefined ? undefined : parseTraceparent(traceparent, headers!.tracestate);
}

/**
 * `traceparent` (and `tracestate` when there is one) for an outgoing call made under `span`;
 * undefined when the span has no ids (no tracer installed), so nothing is sent.
 */
export function traceHeaders(span: Span | undefined): Record<string, string> | undefined {
  const traceId = span?.traceId;
  const spanId = span?.spanId;
  if (!traceId || !spanId) return undefined;
  const { api, core, propagator } = loadOtel();
  const context = api.trace.setSpanContext(api.ROOT_CONTEXT, {
    traceId,
    spanId,
    traceFlags: span.traceFlags ?? TRACE_FLAG_SAMPLED,
    traceState: span.traceState ? new core.TraceState(span.traceState) : undefined,
  });
  const headers: Record<string, string> = {};
  propagator.inject(context, headers, setter);
  return headers.traceparent ? headers : undefined;
}
