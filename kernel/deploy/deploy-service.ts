/**
 * @module DeployService: deploys and undeploys pipelines for every transport (REST, MCP, startup).
 * It checks the name before touching the disk, lets the source of the request's kind stage its
 * content (checking every file path) and load the pipeline, records the change in the deploy
 * state (which decides the 409/404 rules for every process of the service) and only then swaps the
 * saved files in and the registry entry; a failure anywhere, a crash included, leaves disk, state
 * and registry as they were (the first deploy work of a start puts back what a crash left, see
 * hidden-files.ts; startup-loads.ts quarantines a pipeline whose loading kills the process).
 * Changes other processes make are applied by `ClusterFollower`. Work on one name is serialized.
 */
import { rm } from "node:fs/promises";
import { HttpError, messageOf } from "../errors.js";
import type { DeployHook, DeploySource, LoadedPipeline } from "../hooks/deploy-hook.js";
import { inSpan, type Span, type Tags, type Tracer } from "../hooks/tracer.js";
import type { Logger } from "../logger.js";
import type { DeployedPipeline, PipelineRegistry } from "../registry.js";
import { mergeLimits, type RunLimits } from "../wrapper/run-limits.js";
import { deployErrors } from "./deploy-errors.js";
import { checkPipelineName } from "./names.js";
import { PipelineFiles } from "./pipeline-files.js";
import type { DeployState, ManifestEntry, ManifestWrite } from "./deploy-state.js";
import { LocalDeployState } from "./local-deploy-state.js";
import { ClusterFollower } from "./cluster-follower.js";
import { recoverHidden } from "./hidden-files.js";
import { quarantineMessage, StartupLoads } from "./startup-loads.js";
import type { EntryContent } from "./manifest-content.js";
import type { DeployRequest, SavedFiles, Staged } from "./deploy-request.js";

export type { DeployRequest, SavedFiles, Staged } from "./deploy-request.js";

/** What a deployment owns and must release when it is replaced or removed. */
interface Owned {
  dispose?(): void | Promise<void>;
  tempDir?: string;
}

function deployTags(name: string, request: DeployRequest): Tags {
  return {
    "svc.pipeline.name": name,
    "svc.transport": request.path ? "startup" : "runtime",
    "svc.deploy.kind": request.kind,
    "svc.deploy.overwrite": request.overwrite ?? false,
    "svc.deploy.save_files": request.save ?? true,
    "svc.deploy.skip_mcp": request.skipMcp,
    "svc.deploy.file_count": request.files ? Object.keys(request.files).length : undefined,
  };
}

export class DeployService {
  readonly files: PipelineFiles;
  private readonly owned = new Map<string, Owned>();
  private readonly queues = new Map<string, Promise<unknown>>();
  /** Load failures load() already logged, so startup does not log them a second time. */
  private readonly loggedFailures = new WeakSet<object>();

  /** True for a deploy error this service has logged already (callers then do not log it again). */
  logged(error: unknown): boolean {
    return typeof error === "object" && error !== null && this.loggedFailures.has(error);
  }
  /** The manifest entry each pipeline here serves. */
  readonly applied = new Map<string, ManifestEntry>();
  /** Names with a change on its way to the state: an announcement of them must not wait for this process. */
  readonly committing = new Set<string>();
  private follower?: ClusterFollower;
  private readonly startup: StartupLoads;
  private recovery?: Promise<void>;
  /** True while `deployAll` (the startup deploy of the pipelines folder) runs: the process is not ready. */
  startingUp = false;

  constructor(
    pipelinesDir: string,
    private readonly registry: PipelineRegistry,
    private readonly hook: DeployHook,
    private readonly tracer: Tracer,
    private readonly log: Logger,
    readonly state: DeployState = new LocalDeployState("local"),
    /** The route words names may not take, as of now (see `routeWords`). */
    private readonly reserved: () => ReadonlySet<string> = () => new Set(),
  ) {
    this.files = new PipelineFiles(pipelinesDir);
    this.startup = new StartupLoads(pipelinesDir, (reason) =>
      log.warn(`The pipelines directory is read-only (${reason}): pipelines load without the crash guard, and deploys through the API will fail.`),
    );
  }

