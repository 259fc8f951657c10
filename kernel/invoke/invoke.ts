/**
 * @module kernel.invoke: a pipeline invocation from lookup to the last streamed item, the same for
 * every transport. It finds the pipeline (404) and checks it has the method (501/404), builds the
 * run call and the wrapper's run context, runs the wrapper inside the `run` hook, maps a failure to
 * the answer (`Pipeline execution failed: …`), and classifies the result: a value, a file, or a
 * stream (SSE, plain, or whatever a `result` tap makes of an object). A streamed run settles once, when its stream
 * ends, fails or is stopped: a run interceptor's `next()` then resolves to a `StreamedRun` (or
 * rejects with the stream's error), so it sees the whole run without wrapping the stream.
 * Transports only parse the request, invoke, and encode what comes back.
 */
import type { IncomingHttpHeaders } from "node:http";
import { deployErrors } from "../deploy/deploy-errors.js";
import { HttpError, messageOf } from "../errors.js";
import type { KernelHooks, RunCall } from "../hooks/index.js";
import { promised } from "../hooks/interceptor-hook.js";
import type { StreamStats } from "../hooks/waterfall-hook.js";
import type { Span } from "../hooks/tracer.js";
import type { RequestContext } from "../http/context.js";
import type { Logger } from "../logger.js";
import type { DeployedPipeline, PipelineRegistry } from "../registry.js";
import type { ResultHook } from "../hooks/result-hook.js";
import { SseStream, isStreamable } from "../wrapper/results.js";
import { CallRunContext, PlainRunCall, RequestRunCall } from "../wrapper/run-context.js";
import type { UploadedFile } from "../wrapper/uploaded-file.js";
import { Invocation, type StreamedSource } from "./invocation.js";
import type { StreamEnd } from "./invocation-stream.js";

export type PipelineMethod = "runApi" | "runChatCompletion" | "runResponse";

export interface InvokeRequest {
  /** The pipeline's name, or the entry a transport already looked up (to read its input schema). */
  readonly pipeline: string | DeployedPipeline;
  readonly method: PipelineMethod;
  /** `rest`, `openai`, `mcp`, … */
  readonly transport: string;
  /** What the `run` hook sees as the call's input (an interceptor may change it). */
  readonly input: unknown;
  /** The method's arguments before the run context; `[input]` (as the interceptors left it) when absent. */
  readonly args?: readonly unknown[];
  /** Files the run context offers the wrapper. */
  readonly files?: readonly UploadedFile[];
  /** The transport encodes Open WebUI events: `result` taps may add them (tool call statuses). */
  readonly events?: boolean;
  /** The HTTP request the run is for: its signal, id, headers and logger. */
  readonly request?: RequestContext;
  /** Without an HTTP request: the run's signal (required then), id, caller headers and parent span. */
  readonly signal?: AbortSignal;
  readonly requestId?: string;
  readonly headers?: IncomingHttpHeaders;
  readonly span?: Span;
}

/** What `next()` resolves to in a run interceptor when the result streamed: after the stream ended. */
export class StreamedRun {
  constructor(
    /** The wrapper's raw result (an SSE marker, an iterable, an object a `result` tap read). */
    readonly result: unknown,
    readonly source: StreamedSource,
    readonly stats: StreamStats,
    /** The stream was stopped before its end because the run's signal fired (client gone, shutdown, time-out). */
    readonly aborted: boolean,
  ) {}
}

const CAPABILITY: Record<PipelineMethod, keyof DeployedPipeline["capabilities"]> = { runApi: "api", runChatCompletion: "chat", runResponse: "response" };

/** The answers to a call that cannot run: one wording per case, the OpenAI routes keeping Hayhooks'. */
export const invokeErrors = {
  notFound: (name: string, method: PipelineMethod) =>
    method === "runApi" ? deployErrors.notFound(name) : new HttpError(404, `Pipeline '${name}' not found or not a pipeline wrapper`),
  notCapable: (name: string, method: PipelineMethod) =>
    method === "runChatCompletion"
      ? new HttpError(501, "Chat endpoint not implemented for this model")
      : method === "runResponse"
        ? new HttpError(501, "Responses endpoint not implemented for this model")
        : new HttpError(404, `Pipeline '${name}' has no run endpoint: its wrapper implements no runApi`),
};

/** A failure as the client's answer: an HttpError passes, anything else is a 500. */
export function pipelineFailure(error: unknown): HttpError {
  return error instanceof HttpError ? error : new HttpError(500, `Pipeline execution failed: ${messageOf(error)}`, { cause: error });
}

export class Invoker {
  constructor(
    private readonly registry: PipelineRegistry,
    private readonly hooks: KernelHooks,
    private readonly log: Logger,
  ) {}

  /** The deployed pipeline that serves `method`, or the coded 404/501. */
  pipeline(name: string, method: PipelineMethod): DeployedPipeline {
    const pipeline = this.registry.get(name);
    if (!pipeline) throw invokeErrors.notFound(name, method);
    if (!pipeline.capabilities[CAPABILITY[method]]) throw invokeErrors.notCapable(name, method);
    return pipeline;
  }

