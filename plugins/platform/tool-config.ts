/**
 * @module How a tool is built: `ToolConfig` says what `buildTool` injects (a platform client, the
 * workspace, fixed arguments) and which memory it gets; a `BaseTool` is the plain function with
 * its prompt and the parameters a model may pass.
 */
import type { Span } from "svc/plugin";
import type { Parameters, ExplorerOptions } from "svc/object-store";
import type { PlatformClient } from "./client/platform-client.js";

export const MemoryType = {
  /** Raw output, plain parameters. */
  NO_MEMORY: "NO_MEMORY",
  /** Output stored; the tool returns a preview with its `@obj_<id>` reference. */
  EXPLORABLE: "EXPLORABLE",
  /** Every parameter also accepts a reference, resolved before the call. */
  REFERENCEABLE: "REFERENCEABLE",
  EXPLORABLE_AND_REFERENCEABLE: "EXPLORABLE_AND_REFERENCEABLE",
} as const;
export type MemoryType = (typeof MemoryType)[keyof typeof MemoryType];

export interface ToolConfig {
  /** Give the function a `client` for the caller's key (default false). */
  needsClient?: boolean;
  /** Give the function the static `workspace`, or expose a required `workspace` argument (default false). */
  needsWorkspace?: boolean;
  memoryType?: MemoryType;
  /** Fixed arguments, hidden from the model (`{ pipeline_name: "faq" }`; camelCase keys are accepted too). */
  customArgs?: Record<string, unknown>;
  /** Explorer limits for this tool's previews. */
  explorerConfig?: ExplorerOptions;
}

/** What a base function receives: the model's arguments, fixed arguments and the injected ones. */
export interface ToolArgs extends Record<string, unknown> {
  client?: PlatformClient;
  workspace?: string;
  /** Aborted when the caller cancels. */
  signal?: AbortSignal;
}

export interface BaseTool {
  /** Default tool name (snake_case). */
  name: string;
  /** The prompt a model reads. */
  description: string;
  /** Valibot schemas of the arguments a model passes (`client` and `workspace` are injected). */
  parameters: Parameters;
  run(args: ToolArgs): Promise<unknown>;
}

/** The per-call context a tool server hands to a tool (see `ToolContext` of `svc/mcp`). */
export interface ToolCallContext {
  /** Lower-cased HTTP headers of the request; `{}` over stdio. */
  readonly headers?: Readonly<Record<string, string | undefined>>;
  readonly signal?: AbortSignal;
  /** The call's span (the tool server's `svc.mcp.call_tool`): platform requests carry its trace context. */
  readonly span?: Span;
}

/** The part of the tool server this library uses. */
export interface ToolServerLike {
  addTool(
    fn: (args: Record<string, unknown>, ctx: ToolCallContext) => unknown,
    options: { name: string; description?: string; inputSchema?: unknown; annotations?: Record<string, unknown> },
  ): unknown;
  hasTool?(name: string): boolean;
}
