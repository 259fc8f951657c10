/**
 * @module Reading a request body under a size limit: over the limit is a 413, decided from
 * Content-Length before reading when it is declared.
 */
import type { IncomingMessage } from "node:http";
import { HttpError } from "../errors.js";

export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > limit) return Promise.reject(tooLarge(limit));
  // Plain listeners rather than an async iterator: this is on every request's path. Stopping early
  // leaves the socket alone, so Node discards the rest after the 413 and the client reads it.
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const settle = (error?: Error) => {
      req.off("data", onData).off("end", onEnd).off("error", settle).off("close", onClose);
      if (error) reject(error);
      else resolve(Buffer.concat(chunks, size));
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) settle(tooLarge(limit));
      else chunks.push(chunk);
    };
    const onEnd = () => settle();
    const onClose = () => settle(new HttpError(400, "The request body ended early."));
    req.on("data", onData).on("end", onEnd).on("error", settle).on("close", onClose);
  });
}

export function parseJson(raw: Buffer): unknown {
  if (raw.length === 0) return undefined;
  try {
    return JSON.parse(raw.toString("utf8"));
  } catch (error) {
    throw new HttpError(400, `Malformed JSON body: ${(error as Error).message}`);
  }
}

function tooLarge(limit: number): HttpError {
  return new HttpError(413, `Request body exceeds the limit of ${limit} bytes.`);
}
