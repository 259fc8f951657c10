/**
 * @module Local files for uploads: a folder read recursively (dotfiles, dot-folders and
 * node_modules skipped; keys are POSIX relative paths), single files checked, and each turned into
 * a Blob that streams from disk.
 */
import { openAsBlob } from "node:fs";
import { readdir, realpath, stat } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import { mimeTypeOf } from "svc/plugin";
import { CliError } from "./client.js";

export interface LocalFile {
  /** Where it is on disk. */
  readonly path: string;
  /** The name it is uploaded under: a POSIX relative path for folders, the basename for files. */
  readonly name: string;
  readonly size: number;
}

const SKIPPED_DIRS = new Set(["node_modules"]);

async function kind(path: string): Promise<"file" | "dir" | "other" | "missing"> {
  try {
    const s = await stat(path);
    return s.isFile() ? "file" : s.isDirectory() ? "dir" : "other";
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT" || (error as NodeJS.ErrnoException).code === "ENOTDIR") return "missing";
    throw new CliError(`Cannot read ${path}: ${(error as Error).message}`);
  }
}

/** Checks that `dir` is a folder: "Directory does not exist: …" or "Not a directory: …" otherwise. */
export async function checkDirectory(dir: string): Promise<void> {
  const k = await kind(dir);
  if (k === "missing") throw new CliError(`Directory does not exist: ${dir}`);
  if (k !== "dir") throw new CliError(`Not a directory: ${dir}`);
}

/** Checks that `file` is a regular file: "File does not exist: …" or "Not a file: …" otherwise. */
export async function checkFile(file: string, what = "File"): Promise<void> {
  const k = await kind(file);
  if (k === "missing") throw new CliError(`${what} does not exist: ${file}`);
  if (k !== "file") throw new CliError(`Not a file: ${file}`);
}

/** Every file under `dir`, sorted by relative path; symlinks are followed, each folder read once. */
export async function listFolder(dir: string): Promise<LocalFile[]> {
  await checkDirectory(dir);
  const out: LocalFile[] = [];
  const seen = new Set<string>();
  const walk = async (folder: string): Promise<void> => {
    const real = await realpath(folder);
    if (seen.has(real)) return;
    seen.add(real);
    const entries = await readdir(folder, { withFileTypes: true });
    for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      if (entry.name.startsWith(".")) continue;
      const path = join(folder, entry.name);
      const k = entry.isSymbolicLink() ? await kind(path) : entry.isDirectory() ? "dir" : entry.isFile() ? "file" : "other";
      if (k === "dir") {
        if (!SKIPPED_DIRS.has(entry.name)) await walk(path);
      } else if (k === "file") {
        out.push({ path, name: relative(dir, path).split(sep).join("/"), size: (await stat(path)).size });
      }
    }
  };
  await walk(dir);
  return out;
}

/** One file given on the command line, uploaded under its basename. */
export async function localFile(path: string, name: string): Promise<LocalFile> {
  await checkFile(path);
  return { path, name, size: (await stat(path)).size };
}

/** Appends each file as a `files` part that streams from disk when the form is serialized. */
export async function appendFiles(form: FormData, files: readonly LocalFile[], field = "files"): Promise<void> {
  for (const file of files) {
    form.append(field, await openAsBlob(file.path, { type: mimeTypeOf(file.name) }), file.name);
  }
}
