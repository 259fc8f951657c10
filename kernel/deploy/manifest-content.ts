/**
 * @module The content of a manifest entry: a wrapper folder's files (base64, so binary files
 * survive JSON) or a YAML text, and a digest that recognises the same content already on disk
 * without rewriting it.
 */
import { createHash } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import type { FileMap } from "./pipeline-files.js";

export interface EntryContent {
  readonly files?: Record<string, string>;
  readonly source?: string;
  readonly digest: string;
}

/** sha256 over the sorted paths and contents. */
export function filesDigest(files: FileMap): string {
  const hash = createHash("sha256");
  for (const path of [...files.keys()].sort()) {
    const content = files.get(path)!;
    const bytes = typeof content === "string" ? Buffer.from(content) : content;
    hash.update(`${path}\0${bytes.length}\0`).update(bytes);
  }
  return hash.digest("hex");
}

export function textDigest(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

export function folderContent(files: FileMap): EntryContent {
  const encoded: Record<string, string> = {};
  for (const [path, content] of files) encoded[path] = (typeof content === "string" ? Buffer.from(content) : content).toString("base64");
  return { files: encoded, digest: filesDigest(files) };
}

export function yamlContent(source: string): EntryContent {
  return { source, digest: textDigest(source) };
}

export function decodeFiles(files: Readonly<Record<string, string>> | undefined): FileMap {
  return new Map(Object.entries(files ?? {}).map(([path, b64]) => [path, Buffer.from(b64, "base64")]));
}

/** The files of a folder on disk, `node_modules` left out (dependencies are installed per host). */
export async function readFolder(dir: string): Promise<FileMap> {
  const out = new Map<string, Buffer>();
  const walk = async (at: string): Promise<void> => {
    for (const entry of await readdir(at, { withFileTypes: true })) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== "node_modules") await walk(path);
      } else if (entry.isFile()) {
        out.set(relative(dir, path).split(sep).join("/"), await readFile(path));
      }
    }
  };
  await walk(dir);
  return out;
}
