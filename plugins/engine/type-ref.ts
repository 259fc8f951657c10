/**
 * @module Socket types for connect-time checks, derived from valibot schemas, with Haystack's
 * compatibility rules: strict matches, and the "smart connection" conversions
 * (ChatMessage ↔ string, wrap T → list[T], unwrap a one-element list).
 */
import type * as v from "valibot";

export type TypeRef =
  | { kind: "any" }
  | { kind: "string" | "number" | "boolean" | "null" | "dict" | "function" }
  | { kind: "list"; item: TypeRef }
  | { kind: "union"; members: TypeRef[] }
  | { kind: "named"; name: string };

export const ANY: TypeRef = { kind: "any" };

/** Registered class names for `v.instance(Class)` schemas (ChatMessage, Document, …). */
function classTypeName(cls: unknown): string {
  const c = cls as { typeName?: string; name?: string };
  return c.typeName ?? c.name ?? "object";
}

type AnySchema = v.GenericSchema & { type: string; wrapped?: AnySchema; item?: AnySchema; options?: AnySchema[]; class?: unknown; pipe?: unknown[] };

/** The TypeRef of a valibot schema. */
export function typeRefOf(schema: v.GenericSchema | undefined): TypeRef {
  const s = schema as AnySchema | undefined;
  if (!s) return ANY;
  switch (s.type) {
    case "string":
    case "picklist":
    case "enum":
      return { kind: "string" };
    case "number":
    case "bigint":
      return { kind: "number" };
    case "boolean":
      return { kind: "boolean" };
    case "null":
    case "undefined":
    case "void":
      return { kind: "null" };
    case "literal":
      return { kind: typeof (s as unknown as { literal: unknown }).literal === "string" ? "string" : "any" } as TypeRef;
    case "array":
      return { kind: "list", item: typeRefOf(s.item) };
    case "tuple":
      return { kind: "list", item: ANY };
    case "object":
    case "loose_object":
    case "strict_object":
    case "object_with_rest":
    case "record":
    case "map":
      return { kind: "dict" };
    case "function":
      return { kind: "function" };
    case "instance":
      return { kind: "named", name: classTypeName(s.class) };
    case "union":
    case "variant":
      return { kind: "union", members: (s.options ?? []).map((o) => typeRefOf(o)) };
    case "optional":
    case "nullable":
    case "nullish":
    case "exact_optional":
    case "undefinedable":
      return { kind: "union", members: [typeRefOf(s.wrapped), { kind: "null" }] };
    default:
      return ANY;
  }
}

/** Readable type names for error messages, in Haystack's spelling. */
export function typeName(t: TypeRef): string {
  switch (t.kind) {
    case "any":
      return "Any";
    case "string":
      return "str";
    case "number":
      return "float";
    case "boolean":
      return "bool";
    case "null":
      return "None";
    case "dict":
      return "dict";
    case "function":
      return "Callable";
    case "list":
      return `list[${typeName(t.item)}]`;
    case "union":
      return t.members.length === 2 && t.members[1]!.kind === "null" ? `Optional[${typeName(t.members[0]!)}]` : `Union[${t.members.map(typeName).join(", ")}]`;
    case "named":
      return t.name;
  }
}

/** Strict compatibility: the sender's values are always valid for the receiver. */
export function strictlyCompatible(sender: TypeRef, receiver: TypeRef): boolean {
  if (receiver.kind === "any") return true;
  if (sender.kind === "any") return false;
  if (sender.kind === "union") return sender.members.every((m) => strictlyCompatible(m, receiver));
  if (receiver.kind === "union") return receiver.members.some((m) => strictlyCompatible(sender, m));
  if (sender.kind !== receiver.kind) return false;
  if (sender.kind === "list") return strictlyCompatible(sender.item, (receiver as { item: TypeRef }).item);
  if (sender.kind === "named") return sender.name === (receiver as { name: string }).name;
  return true;
}

/** How a value crosses a convertible connection: the steps of Haystack's ConversionStrategy, in order. */
export type Conversion = "chatMessageToText" | "textToChatMessage" | "wrapList" | "unwrapList";

const isChatMessage = (t: TypeRef) => t.kind === "named" && t.name === "ChatMessage";
const isText = (t: TypeRef) => t.kind === "string";
const contains = (t: TypeRef, test: (t: TypeRef) => boolean) => test(t) || (t.kind === "union" && t.members.some(test));

const WRAP: Conversion[] = ["wrapList"];
const UNWRAP: Conversion[] = ["unwrapList"];
const TO_TEXT: Conversion[] = ["chatMessageToText"];
const TO_MESSAGE: Conversion[] = ["textToChatMessage"];

/** Haystack's _STRATEGY_PRIORITY: when a union receiver admits several conversions, the first of these wins. */
const PRIORITY: readonly (readonly Conversion[])[] = [
  WRAP,
  UNWRAP,
  TO_TEXT,
  TO_MESSAGE,
  ["chatMessageToText", "wrapList"],
  ["textToChatMessage", "wrapList"],
  ["unwrapList", "chatMessageToText"],
  ["unwrapList", "textToChatMessage"],
];
const key = (c: readonly Conversion[] | undefined) => (c ? c.join(">") : "");

/** The conversion that makes a connection valid when strict compatibility fails (Haystack's `_get_conversion_strategy`). */
export function conversionFor(sender: TypeRef, receiver: TypeRef): Conversion[] | undefined {
  // A union sender converts only if all its members convert the same way.
  if (sender.kind === "union") {
    const found = new Set(sender.members.map((m) => key(conversionFor(m, receiver))));
    if (found.size !== 1) return undefined;
    const only = [...found][0]!;
    return only ? (only.split(">") as Conversion[]) : undefined;
  }
  // A union receiver converts if any member does, by priority.
  if (receiver.kind === "union") {
    const found = new Set(receiver.members.map((m) => key(conversionFor(sender, m))));
    const best = PRIORITY.find((p) => found.has(key(p)));
    return best ? [...best] : undefined;
  }
  if (isChatMessage(sender) && isText(receiver)) return [...TO_TEXT];
  if (isText(sender) && isChatMessage(receiver)) return [...TO_MESSAGE];
  if (receiver.kind === "list") {
    if (strictlyCompatible(sender, receiver.item)) return [...WRAP];
    if (contains(sender, isChatMessage) && contains(receiver.item, isText)) return ["chatMessageToText", "wrapList"];
    if (contains(sender, isText) && contains(receiver.item, isChatMessage)) return ["textToChatMessage", "wrapList"];
  }
  if (sender.kind === "list") {
    const inner = sender.item;
    if (receiver.kind !== "list" && (isText(inner) || isChatMessage(inner)) && strictlyCompatible(inner, receiver)) return [...UNWRAP];
    const innerConversion = key(conversionFor(inner, receiver));
    if (innerConversion === key(TO_MESSAGE)) return ["unwrapList", "textToChatMessage"];
    if (innerConversion === key(TO_TEXT)) return ["unwrapList", "chatMessageToText"];
  }
  return undefined;
}
