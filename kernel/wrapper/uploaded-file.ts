/**
 * @module A file uploaded with a run request (multipart `files` parts), and the schema a wrapper
 * declares to accept them.
 */
import * as v from "valibot";

export class UploadedFile {
  constructor(
    /** The part's filename (a relative path when a folder was uploaded). */
    readonly filename: string,
    readonly contentType: string,
    readonly data: Buffer,
  ) {}

  get size(): number {
    return this.data.length;
  }

  text(encoding: BufferEncoding = "utf8"): string {
    return this.data.toString(encoding);
  }
}

/**
 * The `files` entry of a wrapper's input schema: declaring it makes `/{name}/run` take
 * `multipart/form-data` with repeated `files` parts.
 */
export function uploadedFiles() {
  return v.pipe(v.optional(v.array(v.instance(UploadedFile)), []), v.description("Files uploaded as repeated multipart `files` parts."));
}
