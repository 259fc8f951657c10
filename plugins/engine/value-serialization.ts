/**
 * @module Haystack's schema-aware value serialization (`_serialize_value_with_schema`): a runtime
 * value (an Agent's State data) as `{serialization_schema, serialized_data}`, the schema naming
 * each field's JSON type or data class, so it reads back into the same objects.
 */
import { ChatMessage } from "./dataclasses/chat-message.js";
import { ByteStream, Document } from "./dataclasses/document.js";
import { ExtractedAnswer } from "./dataclasses/extracted-answer.js";
import { GeneratedAnswer } from "./dataclasses/generated-answer.js";

export interface SerializedValue {
  serialization_schema: Record<string, unknown>;
  serialized_data: unknown;
}

interface DataClass {
  fromDict(d: never): unknown;
}

/** Haystack's qualified class names of the data classes a value may hold. */
const CLASSES: [string, abstract new (...args: never[]) => { toDict(): unknown }, DataClass][] = [
  ["haystack.dataclasses.chat_message.ChatMessage", ChatMessage, ChatMessage],
  ["haystack.dataclasses.document.Document", Document, Document],
  ["haystack.dataclasses.byte_stream.ByteStream", ByteStream, ByteStream],
  ["haystack.dataclasses.answer.GeneratedAnswer", GeneratedAnswer, GeneratedAnswer],
  ["haystack.dataclasses.answer.ExtractedAnswer", ExtractedAnswer, ExtractedAnswer],
];

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Throws for a value it cannot describe (a class instance without `toDict`, a symbol, …). */
export function serializeValueWithSchema(payload: unknown): SerializedValue {
  if (payload === null || payload === undefined) return { serialization_schema: { type: "null" }, serialized_data: null };
  if (typeof payload === "boolean") return { serialization_schema: { type: "boolean" }, serialized_data: payload };
  if (typeof payload === "number") return { serialization_schema: { type: Number.isInteger(payload) ? "integer" : "number" }, serialized_data: payload };
  if (typeof payload === "string") return { serialization_schema: { type: "string" }, serialized_data: payload };
  if (Array.isArray(payload) || payload instanceof Set) {
    const items = [...payload].map(serializeValueWithSchema);
    const schemas = items.map((i) => i.serialization_schema);
    const schema: Record<string, unknown> =
      schemas.length === 0 ? { type: "array", items: {} } : schemas.every((s) => same(s, schemas[0])) ? { type: "array", items: schemas[0] } : { type: "array", prefixItems: schemas };
    if (payload instanceof Set) schema.uniqueItems = true;
    return { serialization_schema: schema, serialized_data: items.map((i) => i.serialized_data) };
  }
  for (const [name, cls] of CLASSES) if (payload instanceof cls) return { serialization_schema: { type: name }, serialized_data: payload.toDict() };
  const proto = typeof payload === "object" ? Object.getPrototypeOf(payload) : undefined;
  if (proto === Object.prototype || proto === null) {
    const properties: Record<string, unknown> = {};
    const data: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(payload as Record<string, unknown>)) {
      const s = serializeValueWithSchema(v);
      properties[k] = s.serialization_schema;
      data[k] = s.serialized_data;
    }
    return { serialization_schema: { type: "object", properties }, serialized_data: data };
  }
  const kind = typeof payload === "object" ? (proto?.constructor?.name ?? "object") : typeof payload;
  throw new Error(`Cannot serialize value of type '${kind}'. Supported values are primitives (str, int, float, bool, None), lists/sets/dicts of supported values and Haystack data classes.`);
}

/**
 * A mapping field by field: a field that cannot be serialized is left out with a warning (Haystack's
 * `_serialize_with_field_fallback`), so one odd value does not lose the rest.
 */
export function serializeFieldsWithFallback(payload: Record<string, unknown>, description: string, warn: (message: string) => void = console.warn): SerializedValue {
  const properties: Record<string, unknown> = {};
  const data: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(payload)) {
    try {
      const s = serializeValueWithSchema(value);
      properties[field] = s.serialization_schema;
      data[field] = s.serialized_data;
    } catch (error) {
      warn(`Failed to serialize the '${field}' field of ${description}. The field will be omitted from the snapshot. Error: ${(error as Error).message}`);
    }
  }
  return { serialization_schema: { type: "object", properties }, serialized_data: data };
}

export function deserializeValueWithSchema(serialized: SerializedValue): unknown {
  if (!serialized || typeof serialized !== "object" || !("serialization_schema" in serialized) || !("serialized_data" in serialized)) {
    throw new Error(`Invalid format of passed serialized payload. Expected a dictionary with keys 'serialization_schema' and 'serialized_data'. Got: ${JSON.stringify(serialized)}`);
  }
  const schema = serialized.serialization_schema;
  const data = serialized.serialized_data as any;
  const type = schema.type;
  if (!type) throw new Error("Missing 'type' key in 'serialization_schema'.");
  if (type === "object") {
    const properties = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
    return Object.fromEntries(Object.entries(data as Record<string, unknown>).map(([k, raw]) => [k, deserializeValueWithSchema({ serialization_schema: properties[k] ?? {}, serialized_data: raw })]));
  }
  if (type === "array") {
    const prefix = schema.prefixItems as Record<string, unknown>[] | undefined;
    if (prefix && prefix.length !== data.length) throw new Error(`Invalid array payload: 'prefixItems' declares ${prefix.length} element schemas but 'serialized_data' holds ${data.length} elements.`);
    const items = (data as unknown[]).map((item, i) => deserializeValueWithSchema({ serialization_schema: prefix ? prefix[i]! : ((schema.items ?? {}) as Record<string, unknown>), serialized_data: item }));
    return schema.uniqueItems === true ? new Set(items) : items;
  }
  if (["null", "boolean", "integer", "number", "string"].includes(type as string)) return data;
  const cls = CLASSES.find(([name]) => name === type || name.split(".").pop() === type);
  if (!cls) throw new Error(`Class '${String(type)}' not correctly imported`);
  return cls[2].fromDict(data as never);
}
