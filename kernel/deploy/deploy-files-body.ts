/**
 * @module The body of a deploy from files, shared by every transport that offers it (the REST
 * `POST /deploy_files` and the MCP `deploy_pipeline` tool), so both validate the same way.
 */
import * as v from "valibot";
import type { DeployRequest } from "./deploy-service.js";
import { bodyLimits, maxConcurrencyField, timeoutSecondsField } from "../wrapper/run-limits.js";

export const pipelineNameField = v.pipe(v.string(), v.description("The pipeline name: used in paths and as `model` in chat requests."));
export const descriptionField = v.optional(v.pipe(v.string(), v.description("Human-readable description; defaults to the name.")));
export const overwriteField = v.optional(v.pipe(v.boolean(), v.description("Replace a deployed pipeline of the same name.")), false);
// No default: absent, the wrapper's own `static skipMcp` decides (false for YAML).
export const skipMcpField = v.optional(v.pipe(v.boolean(), v.description("Do not list the pipeline as an MCP tool. Absent: the wrapper's own `skipMcp` decides (false for YAML).")));

export const DeployFilesBody = v.object({
  name: pipelineNameField,
  files: v.pipe(v.record(v.string(), v.string()), v.description("Relative file path → file content; must include pipeline_wrapper.ts.")),
  description: descriptionField,
  overwrite: overwriteField,
  save_files: v.optional(v.pipe(v.boolean(), v.description("Keep the files in the pipelines directory.")), true),
  skip_mcp: skipMcpField,
  max_concurrency: maxConcurrencyField,
  timeout_seconds: timeoutSecondsField,
});
export type DeployFilesBody = v.InferOutput<typeof DeployFilesBody>;

export function filesDeployRequest(body: DeployFilesBody): DeployRequest {
  return {
    kind: "files",
    name: body.name,
    description: body.description,
    files: body.files,
    overwrite: body.overwrite,
    save: body.save_files,
    skipMcp: body.skip_mcp,
    limits: bodyLimits(body),
  };
}
