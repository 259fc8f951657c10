/**
 * @module Every deployed pipeline with a `runApi` is a tool named after it, kept current by the
 * `deploy` hook. A call validates the arguments with the pipeline's input schema (in the tool
 * server), runs `runApi` through the kernel's `run` hook with transport `mcp`, and returns the
 * result: strings as text, anything else as JSON text; a stream's parts are progress notifications
 * when the client sent a progress token. Skipped, with a log line: `skipMcp`
 * pipelines, pipelines without `runApi`, pipelines that take file uploads (MCP carries no files),
 * and names a core tool already uses.
 */
import { HttpError, messageOf, type DeployedPipeline, type PipelineRegistry, type PluginApi } from "svc/plugin";
import type { ToolContext, ToolServer } from "./tool-server.js";
import { ToolError } from "./tool-result.js";
import { pipelineToolResult } from "./run-result.js";

export class PipelineTools {
  constructor(
    private readonly api: PluginApi,
    private readonly tools: ToolServer,
    private readonly registry: PipelineRegistry,
    /** Names taken by core tools. */
    private readonly reserved: ReadonlySet<string>,
  ) {}

  /** Lists what is deployed now and follows deploys from here on. */
  start(): void {
    for (const pipeline of this.registry.list()) this.add(pipeline);
    this.api.hooks.deploy.deployed.tap((pipeline) => {
      this.tools.removeTool(pipeline.name);
      this.add(pipeline);
    });
    this.api.hooks.deploy.undeployed.tap((name) => {
      if (!this.reserved.has(name)) this.tools.removeTool(name);
    });
  }

  private add(pipeline: DeployedPipeline): void {
    const skip = reasonToSkip(pipeline, this.reserved);
    if (skip) {
      this.api.log.info(`Skipping pipeline '${pipeline.name}' as an MCP tool: ${skip}`);
      return;
    }
    const name = pipeline.name;
    this.tools.addTool((args, ctx) => this.call(name, args, ctx), {
      name,
      description: pipeline.description || name,
      inputSchema: pipeline.inputSchema as never,
    });
  }

  private async call(name: string, args: Record<string, unknown>, ctx: ToolContext): Promise<unknown> {
    const { signal, span, headers } = ctx;
    let pipeline;
    try {
      // The entry current at call time: a redeploy swaps it, calls already running keep theirs.
      pipeline = this.api.pipelineFor(name, "runApi");
    } catch (error) {
      throw new ToolError(messageOf(error));
    }
    let invocation;
    try {
      invocation = await this.api.invoke({ pipeline, method: "runApi", transport: "mcp", input: args, signal, span, headers, requestId: String(ctx.requestId) });
      return await pipelineToolResult(invocation, this.api.log, ctx.progress);
    } catch (error) {
      const cause = error instanceof HttpError && error.cause !== undefined ? error.cause : error;
      throw Object.assign(new Error(`Pipeline '${name}' failed: ${messageOf(cause)}`, { cause }), { stack: (cause as Error)?.stack });
    } finally {
      invocation?.close();
    }
  }
}

function reasonToSkip(pipeline: DeployedPipeline, reserved: ReadonlySet<string>): string | undefined {
  if (pipeline.skipMcp) return "skipMcp is set";
  if (!pipeline.capabilities.api) return "it has no runApi";
  if (pipeline.requiresFiles) return "it takes file uploads, which MCP tool calls cannot carry";
  if (reserved.has(pipeline.name)) return "a core MCP tool has that name";
  return undefined;
}
