/**
 * @module Reading a request body under a size limit and an idle time-out: over the limit is a 413,
 * decided from Content-Length before reading when it is declared; a body that stops arriving for
 * longer than the time-out is a 408 that closes the connection.
 */
import type { IncomingMessage } from "node:http";
import { HttpError } from "../errors.js";
import { watchBodyProgress, type BodyWatch, type StallListener } from "./body-progress.js";
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
export function readBody(req: IncomingMessage, { maxBytes, idleMs }: BodyLimits, map?: (raw: Buffer) => unknown): Promise<unknown> {
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > maxBytes) return Promise.reject(tooLarge(maxBytes));
  return new Promise((resolve, reject) => new BodyReader(req, maxBytes, idleMs, map, resolve, reject).listen());
}

const READER = Symbol("svc.bodyReader");
type ReadRequest = IncomingMessage & { [READER]?: BodyReader };

/*
 * The listeners, one function each for every request (`this` is the request, which holds its
 * reader): this is on every request's path, and four closures per request cost more.
 */
function onData(this: ReadRequest, chunk: Buffer): void {
  this[READER]!.data(chunk);
}
function onEnd(this: ReadRequest): void {
  this[READER]!.settle();
}
function onClose(this: ReadRequest): void {
  this[READER]!.endedEarly();
}

/** One body being read: its chunks, and the promise it settles. */
class BodyReader implements StallListener {
  /** Most bodies come in one chunk: kept as it is, no array and no copy. */
  private first: Buffer | undefined = undefined;
  private more: Buffer[] | undefined = undefined;
  private size = 0;
  private settled = false;
  private watch: BodyWatch | undefined = undefined;

  constructor(
    private readonly req: IncomingMessage,
    private readonly limit: number,
    private readonly idleMs: number,
    private readonly map: ((raw: Buffer) => unknown) | undefined,
    private readonly resolve: (value: unknown) => void,
    private readonly reject: (error: unknown) => void,
  ) {}

  /**
   * Plain listeners rather than an async iterator. Stopping early leaves the socket alone, so Node
   * discards the rest after the 413 and the client reads it.
   */
  listen(): void {
    const req = this.req as ReadRequest;
    req[READER] = this;
    this.watch = watchBodyProgress(req, this.idleMs, this);
    req.on("data", onData).on("end", onEnd).on("error", onClose).on("close", onClose);
  }

  data(chunk: Buffer): void {
    if (this.settled) return; // the rest of a refused body, read and thrown away
    this.size += chunk.length;
    if (this.size > this.limit) {
      this.settle(tooLarge(this.limit));
      discardRest(this.req);
    } else if (this.first === undefined) this.first = chunk;
    else (this.more ??= [this.first]).push(chunk);
  }

  endedEarly(): void {
    if (!this.settled) this.settle(bodyEndedEarly());
  }

  stalled(): void {
    this.settle(bodyStalled(this.idleMs));
  }

  settle(error?: Error): void {
    if (this.settled) return;
    this.settled = true;
    this.watch!.stop();
    // The listeners stay on the request, turned away by `settled`: removing four costs more
    // than the one call they still get (the `close` every request ends with), and deleting
    // from a request's listener table turns it into a slow dictionary.
    if (error) return this.reject(error);
    const raw = this.more ? Buffer.concat(this.more, this.size) : (this.first ?? EMPTY);
    if (!this.map) return this.resolve(raw);
    try {
      const out = this.map(raw);
      // A promise is followed directly: `resolve(promise)` would take a microtask turn more.
      if (out instanceof Promise) out.then(this.resolve, this.reject);
      else this.resolve(out);
    } catch (failure) {
      this.reject(failure);
    }
  }
}

const EMPTY = Buffer.alloc(0);

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
