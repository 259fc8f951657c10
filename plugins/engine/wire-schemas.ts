/**
 * @module Haystack objects over JSON. A YAML pipeline's request schema takes Document, ByteStream
 * and ChatMessage inputs in Haystack's `to_dict` form and in the plain field form Hayhooks accepts
 * (`{"content": "…", "meta": {…}, "embedding": […]}`), and turns them into the engine's objects.
 * These valibot schemas are the one source of the validation, the OpenAPI document and the MCP
 * tool schema, so clients see the objects' real fields. Answers need nothing here: the objects'
 * `toJSON` is their `toDict`.
 */
import * as v from "valibot";
import { CHAT_ROLES, ChatMessage } from "./dataclasses/chat-message.js";
import { ByteStream, Document } from "./dataclasses/document.js";

const Meta = v.pipe(v.record(v.string(), v.unknown()), v.description("Metadata: any JSON object."));

const ByteStreamFields = v.object({
  data: v.pipe(
    v.union([v.array(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(255))), v.string()]),
    v.description("The bytes, as a list of byte values (Haystack's to_dict) or as UTF-8 text."),
  ),
  meta: v.optional(v.nullable(Meta)),
  mime_type: v.optional(v.nullable(v.string())),
});

export const ByteStreamJson = v.pipe(
  ByteStreamFields,
  v.description("A ByteStream: Haystack's to_dict form."),
  v.transform((d) => ByteStream.fromDict(d)),
);

export const DocumentJson = v.pipe(
  v.looseObject({
    id: v.optional(v.string()),
    content: v.optional(v.nullable(v.string())),
    blob: v.optional(v.nullable(ByteStreamFields)),
    meta: v.optional(v.nullable(Meta)),
    score: v.optional(v.nullable(v.number())),
    embedding: v.optional(v.nullable(v.array(v.number()))),
    sparse_embedding: v.optional(v.nullable(v.object({ indices: v.array(v.pipe(v.number(), v.integer())), values: v.array(v.number()) }))),
  }),
  v.description("A Document: Haystack's to_dict form (other top-level keys are meta) or just its fields; the id is computed when not given."),
  v.transform((d) => Document.fromDict(d)),
);

const ContentPart = v.pipe(
  v.record(v.string(), v.unknown()),
  v.description("A content part: {text}, {tool_call}, {tool_call_result}, {reasoning}, {image} or {file}."),
);

export const ChatMessageJson = v.pipe(
  v.looseObject({
    role: v.picklist(CHAT_ROLES),
    content: v.union([v.string(), v.array(ContentPart)]),
    name: v.optional(v.nullable(v.string())),
    meta: v.optional(v.nullable(Meta)),
  }),
  v.description("A ChatMessage: Haystack's to_dict form, or a role and a text content."),
  v.rawTransform(({ dataset, addIssue, NEVER }) => {
    try {
      return ChatMessage.fromDict(dataset.value as Parameters<typeof ChatMessage.fromDict>[0]);
    } catch (error) {
      addIssue({ message: (error as Error).message });
      return NEVER;
    }
  }),
);

type Node = v.GenericSchema & { type: string; class?: unknown; item?: v.GenericSchema; wrapped?: v.GenericSchema; options?: v.GenericSchema[]; default?: unknown; pipe?: unknown[] };

const BY_CLASS = new Map<unknown, v.GenericSchema>([
  [Document, DocumentJson],
  [ByteStream, ByteStreamJson],
  [ChatMessage, ChatMessageJson],
]);

/**
 * The request form of a socket's schema: every `v.instance(Document | ByteStream | ChatMessage)`
 * inside lists, unions and optionals replaced by its JSON schema. Unchanged when there is none.
 */
export function wireSchema(schema: v.GenericSchema): v.GenericSchema {
  const s = schema as Node;
  if (s.pipe && s.pipe.length > 1) {
    // A piped schema: rebuild its root, keep its actions.
    const root = s.pipe[0] as Node;
    const wired = wireSchema(root);
    return wired === root ? schema : (v.pipe(wired, ...(s.pipe.slice(1) as [])) as v.GenericSchema);
  }
  switch (s.type) {
    case "instance":
      return BY_CLASS.get(s.class) ?? schema;
    case "array": {
      const item = wireSchema(s.item!);
      return item === s.item ? schema : v.array(item);
    }
    case "union": {
      const options = s.options!.map(wireSchema);
      return options.every((o, i) => o === s.options![i]) ? schema : v.union(options);
    }
    case "optional":
    case "nullable":
    case "nullish": {
      const inner = wireSchema(s.wrapped!);
      if (inner === s.wrapped) return schema;
      const wrap = (s.type === "optional" ? v.optional : s.type === "nullable" ? v.nullable : v.nullish) as (w: v.GenericSchema, d?: unknown) => v.GenericSchema;
      return s.default === undefined ? wrap(inner) : wrap(inner, s.default);
    }
    default:
      return schema;
  }
}
