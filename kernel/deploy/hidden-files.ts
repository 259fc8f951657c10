/**
 * @module The hidden entries a deploy keeps in the pipelines directory while it works, and what the
 * next start does with the ones a crash left. Each is named `.svc-<use>.<pid>.<name>.<suffix>`
 * (pipeline names have no dots, so the parts never run together):
 *
 * - `live`: the copy a saved pipeline was loaded from, kept while its process serves it;
 * - `staging`: new files not yet swapped in (the deploy had not committed);
 * - `old`: the previous saved form during a swap (renamed back if the new one never arrived);
 * - `trash`: a saved form being deleted.
 *
 * Entries of a process that still runs (another worker of `--workers N`) are left alone. Names of
 * svc versions before this scheme (`.svc-old-<name>-<pid>-<time>`, `.svc-staging-<name>-…`) are
 * recognised too.
 */
import { lstat, readdir, rename, rm } from "node:fs/promises";
import { join } from "node:path";

export type HiddenUse = "live" | "staging" | "old" | "trash";

export function hiddenPrefix(use: HiddenUse, name: string, pid = process.pid): string {
  return `.svc-${use}.${pid}.${name}.`;
}

const CURRENT = /^\.svc-(live|staging|old|trash)\.(\d+)\.([A-Za-z0-9_-]+)\./;
const LEGACY_OLD = /^\.svc-old-([A-Za-z0-9_-]+)-(\d+)-\d+$/;
const LEGACY_STAGING = /^\.svc-staging-[A-Za-z0-9_-]+-/;

/** True when `pid` is a process that runs now and is not this one (a crash of ours left it otherwise). */
export function otherProcessRuns(pid: number): boolean {
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

export interface Recovered {
  /** Pipelines whose saved form a crash had moved aside, renamed back into place. */
  readonly restored: string[];
  /** Hidden entries removed. */
  readonly removed: number;
}

/** Finishes or undoes what crashed processes left in `root` (see the module comment). */
export async function recoverHidden(root: string, folderOf: (name: string) => string, yamlOf: (name: string) => string): Promise<Recovered> {
  const restored: string[] = [];
  let removed = 0;
  const entries = await readdir(root).catch(() => [] as string[]);
  // Old versions first: one whose pipeline has no saved form is put back before anything else runs.
  for (const entry of entries.sort((a, b) => Number(isOld(b)) - Number(isOld(a)))) {
    const current = CURRENT.exec(entry);
    const legacy = current ? undefined : LEGACY_OLD.exec(entry);
    const pid = current ? Number(current[2]) : legacy ? Number(legacy[2]) : LEGACY_STAGING.test(entry) ? 0 : undefined;
    if (pid === undefined || (pid !== 0 && otherProcessRuns(pid))) continue;
    const path = join(root, entry);
    const name = current?.[1] === "old" ? current[3]! : legacy?.[1];
    if (name !== undefined) {
      const info = await lstat(path).catch(() => undefined);
      const target = info?.isDirectory() ? folderOf(name) : yamlOf(name);
      if (info && !(await lstat(target).catch(() => undefined)) && !(await lstat(info.isDirectory() ? yamlOf(name) : folderOf(name)).catch(() => undefined))) {
        try {
          await rename(path, target);
          restored.push(name);
          continue;
        } catch {
          // another process of this start put it back first: remove this copy
        }
      }
    }
    await rm(path, { recursive: true, force: true });
    removed++;
  }
  return { restored, removed };
}

function isOld(entry: string): boolean {
  return entry.startsWith(".svc-old");
}
