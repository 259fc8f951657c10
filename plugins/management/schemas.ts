/**
 * @module Request and response schemas of the management endpoints (validation and OpenAPI).
 */
import * as v from "valibot";

const name = v.pipe(v.string(), v.description("The pipeline name: used in paths and as `model` in chat requests."));
const description = v.optional(v.pipe(v.string(), v.description("Human-readable description; defaults to the name.")));
const overwrite = v.optional(v.pipe(v.boolean(), v.description("Replace a deployed pipeline of the same name.")), false);
const skipMcp = v.optional(v.pipe(v.boolean(), v.description("Do not list the pipeline as an MCP tool.")), false);

export const DeployFilesBody = v.object({
  name,
  files: v.pipe(v.record(v.string(), v.string()), v.description("Relative file path → file content; must include pipeline_wrapper.ts.")),
  description,
  overwrite,
  save_files: v.optional(v.pipe(v.boolean(), v.description("Keep the files in the pipelines directory.")), true),
  skip_mcp: skipMcp,
});

export const DeployYamlBody = v.object({
  name,
  source_code: v.pipe(v.string(), v.description("The YAML pipeline definition.")),
  description,
  overwrite,
  save_file: v.optional(v.pipe(v.boolean(), v.description("Keep the YAML file in the pipelines directory.")), true),
  skip_mcp: skipMcp,
});

export const ActionResponse = v.object({
  status: v.literal("success"),
  message: v.string(),
  name: v.string(),
});

export const StatusAllResponse = v.object({ status: v.string(), pipelines: v.array(v.string()) });
export const StatusOneResponse = v.object({ status: v.string(), pipeline: v.string() });

/** Multipart form booleans: `true/false/1/0/yes/no/on/off`, or absent. */
export function formBoolean(values: string[] | undefined, field: string, fallback: boolean): boolean {
  const raw = values?.at(-1)?.trim().toLowerCase();
  if (raw === undefined || raw === "") return fallback;
  if (["true", "1", "yes", "on"].includes(raw)) return true;
  if (["false", "0", "no", "off"].includes(raw)) return false;
  throw new Error(`${field}: expected true or false, got '${raw}'`);
}
