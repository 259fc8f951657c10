/**
 * @module Index tools: list, get, create, update (replace one exact YAML snippet), deploy, validate.
 * An index is an indexing pipeline that turns the workspace's files into searchable documents.
 */
import { ToolError } from "svc/object-store";
import { seg, type PlatformClient } from "../client/platform-client.js";
import { toPage } from "../client/pagination.js";
import type { BaseTool } from "../tool-config.js";
import {
  after,
  checkYaml,
  clientOf,
  deployResult,
  flag,
  optionalText,
  orFail,
  replaceSnippet,
  text,
  validateYaml,
  validationFailure,
  workspaceNotFound,
  workspaceOf,
  wsPath,
} from "./common.js";

const indexPath = (workspace: string, name: string) => `${wsPath(workspace)}/indexes/${seg(name)}`;
const indexNotFound = (name: string) => `There is no index named '${name}'. Did you mean to create it?`;

/** Listings leave the (long) YAML out; `get_index` has it. */
function withoutYaml(index: any): any {
  if (!index || typeof index !== "object") return index;
  const { config_yaml: _omitted, ...rest } = index;
  return rest;
}

export const listIndexes: BaseTool = {
  name: "list_indexes",
  description: `Lists the indexes of the workspace (100 per page) with their status and file counts; YAML configurations are left out (use get_index).
When the result has \`has_more\`, pass its \`next_cursor\` as \`after\`.`,
  parameters: { after: after() },
  async run(args) {
    const ws = workspaceOf(args);
    const body = await orFail(
      () => clientOf(args).get(`${wsPath(ws)}/indexes`, { limit: 100, after: args.after as string | undefined }, { signal: args.signal }),
      "Failed to list indexes",
      workspaceNotFound(ws),
    );
    const page = toPage(body, "pipeline_index_id");
    return { ...page, data: page.data.map(withoutYaml) };
  },
};

export const getIndex: BaseTool = {
  name: "get_index",
  description: "Fetches one index by name, including its YAML configuration, status and indexed-file counts.",
  parameters: { index_name: text("Name of the index.") },
  async run(args) {
    const ws = workspaceOf(args);
    const name = args.index_name as string;
    return orFail(() => clientOf(args).get(indexPath(ws, name), undefined, { signal: args.signal }), `Failed to fetch index '${name}'`, indexNotFound(name));
  },
};

export const createIndex: BaseTool = {
  name: "create_index",
  description: "Creates a new index in the workspace from an indexing pipeline YAML configuration. Validate it first with validate_index.",
  parameters: {
    index_name: text("Name of the new index."),
    yaml_configuration: text("The complete indexing pipeline YAML configuration."),
    description: optionalText("A short description of the index."),
  },
  async run(args) {
    const ws = workspaceOf(args);
    const name = args.index_name as string;
    checkYaml(args.yaml_configuration as string, "create an index");
    const body = { name, config_yaml: args.yaml_configuration, ...(args.description ? { description: args.description } : {}) };
    const index = await orFail(() => clientOf(args).post(`${wsPath(ws)}/indexes`, body, { signal: args.signal }), `Failed to create index '${name}'`, workspaceNotFound(ws));
    return { message: `Index '${name}' created successfully.`, index: withoutYaml(index) };
  },
};

export const updateIndex: BaseTool = {
  name: "update_index",
  description: `Updates an index's YAML configuration by replacing one exact snippet of it.
\`original_config_snippet\` must occur exactly once in the index's YAML (copy it from get_index, whitespace included); it is replaced, the new YAML validated and saved, and the updated index returned.`,
  parameters: {
    index_name: text("Name of the index to update."),
    original_config_snippet: text("The exact text to replace; it must occur exactly once in the index's YAML."),
    replacement_config_snippet: text("The text that replaces it."),
    skip_validation_errors: flag("Save the update even when validation reports errors.", true),
  },
  async run(args) {
    const ws = workspaceOf(args);
    const client = clientOf(args);
    const name = args.index_name as string;
    const index = await orFail(() => fetchIndex(client, ws, name, args.signal), `Failed to fetch index '${name}'`, indexNotFound(name));
    if (!index?.config_yaml) throw new ToolError(`The index '${name}' does not have a YAML configuration.`);
    const updated = replaceSnippet(index.config_yaml, args.original_config_snippet as string, args.replacement_config_snippet as string, "index", name);
    return orFail(
      async () => {
        const validation = await validateYaml(client, ws, "indexing_yaml", updated, args.signal);
        if (!validation.valid && args.skip_validation_errors === false) throw validationFailure("Index", validation);
        await client.requestJson(indexPath(ws, name), { method: "PATCH", body: { config_yaml: updated }, signal: args.signal });
        const saved = await fetchIndex(client, ws, name, args.signal);
        return validation.valid ? saved : { message: "The operation completed with errors", validation_result: validation, index: saved };
      },
      `Failed to update the index '${name}'`,
      indexNotFound(name),
    );
  },
};

export const deployIndex: BaseTool = {
  name: "deploy_index",
  description: "Deploys an index so that it starts indexing the workspace's files. Returns a confirmation, or {valid: false, errors} when the platform rejects the deployment.",
  parameters: { index_name: text("Name of the index to deploy.") },
  async run(args) {
    const ws = workspaceOf(args);
    const name = args.index_name as string;
    const result = await orFail(() => deployResult(clientOf(args), `${indexPath(ws, name)}/deploy`, undefined, args.signal), `Failed to deploy index '${name}'`, indexNotFound(name));
    return result.valid ? `Index '${name}' deployed successfully.` : result;
  },
};

export const validateIndex: BaseTool = {
  name: "validate_index",
  description: "Validates an indexing pipeline YAML configuration on the platform without saving it. Returns `validation_result` ({valid, errors}) and the YAML it checked.",
  parameters: { yaml_configuration: text("The complete indexing pipeline YAML configuration.") },
  async run(args) {
    const ws = workspaceOf(args);
    const yaml = args.yaml_configuration as string;
    checkYaml(yaml, "validate");
    const result = await orFail(() => validateYaml(clientOf(args), ws, "indexing_yaml", yaml, args.signal), "Failed to validate index", workspaceNotFound(ws));
    return { validation_result: result, yaml_config: yaml };
  },
};

function fetchIndex(client: PlatformClient, ws: string, name: string, signal?: AbortSignal): Promise<any> {
  return client.get(indexPath(ws, name), undefined, { signal });
}
