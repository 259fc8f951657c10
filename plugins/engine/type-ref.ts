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

/** How a value crosses a convertible connection. */
export type Conversion = "chatMessageToText" | "textToChatMessage" | "wrapList" | "unwrapList";

const isChatMessage = (t: TypeRef) => t.kind === "named" && t.name === "ChatMessage";
const isText = (t: TypeRef) => t.kind === "string";

/** The conversion that makes a connection valid, if strict compatibility fails. */
export function conversionFor(sender: TypeRef, receiver: TypeRef): Conversion[] | undefined {
  const recv = receiver.kind === "union" && receiver.members.length === 2 && receiver.members[1]!.kind === "null" ? receiver.members[0]! : receiver;
  if (isChatMessage(sender) && isText(recv)) return ["chatMessageToText"];
  if (isText(sender) && isChatMessage(recv)) return ["textToChatMessage"];
  if (recv.kind === "list") {
    if (strictlyCompatible(sender, recv.item)) return ["wrapList"];
    const inner = conversionFor(sender, recv.item);
    if (inner && inner.length === 1 && inner[0] !== "wrapList") return [...inner, "wrapList"];
  }
  if (sender.kind === "list" && (isText(sender.item) || isChatMessage(sender.item))) {
    if (strictlyCompatible(sender.item, recv)) return ["unwrapList"];
    const inner = conversionFor(sender.item, recv);
    if (inner && inner.length === 1 && inner[0] !== "wrapList" && inner[0] !== "unwrapList") return ["unwrapList", ...inner];
  }
  return undefined;
}
