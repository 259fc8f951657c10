/**
 * @module The trace id of the span a run happens under, when the installed tracer exposes one. The
 * kernel's Span contract has no ids, so this reads what tracers commonly offer: a `traceId`
 * property, or OpenTelemetry's `spanContext().traceId`; a fan-out span (several tracers) is
 * searched part by part. Without ids from a tracer, a run whose request carries a valid W3C
 * `traceparent` is recorded under the caller's trace id; otherwise null.
 */
import { remoteParentOf, type RunCall, type Span } from "svc/plugin";

/** The trace a run belongs to: its span's, else the caller's `traceparent`'s. */
export function runTraceId(call: RunCall): string | null {
  return traceIdOf(call.span) ?? remoteParentOf(call.headers)?.traceId ?? null;
}

const ALL_ZERO = /^0+$/;

export function traceIdOf(span: Span | undefined, depth = 0): string | null {
  if (!span || depth > 4) return null;
  const s = span as Span & { traceId?: unknown; spanContext?: () => { traceId?: unknown }; parts?: readonly Span[] };
  const direct = typeof s.traceId === "string" ? s.traceId : typeof s.spanContext === "function" ? safe(() => s.spanContext!().traceId) : undefined;
  // An id not starting with "0" is not all zeros: the pattern runs only for the rare one that does.
  if (typeof direct === "string" && direct !== "" && (direct.charCodeAt(0) !== 48 || !ALL_ZERO.test(direct))) return direct;
  if (Array.isArray(s.parts)) {
    for (const part of s.parts) {
      const id = traceIdOf(part, depth + 1);
      if (id) return id;
    }
  }
  return null;
}

function safe<T>(fn: () => T): T | undefined {
  try {
    return fn();
  } catch {
    return undefined;
  }
}
