/**
 * @module Loads a wrapper folder and checks the wrapper contract: a `PipelineWrapper` class whose
 * `setup()` takes no parameters, at least one run method, an input schema that is a valibot object
 * schema, limits that are numbers in range; then creates it and calls `setup()` once. Every failure
 * names the cause: 422 for a wrapper that cannot load or breaks the contract, 400 for bad limits.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { createModuleLoader } from "../module-loader.js";
import { deployErrors } from "../deploy/deploy-errors.js";
import type { LoadedPipeline } from "../hooks/deploy-hook.js";
import type { BasePipelineWrapper, InputSchema } from "./base-pipeline-wrapper.js";
import { wrapperLimits } from "./run-limits.js";

export const WRAPPER_FILES = ["pipeline_wrapper.ts", "pipeline_wrapper.mts", "pipeline_wrapper.js", "pipeline_wrapper.mjs"] as const;

type WrapperClass = (new () => BasePipelineWrapper) & {
  description?: unknown;
  inputSchema?: unknown;
  outputSchema?: unknown;
  skipMcp?: unknown;
  maxConcurrency?: unknown;
  timeoutSeconds?: unknown;
};

export interface WrapperSource {
  readonly name: string;
  readonly dir: string;
  readonly description?: string;
  /** Extra resolution roots for shared code (the additional module path). */
  readonly roots?: readonly string[];
}

export function findWrapperFile(dir: string): string | undefined {
  return WRAPPER_FILES.map((f) => join(dir, f)).find((p) => existsSync(p));
}

const OBJECT_SCHEMAS = new Set(["object", "loose_object", "strict_object", "object_with_rest"]);

function isObjectSchema(value: unknown): value is InputSchema & { entries: Record<string, unknown> } {
  const s = value as { kind?: unknown; type?: unknown; entries?: unknown } | null;
  return !!s && s.kind === "schema" && OBJECT_SCHEMAS.has(String(s.type)) && typeof s.entries === "object";
}

/** True when a function's source lists parameters (default values included, which `length` misses). */
function declaresParameters(fn: Function): boolean {
  if (fn.length > 0) return true;
  const src = fn.toString().replace(/\/\*[\s\S]*?\*\//g, "").replace(/\/\/.*$/gm, "");
  const open = src.indexOf("(");
  const close = src.indexOf(")", open);
  return open >= 0 && close > open && src.slice(open + 1, close).trim() !== "";
}

export async function loadWrapper(source: WrapperSource): Promise<LoadedPipeline> {
  const file = findWrapperFile(source.dir);
  if (!file) throw deployErrors.missingWrapper(WRAPPER_FILES.slice());
  let module: Record<string, unknown>;
  try {
    module = (await createModuleLoader({ cwd: source.dir, fresh: true, roots: source.roots })(file)) as Record<string, unknown>;
  } catch (error) {
    throw deployErrors.moduleLoadFailed(source.name, error, source.dir);
  }
  const Wrapper = (module.PipelineWrapper ?? (module.default as Record<string, unknown> | undefined)?.PipelineWrapper) as WrapperClass | undefined;
  if (typeof Wrapper !== "function") throw deployErrors.noWrapperClass(source.name);

  const proto = Wrapper.prototype as BasePipelineWrapper;
  if (typeof proto.setup === "function" && declaresParameters(proto.setup)) throw deployErrors.setupParameters();
  const capabilities = {
    api: typeof proto.runApi === "function",
    chat: typeof proto.runChatCompletion === "function",
    response: typeof proto.runResponse === "function",
  };
  if (!capabilities.api && !capabilities.chat && !capabilities.response) throw deployErrors.noRunMethod();
  const inputSchema = Wrapper.inputSchema;
  if (inputSchema !== undefined && !isObjectSchema(inputSchema)) {
    const s = inputSchema as { type?: unknown } | null;
    throw deployErrors.badInputSchema(s && typeof s === "object" && "type" in s ? `a '${String(s.type)}' schema` : typeof inputSchema);
  }

  const limits = wrapperLimits(Wrapper);
  let wrapper: BasePipelineWrapper;
  try {
    wrapper = new Wrapper();
  } catch (error) {
    throw deployErrors.constructorFailed(error);
  }
  try {
    await wrapper.setup();
  } catch (error) {
    throw deployErrors.setupFailed(error);
  }
  const staticDescription = typeof Wrapper.description === "string" ? Wrapper.description : undefined;
  return {
    description: source.description ?? staticDescription ?? source.name,
    wrapper,
    capabilities,
    inputSchema,
    outputSchema: Wrapper.outputSchema,
    skipMcp: Wrapper.skipMcp === true,
    limits,
    requiresFiles: !!inputSchema && "files" in inputSchema.entries,
  };
}
