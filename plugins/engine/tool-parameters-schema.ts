/**
 * @module The JSON Schema a ComponentTool derives from a component's input sockets, in the shape
 * Haystack's `_create_tool_parameters_schema` (pydantic, titles removed) writes: integers as
 * `integer`, `dict[str, Any]` as `{type: object, additionalProperties: true}`, optionals as
 * `anyOf [X, null]` with their default, and data classes under `$defs`, referenced by `$ref`:
 * Document (with ByteStream and SparseEmbedding, Haystack's field descriptions), and an object
 * schema titled with `v.title("User")`, Haystack's dataclass, whose fields are described
 * `Field '<name>' of '<User>'.` unless they carry a `v.description`. A socket's own
 * `v.description` is its parameter's description (Haystack reads it from the run docstring);
 * without one it is `Input '<name>' for the component.`.
 */
import type { InputSocket } from "./component.js";
import { ChatMessage } from "./dataclasses/chat-message.js";
import { ByteStream, Document } from "./dataclasses/document.js";
import { State } from "./components/agent-state.js";
import type { JsonSchema } from "./tool.js";

/** The parts of a valibot schema read here. */
export type Schema = {
  type: string;
  wrapped?: Schema;
  item?: Schema;
  options?: Schema[];
  value?: Schema;
  class?: unknown;
  entries?: Record<string, Schema>;
  literal?: unknown;
  default?: unknown;
  pipe?: unknown[];
};

type Defs = Record<string, JsonSchema>;

const nullable = (schema: JsonSchema): JsonSchema => ({ anyOf: [schema, { type: "null" }] });

/** Haystack's ByteStream, SparseEmbedding and Document schemas (from their dataclass docstrings). */
const BYTE_STREAM_SCHEMA: JsonSchema = {
  type: "object",
  properties: {
    data: { type: "string", description: "The binary data stored in Bytestream.", format: "binary" },
    meta: { type: "object", default: {}, description: "Additional metadata to be stored with the ByteStream.", additionalProperties: true },
    mime_type: { ...nullable({ type: "string" }), default: null, description: "The mime type of the binary data." },
  },
  required: ["data"],
};
const SPARSE_EMBEDDING_SCHEMA: JsonSchema = {
  type: "object",
  properties: {
    indices: { type: "array", description: "List of indices of non-zero elements in the embedding.", items: { type: "integer" } },
    values: { type: "array", description: "List of values of non-zero elements in the embedding.", items: { type: "number" } },
  },
  required: ["indices", "values"],
};
const DOCUMENT_SCHEMA: JsonSchema = {
  type: "object",
  properties: {
    id: { type: "string", description: "Unique identifier for the document. When not set, it's generated based on the Document fields' values.", default: "" },
    content: { ...nullable({ type: "string" }), default: null, description: "Text of the document, if the document contains text." },
    blob: { ...nullable({ $ref: "#/$defs/ByteStream" }), default: null, description: "Binary data associated with the document, if the document has any binary data associated with it." },
    meta: { type: "object", description: "Additional custom metadata for the document. Must be JSON-serializable.", default: {}, additionalProperties: true },
    score: { ...nullable({ type: "number" }), default: null, description: "Score of the document. Used for ranking, usually assigned by retrievers." },
    embedding: { ...nullable({ type: "array", items: { type: "number" } }), default: null, description: "dense vector representation of the document." },
    sparse_embedding: { ...nullable({ $ref: "#/$defs/SparseEmbedding" }), default: null, description: "sparse vector representation of the document." },
  },
};
const CHAT_MESSAGE_SCHEMA: JsonSchema = {
  type: "object",
  description: "A chat message.",
  // Text, or Haystack's content parts (`[{"text": "…"}]`), as ChatMessage.from_dict reads them.
  properties: { role: { type: "string", enum: ["user", "assistant", "system", "tool"] }, content: { anyOf: [{ type: "string" }, { type: "array", items: { type: "object" } }] } },
  required: ["role", "content"],
};

type Action = { kind?: string; type?: string; description?: string; title?: string; pipe?: Action[] };
/** A schema's pipe actions, its own first, then those of a piped schema it was built from (`v.pipe(User, …)`). */
function actions(schema: Schema | undefined): Action[] {
  const pipe = (schema?.pipe ?? []) as Action[];
  return [...pipe.filter((a) => a.kind !== "schema"), ...pipe.filter((a) => a.kind === "schema" && a !== (schema as unknown) && a.pipe).flatMap((a) => actions(a as Schema))];
}
const metadata = (schema: Schema | undefined, type: "description" | "title"): string | undefined =>
  actions(schema).find((a) => a.kind === "metadata" && a.type === type)?.[type];
const isInteger = (schema: Schema) => actions(schema).some((a) => a.kind === "validation" && a.type === "integer");

