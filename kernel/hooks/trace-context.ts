/**
 * @module W3C Trace Context (levels 1 and 2): reading an incoming `traceparent` / `tracestate`
 * into a remote parent span, and writing the headers for the current span on outgoing calls.
 *
 * Parsing follows the spec: version `ff`, upper-case hex, wrong lengths and all-zero ids are
 * invalid and ignored (the run then starts a new trace); a version above `00` is read leniently
 * (its first four fields, anything after a `-` ignored) and answered with version `00`. An invalid
 * `traceparent` also drops `tracestate`; `tracestate` members that are malformed are left out, at
 * most 32 are kept, and a header longer than 512 characters is dropped (as OpenTelemetry does).
 */
import type { Span, TagValue, Tags } from "./tracer.js";

/** Trace flags: bit 0 `sampled` (level 1), bit 1 `random` trace id (level 2). */
export const TRACE_FLAG_SAMPLED = 0x01;
export const TRACE_FLAG_RANDOM = 0x02;

const VERSION_00_LENGTH = 55;
const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;
const ZERO_TRACE = "0".repeat(32);
const ZERO_SPAN = "0".repeat(16);
const MAX_TRACESTATE_LENGTH = 512;
const MAX_TRACESTATE_MEMBERS = 32;
// Keys: simple (`vendor`) or multi-tenant (`tenant@vendor`); values: printable ASCII but `,` `=`, no trailing space.
const TRACESTATE_MEMBER =
  /^(?:[a-z][_0-9a-z\-*/]{0,255}|[a-z0-9][_0-9a-z\-*/]{0,240}@[a-z][_0-9a-z\-*/]{0,13})=[\x20-\x2b\x2d-\x3c\x3e-\x7e]{0,255}[\x21-\x2b\x2d-\x3c\x3e-\x7e]$/;

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

/** One header value; a header sent twice (an array) counts as invalid for traceparent. */
function single(value: HeaderValue): string | undefined {
  if (typeof value === "string") return value;
  return value?.length === 1 ? value[0] : undefined;
}

/** The remote parent a `traceparent` value names, or undefined when it is absent or invalid. */
export function parseTraceparent(value: HeaderValue, tracestate?: HeaderValue): RemoteSpan | undefined {
  let raw = single(value)?.trim();
  if (!raw || raw.length < VERSION_00_LENGTH) return undefined;
  if (raw.length > VERSION_00_LENGTH) {
    // Only a future version may be longer, and only with a `-` after the flags.
    if (raw.startsWith("00") || raw[VERSION_00_LENGTH] !== "-") return undefined;
    raw = raw.slice(0, VERSION_00_LENGTH);
  }
  const m = TRACEPARENT.exec(raw);
  if (!m) return undefined;
  const [, version, traceId, spanId, flags] = m as unknown as [string, string, string, string, string];
  if (version === "ff" || traceId === ZERO_TRACE || spanId === ZERO_SPAN) return undefined;
  // Flags this version does not define are not passed on (the spec's advice for unknown bits).
  const traceFlags = parseInt(flags, 16) & (TRACE_FLAG_SAMPLED | TRACE_FLAG_RANDOM);
  return new RemoteSpan(traceId, spanId, traceFlags, parseTracestate(tracestate));
}

/** `tracestate` with malformed members left out, or undefined when nothing valid remains. */
export function parseTracestate(value: HeaderValue): string | undefined {
  const raw = typeof value === "string" ? value : value?.join(",");
  if (!raw || raw.length > MAX_TRACESTATE_LENGTH) return undefined;
  const kept: string[] = [];
  const keys = new Set<string>();
  for (const part of raw.split(",")) {
    const member = part.trim();
    if (member === "" || !TRACESTATE_MEMBER.test(member)) continue;
    const key = member.slice(0, member.indexOf("="));
    if (keys.has(key)) continue; // the first (left-most, most recent) wins
    keys.add(key);
    kept.push(member);
    if (kept.length === MAX_TRACESTATE_MEMBERS) break;
  }
  return kept.length ? kept.join(",") : undefined;
}

/** The remote parent named by a request's headers (lower-cased names), if any. */
export function remoteParentOf(headers: Readonly<Record<string, HeaderValue>> | undefined): RemoteSpan | undefined {
  const traceparent = headers?.traceparent;
  return traceparent === undefined ? undefined : parseTraceparent(traceparent, headers!.tracestate);
}

const hex2 = (n: number) => (n < 16 ? "0" : "") + n.toString(16);

/**
 * `traceparent` (and `tracestate` when there is one) for an outgoing call made under `span`;
 * undefined when the span has no ids (no tracer installed), so nothing is sent.
 */
export function traceHeaders(span: Span | undefined): Record<string, string> | undefined {
  const traceId = span?.traceId;
  const spanId = span?.spanId;
  if (!traceId || !spanId) return undefined;
  const headers: Record<string, string> = { traceparent: `00-${traceId}-${spanId}-${hex2(span.traceFlags ?? TRACE_FLAG_SAMPLED)}` };
  if (span.traceState) headers.tracestate = span.traceState;
  return headers;
}
