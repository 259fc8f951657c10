/**
 * @module The concrete run operation of each deployed pipeline: `POST /<name>/run`, operation id
 * `<name>_run`, tag `pipelines`, request schema `<name>RunRequest` from the wrapper's input
 * schema (any JSON object without one) and response `<name>RunResponse` `{ result }` from its
 * output schema. A pipeline that takes files is described as `multipart/form-data`.
 */
import type { DeployedPipeline } from "svc/plugin";
import { BINARY, type JsonSchema, type SchemaSet } from "./schemas.js";
import { errorResponses, type Operation } from "./operations.js";

export const PIPELINES_TAG = "pipelines";

export function runPath(pipeline: DeployedPipeline): string {
  return `/${pipeline.name}/run`;
}

function requestSchema(pipeline: DeployedPipeline, schemas: SchemaSet, title: string): JsonSchema {
  const converted = pipeline.inputSchema === undefined ? {} : schemas.convert(pipeline.inputSchema, "input", title);
  const base: JsonSchema = converted.type === "object" || converted.properties ? converted : { type: "object", additionalProperties: true };
  const schema: JsonSchema = { title, ...base };
  schema.title = title; // over a `v.title` of the wrapper's own
  if (pipeline.requiresFiles) {
    const declared = schema.properties?.files;
    const description = typeof declared === "object" ? declared.description : undefined;
    schema.properties = {
      ...schema.properties,
      files: { type: "array", items: { ...BINARY }, ...(description ? { description } : {}) },
    };
  }
  return schema;
}

function responseSchema(pipeline: DeployedPipeline, schemas: SchemaSet, title: string): JsonSchema {
  const result = pipeline.outputSchema === undefined ? {} : schemas.convert(pipeline.outputSchema, "output", title);
  return { title, type: "object", properties: { result }, required: ["result"] };
}

export function pipelineOperation(pipeline: DeployedPipeline, schemas: SchemaSet): Operation {
  const request = `${pipeline.name}RunRequest`;
  const response = `${pipeline.name}RunResponse`;
  const requestRef = schemas.add(request, requestSchema(pipeline, schemas, request));
  const responseRef = schemas.add(response, responseSchema(pipeline, schemas, response));
  const mediaType = pipeline.requiresFiles ? "multipart/form-data" : "application/json";
  return {
    tags: [PIPELINES_TAG],
    summary: pipeline.description,
    operationId: `${pipeline.name}_run`,
    requestBody: { required: true, content: { [mediaType]: { schema: requestRef } } },
    responses: {
      "200": { description: "Successful response", content: { "application/json": { schema: responseRef } } },
      ...errorResponses(),
    },
  };
}
