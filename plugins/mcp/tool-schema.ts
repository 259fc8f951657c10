/**
 * @module A tool's input schema, compiled once when the tool is added: the JSON Schema clients see
 * in `tools/list` and the validator `tools/call` runs. A valibot object schema is the source of
 * both (the JSON Schema is generated from it, never written twice); a plain JSON Schema object is
 * accepted too and validated with ajv.
 */
import { toJsonSchema } from "@valibot/to-json-schema";
import { Ajv2020, type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js";
import { formatIssues } from "svc/plugin";
import * as v from "valibot";

export type JsonSchemaObject = { type: "object"; properties?: Record<string, object>; required?: string[]; [key: string]: unknown };
export type ToolInputSchema = v.GenericSchema | JsonSchemaObject;

export type ToolArguments = { ok: true; value: Record<string, unknown> } | { ok: false; message: string };

export interface CompiledSchema {
  readonly json: JsonSchemaObject;
  validate(args: unknown): ToolArguments;
}

const ANY_OBJECT: JsonSchemaObject = { type: "object", additionalProperties: true };

// One validator for every JSON Schema tool; lenient about extra keywords and formats.
const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false, logger: false });

export function isValibotSchema(schema: unknown): schema is v.GenericSchema {
  return typeof schema === "object" && schema !== null && (schema as { kind?: unknown }).kind === "schema" && "~run" in schema;
}

export function compileSchema(schema: ToolInputSchema | undefined): CompiledSchema {
  if (schema === undefined) return { json: ANY_OBJECT, validate: (args) => ({ ok: true, value: asObject(args) }) };
  if (isValibotSchema(schema)) return compileValibot(schema);
  return compileJson(schema);
}

function compileValibot(schema: v.GenericSchema): CompiledSchema {
  const generated = toJsonSchema(schema, { target: "draft-2020-12", errorMode: "ignore", typeMode: "input" }) as Record<string, unknown>;
  const { $schema: _drop, ...json } = generated;
  if (json.type !== "object") throw new Error(`A tool's input schema must describe an object, not ${String(json.type ?? "any value")}`);
  return {
    json: json as JsonSchemaObject,
    validate(args) {
      const result = v.safeParse(schema, args ?? {});
      return result.success ? { ok: true, value: result.output as Record<string, unknown> } : { ok: false, message: formatIssues(result.issues) };
    },
  };
}

function compileJson(schema: JsonSchemaObject): CompiledSchema {
  if (schema.type !== "object") throw new Error(`A tool's input schema must be a JSON Schema with "type": "object"`);
  const { $schema: _drop, ...json } = schema;
  let check: ValidateFunction | undefined;
  return {
    json: json as JsonSchemaObject,
    validate(args) {
      check ??= ajv.compile(json);
      const value = asObject(args);
      return check(value) ? { ok: true, value } : { ok: false, message: formatAjvErrors(check.errors ?? []) };
    },
  };
}

function asObject(args: unknown): Record<string, unknown> {
  return args && typeof args === "object" && !Array.isArray(args) ? (args as Record<string, unknown>) : {};
}

function formatAjvErrors(errors: readonly ErrorObject[]): string {
  return errors
    .map((e) => {
      const missing = e.keyword === "required" ? (e.params as { missingProperty?: string }).missingProperty : undefined;
      const path = [e.instancePath.slice(1).replaceAll("/", "."), missing].filter(Boolean).join(".");
      const message = missing ? "is required" : (e.message ?? "is invalid");
      return path ? `${path}: ${message}` : message;
    })
    .join("; ");
}
