/**
 * @module Running pipelines: deploy (and wait until DEPLOYED), search (plain, with filters, with
 * params), and read logs.
 */
import * as v from "valibot";
import { ToolError } from "svc/object-store";
import { SEARCH_TIMEOUT_MS } from "../client/platform-client.js";
import { toPage } from "../client/pagination.js";
import type { BaseTool, ToolArgs } from "../tool-config.js";
import { after, clientOf, deployResult, flag, integer, objectArg, optionalText, orFail, pipelineNotFound, pipelinePath, text, toolError, workspaceOf } from "./common.js";

export const deployPipeline: BaseTool = {
  name: "deploy_pipeline",
  description: `Deploys a pipeline so that it can answer searches, then waits until its status is DEPLOYED.
Returns {valid, errors}: errors explain a deployment the platform rejected (for example an invalid configuration). Deploying can take a few minutes.`,
  parameters: {
    pipeline_name: text("Name of the pipeline to deploy."),
    version_id: optionalText("A pipeline version to deploy; by default the current version."),
    wait_for_deployment: flag("Wait until the pipeline is DEPLOYED or FAILED.", true),
    timeout_seconds: integer("How long to wait for the deployment, in seconds.", 600, 1, 3600),
    poll_interval: v.optional(v.pipe(v.number(), v.minValue(0.01), v.description("Seconds between status checks.")), 5),
  },
  async run(args) {
    const ws = workspaceOf(args);
    const client = clientOf(args);
    const name = args.pipeline_name as string;
    const body = args.version_id ? { pipeline_version_id: args.version_id } : undefined;
    const result = await orFail(
      () => deployResult(client, `${pipelinePath(ws, name)}/deploy`, body, args.signal),
      `Failed to deploy pipeline '${name}'`,
      pipelineNotFound(name, ws),
    );
    if (!result.valid || args.wait_for_deployment === false) return result;
    const timeoutMs = (args.timeout_seconds as number) * 1000;
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      let status: unknown;
      try {
        status = (await client.get<{ status?: string }>(pipelinePath(ws, name), undefined, { signal: args.signal }))?.status;
      } catch (error) {
        throw toolError(error, `Pipeline '${name}' deployment initiated, but failed to check deployment status`);
      }
      if (status === "DEPLOYED") return result;
      if (status === "FAILED") throw new ToolError(`Pipeline '${name}' deployment failed. Current status: FAILED.`);
      if (Date.now() >= deadline) {
        throw new ToolError(
          `Pipeline '${name}' deployment initiated successfully, but did not reach DEPLOYED status within ${args.timeout_seconds} seconds. You can check the pipeline status manually.`,
        );
      }
      await sleep(Math.min((args.poll_interval as number) * 1000, Math.max(0, deadline - Date.now())), args.signal);
    }
  },
};

const searchParameters = {
  pipeline_name: text("Name of the deployed pipeline to search with."),
  query: text("The question or search query."),
};

/** Checks the pipeline is DEPLOYED, then searches (180 s) with `extra` fields in the body. */
async function search(args: ToolArgs, extra: Record<string, unknown>): Promise<Record<string, unknown>> {
  const ws = workspaceOf(args);
  const client = clientOf(args);
  const name = args.pipeline_name as string;
  const prefix = `Failed to search using pipeline '${name}'`;
  const pipeline = await orFail(() => client.get<{ status?: string }>(pipelinePath(ws, name), undefined, { signal: args.signal }), prefix, pipelineNotFound(name, ws));
  if (pipeline?.status !== "DEPLOYED") {
    throw new ToolError(
      `Pipeline '${name}' is not deployed (current status: ${pipeline?.status ?? "unknown"}). Please deploy the pipeline first using the deploy_pipeline tool before attempting to search.`,
    );
  }
  const body = { queries: [args.query], debug: false, view_prompts: false, ...extra };
  const answer = await orFail(() => client.post(`${pipelinePath(ws, name)}/search`, body, { timeoutMs: SEARCH_TIMEOUT_MS, signal: args.signal }), prefix, pipelineNotFound(name, ws));
  return normalizeSearch(answer);
}

/** A non-empty object argument, else nothing (the platform gets the field only when it says something). */
const given = (key: string, value: unknown): Record<string, unknown> =>
  value && typeof value === "object" && Object.keys(value).length > 0 ? { [key]: value } : {};

export const searchPipeline: BaseTool = {
  name: "search_pipeline",
  description: `Runs a search (query) through a deployed pipeline and returns its answers and documents.
The pipeline must be DEPLOYED (use deploy_pipeline first). Searches may take up to three minutes.`,
  parameters: searchParameters,
  run: (args) => search(args, {}),
};

export const searchPipelineWithFilters: BaseTool = {
  name: "search_pipeline_with_filters",
  description: `Runs a search through a deployed pipeline, restricted by metadata filters, and returns its answers and documents.
Filters use the Haystack filter syntax, e.g. {"field": "meta.category", "operator": "==", "value": "news"}, or {"operator": "AND", "conditions": [...]}. The pipeline must be DEPLOYED.`,
  parameters: {
    ...searchParameters,
    filters: objectArg("Metadata filters in Haystack filter syntax."),
  },
  run: (args) => search(args, given("filters", args.filters)),
};

export const searchPipelineWithParams: BaseTool = {
  name: "search_pipeline_with_params",
  description: `Runs a search through a deployed pipeline with run-time parameters for its components, and returns its answers and documents.
\`params\` maps component names to their run parameters, e.g. {"retriever": {"top_k": 5}}; filters may go under a "filters" key. The pipeline must be DEPLOYED.`,
  parameters: {
    ...searchParameters,
    params: objectArg("Run-time parameters of the pipeline's components (filters under \"filters\")."),
  },
  run: (args) => search(args, given("params", args.params)),
};

export const getPipelineLogs: BaseTool = {
  name: "get_pipeline_logs",
  description: `Fetches the newest log entries of a deployed pipeline (message, level, time, origin, exceptions), optionally only of one level.
Use it to find out why a deployment failed or a search errs. When the result has \`has_more\`, pass its \`next_cursor\` as \`after\`.`,
  parameters: {
    pipeline_name: text("Name of the pipeline."),
    limit: integer("Number of log entries to fetch.", 30, 1, 100),
    level: v.optional(v.pipe(v.picklist(["info", "warning", "error"]), v.description("Only entries of this level."))),
    after: after(),
  },
  async run(args) {
    const ws = workspaceOf(args);
    const name = args.pipeline_name as string;
    const query = { limit: args.limit as number, filter: args.level ? `level eq '${args.level}'` : undefined, after: args.after as string | undefined };
    const body = await orFail(
      () => clientOf(args).get(`${pipelinePath(ws, name)}/logs`, query, { signal: args.signal }),
      `Failed to fetch logs for pipeline '${name}'`,
      pipelineNotFound(name, ws),
    );
    return toPage(body, "logged_at");
  },
};

/** One search response from the platform's body: the first of `results`, `query_id` kept. */
function normalizeSearch(body: any): Record<string, unknown> {
  const empty = { query: null, query_id: null, answers: [], documents: [], prompts: {} };
  if (!body || typeof body !== "object") return empty;
  const first = Array.isArray(body.results) ? body.results[0] : body;
  if (!first) return { ...empty, query_id: body.query_id ?? null };
  return {
    query: first.query ?? null,
    query_id: body.query_id ?? first.query_id ?? null,
    answers: first.answers ?? [],
    documents: first.documents ?? [],
    prompts: first.prompts ?? {},
    ...(first._debug || first.debug ? { debug: first._debug ?? first.debug } : {}),
  };
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}
