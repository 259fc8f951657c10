/**
 * @module Content types by file extension, for uploads whose client said nothing more specific
 * than `application/octet-stream` (and for the CLI, which uploads files from disk). The table is
 * `mime-types` (mime-db), loaded at the first lookup rather than at boot; a few extensions take the
 * type a pipeline service expects instead: `.ts` / `.mts` / `.cts` are TypeScript source (mime-db
 * says MPEG transport stream), `.yaml` is `application/yaml` (RFC 9512) and `.jsonl` is JSON Lines.
 */
import { createRequire } from "node:module";
import { extname } from "node:path";

const OURS: Readonly<Record<string, string>> = {
  ".ts": "text/plain",
  ".mts": "text/plain",
  ".cts": "text/plain",
  ".yaml": "application/yaml",
  ".yml": "application/yaml",
  ".jsonl": "application/jsonl",
};
const OUR_EXTENSIONS: Readonly<Record<string, string>> = { "application/yaml": ".yaml", "application/jsonl": ".jsonl" };

const require = createRequire(import.meta.url);
let mime: typeof import("mime-types") | undefined;
const db = () => (mime ??= require("mime-types") as typeof import("mime-types"));

/** A content type guessed from the file name's extension; `application/octet-stream` when unknown. */
export function mimeTypeOf(filename: string): string {
  return OURS[extname(filename).toLowerCase()] ?? (db().lookup(filename) || "application/octet-stream");
}

/** The usual extension of a content type (`.bin` when unknown), for a file sent without a name. */
export function extensionOf(contentType: string): string {
  const base = contentType.split(";")[0]!.trim().toLowerCase();
  const ext = OUR_EXTENSIONS[base] ?? db().extension(base);
  return ext ? (ext.startsWith(".") ? ext : `.${ext}`) : ".bin";
}
