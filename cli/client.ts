/**
 * @module The HTTP client of the client commands (`status`, `pipeline …`): where the server is
 * (`--url`, else SERVICE_HOST and SERVICE_PORT, read like `svc run` reads them), requests with JSON or multipart
 * bodies (uploads report progress), and one readable message for every failure.
 */
import { request as httpRequest, type IncomingMessage } from "node:http";
import { Readable } from "node:stream";
import { kernelSettings, loadSettings, readConfigFile, readDotEnv } from "svc/internal";
import { failure, formatBytes } from "./output.js";

/** A failure the command reports as one `✘` line and an exit code. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
    this.name = "CliError";
  }
}

/** The server answered with an HTTP error status. */
export class ServerError extends CliError {
  constructor(
    readonly status: number,
    readonly detail: string,
  ) {
    super(`Server error (${status}): ${detail}`);
    this.name = "ServerError";
  }
}

/** A deploy's 409 (the name is taken) says how to replace the pipeline. */
export function withOverwriteHint(error: unknown): unknown {
  if (error instanceof ServerError && error.status === 409) {
    return new ServerError(409, `${error.detail}. Add --overwrite (-o) to replace it.`);
  }
  return error;
}

/**
 * Wrong usage of the program (a missing argument, an unknown action): the program prints the
 * message and the command's help and exits 1. Named like cac's own usage errors, which the
 * program's entry handles that way.
 */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "CACError";
  }
}

/** `http://host:port` for a bind host and port; a bind-all host means this machine. */
export function urlFor(host: string, port: number): string {
  let h = host.trim();
  if (h === "" || h === "0.0.0.0" || h === "::" || h === "[::]") h = "127.0.0.1";
  if (h.includes(":") && !h.startsWith("[")) h = `[${h}]`;
  return `http://${h}:${port}`;
}

/** The server's URL from the environment, `.env` and the config file of the working directory. */
export function serverUrl(cwd = process.cwd(), env: NodeJS.ProcessEnv = process.env): string {
  const config = readConfigFile(cwd);
  const settings = loadSettings({
    config: config && { file: config.file, values: config.settings },
    dotenv: readDotEnv(cwd) ?? {},
    env,
  }, kernelSettings, { unknown: false });
  return urlFor(settings.host, settings.port);
}

/** Runs a client command: a CliError becomes a `✘` line on stderr and the exit code. */
export async function runClientCommand(work: () => Promise<void>): Promise<void> {
  try {
    await work();
  } catch (error) {
    if (!(error instanceof CliError)) throw error;
    failure(error.message);
    process.exitCode = error.exitCode;
  }
}

export type RequestBody =
  | { readonly json: unknown }
  | { readonly form: FormData; readonly label?: string };

const CHUNK = 64 * 1024;
const PROGRESS_MIN_BYTES = 1024 * 1024;

export class SvcClient {
  constructor(readonly url: string) {}

  /** A client for `url` (the `--url` option) or else the server configured in the working directory. */
  static fromSettings(cwd = process.cwd(), url?: string): SvcClient {
    if (url === undefined || url.trim() === "") return new SvcClient(serverUrl(cwd));
    let parsed: URL;
    try {
      parsed = new URL(url.trim());
    } catch {
      throw new UsageError(`--url must be an http(s) URL such as http://localhost:1416, not '${url}'`);
    }
    if (parsed.protocol !== "http:") throw new UsageError(`--url must be an http:// URL (svc's own server speaks plain HTTP; put a proxy's URL here only if it is http), not '${url}'`);
    return new SvcClient(parsed.origin + parsed.pathname.replace(/\/+$/, ""));
  }

