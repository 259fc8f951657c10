/**
 * @module The pipelines directory on disk. A deploy never changes a saved pipeline before it has
 * loaded: its files are written to hidden folders (`.svc-<use>.<pid>.<name>.<suffix>`, which no
 * pipeline name can collide with: names have no dots), the wrapper loads from its own copy, and
 * only a deploy that loaded swaps the saved form in with two renames. `recoverHidden` (hidden-files.ts)
 * finishes or undoes at startup whatever a crash left between those steps.
 */
import { lstat, mkdir, mkdtemp, rename, rm, stat, writeFile, readdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { deployErrors } from "./deploy-errors.js";
import { hiddenPrefix } from "./hidden-files.js";

export type FileMap = ReadonlyMap<string, string | Buffer>;

/** Files written aside: `commit` swaps them in as the saved form, `rollback` removes them. */
export interface Installed {
  /** Where the files are saved once committed. */
  readonly path: string;
  commit(): Promise<void>;
  rollback(): Promise<void>;
}

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

  /**
   * The folder a saved deploy loads from: a hidden copy in the pipelines directory that lives as
   * long as this process serves that version (relative imports and file reads keep working), and
   * that a crash leaves for the next start to remove.
   */
  async liveFolder(name: string, files: FileMap): Promise<string> {
    await this.ensureRoot();
    return writeNew(await mkdtemp(join(this.root, hiddenPrefix("live", name))), files);
  }

  /** Writes a folder's files aside; `commit` swaps them in as `<root>/<name>/`. */
  async installFolder(name: string, files: FileMap): Promise<Installed> {
    await this.ensureRoot();
    const target = this.folderOf(name);
    await refuseSymlink(target);
    const staging = await writeNew(await mkdtemp(join(this.root, hiddenPrefix("staging", name))), files);
    return this.swapLater(name, staging, target, staging);
  }

  /** Writes `<root>/<name>.yml` aside; `commit` swaps it in. */
  async installYaml(name: string, text: string): Promise<Installed> {
    await this.ensureRoot();
    const target = this.yamlOf(name);
    await refuseSymlink(target);
    const stagingDir = await mkdtemp(join(this.root, hiddenPrefix("staging", name)));
    const staging = join(stagingDir, `${name}.yml`);
    try {
      await writeFile(staging, text);
    } catch (error) {
      await rm(stagingDir, { recursive: true, force: true });
      throw error;
    }
    return this.swapLater(name, staging, target, stagingDir);
  }

  /** Writes files to a private temporary folder (deploys that do not save). */
  async tempFolder(name: string, files: FileMap): Promise<string> {
    return writeNew(await mkdtemp(join(tmpdir(), `svc-${name}-`)), files);
  }

  /**
   * Removes every saved form of a pipeline; `keep` spares one path. Each is first renamed aside, so
   * a crash never leaves half a folder to be deployed at the next start.
   */
  async removeSaved(name: string, keep?: string): Promise<void> {
    for (const path of [this.folderOf(name), this.yamlOf(name), join(this.root, `${name}.yaml`)]) {
      if (path === keep) continue;
      const trash = join(this.root, `${hiddenPrefix("trash", name)}${Date.now()}`);
      try {
        await rename(path, trash);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") continue;
        throw error;
      }
      await rm(trash, { recursive: true, force: true });
    }
  }

  /**
   * The commit of staged files: the saved version is renamed to `.svc-old.…` and the new one into
   * its place, then the old one is removed. A crash between the two renames leaves no saved form
   * and an old one, which the next start renames back.
   */
  private swapLater(name: string, staged: string, target: string, cleanup: string): Installed {
    return {
      path: target,
      commit: async () => {
        await refuseSymlink(target);
        const backup = join(this.root, `${hiddenPrefix("old", name)}${Date.now()}`);
        let moved = false;
        try {
          await rename(target, backup);
          moved = true;
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
        }
        try {
          await rename(staged, target);
        } catch (error) {
          if (moved) await rename(backup, target);
          throw error;
        }
        if (moved) await rm(backup, { recursive: true, force: true });
        if (cleanup !== staged) await rm(cleanup, { recursive: true, force: true });
      },
      rollback: () => rm(cleanup, { recursive: true, force: true }),
    };
  }
}

async function refuseSymlink(path: string): Promise<void> {
  const info = await lstat(path).catch(() => undefined);
  if (info?.isSymbolicLink()) throw deployErrors.symlink(path);
}

/** Writes files under `dir`, which this process just created (so no path can cross a symlink); removes it on failure. */
async function writeNew(dir: string, files: FileMap): Promise<string> {
  try {
    for (const [relative, content] of files) {
      const path = join(dir, relative);
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, content, { flag: "wx" });
    }
    return dir;
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}
