/**
 * @module Valibot → JSON Schema (2020-12, the dialect of OpenAPI 3.1) for the OpenAPI document.
 * Conversion never throws: what JSON Schema cannot express (`v.instance`, transforms, custom
 * checks) degrades to `{}` ("any"); uploaded files become binary strings and dates date-time
 * strings. Definitions of recursive schemas are hoisted into `components.schemas`, because a
 * `#/$defs/…` reference inside a component would resolve against the document root.
 */
import { toJsonSchema, type ConversionConfig, type JsonSchema } from "@valibot/to-json-schema";
import { UploadedFile } from "svc/plugin";

export type { JsonSchema };

/** Which side of a transforming schema to describe: request bodies `input`, responses `output`. */
export type SchemaSide = "input" | "output";

type ValibotSchema = Parameters<typeof toJsonSchema>[0];

export const BINARY: JsonSchema = { type: "string", format: "binary" };

function isValibotSchema(value: unknown): value is ValibotSchema {
  return typeof value === "object" && value !== null && (value as { kind?: unknown }).kind === "schema";
}

/** A plain JSON Schema object (a YAML pipeline may declare one instead of a valibot schema). */
function isJsonSchema(value: unknown): value is JsonSchema {
  if (typeof value !== "object" || value === null || Array.isArray(value) || "kind" in value) return false;
  return ["type", "properties", "anyOf", "oneOf", "allOf", "$ref", "enum", "const"].some((k) => k in value);
}

const overrideSchema: ConversionConfig["overrideSchema"] = ({ valibotSchema }) => {
  const s = valibotSchema as { type: string; class?: unknown };
  if (s.type === "instance" && s.class === UploadedFile) return { ...BINARY };
  if (s.type === "date") return { type: "string", format: "date-time" };
  return undefined;
};

/** Collects named schemas for `components.schemas` while converting. */
export class SchemaSet {
  readonly components: Record<string, JsonSchema> = {};

  /** Adds a named component and returns a reference to it. */
  add(name: string, schema: JsonSchema): JsonSchema {
    this.components[name] = schema;
    return { $ref: `#/components/schemas/${name}` };
  }

  /**
   * Converts a valibot schema (or passes a JSON Schema object through); anything else, or a
   * conversion that fails, is `{}`. `owner` names hoisted definitions (`<owner>_<id>`).
   */
  convert(schema: unknown, side: SchemaSide, owner: string): JsonSchema {
    let out: JsonSchema;
    if (isValibotSchema(schema)) {
      try {
        out = toJsonSchema(schema, { target: "draft-2020-12", errorMode: "ignore", typeMode: side, overrideSchema });
      } catch {
        // e.g. a default value given as a function that throws
        return {};
      }
    } else if (isJsonSchema(schema)) {
      out = structuredClone(schema);
    } else {
      return {};
    }
    delete out.$schema;
    return this.hoist(out, owner);
  }

  private hoist(schema: JsonSchema, owner: string): JsonSchema {
    const defs = schema.$defs;
    if (!defs) return schema;
    delete schema.$defs;
    const names = new Map(Object.keys(defs).map((id) => [`#/$defs/${id}`, `${owner}_${id}`.replace(/[^A-Za-z0-9._-]/g, "_")]));
    const rewrite = (node: unknown): unknown => {
      if (Array.isArray(node)) return node.map(rewrite);
      if (typeof node !== "object" || node === null) return node;
      const copy: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(node)) {
        const target = key === "$ref" && typeof value === "string" ? names.get(value) : undefined;
        copy[key] = target ? `#/components/schemas/${target}` : rewrite(value);
      }
      return copy;
    };
    for (const [id, def] of Object.entries(defs)) this.components[names.get(`#/$defs/${id}`)!] = rewrite(def) as JsonSchema;
    return rewrite(schema) as JsonSchema;
  }
}