  /** Pipelines not deployed because loading them took the process down on starts in a row. */
  get quarantined(): string[] {
    return this.startup.names;
  }

  /**
   * Loads the cluster manifest's `version` of `name` under the crash guard of startup loads: undefined
   * when that version is quarantined here (it took this process down on starts in a row); a version
   * that loads lifts the quarantine.
   */
  async loadGuarded<T>(name: string, version: number, load: () => Promise<T>): Promise<T | undefined> {
    await this.recover();
    const quarantine = this.startup.quarantine(name);
    if (quarantine && (quarantine.version === undefined || quarantine.version === version)) {
      this.log.error(quarantineMessage(name, quarantine));
      return undefined;
    }
    await this.startup.begin(name, version);
    try {
      const loaded = await load();
      await this.startup.lift(name);
      return loaded;
    } finally {
      await this.startup.end(name);
    }
  }

  /**
   * Once per process, before its first deploy work: puts back saved files a crashed deploy had moved
   * aside, removes what crashed processes left, and reads which pipeline took the last starts down.
   */
  recover(): Promise<void> {
    return (this.recovery ??= (async () => {
      const root = this.files.root;
      const { restored, removed } = await recoverHidden(root, (n) => this.files.folderOf(n), (n) => this.files.yamlOf(n));
      for (const name of restored) this.log.warn(`Pipeline '${name}': a deploy that a crash interrupted had moved its saved files aside; the previous version is back in place`);
      if (removed > 0) this.log.info(`Removed ${removed} unfinished deploy folder(s) that stopped processes left in ${root}`);
      await this.startup.recover();
    })().catch((error) => this.log.warn(`Could not check ${this.files.root} for what a crash left: ${messageOf(error)}`)));
  }

  /** Deploys; `parent` is the span of a larger operation (startup) the deploy is part of. */
  async deploy(request: DeployRequest, parent?: Span): Promise<DeployedPipeline> {
    const name = checkPipelineName(request.name, this.reserved());
    return this.serialize(name, () =>
      inSpan(this.tracer, "svc.deploy", deployTags(name, request), () => this.change(name, () => this.load(name, request)), parent),
    );
  }

  undeploy(name: string): Promise<void> {
    return this.serialize(name, () =>
      inSpan(this.tracer, "svc.undeploy", { "svc.pipeline.name": name, "svc.transport": "runtime" }, () =>
        this.change(name, async () => {
          await this.recover();
          const result = await this.state.remove(name);
          if ("conflict" in result && this.startup.quarantine(name)) {
            // Never deployed in this start: undeploying it removes its files and lifts the quarantine.
            await this.files.removeSaved(name);
            await this.startup.lift(name);
            this.log.info(`Quarantined pipeline '${name}' removed`);
            return;
          }
          if ("conflict" in result) throw deployErrors.notFound(name);
          await this.removeLocal(name, true);
        }),
      ),
    );
  }

  /**
   * Deploys every folder and YAML file of the pipelines directory; a broken one is skipped. With a
   * shared state a name the manifest already has is not deployed from here: the manifest's version
   * is served instead (startup seeds the cluster, it never overrides it).
   */
  async deployAll(): Promise<{ deployed: string[]; total: number }> {
    this.startingUp = true;
    return inSpan(this.tracer, "svc.startup.deploy", { "svc.transport": "startup" }, async (span) => {
      await this.files.ensureRoot();
      await this.recover();
      const candidates = await this.files.candidates();
      const deployed: string[] = [];
      for (const c of candidates) {
        const quarantine = this.startup.quarantine(c.name);
        if (quarantine) {
          this.log.error(quarantineMessage(c.name, quarantine));
          continue;
        }
        // A marker this start removes once the load returned: found by the next start, it names the pipeline that killed this one.
        await this.startup.begin(c.name);
        try {
          await this.deployCandidate(c, span, deployed);
        } finally {
          await this.startup.end(c.name);
        }
      }
      span.setTags({ "svc.startup.deployed": deployed.length, "svc.startup.total": candidates.length });
      this.log.info(`deployed ${deployed.length}/${candidates.length} pipelines from ${this.files.root}`);
      return { deployed, total: candidates.length };
    }).finally(() => (this.startingUp = false));
  }

