/**
 * @module JsonSchemaValidator (haystack.components.validators.json_schema): checks the last chat
 * message's text, as JSON, against a JSON Schema (or an OpenAI function schema's `parameters`,
 * applied to each call's `function.arguments`). Valid: the message goes out on `validated`;
 * invalid: a user message asking for a fix (Haystack's recovery template, Python `str.format`
 * fields) goes out on `validation_error`. JSON strings nested in the JSON are parsed first, as
 * Haystack does, so tool-call arguments validate as objects. ajv (draft 2020-12, first error)
 * stands in for Python's jsonschema; its messages are reworded to jsonschema's for the common
 * keywords.
 */
import { createRequire } from "node:module";
import type { Ajv2020, ErrorObject } from "ajv/dist/2020.js";
import * as v from "valibot";
import { Component, output, socket } from "../component.js";
import { ChatMessage } from "../dataclasses/chat-message.js";
import { pythonRepr } from "../jinja.js";

export const DEFAULT_ERROR_TEMPLATE =
  "The following generated JSON does not conform to the provided schema.\n" +
  "Generated JSON: {failing_json}\n" +
  "Error details:\n- Message: {error_message}\n" +
  "- Error Path in JSON: {error_path}\n" +
  "- Schema Path: {error_schema_path}\n" +
  "Please match the following schema:\n" +
  "{json_schema}\n" +
  "and provide the corrected JSON content ONLY. Please do not output anything else than the raw corrected " +
  "JSON string, this is the most important part of the task. Don't use any markdown and don't add any comment.";

const Schema = v.record(v.string(), v.any());
const Init = v.object({
  json_schema: v.optional(v.nullable(Schema), null),
  error_template: v.optional(v.nullable(v.string()), null),
});
const Messages = v.array(v.instance(ChatMessage));

let validators: Ajv2020 | undefined;
function ajv(): Ajv2020 {
  if (validators) return validators;
  const { Ajv2020 } = createRequire(import.meta.url)("ajv/dist/2020.js") as typeof import("ajv/dist/2020.js");
  return (validators = new Ajv2020({ strict: false, validateFormats: false, logger: false }));
}

export class JsonSchemaValidator extends Component<v.InferOutput<typeof Init>> {
  static override readonly type = "haystack.components.validators.json_schema.JsonSchemaValidator";
  static override readonly aliases = ["JsonSchemaValidator"];
  static override readonly initSchema = Init;

  protected inputSpecs() {
    return {
      messages: socket(Messages),
      json_schema: socket(v.nullable(Schema), { default: null }),
      error_template: socket(v.nullable(v.string()), { default: null }),
    };
  }

  protected outputSpecs() {
    return { validated: output(Messages), validation_error: output(Messages) };
  }

  run(inputs: { messages: ChatMessage[]; json_schema?: Record<string, unknown> | null; error_template?: string | null }) {
    const last = inputs.messages.at(-1);
    if (!last) throw new Error("list index out of range");
    const text = last.text;
    if (text === null) throw new Error(`The provided ChatMessage has no text. ChatMessage: ${JSON.stringify(last.toDict())}`);
    let content: unknown;
    try {
      content = JSON.parse(text);
    } catch {
      return { validation_error: [ChatMessage.fromUser(`The message '${text}' is not a valid JSON object. Please provide only a valid JSON object in string format.Don't use any markdown and don't add any comment.`)] };
    }
    // Python's `or`: an empty schema or template counts as none.
    const pick = <T>(...xs: (T | null | undefined)[]) => xs.find((x) => x && (typeof x !== "object" || Object.keys(x).length > 0)) ?? null;
    const jsonSchema = pick(inputs.json_schema, this.initParameters.json_schema);
    const template = pick(inputs.error_template, this.initParameters.error_template, DEFAULT_ERROR_TEMPLATE)!;
    if (!jsonSchema) throw new Error("Provide a JSON schema for validation either in the run method or in the component init.");
    const parsed = recursiveJsonToObject(content);
    const openai = ["name", "description", "parameters"].every((k) => k in jsonSchema);
    const schema = (openai ? jsonSchema.parameters : jsonSchema) as Record<string, unknown>;
    const { $schema: _ignored, ...compilable } = schema;
    const validate = ajv().compile(compilable);
    try {
      for (const item of Array.isArray(parsed) ? parsed : [parsed]) {
        const instance = openai ? (item as any).function.arguments : item;
        if (!validate(instance)) {
          const error = validate.errors![0]!;
          const message = constructErrorRecoveryMessage(template, jsonschemaMessage(error, instance), pathOf(error.instancePath), pathOf(error.schemaPath.replace(/^#/, "")), schema, text);
          return { validation_error: [ChatMessage.fromUser(message)] };
        }
      }
    } finally {
      ajv().removeSchema(compilable);
    }
    return { validated: [last] };
  }
}

/** JSON strings inside objects that hold an object or list become that value (Haystack's `_recursive_json_to_object`). */
export function recursiveJsonToObject(data: unknown): unknown {
  if (Array.isArray(data)) return data.map(recursiveJsonToObject);
  if (data === null || typeof data !== "object") throw new Error("Input must be a dictionary or a list of dictionaries.");
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data)) {
    if (typeof value === "string") {
      let inner: unknown;
      try {
        inner = JSON.parse(value);
      } catch {
        inner = undefined;
      }
      out[key] = inner !== null && typeof inner === "object" ? recursiveJsonToObject(inner) : value;
    } else if (value !== null && typeof value === "object" && !Array.isArray(value)) out[key] = recursiveJsonToObject(value);
    else out[key] = value;
  }
  return out;
}

/** Fills the template's `{field}`s as Python's `str.format` does (`{{`/`}}` are braces; the schema in Python's repr). */
export function constructErrorRecoveryMessage(template: string, errorMessage: string, errorPath: string, errorSchemaPath: string, jsonSchema: Record<string, unknown>, failingJson: string): string {
  const fields: Record<string, string> = { error_message: errorMessage, error_path: errorPath, error_schema_path: errorSchemaPath, json_schema: pythonRepr(jsonSchema), failing_json: failingJson };
  return template.replace(/\{\{|\}\}|\{(\w+)\}/g, (match, name?: string) => {
    if (match === "{{") return "{";
    if (match === "}}") return "}";
    if (!(name! in fields)) throw new Error(`KeyError: '${name}'`);
    return fields[name!]!;
  });
}

const pathOf = (pointer: string) => {
  const parts = pointer.split("/").slice(1).map((p) => p.replace(/~1/g, "/").replace(/~0/g, "~"));
  return parts.length ? parts.join(" -> ") : "N/A";
};

/** The first line of Python jsonschema's message for the common keywords; ajv's own otherwise. */
function jsonschemaMessage(error: ErrorObject, root: unknown): string {
  const at = error.instancePath.split("/").slice(1).reduce<any>((value, key) => value?.[key.replace(/~1/g, "/").replace(/~0/g, "~")], root);
  const p = error.params as Record<string, any>;
  switch (error.keyword) {
    case "required":
      return `'${p.missingProperty}' is a required property`;
    case "type":
      return `${pythonRepr(at)} is not of type ${String(p.type).split(",").map((t) => `'${t}'`).join(", ")}`;
    case "pattern":
      return `${pythonRepr(at)} does not match ${pythonRepr(p.pattern)}`;
    case "enum":
      return `${pythonRepr(at)} is not one of ${pythonRepr(p.allowedValues)}`;
    case "additionalProperties":
      return `Additional properties are not allowed ('${p.additionalProperty}' was unexpected)`;
    default:
      return error.message ?? "is invalid";
  }
}
