/**
 * @module Reading a form (busboy) into fields and files, under per-file, total and count limits:
 * `multipart/form-data`, or `application/x-www-form-urlencoded` — fields only, what an HTML form or
 * `requests.post(url, data=…)` sends when there is no file (Hayhooks accepts it). A request over a
 * limit gets 413, one that is not a form gets 415.
 */
import type { IncomingMessage } from "node:http";
import { Busboy } from "@fastify/busboy";
import { HttpError } from "../errors.js";
import { bodyStalled, discardRest } from "./body.js";
import { watchBodyProgress } from "./body-progress.js";
import { UploadedFile } from "../wrapper/uploaded-file.js";

export interface MultipartLimits {
  readonly maxFileBytes: number;
  readonly maxTotalBytes: number;
  readonly maxFiles: number;
  /** Most parts, fields and files together (413 beyond); default 1000. */
  readonly maxParts?: number;
  /** Longest pause between two pieces of the body (408 beyond); none when absent. */
  readonly idleMs?: number;
}

export interface MultipartForm {
  /** Every value of each text field, in order. */
  readonly fields: ReadonlyMap<string, string[]>;
  /** File parts of the given field name (`files` by default), with their filenames as sent. */
  readonly files: UploadedFile[];
}

export const DEFAULT_MAX_PARTS = 1000;

export function isMultipart(req: IncomingMessage): boolean {
  return /^multipart\/form-data\s*;/i.test(req.headers["content-type"] ?? "");
}

/** A form body busboy reads: multipart, or URL-encoded fields. */
export function isForm(req: IncomingMessage): boolean {
  return isMultipart(req) || /^application\/x-www-form-urlencoded\s*(;|$)/i.test(req.headers["content-type"] ?? "");
}

export function readMultipart(req: IncomingMessage, limits: MultipartLimits, fileField = "files"): Promise<MultipartForm> {
  if (!isForm(req)) {
    return Promise.reject(
      new HttpError(415, `This endpoint takes a form: multipart/form-data (form fields and repeated '${fileField}' parts), or application/x-www-form-urlencoded (fields only).`),
    );
  }
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > limits.maxTotalBytes) return Promise.reject(tooLarge(`The upload exceeds the limit of ${limits.maxTotalBytes} bytes.`));
  return new Promise((resolve, reject) => {
    const fields = new Map<string, string[]>();
    const files: UploadedFile[] = [];
    let total = 0;
    let failed = false;
    let pending = 0;
    let finished = false;
    let busboy: InstanceType<typeof Busboy>;
    try {
      busboy = new Busboy({
        headers: req.headers as { "content-type": string },
        preservePath: true,
        limits: { fileSize: limits.maxFileBytes, files: limits.maxFiles, fieldSize: limits.maxTotalBytes, parts: limits.maxParts ?? DEFAULT_MAX_PARTS },
      });
    } catch (error) {
      reject(new HttpError(400, `Malformed multipart body: ${(error as Error).message}`));
      return;
    }
    const watch = limits.idleMs ? watchBodyProgress(req, limits.idleMs, { stalled: () => fail(bodyStalled(limits.idleMs!)) }) : undefined;
    const fail = (error: HttpError) => {
      if (failed) return;
      failed = true;
      watch?.stop();
      req.unpipe(busboy);
      // The rest of a refused body is read and thrown away, so the client can read the answer.
      if (error.status === 413) discardRest(req);
      reject(error);
    };
    const done = () => {
      if (failed || !finished || pending > 0) return;
      watch?.stop();
      resolve({ fields, files });
    };
    const count = (bytes: number) => {
      total += bytes;
      if (total > limits.maxTotalBytes) fail(tooLarge(`The upload exceeds the limit of ${limits.maxTotalBytes} bytes.`));
    };
    busboy.on("field", (name, value) => {
      count(Buffer.byteLength(name) + Buffer.byteLength(value));
      // Appended in place: copying the list for each repeat made 40,000 repeats cost 12 s.
      const values = fields.get(name);
      if (values) values.push(value);
      else fields.set(name, [value]);
    });
    busboy.on("file", (name, stream, filename, _encoding, mimeType) => {
      const chunks: Buffer[] = [];
      pending++;
      stream.on("data", (chunk: Buffer) => {
        count(chunk.length);
        chunks.push(chunk);
      });
      stream.on("limit", () => fail(tooLarge(`The file '${filename}' exceeds the limit of ${limits.maxFileBytes} bytes.`)));
      stream.on("end", () => {
        pending--;
        if (name === fileField) files.push(new UploadedFile(filename, mimeType || "application/octet-stream", Buffer.concat(chunks)));
        done();
      });
    });
    busboy.on("filesLimit", () => fail(tooLarge(`Too many files: at most ${limits.maxFiles}.`)));
    busboy.on("partsLimit", () => fail(tooLarge(`Too many parts: at most ${limits.maxParts ?? DEFAULT_MAX_PARTS} fields and files (SERVICE_MAX_MULTIPART_PARTS).`)));
    busboy.on("error", (error: Error) => fail(new HttpError(400, `Malformed multipart body: ${error.message}`)));
    busboy.on("finish", () => {
      finished = true;
      done();
    });
    req.on("error", (error) => fail(new HttpError(400, `The upload failed: ${error.message}`)));
    req.pipe(busboy);
  });
}

function tooLarge(message: string): HttpError {
  return new HttpError(413, message);
}
