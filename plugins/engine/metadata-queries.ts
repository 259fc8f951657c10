/**
 * @module The metadata queries of Haystack 3.x's InMemoryDocumentStore over a list of documents:
 * distinct counts, field types, min/max and paged distinct values. Field names take an optional
 * `meta.` prefix. Distinct values are told apart by type and text, as Haystack's
 * `(type name, str(value))` keys do, so 1, "1" and true stay three values.
 */
import type { Document } from "./dataclasses/document.js";
import type { MetadataFieldMinMax, MetadataFieldsInfo } from "./document-store-protocol.js";

export const metaKey = (field: string): string => (field.startsWith("meta.") ? field.slice(5) : field);

/** Python's type name and str() of a JSON value (for distinctness and sorting). */
function pyKey(value: unknown): [string, string] {
  if (typeof value === "boolean") return ["bool", value ? "True" : "False"];
  if (typeof value === "number") return [Number.isInteger(value) ? "int" : "float", String(value)];
  if (typeof value === "string") return ["str", value];
  return [Array.isArray(value) ? "list" : "dict", JSON.stringify(value)];
}

const present = (doc: Document, key: string) => Object.hasOwn(doc.meta, key) && doc.meta[key] !== null && doc.meta[key] !== undefined;

export function countUniqueMetadata(docs: Document[], fields: string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const field of fields) {
    const key = metaKey(field);
    const seen = new Set<string>();
    // Python's set: 1 == 1.0 == True collapse; different texts of one number do not occur in JSON.
    for (const doc of docs) if (present(doc, key)) seen.add(setKey(doc.meta[key]));
    out[key] = seen.size;
  }
  return out;
}

/** Python set membership: True == 1, so bools and numbers share keys; containers by their JSON. */
function setKey(value: unknown): string {
  if (typeof value === "boolean") return `n:${value ? 1 : 0}`;
  if (typeof value === "number") return `n:${value}`;
  if (typeof value === "string") return `s:${value}`;
  return `j:${JSON.stringify(value)}`;
}

/** Field → `{type}`: boolean, int, float or keyword; the last written document's value decides. */
export function metadataFieldsInfo(docs: Iterable<Document>): MetadataFieldsInfo {
  const types = new Map<string, string>();
  for (const doc of docs) {
    for (const [key, value] of Object.entries(doc.meta)) {
      if (value === null || value === undefined) continue;
      types.set(key, typeof value === "boolean" ? "boolean" : typeof value === "number" ? (Number.isInteger(value) ? "int" : "float") : "keyword");
    }
  }
  return Object.fromEntries([...types].map(([k, type]) => [k, { type }]));
}

/** Min and max of a field's numbers or strings; `{min: null, max: null}` when absent or mixed (Python's TypeError). */
export function metadataFieldMinMax(docs: Iterable<Document>, field: string): MetadataFieldMinMax {
  const key = metaKey(field);
  const values: Array<number | string> = [];
  for (const doc of docs) {
    const value = doc.meta[key];
    if (typeof value === "number" || typeof value === "string" || typeof value === "boolean") values.push(value as number | string);
  }
  if (values.length === 0) return { min: null, max: null };
  const strings = values.filter((v) => typeof v === "string").length;
  if (strings !== 0 && strings !== values.length) return { min: null, max: null };
  let min = values[0]!;
  let max = values[0]!;
  for (const v of values) {
    if (v < min) min = v;
    if (v > max) max = v;
  }
  return { min, max };
}

/** Distinct values sorted by (text, type name), filtered by a case-insensitive substring, then paged. */
export function metadataFieldUniqueValues(docs: Iterable<Document>, field: string, searchTerm: string | null | undefined, from: number, size: number): [unknown[], number] {
  const key = metaKey(field);
  const unique = new Map<string, { text: string; type: string; value: unknown }>();
  for (const doc of docs) {
    const value = doc.meta[key];
    if (value === null || value === undefined) continue;
    const [type, text] = pyKey(value);
    const id = `${type}\u0000${text}`;
    if (!unique.has(id)) unique.set(id, { text, type, value });
  }
  let entries = [...unique.values()];
  if (searchTerm) {
    const term = searchTerm.toLowerCase();
    entries = entries.filter((e) => e.text.toLowerCase().includes(term));
  }
  // Python compares str by code point, as does JavaScript's < on strings of the BMP.
  entries.sort((a, b) => (a.text < b.text ? -1 : a.text > b.text ? 1 : a.type < b.type ? -1 : a.type > b.type ? 1 : 0));
  const start = Math.max(0, from);
  return [entries.slice(start, start + Math.max(0, size)).map((e) => e.value), entries.length];
}
