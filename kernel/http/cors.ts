/**
 * @module CORS, only when origins are configured: headers for allowed origins and preflight answers.
 */
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from "node:http";

const METHODS = "GET, POST, PUT, PATCH, DELETE, OPTIONS";
const MAX_AGE = "600";

export class Cors {
  private readonly any: boolean;
  private readonly origins: ReadonlySet<string>;

  constructor(origins: readonly string[]) {
    this.any = origins.includes("*");
    this.origins = new Set(origins.map((o) => o.replace(/\/+$/, "")));
  }

  get enabled(): boolean {
    return this.any || this.origins.size > 0;
  }

  allows(origin: string): boolean {
    return this.any || this.origins.has(origin);
  }

  /**
   * Sets the CORS headers; returns true when the request was a preflight and is answered.
   * `headers`: the request's (read once by the caller: `req.headers` is a getter).
   */
  apply(req: IncomingMessage, res: ServerResponse, headers: IncomingHttpHeaders): boolean {
    const origin = headers.origin;
    if (!this.enabled || origin === undefined || !this.allows(origin)) return false;
    res.setHeader("access-control-allow-origin", this.any ? "*" : origin);
    res.setHeader("vary", "Origin");
    res.setHeader("access-control-expose-headers", "x-request-id");
    const requested = headers["access-control-request-method"];
    if (req.method !== "OPTIONS" || requested === undefined) return false;
    res.setHeader("access-control-allow-methods", METHODS);
    const requestedHeaders = headers["access-control-request-headers"];
    if (requestedHeaders) res.setHeader("access-control-allow-headers", requestedHeaders);
    res.setHeader("access-control-max-age", MAX_AGE);
    res.writeHead(204).end();
    return true;
  }
}