  invoke(request: InvokeRequest): Promise<Invocation> {
    return promised(this.invokeOrValue(request));
  }

  /**
   * As `invoke`, but an invocation ready at once (a run that settled synchronously with only
   * observers in its way, or a stream handed over synchronously) is returned as it is: no promise.
   */
  invokeOrValue(request: InvokeRequest): Invocation | Promise<Invocation> {
    let run: InvokeRun;
    try {
      const pipeline = typeof request.pipeline === "string" ? this.pipeline(request.pipeline, request.method) : request.pipeline;
      run = new InvokeRun(this.hooks, request, pipeline, runCallOf(request, pipeline.name), request.request ?? this.log);
    } catch (error) {
      return Promise.reject(error);
    }
    return run.start();
  }
}

/**
 * One invocation under way. It settles once: with the stream as soon as the wrapper handed one
 * over (the run then settles later, when the stream ends), else with the run's value or failure.
 * Handed over before `start` returns, it is returned; later, it settles the promise returned
 * instead. Its state is one object and its steps are methods: a closure per step cost more.
 */
class InvokeRun {
  private ready: Invocation | undefined = undefined;
  private waiting: { deliver(invocation: Invocation): void; fail(error: unknown): void } | undefined = undefined;
  private streaming = false;

  constructor(
    private readonly hooks: KernelHooks,
    private readonly request: InvokeRequest,
    private readonly pipeline: DeployedPipeline,
    private readonly call: RunCall,
    /** The request's logger when there is a request (made only if the wrapper logs), else the kernel's. */
    private readonly log: Logger | RequestContext,
  ) {}

  start(): Invocation | Promise<Invocation> {
    const chain = this.hooks.run.callOrValue(this.call, this.target);
    if (!(chain instanceof Promise)) this.answered(chain);
    else {
      // A promise's reactions run later, so `waiting` is set by then whenever `ready` is not.
      chain.then(
        (value) => this.answered(value),
        (error: unknown) => {
          if (!this.streaming) this.waiting!.fail(pipelineFailure(error));
        },
      );
    }
    return this.ready ?? new Promise<Invocation>((resolve, reject) => void (this.waiting = { deliver: resolve, fail: reject }));
  }

  /** The `run` hook's target: the wrapper's method, on the call as the interceptors left it. */
  private readonly target = (inner: RunCall): unknown => {
    const { request, pipeline } = this;
    const context = new CallRunContext(inner, this.log, request.files, this.hooks.trace.tracer);
    const method = (pipeline.wrapper as Record<string, (...args: unknown[]) => unknown>)[request.method]!;
    const returned = request.args ? method.call(pipeline.wrapper, ...request.args, context) : method.call(pipeline.wrapper, inner.input, context);
    // A wrapper that answers with a plain value (no promise) is classified at once: one promise turn less.
    return isPromiseLike(returned) ? Promise.resolve(returned).then((result) => this.settled(inner, result)) : this.settled(inner, returned);
  };

  /** The wrapper's result: a stream is handed over at once, and the run settles when it ends. */
  private settled(inner: RunCall, result: unknown): unknown {
    const source = sourceOf(this.hooks.result, result, inner, this.request.events);
    if (!source) return result;
    this.streaming = true;
    return new Promise<unknown>((resolve, reject) => {
      const settle = (end: StreamEnd) => {
        if (end.kind === "error") reject(end.error);
        else resolve(new StreamedRun(result, source, end.stats, end.kind === "stopped" && inner.signal.aborted));
      };
      this.deliver(new Invocation(this.pipeline, inner, result, source, this.hooks.stream, settle));
    });
  }

  /**
   * The chain's value (the wrapper's, or an interceptor's answering in its place, which may itself
   * stream); after a stream was handed over, the run's own end is the interceptors' business.
   */
  private answered(value: unknown): void {
    const call = this.call;
    if (!this.streaming) this.deliver(new Invocation(this.pipeline, call, value, sourceOf(this.hooks.result, value, call, this.request.events), this.hooks.stream));
  }

  private deliver(invocation: Invocation): void {
    if (this.waiting) this.waiting.deliver(invocation);
    else this.ready = invocation;
  }
}

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return value !== null && (typeof value === "object" || typeof value === "function") && typeof (value as { then?: unknown }).then === "function";
}

/** The items of a streamed result, or undefined for a value. */
function sourceOf(hook: ResultHook, result: unknown, call: RunCall, events = false): StreamedSource | undefined {
  if (result === null || typeof result !== "object") return undefined;
  const sse = result instanceof SseStream;
  const value: object = sse ? result.source : result;
  const read = hook.call(value, { call, sse, events });
  if (read) return { items: read.items, sse, whole: !sse && read.whole === true };
  return sse || isStreamable(value) ? { items: value as Iterable<unknown>, sse, whole: false } : undefined;
}

function runCallOf(request: InvokeRequest, name: string): RunCall {
  if (request.request) return new RequestRunCall(request.request, name, request.method, request.transport, request.input, request.span);
  if (!request.signal) throw new Error("kernel.invoke needs the HTTP request or a signal");
  return new PlainRunCall(name, request.method, request.transport, request.input, request.signal, request.requestId, request.span, request.headers);
}
