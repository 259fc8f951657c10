/**
 * @module PipelinesWatcher: keeps the registry in step with the pipelines directory while a server
 * runs. A folder or YAML file that appears is deployed, one that changes is redeployed, one that
 * disappears is undeployed (only if it was deployed from disk). Changes are debounced, a file
 * caught half-written just fails to deploy and is retried on its next change, and files written by
 * a deploy itself (REST, MCP tools) are not deployed a second time.
 */
import { watch, type FSWatcher } from "node:fs";
import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import type { Logger } from "../logger.js";
import type { PipelineRegistry } from "../registry.js";
import type { DeployService } from "./deploy-service.js";

const STAGING = ".svc-";

export class PipelinesWatcher {
  /** Signature of each entry on disk when last seen; a deploy from elsewhere forgets its entry. */
  private readonly seen = new Map<string, string>();
  private watcher?: FSWatcher;
  private poll?: NodeJS.Timeout;
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private again = false;
  private closed = false;

  constructor(
    private readonly deployer: DeployService,
    private readonly registry: PipelineRegistry,
    private readonly log: Logger,
    private readonly debounceMs = 300,
  ) {}

  /** Remembers what is on disk now (already deployed at startup) and starts watching. */
  async start(): Promise<void> {
    await this.deployer.files.ensureRoot();
    await this.scan(true);
    const root = this.deployer.files.root;
    try {
      this.watcher = watch(root, { recursive: true }, (_event, file) => {
        if (file && String(file).split(/[\\/]/)[0]!.startsWith(STAGING)) return;
        this.schedule();
      });
      this.watcher.on("error", (error) => this.fallBackToPolling(error));
    } catch (error) {
      this.fallBackToPolling(error);
    }
  }

  /** A deploy made elsewhere wrote these files: take them as they are at the next scan. */
  forget(name: string): void {
    this.seen.delete(name);
  }

  close(): Promise<void> {
    this.closed = true;
    this.watcher?.close();
    clearInterval(this.poll);
    clearTimeout(this.timer);
    return this.running ?? Promise.resolve();
  }

  /** Scans now (serialized with the watcher's own scans). */
  sync(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = this.scan().finally(() => {
      this.running = undefined;
      if (this.again && !this.closed) {
        this.again = false;
        void this.sync();
      }
    });
    return this.running;
  }

  private schedule(): void {
    if (this.closed) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.sync(), this.debounceMs);
  }

  private fallBackToPolling(error: unknown): void {
    this.watcher?.close();
    this.watcher = undefined;
    if (this.poll || this.closed) return;
    this.log.warn(`Cannot watch ${this.deployer.files.root} (${(error as Error)?.message}); checking it every 2 s instead`);
    this.poll = setInterval(() => void this.sync(), 2000);
    this.poll.unref();
  }

  /** With `adopt`, only records what is there: the startup deploy already tried every entry. */
  private async scan(adopt = false): Promise<void> {
    const candidates = await this.deployer.files.candidates().catch(() => []);
    const present = new Set<string>();
    for (const c of candidates) {
      if (this.closed) return;
      present.add(c.name);
      const signature = await signatureOf(c.path).catch(() => undefined);
      if (signature === undefined) continue;
      const known = this.seen.get(c.name);
      if (known === signature) continue;
      this.seen.set(c.name, signature);
      if (adopt || (known === undefined && this.registry.has(c.name))) continue;
      try {
        await this.deployer.deploy({ kind: c.kind, name: c.name, path: c.path, overwrite: true });
        this.log.info(`${known === undefined ? "Deployed" : "Redeployed"} '${c.name}': its files changed`);
      } catch (error) {
        if (!this.deployer.logged(error)) this.log.warn(`Could not deploy '${c.path}': ${(error as Error).message}`);
      }
      this.seen.set(c.name, signature); // the deploy's own hook made us forget it
    }
    for (const name of [...this.seen.keys()]) {
      if (present.has(name)) continue;
      this.seen.delete(name);
      if (!this.registry.has(name)) continue;
      await this.deployer.undeploy(name).catch((error) => this.log.warn(`Could not undeploy '${name}': ${(error as Error).message}`));
    }
  }
}

/** Changes when any file under `path` is added, removed, resized or touched. */
async function signatureOf(path: string): Promise<string> {
  const info = await stat(path);
  if (!info.isDirectory()) return `${info.size}:${info.mtimeMs}`;
  const parts: string[] = [];
  for (const entry of await readdir(path, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = join(entry.parentPath, entry.name);
    if (file.includes(`${"/"}node_modules${"/"}`)) continue;
    const s = await stat(file);
    parts.push(`${file}:${s.size}:${s.mtimeMs}`);
  }
  return parts.sort().join("|");
}
