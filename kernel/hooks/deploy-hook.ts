/**
 * @module DeployHook: series events after a pipeline is deployed or undeployed, and the source
 * handlers (one per kind, such as `files` or `yaml`) that turn a deploy request into a pipeline.
 */
import { kernelErrors } from "../errors.js";
import type { DeployedPipeline } from "../registry.js";
import { SeriesHook } from "./series-hook.js";

export interface DeploySourceRequest {
  readonly name: string;
  readonly description?: string;
  /** The source's own input: a file map, a YAML text, … */
  readonly payload: unknown;
}

/** Everything of a deployed pipeline that its source decides. */
export type LoadedPipeline = Omit<DeployedPipeline, "name" | "source" | "deployedAt"> & {
  /** Releases what loading acquired; called on undeploy and when a later deploy step fails. */
  dispose?(): void | Promise<void>;
};

export type DeploySourceHandler = (request: DeploySourceRequest) => Promise<LoadedPipeline>;

export class DeployHook {
  /** After a pipeline became callable (also after an overwrite). */
  readonly deployed = new SeriesHook<[DeployedPipeline]>("deploy.deployed");
  /** After a pipeline was removed. */
  readonly undeployed = new SeriesHook<[string]>("deploy.undeployed");
  private readonly sources = new Map<string, { plugin: string; handler: DeploySourceHandler }>();

  registerSource(plugin: string, kind: string, handler: DeploySourceHandler): void {
    if (this.sources.has(kind)) throw kernelErrors.sourceDuplicate(kind, plugin);
    this.sources.set(kind, { plugin, handler });
  }

  source(kind: string): DeploySourceHandler | undefined {
    return this.sources.get(kind)?.handler;
  }

  get sourceKinds(): string[] {
    return [...this.sources.keys()];
  }
}
