/**
 * @module The UI's two libraries, served from the installed packages as ES modules under
 * `<ui path>/vendor/`: `marked` (Markdown) and `dompurify` (HTML sanitizing). Only these two files
 * are served; each is read once, on first request, kept in memory with an ETag and a gzip copy,
 * and stripped of its source-map comment (maps are not served).
 */
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { gzip as gzipCallback } from "node:zlib";

/** File name under `vendor/` → the package entry it is. Both entries are self-contained ES modules. */
export const VENDOR_FILES: Readonly<Record<string, string>> = {
  "marked.js": "marked",
  "purify.js": "dompurify",
};

export interface VendorAsset {
  readonly body: Buffer;
  readonly gzip: Buffer;
  readonly etag: string;
}

const gzip = promisify(gzipCallback);
const dropSourceMap = (text: string) => text.replace(/\n\/\/# sourceMappingURL=\S+\s*$/, "\n");

async function load(pkg: string): Promise<VendorAsset> {
  // import.meta.resolve takes the "import" condition: dompurify's ES build, not its CommonJS one.
  const text = await readFile(fileURLToPath(import.meta.resolve(pkg)), "utf8");
  const body = Buffer.from(dropSourceMap(text));
  return { body, gzip: await gzip(body), etag: `"${createHash("sha1").update(body).digest("base64url")}"` };
}

/** Loads each file once; a failed read is retried on the next request. */
export class VendorAssets {
  private readonly loaded = new Map<string, Promise<VendorAsset>>();

  get(name: string): Promise<VendorAsset> | undefined {
    if (!Object.hasOwn(VENDOR_FILES, name)) return undefined;
    let asset = this.loaded.get(name);
    if (!asset) {
      asset = load(VENDOR_FILES[name]!);
      asset.catch(() => this.loaded.delete(name));
      this.loaded.set(name, asset);
    }
    return asset;
  }
}
