/**
 * @module `buildTool`: turns a base function into a tool a model can call. In order: fixed
 * arguments are pinned and hidden; the memory decorators are applied; the workspace is injected
 * (or exposed as a required argument when there is no static one); a platform client is created
 * per call from the request's `Authorization: Bearer …` header or the static key; any failure
 * becomes a readable error result.
 */
import * as v from "valibot";
import {
  Explorer,
  ToolError,
  ValueError,
  errorResult,
  explorable,
  explorableAndReferenceable,
  referenceable,
  type Parameters,
  type ToolDefinition,
} from "svc/object-store";
import type { ObjectStore } from "svc/plugin";
import { PlatformClient } from "./client/platform-client.js";
import { MemoryType, type BaseTool, type ToolCallContext, type ToolConfig } from "./tool-config.js";

export interface BuildToolOptions {
  /** Static platform key: every call's key when header mode is off; in header mode only with `apiKeyAsFallback`. */
  apiKey?: string;
  /** In header mode, let a call without an `Authorization` header use `apiKey` (default false: it is refused). */
  apiKeyAsFallback?: boolean;
  /** Static workspace; unset exposes a required `workspace` argument. */
  workspace?: string;
  /** Read the key from the request's `Authorization: Bearer …` header (default true). */
  useRequestContext?: boolean;
  baseUrl?: string;
  objectStore?: ObjectStore;
  /** Per-call time-out of the platform client in milliseconds. */
  timeoutMs?: number;
  /** Overrides the base function's name and prompt. */
  name?: string;
  description?: string;
}

export type PlatformTool = ToolDefinition<ToolCallContext>;

const WORKSPACE = v.pipe(v.string(), v.minLength(1), v.description("Name of the platform workspace to work in."));

export function buildTool(base: BaseTool, config: ToolConfig = {}, options: BuildToolOptions = {}): PlatformTool {
  const memory = config.memoryType ?? MemoryType.NO_MEMORY;
  if (!Object.values(MemoryType).includes(memory)) throw new ValueError(`Invalid memory type: ${String(memory)}`);
  const custom = pinnedArguments(base, config.customArgs ?? {});
  const staticWorkspace = config.needsWorkspace && options.workspace ? options.workspace : undefined;

  const parameters: Parameters = {};
  if (config.needsWorkspace && !staticWorkspace) parameters.workspace = WORKSPACE;
  for (const [name, schema] of Object.entries(base.parameters)) if (!(name in custom)) parameters[name] = schema;

  // Parsed here too, so defaults and checks hold whoever calls the tool (a server, a program).
  const schema = v.object(parameters);
  let tool: PlatformTool = {
    name: options.name ?? base.name,
    description: options.description ?? base.description,
    parameters,
    handler: (args, ctx) =>
      base.run({
        ...checked(schema, args),
        ...custom,
        ...(staticWorkspace ? { workspace: staticWorkspace } : {}),
        ...(config.needsClient ? { client: clientFor(ctx, options) } : {}),
        signal: ctx?.signal,
      }),
  };

  if (memory !== MemoryType.NO_MEMORY) {
    if (!options.objectStore) throw new ValueError("ObjectStore instance is required for memory decorators");
    const memoryOptions = { objectStore: options.objectStore, explorer: new Explorer(options.objectStore, config.explorerConfig) };
    const decorate = {
      [MemoryType.EXPLORABLE]: explorable,
      [MemoryType.REFERENCEABLE]: referenceable,
      [MemoryType.EXPLORABLE_AND_REFERENCEABLE]: explorableAndReferenceable,
    }[memory](memoryOptions);
    tool = decorate(tool);
  }
  return withReadableErrors(tool);
}

function checked(schema: v.GenericSchema, args: Record<string, unknown>): Record<string, unknown> {
  const parsed = v.safeParse(schema, args ?? {});
  if (parsed.success) return parsed.output as Record<string, unknown>;
  const issue = parsed.issues[0];
  const name = issue.path?.map((p) => String(p.key)).join(".") ?? "arguments";
  throw new ToolError(`Invalid argument '${name}': ${issue.message}`);
}

/** Fixed arguments under the parameter names they pin (`pipelineName` → `pipeline_name`). */
function pinnedArguments(base: BaseTool, customArgs: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(customArgs)) {
    const snake = key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
    out[key in base.parameters || !(snake in base.parameters) ? key : snake] = value;
  }
  return out;
}

/**
 * The client for one call: in header mode the request's Bearer key (a call without one is refused,
 * or served with the static key when `apiKeyAsFallback` is on); otherwise the static key.
 */
function clientFor(ctx: ToolCallContext | undefined, options: BuildToolOptions): PlatformClient {
  const useHeader = options.useRequestContext ?? true;
  let apiKey: string | undefined;
  if (useHeader) {
    const header = ctx?.headers?.authorization;
    if (header !== undefined && header.trim() !== "") {
      apiKey = header.trim().replace(/^Bearer(\s+|$)/i, "").trim();
      if (!apiKey) throw new ToolError("API key cannot be empty: send 'Authorization: Bearer <platform API key>'.");
    } else if (options.apiKeyAsFallback) {
      apiKey = options.apiKey;
    }
  } else {
    apiKey = options.apiKey;
  }
  if (!apiKey) {
    throw new ToolError(
      useHeader
        ? "No Authorization header found in the request: send 'Authorization: Bearer <platform API key>'."
        : "No platform API key is configured for this tool.",
    );
  }
  return new PlatformClient({ apiKey, baseUrl: options.baseUrl, timeoutMs: options.timeoutMs, span: ctx?.span });
}

function withReadableErrors(tool: PlatformTool): PlatformTool {
  return {
    ...tool,
    async handler(args, ctx) {
      try {
        return await tool.handler(args, ctx);
      } catch (error) {
        return errorResult(error instanceof Error ? error.message : String(error));
      }
    },
  };
}
