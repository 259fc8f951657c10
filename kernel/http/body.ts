/**
 * @module Reading a request body under a size limit and an idle time-out: over the limit is a 413,
 * decided from Content-Length before reading when it is declared; a body that stops arriving for
 * longer than the time-out is a 408 that closes the connection.
 */
import type { IncomingMessage } from "node:http";
import { HttpError } from "../errors.js";
import { watchBodyProgress, type BodyWatch, type StallListener } from "./body-progress.js";
import { parseBoundedJson } from "./json-bounds.js";

/** The 408 for a body that stalled; the connection closes, as the rest of the body is unknown. */
export function bodyStalled(idleMs: number): HttpError {
  return new HttpError(408, `The request body stalled: nothing arrived for ${idleMs / 1000} s (SERVICE_BODY_TIMEOUT).`, {
    headers: { connection: "close" },
  });
}

/** `idleMs`: the longest pause between two pieces of the body. */
export function readBody(req: IncomingMessage, maxBytes: number, idleMs: number): Promise<Buffer>;
/**
 * The body as `map` makes it from the raw bytes, in the same promise (a `then` would add one per
 * request); what `map` throws rejects it, a promise it returns is followed.
 */
export function readBody<T>(req: IncomingMessage, maxBytes: number, idleMs: number, map: (raw: Buffer) => T | PromiseLike<T>): Promise<T>;
export function readBody(req: IncomingMessage, maxBytes: number, idleMs: number, map?: (raw: Buffer) => unknown): Promise<unknown> {
  return new Promise((resolve, reject) => readBodyInto(req, maxBytes, idleMs, { read: map ? mapThen(map, resolve, reject) : resolve, failed: reject }));
}

/** Told how a body read ended: `read` gets the raw bytes; what it throws is not caught. */
export interface BodySink {
  read(raw: Buffer): void;
  failed(error: unknown): void;
}

/**
 * Reads the body into `sink`, with no promise (the hot path of a JSON request): a body over the
 * declared limit fails at once, before anything is read.
 */
export function readBodyInto(req: IncomingMessage, maxBytes: number, idleMs: number, sink: BodySink): void {
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > maxBytes) sink.failed(tooLarge(maxBytes));
  else new BodyReader(req, maxBytes, idleMs, sink).listen();
}

/** Told of a failure to answer. */
export interface FailureAnswer {
  fail(error: unknown): void;
}

/**
 * A body handed to `use` once read. What `use` throws, what a promise it returns rejects with, and a
 * body that cannot be read go to `answer.fail`; `bytes()` gives the same bytes as a promise to
 * anyone else who asks for them, during the read or after it.
 */
export class BodyConsumer implements BodySink {
  private raw: Buffer | undefined = undefined;
  private error: unknown = undefined;
  private done = false;
  private followers: BodySink[] | undefined = undefined;

  constructor(
    private readonly use: (raw: Buffer) => unknown,
    private readonly answer: FailureAnswer,
  ) {}

  read(raw: Buffer): void {
    this.raw = raw;
    this.ended();
    try {
      const out = this.use(raw);
      if (out instanceof Promise) out.then(undefined, (error: unknown) => this.answer.fail(error));
    } catch (error) {
      this.answer.fail(error);
    }
  }

  failed(error: unknown): void {
    this.error = error;
    this.ended();
    this.answer.fail(error);
  }

  bytes(): Promise<Buffer> {
    if (!this.done) return new Promise((resolve, reject) => (this.followers ??= []).push({ read: resolve, failed: reject }));
    return this.raw ? Promise.resolve(this.raw) : Promise.reject(this.error);
  }

  private ended(): void {
    this.done = true;
    if (this.followers) for (const follower of this.followers) this.raw ? follower.read(this.raw) : follower.failed(this.error);
  }
}

/** `map`'s value (or the promise it returns, followed directly: `resolve(promise)` would take a turn more). */
function mapThen(map: (raw: Buffer) => unknown, resolve: (value: unknown) => void, reject: (error: unknown) => void): (raw: Buffer) => void {
  return (raw) => {
    try {
      const out = map(raw);
      if (out instanceof Promise) out.then(resolve, reject);
      else resolve(out);
    } catch (failure) {
      reject(failure);
    }
  };
}

const READER = Symbol("svc.bodyReader");
type ReadRequest = IncomingMessage & { [READER]?: BodyReader };

/*
 * The listeners, one function each for every request (`this` is the request, which holds its
 * reader): this is on every request's path, and three closures per request cost more.
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

/** One body being read: its chunks, and the sink it tells how the read ended. */
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
    private readonly sink: BodySink,
  ) {}

  /**
   * Plain listeners rather than an async iterator. Stopping early leaves the socket alone, so Node
   * discards the rest after the 413 and the client reads it. No `error` listener: Node emits
   * `error` on a request only when it has one, and a broken request is always `close`d.
   */
  listen(): void {
    const req = this.req as ReadRequest;
    req[READER] = this;
    this.watch = watchBodyProgress(req, this.idleMs, this);
    req.on("data", onData).on("end", onEnd).on("close", onClose);
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
    // The listeners stay on the request, turned away by `settled`: removing three costs more
    // than the one call they still get (the `close` every request ends with), and deleting
    // from a request's listener table turns it into a slow dictionary.
    if (error) this.sink.failed(error);
    else this.sink.read(this.more ? Buffer.concat(this.more, this.size) : (this.first ?? EMPTY));
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
