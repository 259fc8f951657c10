/**
 * @module HttpApp: the kernel's HTTP application (routing: router.ts). The front gives every request an id,
 * a context and an AbortSignal, applies the loopback guard and CORS; routes registered by plugins
 * are authorized by scope and may return a value to answer with JSON; unmatched requests get 404,
 * or 405 with `Allow` when the path exists for other methods; every error gets the spec's body.
 */
import { performance } from "node:perf_hooks";
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from "node:http";
import type * as v from "valibot";
import type { Middleware, Request } from "polka";
import { Trouter } from "trouter";
import { HttpError } from "../errors.js";
import type { Logger } from "../logger.js";
import type { Settings } from "../settings.js";
import type { AccessScope, AccessRequest, AccessDecision } from "../hooks/auth-hook.js";
import type { AnsweredRequest, ObserverHook } from "../hooks/observer-hook.js";
import { RequestContext, contextOf } from "./context.js";
import { Cors } from "./cors.js";
import { crossSiteGuard, rebindingGuard } from "./guard.js";
import { randomUuid } from "../ids.js";
import { LiveList } from "./live-list.js";
import { Router, routePattern } from "./router.js";
import { tagResponse } from "./response.js";
import { sendError } from "./send.js";

export type RouteHandler = (c: RequestContext) => unknown | Promise<unknown>;
export type HttpMethod = "GET" | "HEAD" | "POST" | "PUT" | "PATCH" | "DELETE" | "OPTIONS";

/** How a route appears in the OpenAPI document. */
export interface RouteDocs {
  summary?: string;
  description?: string;
  tags?: string[];
  operationId?: string;
  /** The JSON request body. */
  body?: v.GenericSchema;
  /** The JSON body of a 200 answer. */
  response?: v.GenericSchema;
}

export interface RouteOptions {
  /** Access scope checked through the `auth` hook before the handler runs. */
  scope?: AccessScope;
  /** Documentation for the OpenAPI document; `false` keeps the route out of it. */
  docs?: RouteDocs | false;
  /**
   * A long-lived response (a server-to-client event stream that only ends when the client leaves):
   * shutdown aborts it at once instead of waiting the grace period for it.
   */
  lasting?: boolean;
}

export interface RouteInfo {
  readonly method: HttpMethod;
  readonly path: string;
  readonly scope?: AccessScope;
  readonly docs?: RouteDocs | false;
}

const METHODS: readonly HttpMethod[] = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const SHUTDOWN_MESSAGE = "The server is shutting down: the request did not finish within the grace period (SERVICE_GRACEFUL_SHUTDOWN_TIMEOUT).";

export interface HttpAppOptions {
  readonly settings: Settings;
  readonly log: Logger;
  readonly authorize: (request: AccessRequest) => AccessDecision | Promise<AccessDecision>;
  /** Told about every request once its answer is done. */
  readonly answered?: ObserverHook<[AnsweredRequest]>;
}

export class HttpApp {
  /** Every route, in registration order. */
  readonly routes: RouteInfo[] = [];
  /** Paths with middleware mounted (`use`), such as static files. */
  readonly mounts: string[] = [];
  /** Live requests, for draining on shutdown. */
  readonly inflight = new LiveList<RequestContext>();
  private closing = false;
  private idle?: () => void;
  private readonly router: Router;
  /** Method + path of every route, to tell 405 from 404. */
  private readonly index = new Trouter<() => void>();
  private readonly cors: Cors;
  private readonly guard: (headers: IncomingHttpHeaders) => string | undefined;
  private readonly onError: (err: unknown, req: Request, res: ServerResponse) => void;
  private readonly crossSite: (req: IncomingMessage, headers: IncomingHttpHeaders) => string | undefined;
  /** Whether each answered request is logged (at DEBUG): a logger's level never changes. */
  private readonly logsRequests: boolean;

  constructor(private readonly options: HttpAppOptions) {
    const { settings, log } = options;
    const reporting = { log, showTracebacks: settings.showTracebacks };
    this.cors = new Cors(settings.corsAllowOrigins);
    this.guard = rebindingGuard(settings.host, settings.allowedHosts, (origin) => this.cors.allows(origin));
    this.crossSite = crossSiteGuard((origin) => this.cors.allows(origin));
    this.logsRequests = log.enabled("DEBUG");
    this.onError = (err, req, res) => {
      // A client that left mid-request is a normal event: nothing to answer, nothing to alarm.
      if (req.socket?.destroyed) return log.debug(`${req.method} ${req.url}: the client left: ${(err as Error)?.message}`);
      sendError(res, err, reporting);
    };
    this.router = new Router(this.onError, (req, res) => sendError(res, this.noMatch(req), reporting));
  }

  /** A plain Node request listener: the front, then the routing. */
  readonly handler = (req: IncomingMessage, res: ServerResponse): void => {
    // The front runs before routing rather than as its first middleware: one routing step less per request.
    try {
      if (!this.front(req as Request, res)) return;
    } catch (error) {
      return this.onError(error, req as Request, res);
    }
    this.router.handle(req as Request, res);
  };

  route(method: HttpMethod, path: string, handler: RouteHandler, options: RouteOptions = {}): void {
    this.routes.push({ method, path, scope: options.scope, docs: options.docs });
    this.index.add(method, routePattern(path), () => undefined);
    // Not an async function: most answers need no promise turn between the decision and the handler.
    // A handler's promise gets one reaction here, which answers and catches alike, and the router
    // is handed nothing to wait on (a final handler): one promise per request less than returning it.
    this.router.add(method, path, this.routeHandler(path, handler, options), true);
  }