  /** One entry of the pipelines folder at startup (see `deployAll`). */
  private async deployCandidate(c: { kind: string; name: string; path: string }, span: Span, deployed: string[]): Promise<void> {
    try {
      if (!(this.follower && (await this.state.get(c.name)))) {
        await this.deploy({ kind: c.kind, name: c.name, path: c.path }, span);
        deployed.push(c.name);
        return;
      }
    } catch (error) {
      if (!this.follower || (error as HttpError).status !== 409) {
        // A load failure was logged in full by load(): one line per broken entry, not two.
        if (!this.logged(error)) this.log.warn(`Skipping pipeline '${c.path}': ${(error as Error).message}`);
        return;
      }
    }
    // The cluster has this name (or another instance seeded it a moment ago): serve its version.
    await this.follower!.sync(c.name).catch((error) => this.log.warn(`Could not follow pipeline '${c.name}': ${messageOf(error)}`));
    if (this.registry.has(c.name)) deployed.push(c.name);
  }

  /** The source of a kind, if a plugin registered one. */
  hookSource(kind: string): DeploySource | undefined {
    return this.hook.sourceOf(kind);
  }

  /**
   * With a shared state: serves the manifest's pipelines now and follows its changes (checking the
   * whole manifest every `intervalMs`). Call once the plugins that load pipelines are set up.
   */
  async follow(intervalMs: number): Promise<void> {
    if (!this.state.shared || this.follower) return;
    await this.recover();
    this.follower = new ClusterFollower(this, this.tracer, this.log, intervalMs);
    await this.follower.start();
  }

  /** Stops following and removes the temporary folders of deployments that were not saved. */
  async close(): Promise<void> {
    this.follower?.close();
    for (const owned of this.owned.values()) await this.release(owned);
    this.owned.clear();
  }

  private async load(name: string, request: DeployRequest): Promise<DeployedPipeline> {
    const source = this.hook.sourceOf(request.kind);
    if (!source) throw deployErrors.noSource(request.kind);
    await this.recover();
    const current = await this.state.get(name);
    if (current && !request.overwrite) throw deployErrors.exists(name);
    const save = request.save ?? true;
    const staged = await source.staging.stage({ ...request, name }, this.files, save);
    let content: EntryContent | undefined;
    let loaded: LoadedPipeline;
    try {
      content = this.state.shared ? await source.staging.content(request) : undefined;
      // The same files again from disk (a watcher's echo of a deploy it did not make): nothing to do.
      const same = request.path && current && content?.digest === current.digest && this.applied.get(name)?.version === current.version;
      if (same && this.registry.has(name)) {
        await this.discard(staged);
        return this.registry.get(name)!;
      }
      loaded = await source.load({ name, description: request.description, payload: staged.payload });
    } catch (error) {
      await this.discard(staged);
      const failure = deployErrors.sourceFailed(error instanceof HttpError ? error : deployErrors.loadFailed(name, error), source.plugin);
      // The client gets the short cause; the log keeps the whole of it (paths, require stack).
      this.log.warn(`Deploy of '${name}' failed: ${messageOf(failure.cause ?? failure)}`, { source: source.plugin });
      this.loggedFailures.add(failure);
      throw failure;
    }

    const write: ManifestWrite = {
      name,
      kind: request.kind,
      description: request.description,
      skipMcp: request.skipMcp,
      limits: request.limits,
      save: request.path ? true : save,
      files: content?.files,
      source: content?.source,
      digest: content?.digest ?? "",
      origin: this.state.health().instance,
      deployedAt: new Date().toISOString(),
    };
    let result;
    try {
      result = await this.state.put(write, request.overwrite ? "replace" : "create");
      if ("conflict" in result) throw deployErrors.exists(name);
    } catch (error) {
      await this.discard(staged, loaded);
      throw error;
    }
    const saved: SavedFiles = staged.installed ? "others" : current && !request.path ? "all" : "keep";
    const entry = await this.install(name, { kind: request.kind, skipMcp: request.skipMcp, limits: request.limits }, staged, loaded, saved);
    this.applied.set(name, { ...write, version: result.version });
    // A version deployed through the API loaded: the quarantine of the name is over.
    if (!request.path) await this.startup.lift(name);
    return entry;
  }

