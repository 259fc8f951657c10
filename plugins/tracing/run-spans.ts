/**
 * @module The `run` hook observer: one span per pipeline invocation, whatever the transport
 * (`svc.pipeline.run` for rest, `svc.<transport>.run` otherwise), under the transport's span when
 * the call carries one. The span travels on with the call (`call.span`, so `ctx.span` and later
 * interceptors see it); the run context binds it to the call's AbortSignal when a wrapper reads
 * `ctx.signal`, so pipelines run with `{ signal: ctx.signal }` nest below it. (The signal is never
 * read here: creating one costs more than the whole span.) A streamed run settles when its stream
 * ends, so the span ends then, with the consumer's view of the stream (`svc.stream.items`,
 * `svc.stream.first_item_ms`, `svc.stream.aborted`).
 */
import { StreamedRun, remoteParentOf, type CallObserver, type CallTimes, type Observation, type RunCall, type Span, type TagValue, type Tags } from "svc/plugin";
import { sharedPayloadTags } from "./payload.js";
import { TracingSpan, type SvcTracer } from "./tracer.js";

const SPAN_NAMES = new Map<string, string>([["rest", "svc.pipeline.run"]]);

export function runSpanName(transport: string): string {
  let name = SPAN_NAMES.get(transport);
  if (!name) SPAN_NAMES.set(transport, (name = `svc.${transport}.run`));
  return name;
}

/** `runChatCompletion` → `run_chat_completion`. */
const snake = (method: string) => method.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** The tags of a run span, from one tracer's caches: strings and shape lists its spans share. */
function runTagger(includePayloadValues: boolean): (call: RunCall) => Tags {
  const payloadTag = sharedPayloadTags();
  const routes = new Map<string, string>();
  /** `/<pipeline>/run`, one string per pipeline. */
  const restRoute = (pipeline: string): string => {
    let route = routes.get(pipeline);
    if (route === undefined) {
      if (routes.size >= 1024) routes.clear();
      routes.set(pipeline, (route = `/${pipeline}/run`));
    }
    return route;
  };
  return (call) => {
    const openai = call.transport === "openai";
    return new RunTags(
      call,
      call.transport === "rest" ? restRoute(call.pipeline) : undefined,
      openai ? snake(call.method) : undefined,
      openai ? (call.input as { stream?: unknown } | null)?.stream === true : undefined,
      payloadTag(call.input, includePayloadValues),
    );
  };
}

/**
 * A run span's tags: one shape for every call (absent tags are undefined, which is never rendered
 * or exported), with room for the outcome tag the span gets when it ends (no second property store).
 * A class, not an object literal: the trace buffer keeps these, so V8 would pretenure a literal's
 * allocation site, and a pretenured literal is made through a runtime call (about 1 µs per run
 * over HTTP).
 */
class RunTags {
  [tag: string]: TagValue;
  "svc.pipeline.name": string;
  "svc.transport": string;
  "svc.route": string | undefined;
  "svc.openai.operation": string | undefined;
  "svc.openai.stream_requested": boolean | undefined;
  "svc.request.id": string | undefined;
  "svc.payload.values": TagValue;
  "svc.success": boolean | undefined = undefined;

  constructor(call: RunCall, route: string | undefined, operation: string | undefined, streamRequested: boolean | undefined, payload: TagValue) {
    this["svc.pipeline.name"] = call.pipeline;
    this["svc.transport"] = call.transport;
    this["svc.route"] = route;
    this["svc.openai.operation"] = operation;
    this["svc.openai.stream_requested"] = streamRequested;
    this["svc.request.id"] = call.requestId;
    this["svc.payload.values"] = payload;
  }
}

function streamType(call: RunCall, sse: boolean): string {
  if (sse) return "sse";
  if (call.transport === "openai") return (call.input as { stream?: unknown } | null)?.stream === true ? "sse" : "collected";
  return call.transport === "rest" ? "plain" : "stream";
}

function streamTags(call: RunCall, run: StreamedRun): Tags {
  const { items, firstItemMs } = run.stats;
  return {
    "svc.response.streaming": true,
    "svc.response.stream_type": streamType(call, run.source.sse),
    "svc.stream.items": items,
    "svc.stream.first_item_ms": firstItemMs === undefined ? undefined : Math.round(firstItemMs * 1000) / 1000,
    "svc.stream.aborted": run.aborted || undefined,
  };
}

/** One run's span: handed inwards on the call, ended as the layers inside settle the run. */
class RunSpan implements Observation<RunCall, unknown> {
  readonly changes: { span: Span };

  constructor(
    private readonly span: Span,
    private readonly call: RunCall,
  ) {
    this.changes = { span };
  }

  succeeded(result: unknown, times: CallTimes): void {
    if (result instanceof StreamedRun) this.span.setTags(streamTags(this.call, result));
    this.end(undefined, times);
  }

  failed(error: unknown, times: CallTimes): void {
    this.end(error, times);
  }

  /** Ends at the run's end as all its observers see it (one clock read for all of them); an excluded span records nothing. */
  private end(error: unknown, times: CallTimes): void {
    if (this.span instanceof TracingSpan) this.span.end(error, times.endedAt);
    else this.span.end(error);
  }
}

/** An observer layer, not an interceptor: a run's span costs no promise of its own. */
export function runObserver(tracer: SvcTracer, includePayloadValues: boolean): CallObserver<RunCall, unknown> {
  const runTags = runTagger(includePayloadValues);
  return {
    start: (call, times) => new RunSpan(tracer.startSpan(runSpanName(call.transport), runTags(call), call.span ?? remoteParentOf(call.headers), times.startedAt), call),
  };
}
