/**
 * @module `get_models`: the models a workspace's generators can use (the platform's own and the
 * organisation's or workspace's custom ones), with their default chat-generator configuration.
 * The API pages by number and filters only by `connected`; a provider or model-name filter fetches
 * every page (100 a page, at most 50) and pages the matches locally.
 */
import * as v from "valibot";
import { seg, type PlatformClient } from "../client/platform-client.js";
import type { BaseTool } from "../tool-config.js";
import { clientOf, integer, optionalText, orFail, workspaceNotFound, workspaceOf, wsPath } from "./common.js";

const FILTER_PAGE_SIZE = 100;
const MAX_FILTER_PAGES = 50;

interface ModelPage {
  data: Record<string, any>[];
  has_more: boolean;
  total: number;
}

/** `model` from `chat_generator_config.init_parameters.model` when the record has none; origin PLATFORM by default. */
function model(record: Record<string, any>): Record<string, any> {
  const inferred = record?.chat_generator_config?.init_parameters?.model;
  return { ...record, model: record.model ?? (typeof inferred === "string" ? inferred : null), origin: record.origin ?? "PLATFORM" };
}

async function page(client: PlatformClient, workspaceId: string, limit: number, pageNumber: number, connected: unknown, signal?: AbortSignal): Promise<ModelPage> {
  const query = { limit, page_number: pageNumber, connected: typeof connected === "boolean" ? connected : undefined };
  const body = await client.get(`v2/workspaces/${seg(workspaceId)}/models`, query, { signal });
  const data = Array.isArray(body?.data) ? body.data.map(model) : [];
  return { data, has_more: body?.has_more === true, total: typeof body?.total === "number" ? body.total : data.length };
}

export const getModels: BaseTool = {
  name: "get_models",
  description: `Lists the models a workspace's pipelines and indexes can use: the platform's predefined models and custom ones of the workspace or organisation, with provider, model name, whether the workspace has a working integration (\`connected\`), the default \`chat_generator_config\` to put in a pipeline YAML, and the \`generation_kwargs\` it accepts.
Pages by number (\`page_number\`, from 1); filter by \`connected\`, \`provider\` (e.g. openai, anthropic, gemini, aws-bedrock; exact, any case) or \`model\` (part of the model name, any case).`,
  parameters: {
    limit: integer("Models per page.", 100, 1, 100),
    page_number: integer("The page to fetch, from 1.", 1, 1, 10_000),
    connected: v.optional(v.pipe(v.boolean(), v.description("Only models the workspace has (true) or lacks (false) a working integration for."))),
    provider: optionalText("Only models of this provider (case-insensitive, exact)."),
    model: optionalText("Only models whose model name contains this text (case-insensitive), e.g. 'gpt-4o'."),
  },
  async run(args) {
    const ws = workspaceOf(args);
    const client = clientOf(args);
    const limit = args.limit as number;
    const pageNumber = args.page_number as number;
    return orFail(
      async () => {
        const workspace = await client.get(wsPath(ws), undefined, { signal: args.signal });
        const id = String(workspace?.workspace_id);
        const provider = (args.provider as string | undefined)?.toLowerCase();
        const name = (args.model as string | undefined)?.toLowerCase();
        if (provider === undefined && name === undefined) return page(client, id, limit, pageNumber, args.connected, args.signal);
        const all: Record<string, any>[] = [];
        for (let n = 1; n <= MAX_FILTER_PAGES; n++) {
          const next = await page(client, id, FILTER_PAGE_SIZE, n, args.connected, args.signal);
          all.push(...next.data);
          if (!next.has_more) break;
        }
        const matches = all.filter(
          (m) => (provider === undefined || String(m.provider).toLowerCase() === provider) && (name === undefined || (typeof m.model === "string" && m.model.toLowerCase().includes(name))),
        );
        const start = (pageNumber - 1) * limit;
        return { data: matches.slice(start, start + limit), has_more: start + limit < matches.length, total: matches.length };
      },
      "Failed to list models",
      workspaceNotFound(ws),
    );
  },
};
