/**
 * @module The deploy state of one process: the manifest in memory. Also what the primary of
 * `--workers N` keeps for its workers. Nothing is announced: no other process reads it.
 */
import type { ClusterHealth, DeployState, ManifestEntry, ManifestWrite, PutResult, RemoveResult } from "./deploy-state.js";

export class LocalDeployState implements DeployState {
  readonly shared: boolean = false;
  readonly sharedDisk: boolean = false;
  private readonly entries = new Map<string, ManifestEntry>();
  private sequence = 0;

  constructor(readonly instance: string) {}

  async get(name: string): Promise<ManifestEntry | undefined> {
    return this.entries.get(name);
  }

  async list(): Promise<ManifestEntry[]> {
    return [...this.entries.values()];
  }

  async versions(): Promise<Map<string, number>> {
    return new Map([...this.entries.values()].map((e) => [e.name, e.version]));
  }

  /** Synchronous, so one event-loop turn decides it: nothing interleaves. */
  putNow(entry: ManifestWrite, mode: "create" | "replace"): PutResult {
    if (mode === "create" && this.entries.has(entry.name)) return { conflict: "exists" };
    const version = ++this.sequence;
    this.entries.set(entry.name, { ...entry, version });
    return { version };
  }

  removeNow(name: string): RemoveResult {
    if (!this.entries.delete(name)) return { conflict: "missing" };
    return { version: ++this.sequence };
  }

  async put(entry: ManifestWrite, mode: "create" | "replace"): Promise<PutResult> {
    return this.putNow(entry, mode);
  }

  async remove(name: string): Promise<RemoveResult> {
    return this.removeNow(name);
  }

  follow(): void {}

  health(): ClusterHealth {
    return { mode: "single", instance: this.instance, connected: true };
  }

  async close(): Promise<void> {}
}
