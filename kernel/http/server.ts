/**
 * @module The Node HTTP server svc listens with: its time-outs come from the settings, and the
 * errors Node's own parser raises before any route runs (a malformed request line, an unknown
 * method, headers too large, a request too slow to arrive), an `Expect` other than `100-continue`
 * and a `CONNECT` (which Node hands to no route) are answered with the spec's error body and the
 * right status instead of Node's bare answer or a closed connection.
 */
import { createServer, STATUS_CODES, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import type { Duplex } from "node:stream";
import { ServiceResponse } from "./response.js";
import { errorBody, sendJson } from "./send.js";

export interface ServerTimeouts {
  /** Seconds to receive a request's line and headers. */
  readonly headersTimeout: number;
  /** Seconds an idle keep-alive connection stays open. */
  readonly keepAliveTimeout: number;
}

/** Node checks its request and header time-outs on this interval (its default is 30 s). */
const CHECK_INTERVAL_MS = 1000;

export function createHttpServer(listener: RequestListener, timeouts: ServerTimeouts): Server {
  const server = createServer({ connectionsCheckingInterval: CHECK_INTERVAL_MS, ServerResponse: ServiceResponse as typeof ServerResponse }, listener);
  server.headersTimeout = timeouts.headersTimeout * 1000;
  // The whole request (head and body) within Node's own bound; the body's idle time-out is ours.
  server.requestTimeout = Math.max(server.requestTimeout, server.headersTimeout);
  server.keepAliveTimeout = timeouts.keepAliveTimeout * 1000;
  server.on("clientError", answerClientError);
  server.on("checkExpectation", (req: IncomingMessage, res: ServerResponse) => {
    const expect = String(req.headers.expect).slice(0, 100);
    sendJson(res, 417, errorBody(417, `Expectation failed: this server supports only 'Expect: 100-continue', not '${expect}'.`), { connection: "close" });
  });
  server.on("connect", (_req: IncomingMessage, socket: Socket) => {
    writeRaw(socket, 405, "Method CONNECT is not allowed: this server is not a proxy.", "Allow: GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS\r\n");
  });
  return server;
}

interface ParserError extends Error {
  code?: string;
  reason?: string;
  /** The bytes the parser choked on (Node attaches them). */
  rawPacket?: Buffer;
}

/** A well-formed request line whose method is merely unknown (`BREW / HTTP/1.1`). */
const REQUEST_LINE = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+ \S+ HTTP\/\d\.\d\r?\n/;

/** The status and message for an error Node's HTTP parser raised. */
export function clientErrorStatus(error: ParserError): [number, string] {
  switch (error.code) {
    case "HPE_HEADER_OVERFLOW":
      return [431, "Request header fields too large: the request line and headers exceed the server's limit."];
    case "HPE_INVALID_METHOD":
      if (REQUEST_LINE.test(error.rawPacket?.toString("latin1") ?? "")) return [501, "Method not implemented: the request method is not one this server knows."];
      return [400, "Malformed HTTP request: the request line is not valid."];
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return [408, "Request timeout: the request did not arrive in time (SERVICE_HEADERS_TIMEOUT)."];
    case "HPE_INVALID_VERSION":
      return [505, "HTTP version not supported."];
    default:
      return [400, `Malformed HTTP request: ${error.reason ?? error.code ?? error.message}.`];
  }
}

function answerClientError(error: ParserError, socket: Socket): void {
  const response = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  // A reset connection cannot be answered, nor can one whose response is already under way.
  if (error.code === "ECONNRESET" || !socket.writable || response?.headersSent) {
    socket.destroy();
    return;
  }
  const [status, message] = clientErrorStatus(error);
  writeRaw(socket, status, message);
}

/** An error answer written on the socket itself (no response object exists), closing the connection. */
function writeRaw(socket: Socket | Duplex, status: number, message: string, headers = ""): void {
  const body = JSON.stringify(errorBody(status, message));
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
      "Content-Type: application/json; charset=utf-8\r\n" +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      headers +
      "Connection: close\r\n\r\n" +
      body,
  );
}
