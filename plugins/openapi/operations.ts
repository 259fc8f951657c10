/**
 * @module OpenAPI operations for routes plugins registered: polka `:param` segments become
 * `{param}` path parameters, the route's docs give summary, description, tags, operation id,
 * the JSON request body and the JSON 200 body; every operation answers errors with `ErrorBody`.
 */
import type { RouteInfo } from "svc/plugin";
import type { JsonSchema, SchemaSet } from "./schemas.js";

export interface Parameter {
  name: string;
  in: "path";
  required: true;
  schema: JsonSchema;
}

export interface MediaContent {
  [mediaType: string]: { schema: JsonSchema };
}

export interface Response {
  description: string;
  content?: MediaContent;
}

export interface Operation {
  operationId: string;
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: Parameter[];
  requestBody?: { required: boolean; content: MediaContent };
  responses: Record<string, Response>;
}

export const ERROR_BODY = "ErrorBody";

/** The body of every error answer: `{"error":{"message","type","code"}}`. */
export const ERROR_BODY_SCHEMA: JsonSchema = {
  title: ERROR_BODY,
  type: "object",
  properties: {
    error: {
      type: "object",
      properties: {
        message: { type: "string" },
        type: { type: "string", description: "invalid_request_error, authentication_error, permission_error or server_error" },
        code: { type: "integer", description: "The HTTP status" },
      },
      required: ["message", "type", "code"],
    },
  },
  required: ["error"],
};

/** Fresh objects per operation, so YAML output needs no anchors. */
export function errorResponses(): Record<string, Response> {
  const body = (): MediaContent => ({ "application/json": { schema: { $ref: `#/components/schemas/${ERROR_BODY}` } } });
  return {
    "4XX": { description: "Client error", content: body() },
    "5XX": { description: "Server error", content: body() },
  };
}

/** `/status/:name` → path `/status/{name}` and its parameter names (optional ones too). */
export function openApiPath(path: string): { path: string; params: string[] } {
  const params: string[] = [];
  let wild = 0;
  const segments = path.split("/").map((segment) => {
    const param = /^:(\w+)\??(.*)$/.exec(segment);
    if (param) {
      params.push(param[1]!);
      return `{${param[1]}}${param[2]}`;
    }
    if (segment === "*") {
      const name = wild++ ? `wild${wild}` : "wild";
      params.push(name);
      return `{${name}}`;
    }
    return segment;
  });
  return { path: segments.join("/") || "/", params };
}

/** An operation id from method and path when the route names none: `GET /status/:name` → `get_status_name`. */
export function defaultOperationId(method: string, path: string): string {
  const words = path.split(/[^A-Za-z0-9]+/).filter(Boolean);
  return [method.toLowerCase(), ...words].join("_");
}

export function routeOperation(route: RouteInfo, params: string[], schemas: SchemaSet): Operation {
  const docs = route.docs || {};
  const operationId = docs.operationId ?? defaultOperationId(route.method, route.path);
  const owner = operationId.replace(/[^A-Za-z0-9._-]/g, "_");
  const op: Partial<Operation> = {};
  if (docs.tags?.length) op.tags = [...docs.tags];
  if (docs.summary) op.summary = docs.summary;
  if (docs.description) op.description = docs.description;
  op.operationId = operationId;
  if (params.length) op.parameters = params.map((name) => ({ name, in: "path", required: true, schema: { type: "string" } }));
  if (docs.body) {
    op.requestBody = { required: true, content: { "application/json": { schema: schemas.convert(docs.body, "input", `${owner}_body`) } } };
  }
  const ok: Response = docs.response
    ? { description: "Successful response", content: { "application/json": { schema: schemas.convert(docs.response, "output", `${owner}_response`) } } }
    : { description: "Successful response" };
  return { ...op, operationId, responses: { "200": ok, ...errorResponses() } };
}
