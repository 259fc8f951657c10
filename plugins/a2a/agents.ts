/**
 * @module Which deployed pipelines are A2A agents, kept current by the `deploy` hook: every
 * pipeline whose wrapper implements `runChatCompletion` (sync, async or streaming), unless it sets
 * `static skipA2a = true`, or its `static a2aCard` is invalid (logged, as Hayhooks skips it).
 * Lookups are by name; nothing per request scans the pipelines.
 */
import { messageOf, type DeployedPipeline, type PipelineRegistry, type PluginApi } from "svc/plugin";
import { cardOverrideOf, type CardOverride } from "./agent-card.js";

export interface Agent {
  readonly name: string;
  readonly description: string;
  readonly override: CardOverride;
}

/** The wrapper class's static fields. */
function staticOf(pipeline: DeployedPipeline, key: string): unknown {
  const wrapper = pipeline.wrapper as { constructor?: Record<string, unknown> } | null;
  return wrapper?.constructor?.[key];
}

export class AgentDirectory {
  private readonly agents = new Map<string, Agent>();

  constructor(
    private readonly api: PluginApi,
    private readonly registry: PipelineRegistry,
  ) {}

  /** Lists what is deployed now and follows deploys from here on. */
  start(): this {
    for (const pipeline of this.registry.list()) this.add(pipeline);
    this.api.hooks.deploy.deployed.tap((pipeline) => {
      this.agents.delete(pipeline.name);
      this.add(pipeline);
    });
    this.api.hooks.deploy.undeployed.tap((name) => {
      this.agents.delete(name);
    });
    return this;
  }

  get(name: string): Agent | undefined {
    return this.agents.get(name);
  }

  names(): string[] {
    return [...this.agents.keys()];
  }

  private add(pipeline: DeployedPipeline): void {
    const { name } = pipeline;
    if (!pipeline.capabilities.chat) return this.api.log.debug(`Pipeline '${name}' is not an A2A agent: it has no runChatCompletion`);
    if (staticOf(pipeline, "skipA2a") === true) return this.api.log.info(`Skipping pipeline '${name}' as an A2A agent: skipA2a is set`);
    let override: CardOverride;
    try {
      override = cardOverrideOf(staticOf(pipeline, "a2aCard"));
    } catch (error) {
      return this.api.log.warn(`Skipping pipeline '${name}' as an A2A agent: ${messageOf(error)}`);
    }
    this.agents.set(name, { name, description: pipeline.description, override });
    this.api.log.debug(`Pipeline '${name}' is an A2A agent`);
  }
}
