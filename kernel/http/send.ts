/**
 * @module Writing JSON and the spec's error body `{"error":{"message","type","code"}}`.
 */
import type { ServerResponse } from "node:http";
import { HttpError, errorTypeFor, type ErrorType } from "../errors.js";
import type { Logger } from "../logger.js";
import { withTraceback } from "../traceback.js";
import { ServiceResponse } from "./response.js";

const JSON_TYPE = "application/json; charset=utf-8";

export function sendJson(res: ServerResponse, status: number, body: unknown, headers?: Record<string, string>): void {
  const payload = encodeJson(body);
  if (headers) for (const name of Object.keys(headers)) res.setHeader(name, headers[name]!);
  res.statusCode = status;
  // On svc's own server the type goes out with the head Node writes at `end`, whole (no header
  // table); Node counts the Content-Length itself then. Stated here where Node would not: a HEAD
  // answer (no body to count), and HTTP/1.0 (Node would end the connection instead).
  if (res instanceof ServiceResponse) res.contentType = JSON_TYPE;
  else res.setHeader("content-type", JSON_TYPE);
  if (res.req?.method === "HEAD" || !res.useChunkedEncodingByDefault) res.setHeader("content-length", Buffer.byteLength(payload));
  res.end(payload);
}

/** JSON text of an answer; a value nested too deeply to encode is a clear 500, not a stack overflow. */
function encodeJson(body: unknown): string {
  try {
    return JSON.stringify(body);
  } catch (error) {
    if (error instanceof RangeError) throw new HttpError(500, "The answer could not be encoded as JSON: it is nested too deeply.", { cause: error });
    throw error;
  }
}

export interface ErrorBody {
  error: { message: string; type: ErrorType; code: number };
}

export function errorBody(status: number, message: string, type: ErrorType = errorTypeFor(status)): ErrorBody {
  return { error: { message, type, code: status } };
}

export interface ErrorReporting {
  readonly log: Logger;
  readonly showTracebacks: boolean;
}

/**
 * Answers with the error body. Server errors are logged with their stack; the stack reaches the
 * client only when tracebacks are enabled. A response already under way (a stream) is cut instead.
 */
export function sendError(res: ServerResponse, error: unknown, { log, showTracebacks }: ErrorReporting): void {
  const status = statusOf(error);
  const http = error instanceof HttpError ? error : undefined;
  let message = http ? http.message : status >= 500 ? "Internal server error" : messageOfStatus(error, status);
  const origin = http?.cause ?? error;
  if (status >= 500) log.error(message, origin);
  // The stack of a server error, or of the cause behind a client error (a deploy that failed to load).
  const traced = status >= 500 || origin !== error;
  if (traced) message = withTraceback(message, origin, showTracebacks);
  if (res.headersSent) {
    res.destroy();
    return;
  }
  sendJson(res, status, errorBody(status, message, http?.type), http?.headers);
}

function statusOf(error: unknown): number {
  if (error instanceof HttpError) return error.status;
  // polka signals no-match and some internal errors with plain `{ status }` objects
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === "number" && status >= 400 && status < 600 ? status : 500;
}

function messageOfStatus(error: unknown, status: number): string {
  const message = (error as { message?: unknown } | null)?.message;
  return typeof message === "string" && message ? message : `HTTP ${status}`;
}
