/**
 * @module The pipeline registry: name → deployed pipeline. Lookups are O(1) and listing keeps
 * deploy order; replacing an entry swaps one reference, so calls that already hold the old entry
 * finish on it while new calls get the new one.
 */

import type { RunLimits } from "./wrapper/run-limits.js";

/** Which transports a pipeline can serve. */
export interface PipelineCapabilities {
  readonly api: boolean;
  readonly chat: boolean;
  readonly response: boolean;
}

export interface DeployedPipeline {
  readonly name: string;
  readonly description: string;
  /** The deploy source kind that produced it (`files`, `yaml`, …). */
  readonly source: string;
  /** The running instance (a wrapper, or an adapter around a YAML pipeline). */
  readonly wrapper: unknown;
  readonly capabilities: PipelineCapabilities;
  readonly inputSchema?: unknown;
  readonly outputSchema?: unknown;
  readonly skipMcp: boolean;
  /** Per-pipeline run limits (the wrapper's, overridden by the deploy request's). */
  readonly limits?: RunLimits;
  /** The run input declares `files`: `/{name}/run` takes multipart uploads. */
  readonly requiresFiles: boolean;
  /** Its files input also takes JSON (a YAML pipeline's ByteStreams); otherwise a JSON body is a 415. */
  readonly filesAsJson?: boolean;
  readonly deployedAt: Date;
}

export class PipelineRegistry {
  private readonly entries = new Map<string, DeployedPipeline>();

  get(name: string): DeployedPipeline | undefined {
    return this.entries.get(name);
  }

  has(name: string): boolean {
    return this.entries.has(name);
  }

  /** Adds or replaces; a replaced name keeps its place in the listing. Returns the old entry. */
  set(pipeline: DeployedPipeline): DeployedPipeline | undefined {
    const previous = this.entries.get(pipeline.name);
    this.entries.set(pipeline.name, pipeline);
    return previous;
  }

  delete(name: string): DeployedPipeline | undefined {
    const previous = this.entries.get(name);
    this.entries.delete(name);
    return previous;
  }

  list(): DeployedPipeline[] {
    return [...this.entries.values()];
  }

  names(): string[] {
    return [...this.entries.keys()];
  }

  get size(): number {
    return this.entries.size;
  }
}