function ref(defs: Defs, name: string, build: () => JsonSchema): JsonSchema {
  if (!(name in defs)) {
    defs[name] = {}; // reserved first: a recursive data class refers to itself
    defs[name] = build();
  }
  return { $ref: `#/$defs/${name}` };
}

/** An object schema's fields as JSON Schema properties; `owner` names them in default descriptions. */
function objectSchema(schema: Schema, defs: Defs, owner: string | undefined): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const [name, entry] of Object.entries(schema.entries ?? {})) {
    const optional = entry.type === "optional" || entry.type === "nullish";
    const field = jsonSchemaOf(optional && entry.type === "optional" ? entry.wrapped : entry, defs);
    if (field === undefined) continue;
    const description = metadata(entry, "description") ?? metadata(entry.wrapped, "description") ?? (owner ? `Field '${name}' of '${owner}'.` : undefined);
    const fallback = optional ? (typeof entry.default === "function" ? (entry.default as () => unknown)() : entry.default) : undefined;
    properties[name] = { ...field, ...(description ? { description } : {}), ...(fallback !== undefined ? { default: fallback } : {}) };
    if (!optional) required.push(name);
  }
  return { type: "object", properties, ...(required.length ? { required } : {}) };
}

/** A socket's valibot schema as JSON Schema; undefined for what an LLM cannot send (functions, the agent's State). */
export function jsonSchemaOf(schema: Schema | undefined, defs: Defs): JsonSchema | undefined {
  if (!schema) return {};
  switch (schema.type) {
    case "string": return { type: "string" };
    case "number": return { type: isInteger(schema) ? "integer" : "number" };
    case "boolean": return { type: "boolean" };
    case "null": return { type: "null" };
    case "any": case "unknown": return {};
    case "literal": return { const: schema.literal };
    case "picklist": return { enum: (schema as { options?: unknown[] }).options };
    case "function": return undefined;
    case "instance":
      // The agent's State is handed over by the runner, never sent by the LLM.
      if (schema.class === State) return undefined;
      if (schema.class === Document) {
        ref(defs, "ByteStream", () => BYTE_STREAM_SCHEMA);
        ref(defs, "SparseEmbedding", () => SPARSE_EMBEDDING_SCHEMA);
        return ref(defs, "Document", () => DOCUMENT_SCHEMA);
      }
      if (schema.class === ByteStream) return ref(defs, "ByteStream", () => BYTE_STREAM_SCHEMA);
      return schema.class === ChatMessage ? CHAT_MESSAGE_SCHEMA : { type: "object" };
    case "array": {
      const items = jsonSchemaOf(schema.item, defs);
      return items === undefined ? undefined : { type: "array", items };
    }
    case "record": {
      const values = jsonSchemaOf(schema.value, defs);
      return { type: "object", additionalProperties: values && Object.keys(values).length ? values : true };
    }
    case "object": case "loose_object": case "strict_object": {
      const title = metadata(schema, "title");
      return title ? ref(defs, title, () => objectSchema(schema, defs, title)) : objectSchema(schema, defs, undefined);
    }
    case "nullable": case "nullish": case "optional": {
      const inner = jsonSchemaOf(schema.wrapped, defs);
      return inner === undefined ? undefined : schema.type === "optional" ? inner : nullable(inner);
    }
    case "union": {
      const options = (schema.options ?? []).map((o) => jsonSchemaOf(o, defs)).filter((x): x is JsonSchema => x !== undefined);
      return options.length ? (options.length === 1 ? options[0] : { anyOf: options }) : undefined;
    }
    default: return {};
  }
}

/** Haystack's _create_tool_parameters_schema over the engine's sockets. */
export function parametersFromSockets(sockets: Record<string, InputSocket>, inputsFromState: Record<string, string> | null | undefined): JsonSchema {
  const fromState = new Set(Object.values(inputsFromState ?? {}));
  const defs: Defs = {};
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const socket of Object.values(sockets)) {
    if (fromState.has(socket.name)) continue;
    const raw = socket.schema as unknown as Schema | undefined;
    const schema = jsonSchemaOf(raw, defs);
    if (schema === undefined) continue;
    const description = metadata(raw, "description") ?? metadata(raw?.wrapped, "description") ?? `Input '${socket.name}' for the component.`;
    properties[socket.name] = { ...schema, description, ...(socket.mandatory ? {} : { default: socket.default ?? null }) };
    if (socket.mandatory) required.push(socket.name);
  }
  return { ...(Object.keys(defs).length ? { $defs: defs } : {}), type: "object", properties, ...(required.length ? { required } : {}) };
}

/** Whether a socket takes the agent's live State (as such, or optional): the runner hands it over. */
export function takesState(socket: InputSocket): boolean {
  let schema = socket.schema as unknown as Schema | undefined;
  while (schema && (schema.type === "nullable" || schema.type === "optional" || schema.type === "nullish")) schema = schema.wrapped;
  return schema?.type === "instance" && schema.class === State;
}
