/**
 * @module The content type of an uploaded file: the one its client sent, or, when that says
 * nothing (clients send `application/octet-stream` for a file read from disk), one guessed from
 * the name's extension, so a wrapper can tell a text file from a PDF.
 */
import { extname } from "node:path";

const BY_EXTENSION: Readonly<Record<string, string>> = {
  ".txt": "text/plain",
  ".md": "text/markdown",
  ".markdown": "text/markdown",
  ".csv": "text/csv",
  ".tsv": "text/tab-separated-values",
  ".json": "application/json",
  ".jsonl": "application/jsonl",
  ".yaml": "application/yaml",
  ".yml": "application/yaml",
  ".xml": "application/xml",
  ".html": "text/html",
  ".htm": "text/html",
  ".pdf": "application/pdf",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
};

const UNSPECIFIC = new Set(["", "application/octet-stream", "binary/octet-stream"]);

export function contentTypeOf(sent: string | undefined, filename: string): string {
  const type = (sent ?? "").trim().toLowerCase();
  if (!UNSPECIFIC.has(type)) return type;
  return BY_EXTENSION[extname(filename).toLowerCase()] ?? "application/octet-stream";
}

/** The usual extension of a content type (`.bin` when unknown), for a file sent without a name. */
export function extensionOf(contentType: string): string {
  const base = contentType.split(";")[0]!.trim().toLowerCase();
  for (const [ext, type] of Object.entries(BY_EXTENSION)) if (type === base) return ext;
  return ".bin";
}
