/**
 * @module The response svc's own server creates: it writes the request id with the head instead
 * of setting it as a header up front. A header set before the answer moves Node's response onto its
 * slow path (a headers table, lower-cased names, a merge at `writeHead`); a head given whole to
 * `writeHead` is written as it is, which is how the bare `node:http` and Fastify answer. It also
 * tells the app when it closes without a `close` listener (adding one to every response costs more
 * than the check of each event it emits).
 */
import { OutgoingMessage, ServerResponse, type OutgoingHttpHeader, type OutgoingHttpHeaders } from "node:http";

type Head = OutgoingHttpHeaders | OutgoingHttpHeader[];

/**
 * Node's table of headers set one by one: `null` until the first `setHeader`. Found by its name
 * once; on a Node without it every answer takes the `setHeader` way, which is always right.
 */
const HEADER_TABLE = Object.getOwnPropertySymbols(new OutgoingMessage()).find((s) => s.description === "kOutHeaders");

const NAME = "x-request-id";
const CONTENT_TYPE = "content-type";

export class ServiceResponse extends ServerResponse {
  /** The id to answer with as `x-request-id`, unless the handler set one itself. */
  requestId: string | undefined = undefined;
  /**
   * A content type to write with the head when Node writes it itself (`end` with the whole body,
   * no head before): Node then adds the Content-Length it counted, with no header to validate.
   */
  contentType: string | undefined = undefined;
  /** Called once, before any `close` listener, when the response closes (answered or cut off). */
  onClose: ((this: ServerResponse) => void) | undefined = undefined;

  override emit(event: string | symbol, ...args: unknown[]): boolean {
    if (event === "close" && this.onClose !== undefined) {
      const onClose = this.onClose;
      this.onClose = undefined;
      onClose.call(this);
    }
    return super.emit(event, ...args);
  }

  override writeHead(statusCode: number, reason?: string | Head, headers?: Head): this {
    if (this.requestId !== undefined || this.contentType !== undefined) {
      if (typeof reason !== "string") {
        headers = reason;
        reason = undefined;
      }
      headers = this.completeHead(headers);
    }
    return super.writeHead(statusCode, reason as string | undefined, headers);
  }

  /** `headers` with the request id and content type added (once: the head is written now). */
  private completeHead(headers: Head | undefined): Head | undefined {
    const id = this.requestId;
    const type = this.contentType;
    this.requestId = this.contentType = undefined;
    const table = HEADER_TABLE && (this as unknown as Record<symbol, unknown>)[HEADER_TABLE];
    // Headers set one by one, or a head given as an array: Node merges the head into the table.
    if (table !== null || Array.isArray(headers)) {
      if (id !== undefined && !this.hasHeader(NAME)) this.setHeader(NAME, id);
      if (type !== undefined) this.setHeader(CONTENT_TYPE, type);
      return headers;
    }
    // No header set before: the handler's own id can only be in `headers`. A content type comes
    // only with the head Node writes itself (`sendJson` ends with no head given).
    if (headers === undefined) return type === undefined ? { [NAME]: id } : id === undefined ? { [CONTENT_TYPE]: type } : { [NAME]: id, [CONTENT_TYPE]: type };
    if (id === undefined) return headers;
    for (const name in headers) if (name.length === NAME.length && name.toLowerCase() === NAME) return headers;
    // A copy: the caller's object may be a constant shared by every answer.
    return { [NAME]: id, ...headers };
  }
}

/**
 * Answers with `id` as `x-request-id` and calls `onClose` (with the response as `this`) when the
 * response closes: on svc's own server with the head and from `emit`, on any other as a header and
 * a `close` listener.
 */
export function tagResponse(res: ServerResponse, id: string, onClose: (this: ServerResponse) => void): void {
  if (res instanceof ServiceResponse) {
    res.requestId = id;
    res.onClose = onClose;
  } else {
    res.setHeader(NAME, id);
    res.on("close", onClose);
  }
}
