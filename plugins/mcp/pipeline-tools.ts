/**
 * @module Every deployed pipeline with a `runApi` is a tool named after it, kept current by the
 * `deploy` hook. A call validates the arguments with the pipeline's input schema (in the tool
 * server), runs `runApi` through the kernel's `run` hook with transport `mcp`, and returns the
 * result: strings as text, anything else as JSON text. Skipped, with a log line: `skipMcp`
 * pipelines, pipelines without `runApi`, pipelines that take file uploads (MCP carries no files),
 * and names a core tool already uses.
 */
import type { IncomingHttpHeaders } from "node:http";
import { CallRunContext, messageOf, type BasePipelineWrapper, type DeployedPipeline, type PipelineRegistry, type PluginApi, type RunCall, type Span } from "svc";
import type { ToolContext, ToolServer } from "./tool-server.js";
import { ToolError } from "./tool-result.js";
import { pipelineToolResult } from "./run-result.js";

/** One tool call of a pipeline, as the `run` hook sees it. */
class McpRunCall implements RunCall {
  readonly method = "runApi";
  readonly transport = "mcp";
  constructor(
    readonly pipeline: string,
    readonly input: unknown,
    private readonly ctx: ToolContext,
  ) {}
  get signal(): AbortSignal {
    return this.ctx.signal;
  }
  get requestId(): string {
    return String(this.ctx.requestId);
  }
  get span(): Span | undefined {
    return this.ctx.span;
  }
  get headers(): IncomingHttpHeaders | undefined {
    return this.ctx.headers;
  }
}

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
    // The entry current at call time: a redeploy swaps it, calls already running keep theirs.
    const pipeline = this.registry.get(name);
    if (!pipeline) throw new ToolError(`Pipeline '${name}' not found`);
    const wrapper = pipeline.wrapper as BasePipelineWrapper;
    const call = new McpRunCall(name, args, ctx);
    try {
      const result = await this.api.run(call, (c) => wrapper.runApi!(c.input as never, new CallRunContext(c, this.api.log)));
      return await pipelineToolResult(this.api, name, call.requestId, ctx.signal, result);
    } catch (error) {
      throw Object.assign(new Error(`Pipeline '${name}' failed: ${messageOf(error)}`, { cause: error }), { stack: (error as Error)?.stack });
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
