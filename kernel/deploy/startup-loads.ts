/**
 * @module StartupLoads: the crash guard of the startup deploy. Before a start loads a saved
 * pipeline it writes `.svc-loading.<pid>.<name>` in the pipelines directory and removes it once the
 * load returned (loaded or failed). A marker the next start finds, of a process that no longer
 * runs, names the pipeline whose loading took that process down (a `setup()` that exits or kills
 * its process, an out-of-memory kill). After `CRASHES_TO_QUARANTINE` starts in a row died on it,
 * the pipeline is quarantined: `.svc-quarantine.<name>` is written and later starts do not load it
 * until it is deployed again through the API or the marker is deleted.
 */
import { readdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { otherProcessRuns } from "./hidden-files.js";

export const CRASHES_TO_QUARANTINE = 2;

export interface Quarantine {
  /** Consecutive starts that died loading it. */
  readonly crashes: number;
  readonly since: string;
  /** The marker to delete to let the next start try it again. */
  readonly marker: string;
  /** The cluster manifest's version that crashed (a newer version is tried); none for a local pipeline. */
  readonly version?: number;
}

/** The log line of a pipeline a start skips because it is quarantined. */
export function quarantineMessage(name: string, quarantine: Quarantine): string {
  return (
    `Pipeline '${name}' is quarantined and not deployed: loading it took the process down on ${quarantine.crashes} starts in a row ` +
    `(its setup() exited or the process was killed, e.g. out of memory). Deploy a fixed version through the API, undeploy it, ` +
    `or delete ${quarantine.marker} to try it again at the next start.`
  );
}

const LOADING = /^\.svc-loading\.(\d+)\.([A-Za-z0-9_-]+)$/;
const QUARANTINED = /^\.svc-quarantine\.([A-Za-z0-9_-]+)$/;

export class StartupLoads {
  /** Per name: the starts in a row that died loading it, as the last start left them. */
  private readonly crashes = new Map<string, number>();
  private readonly quarantined = new Map<string, Quarantine>();
  /** Per name: the manifest version the last crashed start was loading. */
  private readonly versions = new Map<string, number>();

  /** False once the directory turned out read-only: starts then load without the crash guard. */
  private guarded = true;

  constructor(
    private readonly root: string,
    /** Told once when the directory is read-only (a container's `:ro` volume is a normal set-up). */
    private readonly onReadOnly: (reason: string) => void = () => undefined,
  ) {}

  /** Reads what earlier starts left; returns the names quarantined by this reading. */
  async recover(): Promise<string[]> {
    const entries = await readdir(this.root).catch(() => [] as string[]);
    for (const entry of entries) {
      const loading = LOADING.exec(entry);
      if (loading && !otherProcessRuns(Number(loading[1]))) {
        const before = await readJson<{ crashes?: number; version?: number }>(join(this.root, entry));
        if (before?.version !== undefined) this.versions.set(loading[2]!, before.version);
        // Several workers may have died on the same pipeline in one start: that is one start.
        this.crashes.set(loading[2]!, Math.max(this.crashes.get(loading[2]!) ?? 0, (before?.crashes ?? 0) + 1));
        await rm(join(this.root, entry), { force: true });
      }
      const quarantined = QUARANTINED.exec(entry);
      if (quarantined) {
        const marker = join(this.root, entry);
        const saved = await readJson<{ crashes?: number; since?: string; version?: number }>(marker);
        this.quarantined.set(quarantined[1]!, { crashes: saved?.crashes ?? CRASHES_TO_QUARANTINE, since: saved?.since ?? "", marker, version: saved?.version });
      }
    }
    const fresh: string[] = [];
    for (const [name, crashes] of this.crashes) {
      if (crashes < CRASHES_TO_QUARANTINE || this.quarantined.has(name)) continue;
      const marker = join(this.root, `.svc-quarantine.${name}`);
      const quarantine = { crashes, since: new Date().toISOString(), marker, version: this.versions.get(name) };
      await writeFile(marker, JSON.stringify({ crashes, since: quarantine.since, version: quarantine.version }) + "\n");
      this.quarantined.set(name, quarantine);
      fresh.push(name);
    }
    return fresh;
  }

  quarantine(name: string): Quarantine | undefined {
    return this.quarantined.get(name);
  }

  /** The quarantined names, sorted. */
  get names(): string[] {
    return [...this.quarantined.keys()].sort();
  }

  /** This start is about to load `name` (the cluster manifest's `version` of it, if any). */
  async begin(name: string, version?: number): Promise<void> {
    if (!this.guarded) return;
    try {
      await writeFile(this.loadingMarker(name), JSON.stringify({ crashes: this.crashes.get(name) ?? 0, version }) + "\n");
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== "EACCES" && code !== "EPERM" && code !== "EROFS") throw error;
      this.guarded = false;
      this.onReadOnly(`${code} writing in ${this.root}`);
    }
  }

  /** The load of `name` returned: this start did not die on it. */
  async end(name: string): Promise<void> {
    this.crashes.delete(name);
    if (this.guarded) await rm(this.loadingMarker(name), { force: true });
  }

  /** `name` was deployed again (and loaded): it is no longer quarantined. */
  async lift(name: string): Promise<void> {
    const quarantine = this.quarantined.get(name);
    this.crashes.delete(name);
    if (!quarantine) return;
    this.quarantined.delete(name);
    await rm(quarantine.marker, { force: true });
  }

  private loadingMarker(name: string): string {
    return join(this.root, `.svc-loading.${process.pid}.${name}`);
  }
}

async function readJson<T>(path: string): Promise<T | undefined> {
  try {
    return JSON.parse(await readFile(path, "utf8")) as T;
  } catch {
    return undefined;
  }
}
