/**
 * @module The in-memory store's helpers: vector maths for embedding retrieval, filter checks,
 * scored copies, and the BM25 tokeniser (Python's findall on the lower-cased text).
 */
import { pythonRegExp } from "./components/python-regex.js";
import { Document } from "./dataclasses/document.js";
import { FilterError, INVALID_FILTER_SYNTAX, type Filters } from "./filters.js";

/** Haystack 3.x's default: every word, one-character words included. */
export const DEFAULT_TOKENIZATION_REGEX = String.raw`(?u)\b\w+\b`;
/** The 2.x default (two or more word characters), still accepted and fast. */
export const LEGACY_TOKENIZATION_REGEX = String.raw`(?u)\b\w\w+\b`;

export const DOT_PRODUCT_SCALING_FACTOR = 100;

export function dot(a: readonly number[], b: readonly number[]): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!;
  return sum;
}

/** The vector divided by its L2 norm; a zero vector stays as it is (no NaN scores). */
export function unit(v: readonly number[]): number[] {
  const norm = Math.sqrt(dot(v, v));
  return norm === 0 ? [...v] : v.map((x) => x / norm);
}

/** delete_by_filter and update_by_filter need a filter (Haystack validates it; an empty one would touch everything). */
export function requireFilters(filters: Filters): Filters {
  if (!filters || typeof filters !== "object" || Array.isArray(filters) || Object.keys(filters).length === 0) throw new FilterError(INVALID_FILTER_SYNTAX);
  return filters;
}

export function hasFilters(filters: Filters | null | undefined): filters is Filters {
  return !!filters && Object.keys(filters).length > 0;
}

/** filter_documents takes a comparison or logic condition at the top; bm25_retrieval needs an operator. */
export function checked(filters: Filters, allowConditionsOnly: boolean): Filters {
  if (!("operator" in filters) && !(allowConditionsOnly && "conditions" in filters)) throw new Error(INVALID_FILTER_SYNTAX);
  return filters;
}

/** A copy with its own meta, as Haystack's Document.from_dict(doc.to_dict()) gives. */
export function copyDocument(doc: Document, score: number | null, withEmbedding: boolean): Document {
  let meta: Record<string, unknown>;
  try {
    meta = structuredClone(doc.meta);
  } catch {
    meta = { ...doc.meta };
  }
  return new Document({ id: doc.id, content: doc.content, blob: doc.blob, meta, score, embedding: withEmbedding ? doc.embedding : null, sparse_embedding: doc.sparse_embedding });
}

const FAST_DEFAULT = /[\p{L}\p{N}_]+/gu;
const FAST_LEGACY = /[\p{L}\p{N}_]{2,}/gu;

/** Lowercases, then findall; the defaults are exactly "runs of (two or more) word characters". */
export function makeTokenizer(pattern: string): (text: string) => string[] {
  if (pattern === DEFAULT_TOKENIZATION_REGEX) return (text) => text.toLowerCase().match(FAST_DEFAULT) ?? [];
  if (pattern === LEGACY_TOKENIZATION_REGEX) return (text) => text.toLowerCase().match(FAST_LEGACY) ?? [];
  const re = pythonRegExp(pattern, "g");
  // findall returns group 1 when the pattern has groups.
  return (text) => Array.from(text.toLowerCase().matchAll(re), (m) => (m.length > 1 ? (m[1] ?? "") : m[0]));
}
