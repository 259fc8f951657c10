/**
 * @module The RunCall and RunContext a transport builds for one invocation. Both are classes with
 * getters, so the request's AbortSignal (costly to create) and a request logger are made only when
 * something reads them; object literals with getters would be slow to build on every request.
 */
import type { IncomingHttpHeaders } from "node:http";
import type { RunCall } from "../hooks/index.js";
import { bindSignalSpan, type Span, type Tracer } from "../hooks/tracer.js";
import type { RequestContext } from "../http/context.js";
import { Logger } from "../logger.js";
import type { RunContext } from "./base-pipeline-wrapper.js";
import type { UploadedFile } from "./uploaded-file.js";

/** The fields `withChanges` copies as they are (compared as names: cheaper than a set lookup per run). */
const copied = (key: string) => key === "span" || key === "input" || key === "pipeline" || key === "method" || key === "transport";

/** A call made for an HTTP request: its signal is the request's. */
export class RequestRunCall implements RunCall {
  constructor(
    private readonly request: RequestContext,
    readonly pipeline: string,
    readonly method: string,
    readonly transport: string,
    readonly input: unknown,
    readonly span?: Span,
  ) {}

  get signal(): AbortSignal {
    return this.request.signal;
  }

  get aborted(): boolean {
    // An interceptor that gave the call its own signal (a time limit) made that the one to ask.
    return Object.hasOwn(this, "signal") ? this.signal.aborted : this.request.aborted;
  }

  get requestId(): string {
    return this.request.id;
  }

  get headers(): IncomingHttpHeaders {
    return this.request.req.headers;
  }

  /** The copy an interceptor's `next(changes)` passes on: same class and shape as this one. */
  withChanges(changes: Partial<RunCall>): RequestRunCall {
    for (const key in changes) {
      // A change to a getter (signal, requestId) needs the general merge.
      if (!copied(key)) {
        const copy = Object.assign(Object.create(RequestRunCall.prototype) as RequestRunCall, this);
        for (const k of Object.keys(changes)) Object.defineProperty(copy, k, { value: changes[k as keyof RunCall], enumerable: true, writable: true, configurable: true });
        return copy;
      }
    }
    const c = changes;
    return new RequestRunCall(
      this.request,
      "pipeline" in c ? c.pipeline! : this.pipeline,
      "method" in c ? c.method! : this.method,
      "transport" in c ? c.transport! : this.transport,
      "input" in c ? c.input : this.input,
      "span" in c ? c.span : this.span,
    );
  }
}

/** A call made without an HTTP request (an MCP session over stdio, a host's own call). */
export class PlainRunCall implements RunCall {
  constructor(
    readonly pipeline: string,
    readonly method: string,
    readonly transport: string,
    readonly input: unknown,
    readonly signal: AbortSignal,
    readonly requestId?: string,
    readonly span?: Span,
    readonly headers?: IncomingHttpHeaders,
  ) {}
}

/** Whether the call was aborted, without making a request's signal when nothing else has. */
export function runAborted(call: RunCall): boolean {
  return call.aborted ?? call.signal.aborted;
}

/** The context a wrapper method gets for a call. */
export class CallRunContext implements RunContext {
  constructor(
    private readonly call: RunCall,
    /** The logger, or the request whose logger (made on first use) the wrapper gets. */
    private readonly logger: Logger | { readonly log: Logger },
    readonly files: readonly UploadedFile[] = [],
    /** The kernel's tracer, which made the call's span. */
    private readonly tracer?: Tracer,
  ) {}

  get pipeline(): string {
    return this.call.pipeline;
  }

  /** Reading it binds the call's span to the signal, so a pipeline run with it nests below the call. */
  get signal(): AbortSignal {
    const signal = this.call.signal;
    if (this.call.span && this.tracer) bindSignalSpan(signal, this.call.span, this.tracer);
    return signal;
  }

  get span(): Span | undefined {
    return this.call.span;
  }

  get requestId(): string | undefined {
    return this.call.requestId;
  }

  get log(): Logger {
    const logger = this.logger;
    return logger instanceof Logger ? logger : logger.log;
  }
}
