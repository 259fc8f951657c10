/**
 * @module The response svc's own server creates: it writes the request id with the head instead
 * of setting it as a header up front. A header set before the answer moves Node's response onto its
 * slow path (a headers table, lower-cased names, a merge at `writeHead`); a head given whole to
 * `writeHead` is written as it is, which is how the bare `node:http` and Fastify answer.
 */
import { OutgoingMessage, ServerResponse, type OutgoingHttpHeader, type OutgoingHttpHeaders } from "node:http";

type Head = OutgoingHttpHeaders | OutgoingHttpHeader[];

/**
 * Node's table of headers set one by one: `null` until the first `setHeader`. Found by its name
 * once; on a Node without it every answer takes the `setHeader` way, which is always right.
 */
const HEADER_TABLE = Object.getOwnPropertySymbols(new OutgoingMessage()).find((s) => s.description === "kOutHeaders");

const NAME = "x-request-id";

export class ServiceResponse extends ServerResponse {
  /** The id to answer with as `x-request-id`, unless the handler set one itself. */
  requestId: string | undefined = undefined;

  override writeHead(statusCode: number, reason?: string | Head, headers?: Head): this {
    const id = this.requestId;
    if (id !== undefined) {
      this.requestId = undefined;
      if (typeof reason !== "string") {
        headers = reason;
        reason = undefined;
      }
      headers = this.withRequestId(id, headers);
    }
    return super.writeHead(statusCode, reason as string | undefined, headers);
  }

  private withRequestId(id: string, headers: Head | undefined): Head | undefined {
    if (this.hasHeader(NAME)) return headers;
    const table = HEADER_TABLE && (this as unknown as Record<symbol, unknown>)[HEADER_TABLE];
    // Headers set one by one, or a head given as an array: Node merges the head into the table.
    if (table !== null || Array.isArray(headers)) {
      this.setHeader(NAME, id);
      return headers;
    }
    if (headers === undefined) return { [NAME]: id };
    for (const name in headers) if (name.length === NAME.length && name.toLowerCase() === NAME) return headers;
    // A copy: the caller's object may be a constant shared by every answer.
    return { [NAME]: id, ...headers };
  }
}

/** Answers with `id` as `x-request-id`: with the head on svc's own server, as a header on any other. */
export function tagResponse(res: ServerResponse, id: string): void {
  if (res instanceof ServiceResponse) res.requestId = id;
  else res.setHeader(NAME, id);
}
