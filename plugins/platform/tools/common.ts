/**
 * @module What the platform tools share: parameter schemas, the injected client and workspace,
 * turning platform errors into the tools' readable messages, YAML pre-checks, validation calls
 * and the exact-snippet replacement of the update tools.
 */
import * as v from "valibot";
import { parse as parseYaml } from "yaml";
import { ToolError } from "svc/object-store";
import { ResourceNotFoundError, apiErrorFor } from "../client/errors.js";
import { seg, type PlatformClient } from "../client/platform-client.js";
import type { ToolArgs } from "../tool-config.js";

export const text = (description: string) => v.pipe(v.string(), v.description(description));
export const optionalText = (description: string) => v.optional(v.pipe(v.string(), v.description(description)));
export const integer = (description: string, fallback: number, min = 1, max = 1000) =>
  v.optional(v.pipe(v.number(), v.integer(), v.minValue(min), v.maxValue(max), v.description(description)), fallback);
export const flag = (description: string, fallback: boolean) => v.optional(v.pipe(v.boolean(), v.description(description)), fallback);
export const after = () => optionalText("The cursor of the next page: the `next_cursor` of the previous result.");
/** An optional JSON object argument (inputs, parameters, filters). */
export const objectArg = (description: string) => v.optional(v.pipe(v.record(v.string(), v.unknown()), v.description(description)));

export function clientOf(args: ToolArgs): PlatformClient {
  if (!args.client) throw new ToolError("This tool needs a platform client: build it with needsClient.");
  return args.client;
}

export function workspaceOf(args: ToolArgs): string {
  if (!args.workspace) throw new ToolError("No workspace given: pass 'workspace' or configure a static workspace.");
  return args.workspace;
}

/** `v1/workspaces/<ws>` with the workspace percent-encoded. */
export const wsPath = (workspace: string) => `v1/workspaces/${seg(workspace)}`;
export const pipelinePath = (workspace: string, name: string) => `${wsPath(workspace)}/pipelines/${seg(name)}`;

export const workspaceNotFound = (workspace: string) => `There is no workspace named '${workspace}'. Did you mean to configure it?`;
export const pipelineNotFound = (pipeline: string, workspace: string) => `There is no pipeline named '${pipeline}' in workspace '${workspace}'.`;

/** Runs `call`; a 404 becomes `notFound` (when given), any other failure `<prefix>: <error>`. */
export async function orFail<T>(call: () => Promise<T>, prefix: string, notFound?: string): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw toolError(error, prefix, notFound);
  }
}

export function toolError(error: unknown, prefix: string, notFound?: string): Error {
  if (error instanceof ToolError) return error;
  if (notFound && error instanceof ResourceNotFoundError) return new ToolError(notFound);
  if (error instanceof Error && error.name === "AbortError") return error;
  return new ToolError(`${prefix}: ${error instanceof Error ? error.message : String(error)}`);
}

/** Rejects an empty or unparsable YAML text with the tools' messages. */
export function checkYaml(yaml: string, purpose: string): void {
  if (!yaml || !yaml.trim()) throw new ToolError(`You need to provide a YAML configuration to ${purpose}.`);
  try {
    parseYaml(yaml);
  } catch (error) {
    throw new ToolError(`Invalid YAML provided: ${(error as Error).message}`);
  }
}

export interface ValidationError {
  code: string;
  message: string;
  category?: string;
  json_pointer?: string;
}

export interface ValidationResult {
  valid: boolean;
  errors: ValidationError[];
}

/** POST pipeline_validations: 2xx valid; 400 lists `details`; 422 is a YAML syntax error. */
export async function validateYaml(
  client: PlatformClient,
  workspace: string,
  field: "query_yaml" | "indexing_yaml",
  yaml: string,
  signal?: AbortSignal,
): Promise<ValidationResult> {
  const res = await client.request(`${wsPath(workspace)}/pipeline_validations`, { method: "POST", body: { [field]: yaml }, signal });
  if (res.ok) return { valid: true, errors: [] };
  const details = (res.json as { details?: unknown } | undefined)?.details;
  if (res.status === 400 && Array.isArray(details)) return { valid: false, errors: details.map(validationError) };
  if (res.status === 422) return { valid: false, errors: [{ code: "YAML_ERROR", message: "Syntax error in YAML", category: "ERROR" }] };
  throw apiErrorFor(res.status, res.text, res.json);
}

/** POST …/deploy: 2xx valid; 422 lists `details`; other 4xx one DEPLOYMENT_ERROR; 5xx throws. */
export async function deployResult(client: PlatformClient, path: string, body: unknown, signal?: AbortSignal): Promise<ValidationResult> {
  const res = await client.request(path, { method: "POST", body, signal });
  if (res.ok) return { valid: true, errors: [] };
  const details = (res.json as { details?: unknown } | undefined)?.details;
  if (res.status === 422 && Array.isArray(details)) return { valid: false, errors: details.map(validationError) };
  if (res.status === 404) {
    throw apiErrorFor(res.status, res.text, res.json);
  }
  if (res.status < 500) {
    return { valid: false, errors: [{ code: "DEPLOYMENT_ERROR", message: res.text || `HTTP ${res.status} error`, category: "ERROR" }] };
  }
  throw apiErrorFor(res.status, res.text, res.json);
}

function validationError(d: any): ValidationError {
  return { code: String(d?.code ?? "ERROR"), message: String(d?.message ?? ""), category: d?.category, json_pointer: d?.json_pointer };
}

export function validationFailure(kind: "Pipeline" | "Index", result: ValidationResult): ToolError {
  return new ToolError(`${kind} validation failed:\n${result.errors.map((e) => `${e.code}: ${e.message}`).join("\n")}`);
}

/** Replaces the single exact occurrence of `original` in `yaml`; 0 or several occurrences are errors. */
export function replaceSnippet(yaml: string, original: string, replacement: string, kind: "pipeline" | "index", name: string): string {
  if (!original) throw new ToolError("The configuration snippet to replace cannot be empty.");
  const count = yaml.split(original).length - 1;
  if (count === 0) throw new ToolError(`No occurrences of the provided configuration snippet were found in the ${kind} '${name}'.`);
  if (count > 1) {
    throw new ToolError(
      `Multiple occurrences (${count}) of the provided configuration snippet were found in the ${kind} '${name}'. Specify a more precise snippet to proceed with the update.`,
    );
  }
  return yaml.replace(original, () => replacement);
}
