/**
 * @module Pipeline templates: ready-made query and indexing pipelines to start from.
 */
import * as v from "valibot";
import { seg } from "../client/platform-client.js";
import { toPage } from "../client/pagination.js";
import type { BaseTool } from "../tool-config.js";
import { clientOf, integer, orFail, text, workspaceNotFound, workspaceOf, wsPath } from "./common.js";

export const listTemplates: BaseTool = {
  name: "list_templates",
  description: `Lists the pipeline templates available in the workspace, newest first: name, description, type (query or indexing), tags. YAML is left out; get_template has it.
Start a new pipeline from a template's YAML rather than from scratch.`,
  parameters: {
    limit: integer("Number of templates to list.", 100, 1, 100),
    pipeline_type: v.optional(v.pipe(v.picklist(["query", "indexing"]), v.description("Only templates of this type."))),
  },
  async run(args) {
    const ws = workspaceOf(args);
    const query = {
      limit: args.limit as number,
      field: "created_at",
      order: "DESC",
      filter: args.pipeline_type ? `pipeline_type eq '${args.pipeline_type}'` : undefined,
    };
    const body = await orFail(
      () => clientOf(args).get(`${wsPath(ws)}/pipeline_templates`, query, { signal: args.signal }),
      "Failed to list pipeline templates",
      workspaceNotFound(ws),
    );
    const page = toPage<Record<string, unknown>>(body, "name");
    return { ...page, data: page.data.map(({ query_yaml: _q, indexing_yaml: _i, ...rest }) => rest) };
  },
};

export const getTemplate: BaseTool = {
  name: "get_template",
  description: "Fetches one pipeline template by name, with its YAML configuration (`yaml_config`), ready to adapt for create_pipeline or create_index.",
  parameters: { template_name: text("Name of the template.") },
  async run(args) {
    const ws = workspaceOf(args);
    const name = args.template_name as string;
    const template = await orFail(
      () => clientOf(args).get<Record<string, unknown>>(`${wsPath(ws)}/pipeline_templates/${seg(name)}`, undefined, { signal: args.signal }),
      `Failed to fetch pipeline template '${name}'`,
      `There is no pipeline template named '${name}' in workspace '${ws}'.`,
    );
    const { query_yaml, indexing_yaml, ...rest } = template ?? {};
    return { ...rest, yaml_config: rest.pipeline_type === "indexing" ? (indexing_yaml ?? query_yaml ?? null) : (query_yaml ?? indexing_yaml ?? null) };
  },
};
