/**
 * @module MIME types guessed from a file name's extension as Haystack does (Python's `mimetypes`
 * plus Haystack's own additions), shared by ByteStream.fromFilePath and the converters.
 */
import { extname } from "node:path";
import { createRequire } from "node:module";

/** Haystack's CUSTOM_MIMETYPES (haystack.utils.misc): types Python's mimetypes lacks. */
const CUSTOM_MIMETYPES: Record<string, string> = {
  ".md": "text/markdown",
  ".markdown": "text/markdown",
  ".msg": "application/vnd.ms-outlook",
};

// mime-types (and its database) is loaded at the first lookup, not when the engine loads.
const require = createRequire(import.meta.url);
let mime: typeof import("mime-types") | undefined;
const lookup = (path: string): string | false => (mime ??= require("mime-types") as typeof import("mime-types")).lookup(path);

/** Where Python's table differs from mime-db for common document types. */
const PYTHON_MIMETYPES: Record<string, string> = {
  ".py": "text/x-python",
  ".wav": "audio/x-wav",
};

/** The MIME type of a path by its extension (haystack.utils.misc._guess_mime_type), or null. */
export function guessMimeType(path: string, extra: ReadonlyMap<string, string> = new Map()): string | null {
  const ext = extname(path).toLowerCase();
  return CUSTOM_MIMETYPES[ext] ?? extra.get(ext) ?? PYTHON_MIMETYPES[ext] ?? (lookup(path) || null);
}

