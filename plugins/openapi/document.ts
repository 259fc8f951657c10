/**
 * @module Builds the OpenAPI 3.1 document: the documented routes of every plugin (not the generic
 * `/:name/run` route), then one concrete `/<name>/run` operation per deployed pipeline that has a
 * run method. The server URL is the root path, so a reverse proxy prefix is honoured.
 */
import type { DeployedPipeline, RouteInfo } from "svc/plugin";
import { ERROR_BODY, ERROR_BODY_SCHEMA, openApiPath, routeOperation, type Operation } from "./operations.js";
import { pipelineOperation, runPath } from "./pipelines.js";
import { SchemaSet, type JsonSchema } from "./schemas.js";

export const TITLE = "svc";
export const DESCRIPTION =
  "svc serves AI pipelines and agents: deploy a pipeline under a name and run it over REST " +
  "(`POST /{name}/run`), OpenAI-compatible chat completions, a Responses endpoint and MCP.";

export type PathItem = Partial<Record<Lowercase<RouteInfo["method"]>, Operation>>;

export interface OpenApiDocument {
  openapi: "3.1.0";
  info: { title: string; version: string; description: string };
  servers: { url: string }[];
  paths: Record<string, PathItem>;
  components: { schemas: Record<string, JsonSchema> };
}

export interface DocumentSource {
  readonly routes: readonly RouteInfo[];
  readonly pipelines: readonly DeployedPipeline[];
  /** `settings.rootPath`: "" or a prefix like "/svc". */
  readonly rootPath: string;
  readonly version: string;
}

/** The generic run route of the run-api plugin; each pipeline gets a concrete path instead. */
function isGenericRunRoute(route: RouteInfo): boolean {
  return route.path.includes(":name/run");
}

export function buildDocument(source: DocumentSource): OpenApiDocument {
  const schemas = new SchemaSet();
  schemas.add(ERROR_BODY, ERROR_BODY_SCHEMA);
  const paths: Record<string, PathItem> = {};
  const runnable = source.pipelines.filter((p) => p.capabilities.api);
  // Pipelines keep their `<name>_run` ids; a route whose id collides gets a numbered one.
  const ids = new Set(runnable.map((p) => `${p.name}_run`));
  const put = (path: string, method: RouteInfo["method"], op: Operation, unique = false) => {
    let id = op.operationId;
    for (let n = 2; !unique && ids.has(id); n++) id = `${op.operationId}_${n}`;
    ids.add(id);
    (paths[path] ??= {})[method.toLowerCase() as Lowercase<RouteInfo["method"]>] = { ...op, operationId: id };
  };

  for (const route of source.routes) {
    if (route.docs === false || isGenericRunRoute(route)) continue;
    const { path, params } = openApiPath(route.path);
    put(path, route.method, routeOperation(route, params, schemas));
  }
  for (const pipeline of runnable) put(runPath(pipeline), "POST", pipelineOperation(pipeline, schemas), true);

  return {
    openapi: "3.1.0",
    info: { title: TITLE, version: source.version, description: DESCRIPTION },
    servers: [{ url: source.rootPath || "/" }],
    paths,
    components: { schemas: schemas.components },
  };
}
