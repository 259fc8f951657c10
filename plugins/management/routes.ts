/**
 * @module The management endpoints: deploy (JSON, multipart, YAML), undeploy and status.
 */
import type * as v from "valibot";
import { HttpError, bodyLimits, deployErrors, filesDeployRequest, type DeployRequest, type DeployService, type PipelineRegistry, type PluginApi } from "svc/plugin";
import { ActionResponse, DeployFilesBody, DeployYamlBody, StatusAllResponse, StatusOneResponse, formBoolean, formLimits } from "./schemas.js";

const tags = ["management"];

export function registerRoutes(kernel: PluginApi, deployer: DeployService, registry: PipelineRegistry): void {
  const deployed = (name: string) => ({ status: "success" as const, message: `Pipeline '${name}' successfully deployed`, name });

  /** A JSON deploy endpoint: validate the body, turn it into a deploy request, answer. */
  const jsonDeploy = <B extends { name: string }>(
    path: string,
    schema: v.GenericSchema<unknown, B>,
    docs: { operationId: string; summary: string },
    toRequest: (body: B) => DeployRequest,
  ) =>
    kernel.route(
      "POST",
      path,
      async (c) => {
        const body = await c.json(schema);
        await deployer.deploy(toRequest(body));
        return deployed(body.name);
      },
      { scope: "admin", docs: { ...docs, tags, body: schema, response: ActionResponse } },
    );

  jsonDeploy("/deploy_files", DeployFilesBody, { operationId: "pipeline_deploy", summary: "Deploy a wrapper pipeline from files (JSON)" }, filesDeployRequest);

  jsonDeploy("/deploy-yaml", DeployYamlBody, { operationId: "yaml_pipeline_deploy", summary: "Deploy a YAML pipeline" }, (b) => ({
    kind: "yaml",
    name: b.name,
    description: b.description,
    source: b.source_code,
    overwrite: b.overwrite,
    save: b.save_file,
    skipMcp: b.skip_mcp,
    limits: bodyLimits(b),
  }));

  kernel.route(
    "POST",
    "/deploy-files",
    async (c) => {
      const form = await c.form();
      const one = (field: string) => form.fields.get(field)?.at(-1);
      const name = one("name");
      if (!name) throw new HttpError(400, "Invalid request body: name: a form field 'name' is required");
      let flags;
      try {
        flags = {
          overwrite: formBoolean(form.fields.get("overwrite"), "overwrite", false),
          save: formBoolean(form.fields.get("save_files"), "save_files", true),
          skipMcp: formBoolean(form.fields.get("skip_mcp"), "skip_mcp", undefined),
        };
      } catch (error) {
        throw new HttpError(400, `Invalid request body: ${(error as Error).message}`);
      }
      const limits = formLimits(one);
      const files = Object.fromEntries(form.files.map((f) => [f.filename, f.data]));
      await deployer.deploy({ kind: "files", name, description: one("description"), files, limits, ...flags });
      return deployed(name);
    },
    { scope: "admin", docs: { operationId: "pipeline_deploy_multipart", summary: "Deploy a wrapper pipeline from uploaded files (multipart: name, description, overwrite, save_files, skip_mcp, max_concurrency, timeout_seconds, repeated files)", tags, response: ActionResponse } },
  );

  kernel.route(
    "POST",
    "/undeploy/:name",
    async (c) => {
      await deployer.undeploy(c.params.name!);
      return { status: "success", message: `Pipeline '${c.params.name}' successfully undeployed`, name: c.params.name };
    },
    { scope: "admin", docs: { operationId: "pipeline_undeploy", summary: "Undeploy a pipeline and delete its saved files", tags, response: ActionResponse } },
  );

  kernel.route("GET", "/status", () => {
    const quarantined = deployer.quarantined;
    return { status: "Up!", pipelines: registry.names(), cluster: deployer.state.health(), ...(quarantined.length ? { quarantined } : {}) };
  }, {
    docs: { operationId: "status_all", summary: "Server status and deployed pipelines", tags: ["status"], response: StatusAllResponse },
  });

  kernel.route(
    "GET",
    "/status/:name",
    (c) => {
      if (!registry.has(c.params.name!)) throw deployErrors.notFound(c.params.name!);
      return { status: "Up!", pipeline: c.params.name };
    },
    { docs: { operationId: "status_pipeline", summary: "Status of one pipeline", tags: ["status"], response: StatusOneResponse } },
  );
}
