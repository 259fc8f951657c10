/**
 * @module Pipeline templates: ready-made query and indexing pipelines to start from; list, get,
 * and search by name and description (BM25).
 */
import * as v from "valibot";
import { seg, type PlatformClient } from "../client/platform-client.js";
import { toPage } from "../client/pagination.js";
import type { BaseTool } from "../tool-config.js";
import { clientOf, integer, orFail, text, workspaceNotFound, workspaceOf, wsPath } from "./common.js";
import { rankByBm25, words } from "./rank.js";

/** One page of templates (newest first), the YAML left out. */
async function templates(client: PlatformClient, ws: string, limit: number, type: string | undefined, signal?: AbortSignal) {
  const query = { limit, field: "created_at", order: "DESC", filter: type ? `pipeline_type eq '${type}'` : undefined };
  const page = toPage<Record<string, unknown>>(await client.get(`${wsPath(ws)}/pipeline_templates`, query, { signal }), "name");
  return { ...page, data: page.data.map(({ query_yaml: _q, indexing_yaml: _i, ...rest }) => rest) };
}

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
    return orFail(
      () => templates(clientOf(args), ws, args.limit as number, args.pipeline_type as string | undefined, args.signal),
      "Failed to list pipeline templates",
      workspaceNotFound(ws),
    );
  },
};

export const searchTemplates: BaseTool = {
  name: "search_templates",
  description: `Searches the workspace's pipeline templates by name and description for the ones that best fit a need (e.g. "chat with documents", "summarize", "index PDFs"), best first, with a relevance score.
Returns {results: [{template, similarity_score}], query, total_found}; templates sharing no word with the query are left out. Read a hit's YAML with get_template.`,
  parameters: {
    query: v.pipe(v.string(), v.minLength(1), v.description("What the pipeline should do.")),
    top_k: integer("Maximum number of templates to return.", 10, 1, 100),
    pipeline_type: v.optional(v.pipe(v.string(), v.description("Template type: 'query' (default) or 'indexing'.")), "query"),
  },
  async run(args) {
    const ws = workspaceOf(args);
    const page = await orFail(
      () => templates(clientOf(args), ws, 100, (args.pipeline_type as string) || undefined, args.signal),
      "Failed to retrieve pipeline templates",
      workspaceNotFound(ws),
    );
    const ranked = await rankByBm25(page.data, (t) => `${words(String(t.name ?? ""))} ${t.description ?? ""}`, args.query as string, args.top_k as number);
    return { results: ranked.map(({ item, score }) => ({ template: item, similarity_score: score })), query: args.query, total_found: ranked.length };
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
