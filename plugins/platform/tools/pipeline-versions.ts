/**
 * @module Pipeline versions: the platform keeps a pipeline's YAML in numbered versions, at most
 * one of them a draft. List, get, create (a new version, or a draft that finalises the current
 * one), patch in place, restore an old version as the new draft. Results leave the YAML out
 * except `get_pipeline_version`. `latestVersion` finds the version that holds a pipeline's
 * current YAML, for `get_pipeline_yaml` and `update_pipeline`.
 */
import * as v from "valibot";
import { ToolError } from "svc/object-store";
import { seg, type PlatformClient } from "../client/platform-client.js";
import { toPage } from "../client/pagination.js";
import type { BaseTool } from "../tool-config.js";
import { after, checkYaml, clientOf, flag, optionalText, orFail, pipelineNotFound, pipelinePath, text, workspaceOf } from "./common.js";

export interface PipelineVersion {
  version_id: string;
  version_number: number;
  config_yaml: string | null;
  description: string | null;
  is_draft: boolean;
  [field: string]: unknown;
}

const versionsPath = (ws: string, name: string) => `${pipelinePath(ws, name)}/versions`;
const versionPath = (ws: string, name: string, id: string) => `${versionsPath(ws, name)}/${seg(id)}`;
const versionNotFound = (id: string, name: string, ws: string) => `There is no version '${id}' for pipeline '${name}' in workspace '${ws}'.`;
/** Listings and changes answer without the (long) YAML; `get_pipeline_version` has it. */
const withoutYaml = (version: PipelineVersion): PipelineVersion => ({ ...version, config_yaml: null });
const NEWEST_FIRST = { order: "DESC", field: "version_number" } as const;

const pipelineName = text("Name of the pipeline.");
const versionId = text("The version's id (`version_id` from list_pipeline_versions or get_pipeline).");

/** The newest version (draft or not): the one the platform's editor shows and deploys build on. */
export async function latestVersion(client: PlatformClient, ws: string, name: string, signal?: AbortSignal): Promise<PipelineVersion | undefined> {
  const body = await client.get(versionsPath(ws, name), { limit: 1, ...NEWEST_FIRST }, { signal });
  const newest = toPage<PipelineVersion>(body, "version_id").data[0];
  if (!newest || typeof newest.config_yaml === "string") return newest;
  return client.get<PipelineVersion>(versionPath(ws, name, newest.version_id), undefined, { signal });
}

export function createVersion(client: PlatformClient, ws: string, name: string, body: { config_yaml: string; is_draft: boolean; description?: string }, signal?: AbortSignal): Promise<PipelineVersion> {
  return client.post<PipelineVersion>(versionsPath(ws, name), body, { signal });
}

export function patchVersion(client: PlatformClient, ws: string, name: string, id: string, body: Record<string, unknown>, signal?: AbortSignal): Promise<PipelineVersion> {
  return client.requestJson<PipelineVersion>(versionPath(ws, name, id), { method: "PATCH", body, signal });
}

export const listPipelineVersions: BaseTool = {
  name: "list_pipeline_versions",
  description: `Lists the versions of a pipeline, newest first (100 per page): id, number, description, whether it is the draft, who made it and when. YAML is left out; get_pipeline_version has it.
When the result has \`has_more\`, call again with \`after\` set to its \`next_cursor\`.`,
  parameters: { pipeline_name: pipelineName, after: after() },
  async run(args) {
    const ws = workspaceOf(args);
    const name = args.pipeline_name as string;
    const query = { limit: 100, ...NEWEST_FIRST, after: args.after as string | undefined };
    const body = await orFail(
      () => clientOf(args).get(versionsPath(ws, name), query, { signal: args.signal }),
      `Failed to list versions for pipeline '${name}'`,
      pipelineNotFound(name, ws),
    );
    const page = toPage<PipelineVersion>(body, "version_id");
    return { ...page, data: page.data.map(withoutYaml) };
  },
};

