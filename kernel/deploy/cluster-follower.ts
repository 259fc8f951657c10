/**
 * @module ClusterFollower: keeps this process serving what a shared deploy state says. It applies
 * every change another process announces, rereads the whole manifest after a reconnect and every
 * few seconds (so a missed message or a restarted process converges), and never stops serving a
 * pipeline the manifest did not have for it: it undeploys only names it took from the manifest.
 * A version that fails to load here is logged and not retried until the manifest changes.
 */
import { inSpan, type Tracer } from "../hooks/tracer.js";
import type { Logger } from "../logger.js";
import type { DeployService } from "./deploy-service.js";
import type { SavedFiles } from "./deploy-request.js";
import type { DeployState, ManifestEntry } from "./deploy-state.js";
import { messageOf } from "../errors.js";

export class ClusterFollower {
  private readonly failed = new Map<string, number>();
  /** Per name: the announcers still waiting for this process to apply a change. */
  private readonly waits = new Map<string, Set<() => void>>();
  private timer?: NodeJS.Timeout;
  private closed = false;
  private readonly state: DeployState;

  constructor(
    private readonly deployer: DeployService,
    private readonly tracer: Tracer,
    private readonly log: Logger,
    private readonly intervalMs: number,
  ) {
    this.state = deployer.state;
  }

  /** Applies the manifest now and follows it from here on. */
  async start(): Promise<void> {
    this.state.follow((name) => this.onChange(name));
    await this.syncAll().catch((error) => this.log.warn(`Could not read the cluster's pipelines: ${messageOf(error)}`));
    this.timer = setInterval(() => void this.syncAll().catch((error) => this.log.debug(`Cluster check failed: ${messageOf(error)}`)), this.intervalMs);
    this.timer.unref();
  }

  close(): void {
    this.closed = true;
    clearInterval(this.timer);
  }

  /** Serves the manifest's version of `name` (or stops serving it), after the work queued on it. */
  sync(name: string): Promise<void> {
    return this.deployer.serialize(name, () => this.syncNow(name));
  }

  /** Every name whose version here differs from the manifest's. */
  async syncAll(): Promise<void> {
    if (await this.state.lostData?.()) await this.restore();
    const wanted = await this.state.versions();
    const names = new Set([...wanted.keys(), ...this.deployer.applied.keys()]);
    const stale = [...names].filter((n) => wanted.get(n) !== this.deployer.applied.get(n)?.version && wanted.get(n) !== this.failed.get(n));
    await Promise.all(stale.map((n) => this.sync(n).catch((error) => this.log.warn(`Could not follow pipeline '${n}': ${messageOf(error)}`))));
  }

  /**
   * The store lost the manifest: write back what this process serves, each with its version. Every
   * process does the same when it notices, so per name the newest change any of them knew wins,
   * whatever order they come back in; the rest then follow it like any change.
   */
  private async restore(): Promise<void> {
    const entries = [...this.deployer.applied.values()];
    if (!this.state.restore) return;
    const written = await this.state.restore(entries);
    this.log.warn(`The deploy state lost its data (Redis restarted without persistence?): wrote back ${written} of the ${entries.length} pipelines this instance serves (the newest version of each name wins)`);
  }

  private onChange(name: string | undefined): Promise<void> | undefined {
    if (this.closed) return undefined;
    if (name === undefined) {
      this.log.info("Deploy state reachable again: checking every pipeline");
      return this.syncAll().catch((error) => this.log.warn(`Cluster check failed: ${messageOf(error)}`));
    }
    const work = this.sync(name).catch((error) => this.log.warn(`Could not follow pipeline '${name}': ${messageOf(error)}`));
    // This process is itself changing that name: the announcer must not wait for it (it would wait on us).
    if (this.deployer.committing.has(name)) return undefined;
    return new Promise<void>((resolve) => {
      const waits = this.waits.get(name) ?? new Set();
      this.waits.set(name, waits.add(resolve));
      void work.then(() => {
        waits.delete(resolve);
        if (waits.size === 0 && this.waits.get(name) === waits) this.waits.delete(name);
        resolve();
      });
    });
  }

  /**
   * This process starts its own change of `name`, which replaces what it was still to apply: the
   * announcers stop waiting (the state may hold this change until theirs are served).
   */
  releaseWaits(name: string): void {
    for (const resolve of this.waits.get(name) ?? []) resolve();
    this.waits.delete(name);
  }

  private async syncNow(name: string): Promise<void> {
    if (this.closed) return;
    const entry = await this.state.get(name);
    const have = this.deployer.applied.get(name);
    if (!entry) {
      if (have !== undefined) await this.deployer.removeLocal(name, !this.state.sharedDisk);
      return;
    }
    if (have?.version === entry.version || this.failed.get(name) === entry.version) return;
    // The same pipeline under a new version (a seed race, a restore): nothing to load again.
    if (have && sameContent(have, entry)) return void this.deployer.applied.set(name, entry);
    await inSpan(this.tracer, "svc.deploy", { "svc.pipeline.name": name, "svc.transport": "cluster", "svc.deploy.kind": entry.kind }, () => this.apply(entry));
  }

  private async apply(entry: ManifestEntry): Promise<void> {
    const { name } = entry;
    const source = this.deployer.hookSource(entry.kind);
    if (!source) {
      this.failed.set(name, entry.version);
      this.log.error(`Pipeline '${name}' (version ${entry.version}) is of kind '${entry.kind}', which no plugin here loads`);
      return;
    }
    const staged = await source.staging.materialize(entry, this.deployer.files, this.state.sharedDisk);
    let loaded;
    try {
      loaded = await this.deployer.loadGuarded(name, entry.version, () => source.load({ name, description: entry.description, payload: staged.payload }));
    } catch (error) {
      await this.deployer.discard(staged);
      this.failed.set(name, entry.version);
      this.log.error(`Pipeline '${name}' (version ${entry.version}, deployed on ${entry.origin}) failed to load here; the previous version keeps serving: ${messageOf(error)}`, undefined, { source: source.plugin });
      return;
    }
    if (loaded === undefined) {
      // Quarantined here: this version took the process down on starts in a row (logged by the deployer).
      await this.deployer.discard(staged);
      this.failed.set(name, entry.version);
      return;
    }
    const saved: SavedFiles = staged.installed ? "others" : !entry.save && !this.state.sharedDisk ? "all" : "keep";
    await this.deployer.install(name, { kind: entry.kind, skipMcp: entry.skipMcp, limits: entry.limits, transport: `from ${entry.origin}` }, staged, loaded, saved);
    this.deployer.applied.set(name, entry);
    this.failed.delete(name);
  }
}

function sameContent(a: ManifestEntry, b: ManifestEntry): boolean {
  return a.digest !== "" && a.digest === b.digest && a.kind === b.kind && a.save === b.save && a.skipMcp === b.skipMcp && a.description === b.description && JSON.stringify(a.limits) === JSON.stringify(b.limits);
}
