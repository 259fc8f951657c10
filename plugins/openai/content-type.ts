/**
 * @module The content type of an uploaded file: the one its client sent, or, when that says
 * nothing (clients send `application/octet-stream` for a file read from disk), one guessed from
 * the name's extension, so a wrapper can tell a text file from a PDF.
 */
import { mimeTypeOf } from "svc/plugin";

const UNSPECIFIC = new Set(["", "application/octet-stream", "binary/octet-stream"]);

export function contentTypeOf(sent: string | undefined, filename: string): string {
  const type = (sent ?? "").trim().toLowerCase();
  return UNSPECIFIC.has(type) ? mimeTypeOf(filename) : type;
}
