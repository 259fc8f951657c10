/**
 * @module File uploads for YAML deploys. A declared input whose target socket takes ByteStreams
 * (a converter's or FileTypeRouter's `sources`) is filled from the run request's multipart
 * `files` parts, each one a ByteStream with `meta.file_path` (the part's filename) and the part's
 * MIME type — or, when the client sent none or `application/octet-stream`, the type guessed from
 * the filename's extension, so that a FileTypeRouter can route it.
 */
import * as v from "valibot";
import { HttpError, UploadedFile } from "svc/plugin";
import { guessMimeType } from "./components/converter-sources.js";
import { ByteStream } from "./dataclasses/document.js";
import type { InputSocket } from "./component.js";

const PROBE = [new ByteStream(Buffer.alloc(0), {}, "text/plain")];

/**
 * Whether a socket takes a list of ByteStreams (and so can take uploaded files). A socket that also
 * takes a plain object (a retriever's `filters`, a record — JavaScript arrays are objects too) is
 * a JSON input, not an upload.
 */
export function takesFiles(socket: InputSocket | undefined): boolean {
  return !!socket?.schema && v.is(socket.schema, PROBE) && !v.is(socket.schema, {});
}

/**
 * The run schema's `files` entry for a YAML pipeline that takes uploads. Optional: the same input
 * also takes ByteStreams as JSON (its own entry); `filesOrJson` checks that one of them came.
 */
export function uploadsSchema(inputName: string, targets: string[]) {
  return v.pipe(
    v.optional(v.array(v.instance(UploadedFile)), []),
    v.description(`Files uploaded as repeated multipart \`files\` parts; they feed the input '${inputName}' (${targets.join(", ")}) as ByteStreams. A JSON body may send '${inputName}' as ByteStreams instead.`),
  );
}

/** The ByteStreams a files input gets: the uploads, else the JSON ones; neither is a 400. */
export function filesOrJson(inputName: string, uploads: readonly UploadedFile[] | undefined, json: unknown): ByteStream[] {
  if (uploads && uploads.length > 0) return uploads.map(byteStreamOfUpload);
  if (Array.isArray(json) && json.length > 0) return json as ByteStream[];
  throw new HttpError(400, `Upload at least one file as a multipart 'files' part, or send '${inputName}' as a list of ByteStreams in a JSON body.`);
}

/** An uploaded file as the ByteStream a converter gets. */
export function byteStreamOfUpload(file: UploadedFile): ByteStream {
  const sent = file.contentType.split(";")[0]!.trim().toLowerCase();
  const mimeType = sent && sent !== "application/octet-stream" ? sent : guessMimeType(file.filename);
  return new ByteStream(file.data, { file_path: file.filename }, mimeType);
}
