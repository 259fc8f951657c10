/**
 * @module The `run` hook interceptor: one span per pipeline invocation, whatever the transport
 * (`svc.pipeline.run` for rest, `svc.<transport>.run` otherwise), under the transport's span when
 * the call carries one. The span travels on with the call (`call.span`, so `ctx.span` and later
 * interceptors see it); the run context binds it to the call's AbortSignal when a wrapper reads
 * `ctx.signal`, so pipelines run with `{ signal: ctx.signal }` nest below it. (The signal is never
 * read here: creating one costs more than the whole span.) A streamed result keeps the span open
 * until the stream ends (see stream-spans.ts).
 */
import { SseStream, isStreamable, type Interceptor, type RunCall, type Tags } from "svc";
import { payloadTag } from "./payload.js";
import type { StreamSpans } from "./stream-spans.js";
import type { SvcTracer } from "./tracer.js";

const SPAN_NAMES = new Map<string, string>([["rest", "svc.pipeline.run"]]);

export function runSpanName(transport: string): string {
  let name = SPAN_NAMES.get(transport);
  if (!name) SPAN_NAMES.set(transport, (name = `svc.${transport}.run`));
  return name;
}

/** `runChatCompletion` → `run_chat_completion`. */
const snake = (method: string) => method.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

function runTags(call: RunCall, includePayloadValues: boolean): Tags {
  const tags: Tags = {
    "svc.pipeline.name": call.pipeline,
    "svc.transport": call.transport,
    "svc.payload.values": payloadTag(call.input, includePayloadValues),
  };
  if (call.transport === "rest") tags["svc.route"] = `/${call.pipeline}/run`;
  if (call.transport === "openai") {
    tags["svc.openai.operation"] = snake(call.method);
    tags["svc.openai.stream_requested"] = (call.input as { stream?: unknown } | null)?.stream === true;
  }
  if (call.requestId) tags["svc.request.id"] = call.requestId;
  return tags;
}

function streamType(call: RunCall, result: unknown): string {
  if (result instanceof SseStream) return "sse";
  if (call.transport === "openai") return (call.input as { stream?: unknown } | null)?.stream === true ? "sse" : "collected";
  return call.transport === "rest" ? "plain" : "stream";
}

export function runInterceptor(tracer: SvcTracer, streams: StreamSpans, includePayloadValues: boolean): Interceptor<RunCall, unknown> {
  return async (call, next) => {
    const span = tracer.startSpan(runSpanName(call.transport), runTags(call, includePayloadValues), call.span);
    let result: unknown;
    try {
      result = await next({ span });
    } catch (error) {
      span.end(error);
      throw error;
    }
    if (result instanceof SseStream || isStreamable(result)) {
      span.setTags({ "svc.response.streaming": true, "svc.response.stream_type": streamType(call, result) });
      return streams.track(span, call, result);
    }
    span.end();
    return result;
  };
}
