/**
 * @module Router: the kernel's routing, on trouter (polka's route table) and @polka/url (its URL
 * parser), with polka's semantics — routes and mounts match in registration order, a mount strips
 * its prefix from `req.url`/`req.path` while its middleware runs, params are percent-decoded, and
 * `next(err)` reaches the error handler. What polka lacks is a lookup cache: a lookup tests every
 * route's pattern in turn (about a microsecond with the default plugins' routes) and nearly every
 * request repeats a path seen before (`/{name}/run` of a few pipelines), so lookups are remembered
 * by method and path. Each request gets its own copy of the params (they are decoded in place).
 * Bounded: a client cycling through paths only makes the cache start over; a new route or mount
 * forgets it.
 */
import type { ServerResponse } from "node:http";
import { parse } from "@polka/url";
import { Trouter } from "trouter";
import type { Middleware, NextHandler, Request } from "polka";

/** An HTTP method as trouter names them (`GET`, `POST`, …). */
type Method = Parameters<Trouter["find"]>[0];
type Found = { params: Record<string, string>; handlers: Middleware[] };

/** A remembered lookup, with the handler that takes the request alone when it is a final one. */
class Lookup {
  readonly final: Middleware | undefined;
  constructor(
    readonly params: Record<string, string>,
    readonly handlers: Middleware[],
    finals: WeakSet<Middleware>,
  ) {
    this.final = handlers.length === 1 && finals.has(handlers[0]!) ? handlers[0] : undefined;
  }
}

/** What a final handler is handed as `next`, which it never calls. */
const NO_NEXT: NextHandler = () => {
  throw new Error("A final route handler called next()");
};
export type ErrorHandler = (err: unknown, req: Request, res: ServerResponse) => void;

/** Paths remembered per method before the cache starts over. */
export const MAX_REMEMBERED_PATHS = 1024;

export class Router {
  private readonly table = new Trouter<Middleware>();
  private readonly lookups = new Map<string, Map<string, Lookup>>();
  private readonly finals = new WeakSet<Middleware>();
  /** The last lookup, compared before the maps: a path is a new string each request, and a map lookup hashes it. */
  private last: { method: string; path: string; found: Lookup } | undefined = undefined;

  constructor(
    private readonly onError: ErrorHandler,
    private readonly onNoMatch: Middleware,
  ) {}

  /**
   * A route: `method` and a path pattern (`/things/:id`; `/things/:id/` only with its slash).
   * `final`: the handler answers, or fails, on its own and never calls `next` (its return value is
   * not read): a request it alone matches is handed to it with no routing steps.
   */
  add(method: Method, path: string, handler: Middleware, final = false): void {
    if (final) this.finals.add(handler);
    this.table.add(method, routePattern(path), handler);
    this.forget();
  }

  /** Middleware under a path prefix, which it does not see in `req.url` and `req.path`. */
  use(base: string, ...middleware: Middleware[]): void {
    if (base === "/") this.table.use("/", ...middleware);
    else this.table.use(base, stripPrefix(base), ...middleware, restorePath);
    this.forget();
  }

  private forget(): void {
    this.lookups.clear();
    this.last = undefined;
  }

  /** The handlers for `method` and `path`, with their own copy of the params. */
  find(method: string, path: string): Found {
    const found = this.lookup(method, path);
    return { params: { ...found.params }, handlers: found.handlers };
  }

  private lookup(method: string, path: string): Lookup {
    const last = this.last;
    if (last !== undefined && last.path === path && last.method === method) return last.found;
    let paths = this.lookups.get(method);
    if (paths === undefined) this.lookups.set(method, (paths = new Map()));
    let found = paths.get(path);
    if (found === undefined) {
      if (paths.size >= MAX_REMEMBERED_PATHS) paths.clear();
      const { params, handlers } = this.table.find(method as Method, path);
      paths.set(path, (found = new Lookup(params, handlers, this.finals)));
    }
    this.last = { method, path, found };
    return found;
  }

  /** Routes a request through the matching handlers, then the no-match handler. */
  handle(req: Request, res: ServerResponse): void {
    const info = parse(req)!;
    const path = info.pathname;
    const found = this.lookup(req.method, (req.path = path));
    req.url = path + info.search;
    req.originalUrl = req.originalUrl || req.url;
    req.query = (info.query as Record<string, string> | undefined) ?? {};
    req.search = info.search;
    req.params = { ...found.params };
    if (path.length > 1 && path.indexOf("%", 1) !== -1) {
      for (const k in req.params) {
        try {
          req.params[k] = decodeURIComponent(req.params[k]!);
        } catch {
          // A malformed segment stays as it came.
        }
      }
    }
    if (found.final) {
      try {
        found.final(req, res, NO_NEXT);
      } catch (error) {
        this.onError(error, req, res);
      }
      return;
    }
    const handlers = found.handlers;
    let i = 0;
    // A plain function, not an async one: a handler's throw or rejection reaches `next(err)` as
    // before, without two promises per request.
    const step = (): void => {
      if (res.writableEnded) return;
      let out: unknown;
      try {
        if (i < handlers.length) out = handlers[i++]!(req, res, next);
        else if (i++ === handlers.length) out = this.onNoMatch(req, res, next);
      } catch (error) {
        void next(error as Error);
        return;
      }
      if (isThenable(out)) out.then(undefined, next as (error: unknown) => void);
    };
    const next: NextHandler = (err) => (err ? this.onError(err, req, res) : step());
    next();
  }
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return value !== null && typeof value === "object" && typeof (value as { then?: unknown }).then === "function";
}

/**
 * What trouter matches for a route path: polka's pattern, which allows one trailing slash, except
 * that a path ending in `/` (`/:name/`, a mount root in Starlette's terms) matches only with its
 * slash, so it does not take `/{name}` from the routes beside it. Such paths have plain segments
 * and `:params` only.
 */
export function routePattern(path: string): string | RegExp {
  if (path.length < 2 || !path.endsWith("/")) return path;
  const segments = path.slice(1, -1).split("/").map((s) => (s.startsWith(":") ? `(?<${s.slice(1)}>[^/]+?)` : s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")));
  return new RegExp(`^/${segments.join("/")}/$`, "i");
}

/** Hides a mount's prefix from its middleware (as polka's `use(base, …)` does). */
function stripPrefix(base: string): Middleware {
  const length = base.startsWith("/") ? base.length : base.length + 1;
  return (req, _res, next) => {
    req.url = req.url.substring(length) || "/";
    req.path = req.path.substring(length) || "/";
    if (req.url.charAt(0) !== "/") req.url = "/" + req.url;
    next();
  };
}

/** Gives the request its full path back when a mount's middleware passes it on. */
const restorePath: Middleware = (req, _res, next) => {
  req.path = req._parsedUrl.pathname;
  req.url = req.path + req._parsedUrl.search;
  next();
};
