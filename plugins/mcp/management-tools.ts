/**
 * @module The core MCP tools that manage deployments by chat: statuses, deploy from files (the
 * same body, validation and path containment as `POST /deploy_files`) and undeploy. Listed before
 * the pipeline tools; `SERVICE_MCP_MANAGEMENT_TOOLS=false` leaves them out.
 */
import * as v from "valibot";
import { DeployFilesBody, HttpError, filesDeployRequest, type DeployService, type PipelineRegistry } from "svc/plugin";
import type { ToolServer } from "./tool-server.js";
import { ToolError } from "./tool-result.js";

const PipelineName = v.object({ pipeline_name: v.pipe(v.string(), v.description("Name of the pipeline")) });

export const MANAGEMENT_TOOLS = ["get_all_pipeline_statuses", "get_pipeline_status", "undeploy_pipeline", "deploy_pipeline"] as const;

/** Deploy errors are the caller's to fix: their message is the answer, without a stack. */
async function asToolError<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw error instanceof HttpError ? new ToolError(error.message) : error;
  }
}

export function addManagementTools(tools: ToolServer, registry: PipelineRegistry, deployer: DeployService): void {
  tools.addTool(() => `Available pipelines:\n${registry.names().join("\n")}`.trimEnd(), {
    name: "get_all_pipeline_statuses",
    description: "Get the status of all pipelines and list available pipeline names.",
    inputSchema: v.object({}),
    annotations: { readOnlyHint: true },
  });
  tools.addTool((args) => `Pipeline '${args.pipeline_name}' is deployed: ${registry.has(args.pipeline_name as string)}`, {
    name: "get_pipeline_status",
    description: "Get status of a specific pipeline.",
    inputSchema: PipelineName,
    annotations: { readOnlyHint: true },
  });
  tools.addTool(
    async (args) => {
      const name = args.pipeline_name as string;
      await asToolError(() => deployer.undeploy(name));
      return `Pipeline '${name}' undeployed`;
    },
    {
      name: "undeploy_pipeline",
      description: "Undeploy a pipeline. Removes a pipeline from the registry, its API routes and MCP tool, and deletes its files.",
      inputSchema: PipelineName,
      annotations: { destructiveHint: true },
    },
  );
  tools.addTool(
    async (args) => {
      const body = args as v.InferOutput<typeof DeployFilesBody>;
      await asToolError(() => deployer.deploy(filesDeployRequest(body)));
      return `Pipeline '${body.name}' deployed successfully`;
    },
    {
      name: "deploy_pipeline",
      description:
        "Deploy a pipeline from files: `files` maps relative paths to contents and must include pipeline_wrapper.ts " +
        "(a class PipelineWrapper extending BasePipelineWrapper from 'svc'). Set overwrite to replace a deployed pipeline.",
      inputSchema: DeployFilesBody,
      annotations: { destructiveHint: false },
    },
  );
}