  /** Sends a request and resolves with the response, whatever its status. */
  async send(method: string, path: string, body?: RequestBody): Promise<IncomingMessage> {
    // Appended, not resolved: a --url with a path (a proxy's /svc prefix) keeps it.
    const target = new URL(this.url + path);
    if (!body) return this.exchange(target, method, {}, (req) => req.end());
    if ("json" in body) {
      const data = Buffer.from(JSON.stringify(body.json));
      return this.exchange(target, method, { "content-type": "application/json", "content-length": String(data.length) }, (req) => req.end(data));
    }
    const serialized = new Response(body.form);
    const contentType = serialized.headers.get("content-type")!;
    const total = await formSize(body.form);
    const progress = new Progress(body.label ?? "Uploading", total);
    // The progress line is finished before anything else is printed (an error would be glued to it).
    const finish = <T>(value: T) => {
      progress.done();
      return value;
    };
    return this.exchange(target, method, { "content-type": contentType }, (req, answered) =>
      pump(serialized.body!.getReader(), req, answered, (n) => progress.add(n)).then(
        () => {
          progress.done();
          req.end();
        },
        (error: unknown) => {
          progress.done();
          req.destroy(error as Error);
        },
      ),
    ).then(finish, (error: unknown) => Promise.reject(finish(error)));
  }

  /** Sends a request and parses a JSON answer; an HTTP error status throws a ServerError. */
  async json<T>(method: string, path: string, body?: RequestBody): Promise<T> {
    const res = await this.send(method, path, body);
    await ensureOk(res);
    const text = await readText(res);
    try {
      return JSON.parse(text) as T;
    } catch {
      throw new CliError(`Unexpected answer from ${this.url}${path}: not JSON (${text.slice(0, 120)})`);
    }
  }

  private exchange(
    target: URL,
    method: string,
    headers: Record<string, string>,
    write: (req: import("node:http").ClientRequest, answered: () => boolean) => void,
  ): Promise<IncomingMessage> {
    return new Promise((resolve, reject) => {
      let settled = false;
      // keep-alive although the socket is not reused (agent: false closes it once the answer is
      // read): a server answering `Connection: close` early (a 413 mid-upload) would close under the
      // still-sending client, and the reset can drop the answer before it is read.
      const req = httpRequest(target, { method, headers: { accept: "application/json, text/plain, text/event-stream, */*", connection: "keep-alive", ...headers }, agent: false });
      req.on("response", (res) => {
        settled = true;
        resolve(res);
      });
      req.on("error", (error) => {
        if (settled) return;
        settled = true;
        reject(connectionError(error, this.url));
      });
      write(req, () => settled);
    });
  }
}

/**
 * Writes a body in small pieces, waiting while the socket is full; stops once the server answered.
 * The form's stream is let go, not cancelled: cancelling undici's file-backed stream while it reads
 * crashes the process ("ReadableStream is already closed", thrown inside undici).
 */
async function pump(source: ReadableStreamDefaultReader<Uint8Array>, req: import("node:http").ClientRequest, answered: () => boolean, sent: (n: number) => void): Promise<void> {
  try {
    for (;;) {
      const { done, value: data } = await source.read();
      if (done) return;
      for (let at = 0; at < data.length; at += CHUNK) {
        if (answered() || req.destroyed) return;
        const piece = data.subarray(at, at + CHUNK);
        const flowing = req.write(piece);
        sent(piece.length);
        if (!flowing) await drained(req);
      }
    }
  } finally {
    source.releaseLock();
  }
}

function drained(req: import("node:http").ClientRequest): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      req.off("drain", done);
      req.off("close", done);
      req.off("response", done);
      resolve();
    };
    req.on("drain", done);
    req.on("close", done);
    req.on("response", done);
  });
}

/** The exact size of a form's multipart serialization, without reading its files. */
async function formSize(form: FormData): Promise<number> {
  const skeleton = new FormData();
  let files = 0;
  for (const [key, value] of form) {
    if (typeof value === "string") skeleton.append(key, value);
    else {
      skeleton.append(key, new Blob([], { type: value.type }), value.name);
      files += value.size;
    }
  }
  return (await new Response(skeleton).arrayBuffer()).byteLength + files;
}

