/**
 * @module DeployService: deploys and undeploys pipelines for every transport (REST, MCP, startup).
 * It checks the name and every file path before touching the disk, stages files and swaps them in,
 * lets the source handler of the request's kind load the pipeline, and only then swaps the registry
 * entry; a failure anywhere leaves disk and registry as they were. Work on one name is serialized.
 */
import { readFile, rm } from "node:fs/promises";
import { HttpError, messageOf } from "../errors.js";
import type { DeployHook } from "../hooks/deploy-hook.js";
import { inSpan, type Span, type Tags, type Tracer } from "../hooks/tracer.js";
import type { Logger } from "../logger.js";
import type { DeployedPipeline, PipelineRegistry } from "../registry.js";
import { WRAPPER_FILES } from "../wrapper/load-wrapper.js";
import { deployErrors } from "./deploy-errors.js";
import { checkPipelineName, checkRelativePath } from "./names.js";
import { PipelineFiles, type FileMap, type Installed } from "./pipeline-files.js";

export interface DeployRequest {
  /** The source kind: `files` (a wrapper folder) or `yaml`, or one a plugin handles. */
  readonly kind: string;
  readonly name: string;
  readonly description?: string;
  readonly overwrite?: boolean;
  /** Keep the files in the pipelines directory (default true). */
  readonly save?: boolean;
  /** Overrides the wrapper's own `skipMcp`. */
  readonly skipMcp?: boolean;
  /** `files`: relative path → content. */
  readonly files?: Readonly<Record<string, string | Buffer>>;
  /** `yaml`: the YAML text. */
  readonly source?: string;
  /** Deploy what is already on disk (startup): a folder for `files`, a file for `yaml`. */
  readonly path?: string;
}

/** What a deployment owns and must release when it is replaced or removed. */
interface Owned {
  dispose?(): void | Promise<void>;
  tempDir?: string;
}

export const MAX_DEPLOY_FILES = 1000;

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

  constructor(
    pipelinesDir: string,
    private readonly registry: PipelineRegistry,
    private readonly hook: DeployHook,
    private readonly tracer: Tracer,
    private readonly log: Logger,
  ) {
    this.files = new PipelineFiles(pipelinesDir);
  }

  /** Deploys; `parent` is the span of a larger operation (startup) the deploy is part of. */
  async deploy(request: DeployRequest, parent?: Span): Promise<DeployedPipeline> {
    const name = checkPipelineName(request.name);
    return this.serialize(name, () =>
      inSpan(this.tracer, "svc.deploy", deployTags(name, request), () => this.load(name, request), parent),
    );
  }

  undeploy(name: string): Promise<void> {
    return this.serialize(name, () =>
      inSpan(this.tracer, "svc.undeploy", { "svc.pipeline.name": name, "svc.transport": "runtime" }, async () => {
        if (!this.registry.delete(name)) throw deployErrors.notFound(name);
        await this.release(this.owned.get(name));
        this.owned.delete(name);
        await this.files.removeSaved(name);
        this.log.info(`Pipeline '${name}' undeployed`);
        await this.notify(() => this.hook.undeployed.call(name));
      }),
    );
  }

  /** Deploys every folder and YAML file of the pipelines directory; a broken one is skipped. */
  async deployAll(): Promise<{ deployed: string[]; total: number }> {
    return inSpan(this.tracer, "svc.startup.deploy", { "svc.transport": "startup" }, async (span) => {
      await this.files.ensureRoot();
      const candidates = await this.files.candidates();
      const deployed: string[] = [];
      for (const c of candidates) {
        try {
          await this.deploy({ kind: c.kind, name: c.name, path: c.path }, span);
          deployed.push(c.name);
        } catch (error) {
          this.log.warn(`Skipping pipeline '${c.path}': ${(error as Error).message}`);
        }
      }
      span.setTags({ "svc.startup.deployed": deployed.length, "svc.startup.total": candidates.length });
      this.log.info(`deployed ${deployed.length}/${candidates.length} pipelines from ${this.files.root}`);
      return { deployed, total: candidates.length };
    });
  }

  /** Removes the temporary folders of deployments that were not saved. */
  async close(): Promise<void> {
    for (const owned of this.owned.values()) await this.release(owned);
    this.owned.clear();
  }

  private async load(name: string, request: DeployRequest): Promise<DeployedPipeline> {
    const handler = this.hook.source(request.kind);
    if (!handler) throw deployErrors.noSource(request.kind);
    const previous = this.registry.get(name);
    if (previous && !request.overwrite) throw deployErrors.exists(name);
    const save = request.save ?? true;
    const staged = await this.stage(name, request, save);

    let loaded;
    try {
      loaded = await handler({ name, description: request.description, payload: staged.payload });
    } catch (error) {
      await staged.installed?.rollback();
      if (staged.tempDir) await rm(staged.tempDir, { recursive: true, force: true });
      const failure = error instanceof HttpError ? error : deployErrors.loadFailed(name, error);
      // The client gets the short cause; the log keeps the whole of it (paths, require stack).
      this.log.warn(`Deploy of '${name}' failed: ${messageOf(failure.cause ?? failure)}`);
      throw failure;
    }

    const { dispose, ...rest } = loaded;
    const entry: DeployedPipeline = { ...rest, name, source: request.kind, skipMcp: request.skipMcp ?? rest.skipMcp, deployedAt: new Date() };
    this.registry.set(entry);
    await staged.installed?.commit();
    const old = this.owned.get(name);
    this.owned.set(name, { dispose, tempDir: staged.tempDir });
    await this.release(old);
    // One saved form per pipeline: drop the other kind's files, or all of them when not saving.
    if (staged.installed) await this.files.removeSaved(name, staged.installed.path);
    else if (previous && !request.path) await this.files.removeSaved(name);
    this.log.info(`Pipeline '${name}' ${previous ? "redeployed" : "deployed"}`, { kind: request.kind });
    await this.notify(() => this.hook.deployed.call(entry));
    return entry;
  }

  /** Puts the request's files where the source handler reads them, after every check passed. */
  private async stage(
    name: string,
    request: DeployRequest,
    save: boolean,
  ): Promise<{ payload: unknown; installed?: Installed; tempDir?: string }> {
    if (request.kind === "files") {
      if (request.path) return { payload: { dir: request.path } };
      const files = checkFiles(request.files);
      if (save) {
        const installed = await this.files.installFolder(name, files);
        return { payload: { dir: installed.path }, installed };
      }
      const tempDir = await this.files.tempFolder(name, files);
      return { payload: { dir: tempDir }, tempDir };
    }
    if (request.path) return { payload: { source: await readFile(request.path, "utf8"), file: request.path } };
    if (typeof request.source !== "string") throw new HttpError(400, "A YAML deploy needs its source text.");
    if (!save) return { payload: { source: request.source } };
    const installed = await this.files.installYaml(name, request.source);
    return { payload: { source: request.source, file: installed.path }, installed };
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

  private serialize<T>(name: string, work: () => Promise<T>): Promise<T> {
    const before = this.queues.get(name) ?? Promise.resolve();
    const result = before.then(work, work);
    const tail = result.catch(() => undefined);
    this.queues.set(name, tail);
    void tail.then(() => {
      if (this.queues.get(name) === tail) this.queues.delete(name);
    });
    return result;
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
