/**
 * @module RequestContext: what a route handler gets for one request: its id, an AbortSignal that
 * fires when the client disconnects or the server gives up on it, per-request state, a logger,
 * the parsed URL parts, and helpers to read JSON (validated), answer, or open an SSE stream.
 */
import { performance } from "node:perf_hooks";
import type { ServerResponse } from "node:http";
import type { Request } from "polka";
import type * as v from "valibot";
import type { Logger } from "../logger.js";
import { parseOr400 } from "../validation.js";
import { BodyConsumer, parseJson, readBody, readBodyInto, type FailureAnswer } from "./body.js";
import { parseBoundedJson } from "./json-bounds.js";
import type { LiveLinks } from "./live-list.js";
import { readMultipart, type MultipartForm } from "./multipart.js";
import { requestState, type RequestState } from "./request-state.js";
import { sendError, sendJson } from "./send.js";
import { SseWriter } from "./sse.js";

export interface ContextLimits {
  readonly maxBodyBytes: number;
  /** Seconds a request body may pause before the request is answered 408. */
  readonly bodyTimeout: number;
  readonly maxJsonDepth: number;
  readonly maxUploadBytes: number;
  readonly maxUploadFileBytes: number;
  readonly maxMultipartParts: number;
  readonly sseHeartbeatMs: number;
}

const CONTEXT = Symbol("svc.requestContext");

/** Who ended a request early: the client by leaving, or the server by shutting down. */
export type AbortCause = "client" | "shutdown";

const ABORT_MESSAGES: Record<AbortCause, string> = { client: "client disconnected", shutdown: "server shutting down" };

/** What a stream cut by shutdown tells its client in its final error event. */
export const SHUTDOWN_MESSAGE = "The server is shutting down: the answer was cut short.";

/** How the app answers a route's failure. */
export type FailureHandler = (error: unknown, req: Request, res: ServerResponse) => void;

export class RequestContext implements LiveLinks<RequestContext>, FailureAnswer {
  /** Links in the app's live requests. */
  livePrev: RequestContext | undefined = undefined;
  liveNext: RequestContext | undefined = undefined;
  listed = false;
  readonly state: RequestState;
  readonly startedAt = performance.now();
  /** Set for routes marked `lasting`: shutdown aborts the request instead of waiting for it. */
  lasting = false;
  /** The pattern of the route that took the request (`/:name/run`); unset when none matched. */
  route?: string;
  /** Made when the signal is first read: most requests never need one, and one costs more than routing. */
  private controller?: AbortController;
  private bodyRead?: Promise<Buffer>;
  /** The raw body once read by `bodyAs` (which has no promise of the raw bytes to keep). */
  private raw?: Buffer;
  /** A `bodyAs` read under way or done. */
  private mapped?: Promise<unknown>;
  /** A `bodyThen` read under way or done. */
  private consumer?: BodyConsumer;
  private logger?: Logger;

  constructor(
    readonly req: Request,
    readonly res: ServerResponse,
    readonly id: string,
    private readonly baseLog: Logger,
    private readonly limits: ContextLimits,
    /** The app's error answer; without one, the error body (no traceback). */
    private readonly onFailure?: FailureHandler,
  ) {
    this.state = requestState(req);
    (req as Request & { [CONTEXT]?: RequestContext })[CONTEXT] = this;
    (res as ServerResponse & { [CONTEXT]?: RequestContext })[CONTEXT] = this;
  }

  /** A logger that tags lines with the request id (made on first use: most requests never log). */
  get log(): Logger {
    return (this.logger ??= this.baseLog.child({ request: this.id }));
  }

