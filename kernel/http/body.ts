/**
 * @module Reading a request body under a size limit and an idle time-out: over the limit is a 413,
 * decided from Content-Length before reading when it is declared; a body that stops arriving for
 * longer than the time-out is a 408 that closes the connection.
 */
import type { IncomingMessage } from "node:http";
import { HttpError } from "../errors.js";
import { watchBodyProgress } from "./body-progress.js";
import { parseBoundedJson } from "./json-bounds.js";

export interface BodyLimits {
  readonly maxBytes: number;
  /** Longest pause between two pieces of the body. */
  readonly idleMs: number;
}

/** The 408 for a body that stalled; the connection closes, as the rest of the body is unknown. */
export function bodyStalled(idleMs: number): HttpError {
  return new HttpError(408, `The request body stalled: nothing arrived for ${idleMs / 1000} s (SERVICE_BODY_TIMEOUT).`, {
    headers: { connection: "close" },
  });
}

export function readBody(req: IncomingMessage, limits: BodyLimits): Promise<Buffer>;
/**
 * The body as `map` makes it from the raw bytes, in the same promise (a `then` would add one per
 * request); what `map` throws rejects it, a promise it returns is followed.
 */
export function readBody<T>(req: IncomingMessage, limits: BodyLimits, map: (raw: Buffer) => T | PromiseLike<T>): Promise<T>;
export function readBody(req: IncomingMessage, { maxBytes: limit, idleMs }: BodyLimits, map?: (raw: Buffer) => unknown): Promise<unknown> {
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > limit) return Promise.reject(tooLarge(limit));
  // Plain listeners rather than an async iterator: this is on every request's path. Stopping early
  // leaves the socket alone, so Node discards the rest after the 413 and the client reads it.
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (error?: Error) => {
      if (settled) return;
      settled = true;
      stopWatching();
      // The listeners stay on the request, turned away by `settled`: removing four costs more
      // than the one call they still get (the `close` every request ends with), and deleting
      // from a request's listener table turns it into a slow dictionary.
      if (error) return reject(error);
      // Most bodies come in one chunk: no copy then.
      const raw = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size);
      if (!map) return resolve(raw);
      try {
        const out = map(raw);
        // A promise is followed directly: `resolve(promise)` would take a microtask turn more.
        if (out instanceof Promise) out.then(resolve, reject);
        else resolve(out);
      } catch (failure) {
        reject(failure);
      }
    };
    const onData = (chunk: Buffer) => {
      if (settled) return; // the rest of a refused body, read and thrown away
      size += chunk.length;
      if (size > limit) {
        settle(tooLarge(limit));
        discardRest(req);
      } else chunks.push(chunk);
    };
    const onEnd = () => settle();
    const onClose = () => {
      if (!settled) settle(bodyEndedEarly());
    };
    const stopWatching = watchBodyProgress(req, idleMs, () => settle(bodyStalled(idleMs)));
    req.on("data", onData).on("end", onEnd).on("error", onClose).on("close", onClose);
  });
}

export function parseJson(raw: Buffer, maxDepth: number): unknown {
  return parseBoundedJson(raw.toString("utf8"), maxDepth);
}

/** The client went away (or the connection broke) before the whole body arrived. */
export function bodyEndedEarly(): HttpError {
  return new HttpError(400, "The request body ended early: the client disconnected.");
}

/** How long a refused body is still read (and thrown away) before its connection is closed. */
const LINGER_MS = 10_000;

/**
 * Reads and discards the rest of a body svc refused (413), so the client, still sending, can read
 * the answer: a connection closed under a sending client is reset, and a reset drops the answer it
 * had not read yet ("connection closed unexpectedly" instead of the 413). A body that goes on
 * longer than `LINGER_MS` has its connection closed after all.
 */
export function discardRest(req: IncomingMessage): void {
  if (req.complete || req.destroyed) return;
  const timer = setTimeout(() => req.socket?.destroy(), LINGER_MS).unref();
  req.once("end", () => clearTimeout(timer)).once("close", () => clearTimeout(timer));
  req.resume();
}

function tooLarge(limit: number): HttpError {
  return new HttpError(413, `Request body exceeds the limit of ${limit} bytes.`);
}
