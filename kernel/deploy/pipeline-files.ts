/**
 * @module The pipelines directory on disk. New files are written to a hidden staging folder first
 * and swapped in with renames, keeping the old version aside until the deploy commits, so a failed
 * deploy leaves the disk exactly as it was.
 */
import { existsSync } from "node:fs";
import { lstat, mkdir, mkdtemp, readdir, rename, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { deployErrors } from "./deploy-errors.js";

export type FileMap = ReadonlyMap<string, string | Buffer>;

/** Files swapped into place: `commit` drops the old version, `rollback` restores it. */
export interface Installed {
  readonly path: string;
  commit(): Promise<void>;
  rollback(): Promise<void>;
}

const HIDDEN = ".svc-";

export class PipelineFiles {
  constructor(readonly root: string) {}

  folderOf(name: string): string {
    return join(this.root, name);
  }

  yamlOf(name: string): string {
    return join(this.root, `${name}.yml`);
  }

  /** Creates the directory if missing; a non-directory in its place is an error. */
  async ensureRoot(): Promise<void> {
    const info = await stat(this.root).catch(() => undefined);
    if (info && !info.isDirectory()) throw new Error(`pipelines directory '${this.root}' exists but is not a directory`);
    if (!info) await mkdir(this.root, { recursive: true });
  }

  /** Entries to deploy at startup: folders and top-level YAML files, hidden ones and staging left out. */
  async candidates(): Promise<{ kind: "files" | "yaml"; name: string; path: string }[]> {
    const entries = await readdir(this.root, { withFileTypes: true });
    const out: { kind: "files" | "yaml"; name: string; path: string }[] = [];
    for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      if (e.name.startsWith(".") || e.name === "node_modules") continue;
      const path = join(this.root, e.name);
      if (e.isDirectory()) out.push({ kind: "files", name: e.name, path });
      else if (e.isFile() && /\.ya?ml$/i.test(e.name)) out.push({ kind: "yaml", name: e.name.replace(/\.ya?ml$/i, ""), path });
    }
    return out;
  }

  /** Writes a folder's files into staging and swaps it in as `<root>/<name>/`. */
  async installFolder(name: string, files: FileMap): Promise<Installed> {
    await this.ensureRoot();
    const target = this.folderOf(name);
    await refuseSymlink(target);
    const staging = await mkdtemp(join(this.root, `${HIDDEN}staging-${name}-`));
    try {
      await writeTree(staging, files);
      return await this.swap(name, staging, target);
    } catch (error) {
      await rm(staging, { recursive: true, force: true });
      throw error;
    }
  }

  /** Writes `<root>/<name>.yml` through the same staging and swap. */
  async installYaml(name: string, text: string): Promise<Installed> {
    await this.ensureRoot();
    const target = this.yamlOf(name);
    await refuseSymlink(target);
    const stagingDir = await mkdtemp(join(this.root, `${HIDDEN}staging-${name}-`));
    const removeStaging = () => rm(stagingDir, { recursive: true, force: true });
    let installed: Installed;
    try {
      const staging = join(stagingDir, `${name}.yml`);
      await writeFile(staging, text);
      installed = await this.swap(name, staging, target);
    } catch (error) {
      await removeStaging();
      throw error;
    }
    return {
      path: installed.path,
      commit: async () => (await installed.commit(), removeStaging()),
      rollback: async () => (await installed.rollback(), removeStaging()),
    };
  }

  /** Writes files to a private temporary folder (deploys that do not save). */
  async tempFolder(name: string, files: FileMap): Promise<string> {
    const dir = await mkdtemp(join(tmpdir(), `svc-${name}-`));
    try {
      await writeTree(dir, files);
    } catch (error) {
      await rm(dir, { recursive: true, force: true });
      throw error;
    }
    return dir;
  }

  /** Removes every saved form of a pipeline; `keep` spares one path. */
  async removeSaved(name: string, keep?: string): Promise<void> {
    for (const path of [this.folderOf(name), this.yamlOf(name), join(this.root, `${name}.yaml`)]) {
      if (path !== keep) await rm(path, { recursive: true, force: true });
    }
  }

  private async swap(name: string, staged: string, target: string): Promise<Installed> {
    let backup: string | undefined;
    if (existsSync(target)) {
      backup = join(this.root, `${HIDDEN}old-${name}-${process.pid}-${Date.now()}`);
      await rename(target, backup);
    }
    await rename(staged, target);
    return {
      path: target,
      commit: async () => {
        if (backup) await rm(backup, { recursive: true, force: true });
      },
      rollback: async () => {
        await rm(target, { recursive: true, force: true });
        if (backup) await rename(backup, target);
      },
    };
  }
}

async function refuseSymlink(path: string): Promise<void> {
  const info = await lstat(path).catch(() => undefined);
  if (info?.isSymbolicLink()) throw deployErrors.symlink(path);
}

/** Writes files under `dir`, which this process just created, so no path can cross a symlink. */
async function writeTree(dir: string, files: FileMap): Promise<void> {
  for (const [relative, content] of files) {
    const path = join(dir, relative);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, content, { flag: "wx" });
  }
}