  /**
   * Makes a loaded pipeline the one served under `name`: swaps the registry entry, commits its
   * files, releases the previous version and announces the deploy.
   */
  async install(
    name: string,
    meta: { kind: string; skipMcp?: boolean; limits?: RunLimits; transport?: string },
    staged: Staged,
    loaded: LoadedPipeline,
    saved: SavedFiles,
  ): Promise<DeployedPipeline> {
    const { dispose, ...rest } = loaded;
    const entry: DeployedPipeline = { ...rest, name, source: meta.kind, skipMcp: meta.skipMcp ?? rest.skipMcp, limits: mergeLimits(rest.limits, meta.limits), deployedAt: new Date() };
    // The commit point on disk: the saved form is swapped in (two renames) only now, after the load.
    try {
      await staged.installed?.commit();
    } catch (error) {
      await this.discard(staged, loaded);
      throw error;
    }
    const previous = this.registry.set(entry);
    const old = this.owned.get(name);
    this.owned.set(name, { dispose, tempDir: staged.tempDir });
    await this.release(old);
    // One saved form per pipeline: drop the other kind's files, or all of them when not saving.
    if (saved === "others") await this.files.removeSaved(name, staged.installed?.path);
    else if (saved === "all") await this.files.removeSaved(name);
    this.log.info(`Pipeline '${name}' ${previous ? "redeployed" : "deployed"}${meta.transport ? ` (${meta.transport})` : ""}`, { kind: meta.kind });
    await this.notify(() => this.hook.deployed.call(entry));
    return entry;
  }

  /** Stops serving `name` here; `removeFiles` also deletes its saved files. */
  async removeLocal(name: string, removeFiles: boolean): Promise<void> {
    this.applied.delete(name);
    const had = this.registry.delete(name);
    await this.release(this.owned.get(name));
    this.owned.delete(name);
    if (removeFiles) await this.files.removeSaved(name);
    if (!had) return;
    this.log.info(`Pipeline '${name}' undeployed`);
    await this.notify(() => this.hook.undeployed.call(name));
  }

  /** Undoes staging (and a loaded pipeline) of a deploy that did not happen. */
  async discard(staged: Staged, loaded?: LoadedPipeline): Promise<void> {
    if (loaded) await this.release({ dispose: loaded.dispose });
    await staged.installed?.rollback();
    if (staged.tempDir) await rm(staged.tempDir, { recursive: true, force: true });
  }

  /** Runs work on one name after the work queued before it (deploys, undeploys, cluster changes). */
  serialize<T>(name: string, work: () => Promise<T>): Promise<T> {
    const before = this.queues.get(name) ?? Promise.resolve();
    const result = before.then(work, work);
    const tail = result.catch(() => undefined);
    this.queues.set(name, tail);
    void tail.then(() => {
      if (this.queues.get(name) === tail) this.queues.delete(name);
    });
    return result;
  }

  /**
   * A change of `name` made here. Announcements of that name meanwhile do not wait for this process
   * (its own change replaces them), and a state that serializes changes across processes sharing
   * one pipelines directory (the workers' primary) holds the name from before the files are staged
   * until the change is served here.
   */
  private async change<T>(name: string, work: () => Promise<T>): Promise<T> {
    this.committing.add(name);
    this.follower?.releaseWaits(name);
    try {
      await this.state.acquire?.(name);
      try {
        return await work();
      } finally {
        this.state.settled?.(name);
      }
    } finally {
      this.committing.delete(name);
    }
  }

  private async release(owned: Owned | undefined): Promise<void> {
    if (!owned) return;
    try {
      await owned.dispose?.();
    } catch (error) {
      this.log.error("A replaced pipeline failed to dispose", error);
    }
    if (owned.tempDir) await rm(owned.tempDir, { recursive: true, force: true });
  }

  /** Deploy events run after the change is made; a failing subscriber is logged, not undone. */
  private async notify(call: () => Promise<void>): Promise<void> {
    try {
      await call();
    } catch (error) {
      this.log.error("A deploy event subscriber failed", error);
    }
  }
}