export const getPipelineVersion: BaseTool = {
  name: "get_pipeline_version",
  description: "Fetches one version of a pipeline by its id, including its YAML configuration (`config_yaml`).",
  parameters: { pipeline_name: pipelineName, version_id: versionId },
  async run(args) {
    const ws = workspaceOf(args);
    const name = args.pipeline_name as string;
    const id = args.version_id as string;
    return orFail(
      () => clientOf(args).get(versionPath(ws, name, id), undefined, { signal: args.signal }),
      `Failed to fetch version '${id}' for pipeline '${name}'`,
      versionNotFound(id, name, ws),
    );
  },
};

export const createPipelineVersion: BaseTool = {
  name: "create_pipeline_version",
  description: `Creates a new version of an existing pipeline from a complete YAML configuration: the way to change a saved pipeline while keeping its history (deploy it with deploy_pipeline afterwards).
With \`is_draft\`, the version becomes the pipeline's draft; an existing draft is then finalised under the next version number.`,
  parameters: {
    pipeline_name: pipelineName,
    yaml_configuration: text("The complete YAML configuration of the new version."),
    description: optionalText("What changed in this version."),
    is_draft: flag("Create the version as the pipeline's draft.", false),
  },
  async run(args) {
    const ws = workspaceOf(args);
    const name = args.pipeline_name as string;
    const yaml = args.yaml_configuration as string;
    checkYaml(yaml, "create a version");
    const body = { config_yaml: yaml, is_draft: args.is_draft === true, ...(typeof args.description === "string" ? { description: args.description } : {}) };
    const made = await orFail(() => createVersion(clientOf(args), ws, name, body, args.signal), `Failed to create version for pipeline '${name}'`, pipelineNotFound(name, ws));
    return withoutYaml(made);
  },
};

export const patchPipelineVersion: BaseTool = {
  name: "patch_pipeline_version",
  description: `Changes an existing pipeline version in place: its YAML configuration, its description or whether it is the draft. Give at least one of them; the others stay as they are.
To keep the history instead, use create_pipeline_version.`,
  parameters: {
    pipeline_name: pipelineName,
    version_id: versionId,
    yaml_configuration: optionalText("The new complete YAML configuration."),
    description: optionalText("The new description."),
    is_draft: v.optional(v.pipe(v.boolean(), v.description("Make the version the draft (true) or a saved version (false)."))),
  },
  async run(args) {
    const ws = workspaceOf(args);
    const name = args.pipeline_name as string;
    const id = args.version_id as string;
    const yaml = args.yaml_configuration as string | undefined;
    if (yaml === undefined && args.description === undefined && args.is_draft === undefined) {
      throw new ToolError("At least one of yaml_configuration, description, or is_draft must be provided.");
    }
    if (yaml !== undefined) {
      if (!yaml.trim()) throw new ToolError("yaml_configuration cannot be empty.");
      checkYaml(yaml, "update a version");
    }
    const body = { config_yaml: yaml, description: args.description, is_draft: args.is_draft };
    const sent = Object.fromEntries(Object.entries(body).filter(([, value]) => value !== undefined));
    const patched = await orFail(() => patchVersion(clientOf(args), ws, name, id, sent, args.signal), `Failed to update version '${id}' for pipeline '${name}'`, versionNotFound(id, name, ws));
    return withoutYaml(patched);
  },
};

export const restorePipelineVersion: BaseTool = {
  name: "restore_pipeline_version",
  description: `Restores a saved (non-draft) version of a pipeline as its new draft, to roll back or to edit from there; the previous draft, if any, is finalised under the next version number.
Deploy the restored draft's configuration with deploy_pipeline (and \`version_id\`) when it should go live.`,
  parameters: { pipeline_name: pipelineName, version_id: versionId },
  async run(args) {
    const ws = workspaceOf(args);
    const name = args.pipeline_name as string;
    const id = args.version_id as string;
    const restored = await orFail(
      () => clientOf(args).post<PipelineVersion>(`${versionPath(ws, name, id)}/restore`, undefined, { signal: args.signal }),
      `Failed to restore version '${id}' for pipeline '${name}'`,
      versionNotFound(id, name, ws),
    );
    return withoutYaml(restored);
  },
};
