/**
 * @module Rendering values as text, bounded: sorted-key JSON that stops once it has `limit`
 * characters (so a huge payload costs no more than its first few hundred characters), with values
 * under sensitive keys replaced when asked.
 */

export const REDACTED = "[redacted]";

export interface RenderOptions {
  readonly limit: number;
  /** Replace the value of keys this returns true for. */
  readonly redact?: (key: string) => boolean;
}

class Budget {
  out = "";
  constructor(readonly limit: number) {}
  get full(): boolean {
    return this.out.length >= this.limit;
  }
  add(text: string): void {
    if (!this.full) this.out += text;
  }
}

function write(value: unknown, b: Budget, o: RenderOptions, seen: Set<object>): void {
  if (b.full) return;
  if (value === null || value === undefined) return b.add("null");
  switch (typeof value) {
    case "string":
      return b.add(JSON.stringify(value.length > b.limit ? value.slice(0, b.limit) : value));
    case "number":
      return b.add(Number.isFinite(value) ? String(value) : "null");
    case "boolean":
      return b.add(String(value));
    case "bigint":
      return b.add(value.toString());
    case "function":
    case "symbol":
      return b.add(JSON.stringify(String(value)));
  }
  const obj = value as object;
  if (seen.has(obj)) return b.add('"[circular]"');
  if (obj instanceof Date) return b.add(JSON.stringify(Number.isNaN(obj.getTime()) ? "Invalid Date" : obj.toISOString()));
  if (Buffer.isBuffer(obj) || ArrayBuffer.isView(obj)) return b.add(JSON.stringify(`${obj.constructor.name}(${(obj as Uint8Array).byteLength})`));
  seen.add(obj);
  try {
    if (Array.isArray(obj) || obj instanceof Set) {
      const items = obj instanceof Set ? sortedItems([...obj]) : obj;
      b.add("[");
      items.forEach((item, i) => {
        if (i) b.add(",");
        write(item, b, o, seen);
      });
      return b.add("]");
    }
    const entries = obj instanceof Map ? [...obj.entries()].map(([k, v]) => [String(k), v] as const) : Object.entries(obj);
    entries.sort(([a], [b2]) => (a < b2 ? -1 : a > b2 ? 1 : 0));
    b.add("{");
    entries.forEach(([key, item], i) => {
      if (i) b.add(",");
      b.add(JSON.stringify(key) + ":");
      if (o.redact?.(key)) b.add(JSON.stringify(REDACTED));
      else write(item, b, o, seen);
    });
    b.add("}");
  } finally {
    seen.delete(obj);
  }
}

function sortedItems(items: unknown[]): unknown[] {
  return items.sort((a, b) => (String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0));
}

/** Sorted-key JSON of `value`, cut at `options.limit` characters. */
export function boundedJson(value: unknown, options: RenderOptions): string {
  const b = new Budget(options.limit);
  write(value, b, options, new Set());
  return b.out.length > options.limit ? b.out.slice(0, options.limit) : b.out;
}

/** A tag value as the text shown in a snapshot; undefined for null and blank values. */
export function renderTag(value: unknown, limit: number): string | undefined {
  if (value === null || value === undefined) return undefined;
  let text: string;
  if (typeof value === "string") text = value;
  else if (typeof value === "boolean" || typeof value === "number" || typeof value === "bigint") text = String(value);
  else text = boundedJson(value, { limit });
  if (text.trim() === "") return undefined;
  return text.length > limit ? text.slice(0, limit) : text;
}