  /** Aborted when the client disconnects before the response is complete, or on forced shutdown. */
  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.abortedBy) this.controller.abort(new Error(ABORT_MESSAGES[this.abortedBy]));
    }
    return this.controller.signal;
  }

  /** `signal.aborted`, without making the signal. */
  get aborted(): boolean {
    return this.abortedBy !== undefined;
  }

  /** Why the request was aborted, if it was. */
  private abortedBy?: AbortCause;

  abort(cause: AbortCause): void {
    if (this.abortedBy) return;
    this.abortedBy = cause;
    this.controller?.abort(new Error(ABORT_MESSAGES[cause]));
  }

  /**
   * True when shutdown gave up on this request: a stream then ends so the client can tell it was
   * cut (an error event, or a broken connection), not as if the answer were complete.
   */
  get shutdown(): boolean {
    return this.abortedBy === "shutdown";
  }

  get params(): Record<string, string> {
    return this.req.params;
  }

  get query(): Record<string, string | string[]> {
    return this.req.query;
  }

  /** The raw body, read once, limited to the configured size (413 beyond). */
  body(): Promise<Buffer> {
    if (this.bodyRead) return this.bodyRead;
    if (this.raw) return (this.bodyRead = Promise.resolve(this.raw));
    // A `bodyAs` read under way: its bytes, even when its mapping failed.
    if (this.mapped) return (this.bodyRead = this.mapped.then(() => this.raw!, (error: unknown) => this.raw ?? Promise.reject(error)));
    if (this.consumer) return (this.bodyRead = this.consumer.bytes());
    return (this.bodyRead = readBody(this.req, this.limits.maxBodyBytes, this.limits.bodyTimeout * 1000));
  }

  /**
   * The body as `map` makes it from the raw bytes (under the same limit), in one promise: the hot
   * path of a JSON request, where `body().then(map)` would make two. The raw bytes stay readable
   * through `body()`.
   */
  bodyAs<T>(map: (raw: Buffer) => T | PromiseLike<T>): Promise<T> {
    if (this.bodyRead || this.raw || this.mapped || this.consumer) return this.body().then(map);
    return (this.mapped = readBody(this.req, this.limits.maxBodyBytes, this.limits.bodyTimeout * 1000, (raw) => map((this.raw = raw))));
  }

  /**
   * The raw body handed to `use`, with no promise at all: the hot path of a JSON request, where a
   * promise of the body and the route's promise of its answer cost two promise turns. A body that
   * cannot be read (413, 408, 400), what `use` throws and what a promise it returns rejects with
   * are answered by `fail`; the route handler answers nothing itself. `body()` gives the same bytes.
   */
  bodyThen(use: (raw: Buffer) => unknown): void {
    if (this.bodyRead || this.raw || this.mapped || this.consumer) {
      this.body()
        .then(use)
        .then(undefined, (error: unknown) => this.fail(error));
      return;
    }
    readBodyInto(this.req, this.limits.maxBodyBytes, this.limits.bodyTimeout * 1000, (this.consumer = new BodyConsumer(use, this)));
  }

  /** Answers `error` as a route's failure is answered (the spec's error body; nothing when the client left). */
  fail(error: unknown): void {
    if (this.onFailure) this.onFailure(error, this.req, this.res);
    else sendError(this.res, error, { log: this.baseLog, showTracebacks: false });
  }

  /**
   * The JSON body (400 when malformed, nested too deeply or holding a number too large), validated
   * by `schema` when given (400 naming the fields).
   */
  json<T = unknown>(schema?: v.GenericSchema<unknown, T>): Promise<T> {
    return this.bodyAs((raw) => {
      const value = parseJson(raw, this.limits.maxJsonDepth);
      return schema ? parseOr400(schema, value) : (value as T);
    });
  }

  /** JSON text from elsewhere in the request (a form field), under the same bounds as the body. */
  parseJson(text: string): unknown {
    return parseBoundedJson(text, this.limits.maxJsonDepth);
  }

  /** A `multipart/form-data` or URL-encoded form body (415 otherwise), under the upload limits (413 beyond). */
  form(fileField = "files"): Promise<MultipartForm> {
    const { maxUploadBytes, maxUploadFileBytes, maxMultipartParts, bodyTimeout } = this.limits;
    const limits = { maxTotalBytes: maxUploadBytes, maxFileBytes: maxUploadFileBytes, maxFiles: 1000, maxParts: maxMultipartParts, idleMs: bodyTimeout * 1000 };
    return readMultipart(this.req, limits, fileField);
  }

  send(status: number, body: unknown, headers?: Record<string, string>): void {
    sendJson(this.res, status, body, headers);
  }

  /** Opens an SSE stream on this response. */
  sse(headers?: Record<string, string>): SseWriter {
    return new SseWriter(this.res, this.limits.sseHeartbeatMs, headers);
  }
}

/** The context the kernel attached to a request (or its response), for middleware that only has `req`. */
export function contextOf(req: object): RequestContext | undefined {
  return (req as { [CONTEXT]?: RequestContext })[CONTEXT];
}
