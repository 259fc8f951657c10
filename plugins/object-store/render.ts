/**
 * @module Previews of JSON values for a model to read: JSON literals, one element per line,
 * with visible markers wherever something was left out — `… +N` for items past the limit,
 * `"text…" (+N chars)` for cut strings, `[…]`/`{…}` for containers below the depth limit.
 */

export interface RenderLimits {
  /** Items shown per list or object (top-level objects always show every key). */
  maxItems: number;
  maxStringLength: number;
  /** The top-level value is depth 1; deeper containers collapse to `[…]`/`{…}`. */
  maxDepth: number;
  /** Compact mode keeps a container on one line when it fits this width. */
  width?: number;
  compact?: boolean;
}

/** The JSON type name of a value: object, array, string, number, boolean or null. */
export function typeName(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

/** Size shown in headers: characters of a string, items of an array, keys of an object. */
export function sizeOf(value: unknown): number | undefined {
  if (typeof value === "string") return value.length;
  if (Array.isArray(value)) return value.length;
  if (value !== null && typeof value === "object") return Object.keys(value).length;
  return undefined;
}

export function renderString(text: string, maxLength: number): string {
  if (text.length <= maxLength) return JSON.stringify(text);
  return `${JSON.stringify(`${text.slice(0, maxLength)}…`)} (+${text.length - maxLength} chars)`;
}

/** Renders `value` as if it sat at `depth` and `indent` columns. */
export function render(value: unknown, limits: RenderLimits, depth = 1, indent = 0, showAllKeys = false): string {
  if (typeof value === "string") return renderString(value, limits.maxStringLength);
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  const isArray = Array.isArray(value);
  const [open, close] = isArray ? ["[", "]"] : ["{", "}"];
  const entries: [string | undefined, unknown][] = isArray
    ? (value as unknown[]).map((item) => [undefined, item])
    : Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) return `${open}${close}`;
  if (depth > limits.maxDepth) return `${open}…${close}`;
  const shown = showAllKeys && !isArray ? entries : entries.slice(0, limits.maxItems);
  const omitted = entries.length - shown.length;
  const item = (key: string | undefined, v: unknown, childIndent: number) =>
    `${key === undefined ? "" : `${JSON.stringify(key)}: `}${render(v, limits, depth + 1, childIndent)}`;
  if (limits.compact) {
    const inline = `${open}${shown.map(([k, v]) => item(k, v, 0)).join(", ")}${omitted ? `, … +${omitted}` : ""}${close}`;
    if (!inline.includes("\n") && indent + inline.length <= (limits.width ?? 120)) return inline;
  }
  const pad = " ".repeat(indent + 4);
  const lines = shown.map(([k, v]) => `${pad}${item(k, v, indent + 4)}`);
  if (omitted) lines.push(`${pad}… +${omitted}`);
  return `${open}\n${lines.join(",\n")}\n${" ".repeat(indent)}${close}`;
}
