/**
 * @module A component's init parameter names, read from its valibot init schema, and the
 * unknown-parameter check every component runs (Haystack's `__init__` raises a TypeError on a
 * typo such as `split_lenght`). One place: serialization and validation both read these names.
 */
import { closest, distance } from "fastest-levenshtein";

type SchemaNode = { type?: string; entries?: Record<string, unknown>; wrapped?: unknown; pipe?: unknown[] };

/** The declared parameter names, or `undefined` when the schema takes any keys (a record, a loose object). */
export function initParameterNames(schema: unknown): string[] | undefined {
  let node = schema as SchemaNode | undefined;
  // optional(...), nullable(...), nullish(...) wrap the object schema.
  while (node && node.wrapped) node = node.wrapped as SchemaNode;
  if (!node || !node.entries) return undefined;
  if (node.type === "loose_object" || node.type === "object_with_rest") return undefined;
  return Object.keys(node.entries);
}

/** The closest known name when it is a plausible typo, for "Did you mean ...?". */
export function suggestName(name: string, known: readonly string[]): string | undefined {
  if (known.length === 0) return undefined;
  const best = closest(name, known as string[]);
  const lower = name.toLowerCase();
  const byCase = known.find((k) => k.toLowerCase() === lower);
  if (byCase) return byCase;
  return distance(name, best) <= Math.max(2, Math.floor(best.length / 3)) ? best : undefined;
}

/** `" Did you mean 'x'?"` or "". */
export function didYouMean(name: string, known: readonly string[]): string {
  const hint = suggestName(name, known);
  return hint ? ` Did you mean '${hint}'?` : "";
}

/** Throws a TypeError naming the first unknown init parameter, as Haystack's constructors do. */
export function checkInitParameterNames(typeName: string, schema: unknown, init: unknown): void {
  if (!init || typeof init !== "object" || Array.isArray(init)) return;
  const known = initParameterNames(schema);
  if (!known) return;
  const unknown = Object.keys(init).filter((key) => !known.includes(key));
  if (unknown.length === 0) return;
  const first = unknown[0]!;
  throw new TypeError(
    `${typeName}.__init__() got an unexpected keyword argument '${first}'.${didYouMean(first, known)}` +
      (unknown.length > 1 ? ` Also unknown: ${unknown.slice(1).map((k) => `'${k}'`).join(", ")}.` : "") +
      ` Known parameters: ${known.join(", ")}.`,
  );
}

/**
 * An init object schema's message for a missing required parameter in Haystack's words (its
 * `__init__` raises "missing 1 required positional argument: 'document_store'"); pass it as the
 * message of `v.object(entries, requiredArgumentMessage)`.
 */
export function requiredArgumentMessage(issue: { input: unknown; expected: string | null; path?: Array<{ key: unknown }> }): string {
  const key = issue.path?.at(-1)?.key;
  if (issue.input === undefined && typeof key === "string") return `__init__() missing 1 required positional argument: '${key}'`;
  return `Invalid type: Expected ${issue.expected ?? "an object"}`;
}
