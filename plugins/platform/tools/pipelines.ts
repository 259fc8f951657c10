/**
 * @module Pipeline tools: list, get, create, update (replace one exact YAML snippet), validate,
 * and read the YAML. The platform keeps a pipeline's YAML in its versions, so reading takes the
 * newest version and an update writes a version: the draft is patched when the newest version is
 * one, else a new version is created (as the platform's own SDK overwrites a pipeline).
 */
import { ToolError } from "svc/object-store";
import { toPage } from "../client/pagination.js";
import type { BaseTool } from "../tool-config.js";
import {
  after,
  checkYaml,
  clientOf,
  flag,
  orFail,
  pipelineNotFound,
  pipelinePath,
  replaceSnippet,
  text,
  validateYaml,
  validationFailure,
  workspaceNotFound,
  workspaceOf,
  wsPath,
} from "./common.js";
import { createVersion, latestVersion, patchVersion } from "./pipeline-versions.js";

export { pipelinePath };

export const listPipelines: BaseTool = {
  name: "list_pipelines",
  description: `Lists the pipelines of the workspace, 100 per page: name, status (DEPLOYED, DEPLOYING, FAILED, UNDEPLOYED …), service level, creation and edit times and authors.
When the result has \`has_more\`, call again with \`after\` set to its \`next_cursor\` for the next page.`,
  parameters: { after: after() },
  async run(args) {
    const ws = workspaceOf(args);
    const body = await orFail(
      () => clientOf(args).get(`${wsPath(ws)}/pipelines`, { limit: 100, after: args.after as string | undefined }, { signal: args.signal }),
      "Failed to list pipelines",
      workspaceNotFound(ws),
    );
    return toPage(body, "pipeline_id");
  },
};

export const getPipeline: BaseTool = {
  name: "get_pipeline",
  description: "Fetches one pipeline by name: its status, service level, versions (deployed, running, draft), creation and edit times and authors.",
  parameters: { pipeline_name: text("Name of the pipeline.") },
  async run(args) {
    const ws = workspaceOf(args);
    const name = args.pipeline_name as string;
    return orFail(() => clientOf(args).get(pipelinePath(ws, name), undefined, { signal: args.signal }), `Failed to fetch pipeline '${name}'`, pipelineNotFound(name, ws));
  },
};

export const validatePipeline: BaseTool = {
  name: "validate_pipeline",
  description: `Validates a pipeline YAML configuration on the platform without saving it.
Returns \`validation_result\` ({valid, errors: [{code, message}]}) and the YAML it checked. Use it before creating or updating a pipeline.`,
  parameters: { yaml_configuration: text("The complete pipeline YAML configuration (components, connections, inputs, outputs).") },
  async run(args) {
    const ws = workspaceOf(args);
    const yaml = args.yaml_configuration as string;
    checkYaml(yaml, "validate");
    const result = await orFail(() => validateYaml(clientOf(args), ws, "query_yaml", yaml, args.signal), "Failed to validate pipeline", workspaceNotFound(ws));
    return { validation_result: result, yaml_config: yaml };
  },
};

export const createPipeline: BaseTool = {
  name: "create_pipeline",
  description: `Creates a new pipeline in the workspace from a complete YAML configuration.
The YAML is validated first. Unless validation errors are skipped, an invalid YAML is not saved and the errors are returned; when they are skipped, the pipeline is saved and the result carries both the validation result and the new pipeline.`,
  parameters: {
    pipeline_name: text("Name of the new pipeline."),
    yaml_configuration: text("The complete pipeline YAML configuration."),
    skip_validation_errors: flag("Save the pipeline even when validation reports errors.", true),
  },
  async run(args) {
    const ws = workspaceOf(args);
    const client = clientOf(args);
    const name = args.pipeline_name as string;
    const yaml = args.yaml_configuration as string;
    checkYaml(yaml, "create a pipeline");
    return orFail(
      async () => {
        const validation = await validateYaml(client, ws, "query_yaml", yaml, args.signal);
        if (!validation.valid && args.skip_validation_errors === false) throw validationFailure("Pipeline", validation);
        await client.post(`${wsPath(ws)}/pipelines`, { name, query_yaml: yaml }, { signal: args.signal });
        const pipeline = await client.get(pipelinePath(ws, name), undefined, { signal: args.signal });
        return validation.valid ? pipeline : { message: "The operation completed with errors", validation_result: validation, pipeline };
      },
      `Failed to create pipeline '${name}'`,
      workspaceNotFound(ws),
    );
  },
};

export const updatePipeline: BaseTool = {
  name: "update_pipeline",
  description: `Updates a pipeline's YAML configuration by replacing one exact snippet of it, in one call.
\`original_config_snippet\` must occur exactly once in the pipeline's current YAML (copy it from get_pipeline_yaml, whitespace included); it is replaced by \`replacement_config_snippet\` and the new YAML is validated and saved: into the pipeline's draft when its newest version is the draft, else as a new version. Returns the updated pipeline; deploy it with deploy_pipeline to make the change live.`,
  parameters: {
    pipeline_name: text("Name of the pipeline to update."),
    original_config_snippet: text("The exact text to replace; it must occur exactly once in the pipeline's YAML."),
    replacement_config_snippet: text("The text that replaces it."),
    skip_validation_errors: flag("Save the update even when validation reports errors.", true),
  },
  async run(args) {
    const ws = workspaceOf(args);
    const client = clientOf(args);
    const name = args.pipeline_name as string;
    const notFound = `There is no pipeline named '${name}'. Did you mean to create it?`;
    const current = await orFail(() => latestVersion(client, ws, name, args.signal), `Failed to fetch pipeline '${name}'`, notFound);
    if (!current?.config_yaml) throw new ToolError(`The pipeline '${name}' does not have a YAML configuration.`);
    const updated = replaceSnippet(current.config_yaml, args.original_config_snippet as string, args.replacement_config_snippet as string, "pipeline", name);
    return orFail(
      async () => {
        const validation = await validateYaml(client, ws, "query_yaml", updated, args.signal);
        if (!validation.valid && args.skip_validation_errors === false) throw validationFailure("Pipeline", validation);
        if (current.is_draft) await patchVersion(client, ws, name, current.version_id, { config_yaml: updated }, args.signal);
        else await createVersion(client, ws, name, { config_yaml: updated, is_draft: false }, args.signal);
        const pipeline = await client.get(pipelinePath(ws, name), undefined, { signal: args.signal });
        return validation.valid ? pipeline : { message: "The operation completed with errors", validation_result: validation, pipeline };
      },
      `Failed to update the pipeline '${name}'`,
      notFound,
    );
  },
};

export const getPipelineYaml: BaseTool = {
  name: "get_pipeline_yaml",
  description: "Fetches the current YAML configuration of a pipeline (that of its newest version, the draft if it has one), to read it or to copy an exact snippet for update_pipeline.",
  parameters: { pipeline_name: text("Name of the pipeline.") },
  async run(args) {
    const ws = workspaceOf(args);
    const name = args.pipeline_name as string;
    const newest = await orFail(() => latestVersion(clientOf(args), ws, name, args.signal), `Failed to fetch the YAML of pipeline '${name}'`, pipelineNotFound(name, ws));
    return newest?.config_yaml ?? "";
  },
};
