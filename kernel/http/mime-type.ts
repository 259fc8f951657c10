/**
 * @module Content types by file extension, for uploads whose client said nothing more specific
 * than `application/octet-stream` (and for the CLI, which uploads files from disk).
 */
import { extname } from "node:path";

const TYPES: Readonly<Record<string, string>> = {
  ".txt": "text/plain",
  ".md": "text/markdown",
  ".csv": "text/csv",
  ".tsv": "text/tab-separated-values",
  ".html": "text/html",
  ".htm": "text/html",
  ".xml": "application/xml",
  ".json": "application/json",
  ".jsonl": "application/jsonl",
  ".yaml": "application/yaml",
  ".yml": "application/yaml",
  ".pdf": "application/pdf",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
  ".svg": "image/svg+xml",
  ".mp3": "audio/mpeg",
  ".wav": "audio/wav",
  ".mp4": "video/mp4",
  ".zip": "application/zip",
  ".docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  ".js": "text/javascript",
  ".mjs": "text/javascript",
  ".ts": "text/plain",
  ".mts": "text/plain",
};

/** A content type guessed from the file name's extension; `application/octet-stream` when unknown. */
export function mimeTypeOf(filename: string): string {
  return TYPES[extname(filename).toLowerCase()] ?? "application/octet-stream";
}

/** The usual extension of a content type (`.bin` when unknown), for a file sent without a name. */
export function extensionOf(contentType: string): string {
  const base = contentType.split(";")[0]!.trim().toLowerCase();
  for (const [ext, type] of Object.entries(TYPES)) if (type === base) return ext;
  return ".bin";
}
