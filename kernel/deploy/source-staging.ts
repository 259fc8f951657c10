/**
 * @module How each deploy source kind stages its deploys: a wrapper folder (`files`) or one text
 * file (`yaml`, and by default any kind a plugin adds). Staging checks the request, puts its
 * content where the source handler reads it (never over the saved form: that is swapped in only
 * when the deploy commits, after the pipeline loaded), gives the content a shared deploy state keeps, and materialises an entry another
 * process wrote. The deploy service and the cluster follower only call these.
 */
import { readFile, rm } from "node:fs/promises";
import { HttpError } from "../errors.js";
import { WRAPPER_FILES } from "../wrapper/load-wrapper.js";
import { deployErrors } from "./deploy-errors.js";
import type { DeployRequest, Staged } from "./deploy-request.js";
import type { ManifestEntry } from "./deploy-state.js";
import { decodeFiles, filesDigest, folderContent, readFolder, textDigest, yamlContent, type EntryContent } from "./manifest-content.js";
import { checkRelativePath } from "./names.js";
import type { FileMap, PipelineFiles } from "./pipeline-files.js";

export const MAX_DEPLOY_FILES = 1000;

export interface DeployStaging {
  /** Checks the request and stages its content: `save` keeps it in the pipelines directory. */
  stage(request: DeployRequest, files: PipelineFiles, save: boolean): Promise<Staged>;
  /** The content other processes load the same pipeline from. */
  content(request: DeployRequest): Promise<EntryContent>;
  /**
   * Stages an entry another process wrote: the saved files on disk when they are the same, else
   * this process's own pipelines directory (written here), else a private folder (not saved, or a
   * directory shared with the process that deployed it).
   */
  materialize(entry: ManifestEntry, files: PipelineFiles, sharedDisk: boolean): Promise<Staged>;
}

/** A wrapper folder: the payload is `{ dir }`. */
export const folderStaging: DeployStaging = {
  async stage(request, files, save) {
    if (request.path) return { payload: { dir: request.path } };
    const checked = checkFiles(request.files);
    if (save) return stageSaved(files, request.name, checked);
    const tempDir = await files.tempFolder(request.name, checked);
    return { payload: { dir: tempDir }, tempDir };
  },
  async content(request) {
    return folderContent(request.path ? await readFolder(request.path) : checkFiles(request.files));
  },
  async materialize(entry, files, sharedDisk) {
    if (entry.save) {
      const dir = files.folderOf(entry.name);
      if ((await digestOf(async () => filesDigest(await readFolder(dir)))) === entry.digest) return { payload: { dir } };
      if (!sharedDisk) return stageSaved(files, entry.name, decodeFiles(entry.files));
    }
    const tempDir = await files.tempFolder(entry.name, decodeFiles(entry.files));
    return { payload: { dir: tempDir }, tempDir };
  },
};

/**
 * A folder to save: the wrapper loads from its own hidden copy (kept while this version serves),
 * and the saved form is swapped in only when the deploy commits, after it loaded.
 */
async function stageSaved(files: PipelineFiles, name: string, content: FileMap): Promise<Staged> {
  const live = await files.liveFolder(name, content);
  try {
    return { payload: { dir: live }, installed: await files.installFolder(name, content), tempDir: live };
  } catch (error) {
    await rm(live, { recursive: true, force: true });
    throw error;
  }
}

/** One YAML text, saved as `<name>.yml`: the payload is `{ source, file? }`. */
export const yamlStaging: DeployStaging = {
  async stage(request, files, save) {
    if (request.path) return { payload: { source: await readFile(request.path, "utf8"), file: request.path } };
    if (typeof request.source !== "string") throw new HttpError(400, "A YAML deploy needs its source text.");
    if (!save) return { payload: { source: request.source } };
    const installed = await files.installYaml(request.name, request.source);
    return { payload: { source: request.source, file: installed.path }, installed };
  },
  async content(request) {
    return yamlContent(request.path ? await readFile(request.path, "utf8") : (request.source ?? ""));
  },
  async materialize(entry, files, sharedDisk) {
    const source = entry.source ?? "";
    if (entry.save) {
      const file = files.yamlOf(entry.name);
      if ((await digestOf(async () => textDigest(await readFile(file, "utf8")))) === entry.digest) return { payload: { source, file } };
      if (!sharedDisk) {
        const installed = await files.installYaml(entry.name, source);
        return { payload: { source, file: installed.path }, installed };
      }
    }
    return { payload: { source } };
  },
};

/** The digest of what is on disk, or undefined when it is absent or unreadable. */
async function digestOf(read: () => Promise<string>): Promise<string | undefined> {
  try {
    return await read();
  } catch {
    return undefined;
  }
}

/** Every path checked and normalized; no duplicates; no file that is also a folder; a wrapper present. */
function checkFiles(files: DeployRequest["files"]): FileMap {
  const entries = Object.entries(files ?? {});
  if (entries.length === 0) throw deployErrors.noFiles();
  if (entries.length > MAX_DEPLOY_FILES) throw deployErrors.tooManyFiles(entries.length, MAX_DEPLOY_FILES);
  const out = new Map<string, string | Buffer>();
  for (const [path, content] of entries) {
    const normal = checkRelativePath(path);
    if (out.has(normal)) throw deployErrors.invalidPath(path, "given twice");
    out.set(normal, content);
  }
  for (const path of out.keys()) {
    const parts = path.split("/");
    for (let i = 1; i < parts.length; i++) {
      if (out.has(parts.slice(0, i).join("/"))) throw deployErrors.invalidPath(path, `'${parts.slice(0, i).join("/")}' is also a file`);
    }
  }
  if (!WRAPPER_FILES.some((f) => out.has(f))) throw deployErrors.missingWrapper(WRAPPER_FILES.slice());
  return out;
}