  /** The router's handler of a route: a final one (it answers, or fails, on its own). */
  private routeHandler(path: string, handler: RouteHandler, options: RouteOptions): Middleware {
    return (req, res) => {
      const c = contextOf(req)!;
      c.route = path;
      if (options.lasting) c.lasting = true;
      if (!options.scope) return this.settle(c, answer(c, handler));
      const decision = this.options.authorize({ scope: options.scope, req, state: c.state, pipeline: c.params.name });
      if (!(decision instanceof Promise)) return this.settle(c, answer(c, handler, decision));
      decision.then(
        (d) => {
          try {
            this.settle(c, answer(c, handler, d));
          } catch (error) {
            this.onError(error, req, res);
          }
        },
        (error: unknown) => this.onError(error, req, res),
      );
    };
  }

  /** Answers a handler's eventual value, or routes its failure to the error answer. */
  private settle(c: RequestContext, result: unknown): void {
    if (result instanceof Promise) result.then((value) => this.replyOrFail(c, value), (error: unknown) => this.onError(error, c.req, c.res));
  }

  private replyOrFail(c: RequestContext, value: unknown): void {
    try {
      reply(c, value);
    } catch (error) {
      this.onError(error, c.req, c.res);
    }
  }

  /** Mounts Node middleware (a static file server, an MCP transport) under a path prefix. */
  use(path: string, ...middleware: Middleware[]): void {
    this.mounts.push(path);
    this.router.use(path, ...middleware);
  }

  /** Stops taking new work and waits up to `graceMs` for live requests; then aborts the rest. */
  async drain(graceMs: number): Promise<void> {
    this.closing = true;
    for (const c of this.inflight) {
      // Answers still to come close their connection, so no client sends another request on it.
      if (!c.res.headersSent) c.res.setHeader("connection", "close");
      if (c.lasting) c.abort("shutdown");
    }
    if (await this.waitIdle(graceMs)) return;
    this.options.log.warn(`Aborting ${this.inflight.size} request(s) still running after the grace period`);
    for (const c of this.inflight) {
      // The client gets an answer it can retry elsewhere, not a reset connection.
      if (!c.res.headersSent) sendError(c.res, new HttpError(503, SHUTDOWN_MESSAGE, { headers: { connection: "close", "retry-after": "1" } }), { log: this.options.log, showTracebacks: false });
      c.abort("shutdown");
    }
    await this.waitIdle(1000);
  }

  private waitIdle(ms: number): Promise<boolean> {
    if (this.inflight.size === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), ms);
      this.idle = () => {
        clearTimeout(timer);
        resolve(true);
      };
    });
  }

  /** Returns whether routing goes on (false when a CORS preflight was answered). */
  private front(req: Request, res: ServerResponse): boolean {
    const { log, settings } = this.options;
    // Read once: `req.headers` is a getter.
    const headers = req.headers;
    const incoming = headers["x-request-id"];
    const id = typeof incoming === "string" && REQUEST_ID.test(incoming) ? incoming : randomUuid();
    const c = new RequestContext(req, res, id, log, settings, this.onError);
    this.inflight.add(c);
    tagResponse(res, id, this.closed);
    if (this.closing) res.setHeader("connection", "close");
    const refused = this.guard(headers) ?? this.crossSite(req, headers);
    if (refused) throw new HttpError(403, refused);
    return !this.cors.apply(req, res, headers);
  }

  /** Called when each response closes (`this` is the response): one function, not one per request. */
  private readonly closed = ((app: HttpApp) =>
    function (this: ServerResponse): void {
      app.finished(this, contextOf(this)!);
    })(this);

  /** The end of a request: it leaves the live set, and is reported as answered or aborted. */
  private finished(res: ServerResponse, c: RequestContext): void {
    const { log } = this.options;
    const req = c.req;
    this.inflight.delete(c);
    if (!res.writableFinished) c.abort("client");
    // A keep-alive connection whose answer was under way when shutdown began: close it now.
    else if (this.closing) req.socket.end();
    const answered = this.options.answered;
    if (answered?.active) {
      const durationMs = performance.now() - c.startedAt;
      answered.notify({ method: req.method, route: c.route, status: res.statusCode, durationMs, aborted: c.aborted });
    }
    if (this.logsRequests) {
      log.debug(`${req.method} ${req.originalUrl ?? req.url} ${res.statusCode}`, {
        ms: Math.round((performance.now() - c.startedAt) * 10) / 10,
        request: c.id,
      });
    }
    if (this.inflight.size === 0) this.idle?.();
  }

  private noMatch(req: Request): HttpError {
    const allowed = METHODS.filter((m) => this.index.find(m, req.path).handlers.length > 0);
    if (allowed.length === 0) return new HttpError(404, `Not found: ${req.method} ${req.path}`);
    return new HttpError(405, `Method ${req.method} is not allowed for ${req.path}`, { headers: { allow: allowed.join(", ") } });
  }
}

/**
 * Runs `handler` once access is decided; a value it returns is answered as JSON at once, a promise
 * is handed back for `settle` (which answers its value).
 */
function answer(c: RequestContext, handler: RouteHandler, decision?: AccessDecision): unknown {
  if (decision && !decision.allow) throw new HttpError(decision.status, decision.message);
  const result = handler(c);
  if (isThenable(result)) return Promise.resolve(result);
  reply(c, result);
  return undefined;
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return value !== null && typeof value === "object" && typeof (value as { then?: unknown }).then === "function";
}

function reply(c: RequestContext, value: unknown): void {
  if (value !== undefined && !c.res.headersSent) c.send(200, value);
}