/** Upload progress on stderr: redrawn in place on a TTY, a line per quarter otherwise. */
class Progress {
  private sent = 0;
  private readonly shown: boolean;
  private readonly tty = process.stderr.isTTY === true;
  private readonly started = Date.now();
  private lastDraw = 0;
  private lastQuarter = 0;
  private finished = false;

  constructor(
    private readonly label: string,
    private readonly total: number,
  ) {
    this.shown = this.tty || total > PROGRESS_MIN_BYTES;
    if (this.shown && !this.tty) process.stderr.write(`${label} (${formatBytes(total)})…\n`);
  }

  add(bytes: number): void {
    this.sent += bytes;
    if (!this.shown) return;
    if (this.tty) {
      const now = Date.now();
      if (now - this.lastDraw >= 100 || this.sent >= this.total) {
        this.lastDraw = now;
        process.stderr.write(`\r\x1b[2K${this.line()}`);
      }
      return;
    }
    const quarter = Math.floor((4 * Math.min(this.sent, this.total)) / Math.max(this.total, 1));
    if (quarter > this.lastQuarter && quarter < 4) {
      this.lastQuarter = quarter;
      process.stderr.write(`${this.line()}\n`);
    }
  }

  done(): void {
    if (!this.shown || this.finished) return;
    this.finished = true;
    const seconds = ((Date.now() - this.started) / 1000).toFixed(2);
    if (this.tty) process.stderr.write(`\r\x1b[2K`);
    process.stderr.write(`${this.label}: sent ${formatBytes(this.sent)} in ${seconds}s\n`);
  }

  private line(): string {
    const percent = this.total > 0 ? Math.min(100, Math.floor((100 * this.sent) / this.total)) : 100;
    return `${this.label}: ${formatBytes(this.sent)} / ${formatBytes(this.total)} (${percent}%)`;
  }
}

function errorCode(error: unknown): string | undefined {
  const e = error as { code?: string; errors?: { code?: string }[] };
  return e?.code ?? e?.errors?.find((x) => x?.code)?.code;
}

function connectionError(error: unknown, url: string): CliError {
  const code = errorCode(error);
  if (code === "ECONNREFUSED") return new CliError(`svc is not responding at ${url}. Start it with \`svc run\`.`);
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") return new CliError(`Cannot resolve the host of ${url} (check SERVICE_HOST).`);
  if (code === "ECONNRESET" || code === "EPIPE") return new CliError(`The connection to svc at ${url} was closed unexpectedly.`);
  return new CliError(`Request to svc at ${url} failed: ${(error as Error)?.message ?? String(error)}`);
}

/** Reads a whole response body as text. */
export async function readText(res: IncomingMessage): Promise<string> {
  return (await readBytes(res)).toString("utf8");
}

export async function readBytes(res: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of res) chunks.push(chunk as Buffer);
  } catch (error) {
    throw new CliError(`The answer from svc ended unexpectedly: ${(error as Error).message}`);
  }
  return Buffer.concat(chunks);
}

/** Throws a ServerError for a 4xx/5xx answer, with the message of its error body. */
export async function ensureOk(res: IncomingMessage): Promise<void> {
  const status = res.statusCode ?? 0;
  if (status < 400) return;
  throw new ServerError(status, errorDetail(await readText(res).catch(() => "")) || res.statusMessage || "Unknown error");
}

/** `error.message` of `{"error":{message,type,code}}`, a `detail`, or else the text itself. */
export function errorDetail(text: string): string {
  try {
    const body = JSON.parse(text) as { error?: { message?: unknown } | string; detail?: unknown; message?: unknown };
    if (body && typeof body === "object") {
      if (typeof body.error === "object" && typeof body.error?.message === "string") return body.error.message;
      if (typeof body.error === "string") return body.error;
      if (typeof body.detail === "string") return body.detail;
      if (body.detail !== undefined) return JSON.stringify(body.detail);
      if (typeof body.message === "string") return body.message;
    }
  } catch {
    // not JSON: the text is the message
  }
  return text.trim();
}

export function contentType(res: IncomingMessage): string {
  return (res.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();
}
