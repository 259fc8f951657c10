/**
 * @module DeployHook: series events after a pipeline is deployed or undeployed, and the source
 * handlers (one per kind, such as `files` or `yaml`) that turn a deploy request into a pipeline.
 */
import { kernelErrors } from "../errors.js";
import type { DeployedPipeline } from "../registry.js";
import { yamlStaging, type DeployStaging } from "../deploy/source-staging.js";
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

/** A kind's source: the plugin that registered it, how it loads and how it stages its deploys. */
export interface DeploySource {
  readonly plugin: string;
  readonly load: DeploySourceHandler;
  readonly staging: DeployStaging;
}

export class DeployHook {
  /** After a pipeline became callable (also after an overwrite). */
  readonly deployed = new SeriesHook<[DeployedPipeline]>("deploy.deployed");
  /** After a pipeline was removed. */
  readonly undeployed = new SeriesHook<[string]>("deploy.undeployed");
  private readonly sources = new Map<string, DeploySource>();

  /** `staging` defaults to one text file per pipeline (the YAML kind's). */
  registerSource(plugin: string, kind: string, handler: DeploySourceHandler, staging: DeployStaging = yamlStaging): void {
    if (this.sources.has(kind)) throw kernelErrors.sourceDuplicate(kind, plugin);
    this.sources.set(kind, { plugin, load: handler, staging });
  }

  /** The source of a kind with its plugin and staging. */
  sourceOf(kind: string): DeploySource | undefined {
    return this.sources.get(kind);
  }

  get sourceKinds(): string[] {
    return [...this.sources.keys()];
  }
}
