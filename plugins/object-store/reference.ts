/**
 * @module Object references: `@obj_<id>` or `@obj_<id>.<path>` (also `@obj_<id>[0].name`).
 * Only strings of exactly that shape are references, so an ordinary argument that happens to
 * start with `@` (an e-mail handle, a decorator name) is passed through untouched.
 */

const REFERENCE = /^@(obj_[A-Za-z0-9-]+)(?:(?:\.|(?=\[))(.*))?$/s;

export interface ParsedReference {
  /** The bare id, `obj_001`. */
  objId: string;
  /** The path after the id, `items.0.name`; empty for the whole object. */
  path: string;
}

/** True for a string of the form `@obj_<id>` or `@obj_<id>.<path>`. */
export function isReference(value: unknown): value is string {
  return typeof value === "string" && REFERENCE.test(value);
}

/**
 * Splits a reference into its id and path. A string that is not a reference comes back as the
 * id with an empty path (`obj_001` → `{ objId: "obj_001", path: "" }`).
 */
export function parseReference(ref: string): ParsedReference {
  const match = REFERENCE.exec(ref);
  if (match) return { objId: match[1]!, path: match[2] ?? "" };
  const bare = ref.startsWith("@") ? ref.slice(1) : ref;
  const split = bare.search(/[.[]/);
  return split < 0 ? { objId: bare, path: "" } : { objId: bare.slice(0, split), path: bare.slice(split).replace(/^\./, "") };
}
