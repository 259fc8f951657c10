/**
 * @module The document-store protocol (haystack/document_stores/types/protocol.py plus the 3.x
 * extended methods). Method names stay Haystack's snake_case, so a store written for svc reads like
 * its Haystack original and components call the same names YAML users know. Every method may answer
 * a value or a promise (the in-memory store is synchronous, a database store is not): callers always
 * `await`. Each method also has its Haystack `*_async` form, which always answers a promise;
 * `addAsyncForms` derives them for a class that only writes the plain ones.
 */
import type { Document } from "./dataclasses/document.js";
import type { DuplicatePolicy } from "./document-store.js";
import type { Filters } from "./filters.js";

export type Awaitable<T> = T | Promise<T>;

/** `get_metadata_fields_info`'s answer: field name → `{type}` (keyword, int, float, boolean, or the store's own type names). */
export type MetadataFieldsInfo = Record<string, { type: string; [detail: string]: unknown }>;

/** `get_metadata_field_min_max`'s answer; both null when no document has the field. */
export interface MetadataFieldMinMax {
  min: unknown;
  max: unknown;
}

/** The four methods every store has (Haystack's `DocumentStore` protocol). */
export interface DocumentStore {
  count_documents(): Awaitable<number>;
  /** The documents matching Haystack filters (all of them without filters or with `{}`). */
  filter_documents(filters?: Filters | null): Awaitable<Document[]>;
  /** Writes documents; answers how many were written. NONE lets the store pick (FAIL for svc's stores). */
  write_documents(documents: Document[], policy?: DuplicatePolicy | string): Awaitable<number>;
  /** Deletes the documents with these ids; unknown ids are ignored. */
  delete_documents(document_ids: string[]): Awaitable<void>;
  /** Haystack's `to_dict`: `{type, init_parameters}` (what a YAML dump writes). */
  toDict?(): { type: string; init_parameters: Record<string, unknown> };
}

/** Haystack 3.x's extended methods; svc's stores implement all of them. */
export interface ExtendedDocumentStore extends DocumentStore {
  delete_all_documents(): Awaitable<void>;
  /** Answers how many documents were deleted. */
  delete_by_filter(filters: Filters): Awaitable<number>;
  /** Merges `meta` into the meta of every matching document; answers how many were updated. */
  update_by_filter(filters: Filters, meta: Record<string, unknown>): Awaitable<number>;
  count_documents_by_filter(filters: Filters): Awaitable<number>;
  /** Distinct non-null values per field (`meta.` prefix optional) among the matching documents. */
  count_unique_metadata_by_filter(filters: Filters, metadata_fields: string[]): Awaitable<Record<string, number>>;
  get_metadata_fields_info(): Awaitable<MetadataFieldsInfo>;
  get_metadata_field_min_max(metadata_field: string): Awaitable<MetadataFieldMinMax>;
  /**
   * Distinct values of a field, sorted by their text, optionally restricted by a case-insensitive
   * substring and filters, paged by `from_`/`size`; answers `[page, total distinct count]`.
   */
  get_metadata_field_unique_values(metadata_field: string, search_term?: string | null, from_?: number, size?: number, filters?: Filters | null): Awaitable<[unknown[], number]>;
}

/** The protocol's method names, in the order Haystack documents them. */
export const DOCUMENT_STORE_METHODS = ["count_documents", "filter_documents", "write_documents", "delete_documents"] as const;
export const EXTENDED_DOCUMENT_STORE_METHODS = [
  "delete_all_documents",
  "delete_by_filter",
  "update_by_filter",
  "count_documents_by_filter",
  "count_unique_metadata_by_filter",
  "get_metadata_fields_info",
  "get_metadata_field_min_max",
  "get_metadata_field_unique_values",
] as const;

type Method = (typeof DOCUMENT_STORE_METHODS)[number] | (typeof EXTENDED_DOCUMENT_STORE_METHODS)[number];
type AsyncOf<F> = F extends (...args: infer A) => infer R ? (...args: A) => Promise<Awaited<R>> : never;

/** The `*_async` forms of the methods a store has. */
export type AsyncForms<S> = { [K in keyof S & Method as `${K}_async`]: AsyncOf<S[K]> };

/** Whether a value has the four protocol methods (what components accept as a document store). */
export function isDocumentStore(value: unknown): value is DocumentStore {
  return !!value && DOCUMENT_STORE_METHODS.every((m) => typeof (value as Record<string, unknown>)[m] === "function");
}

/** Whether a store has every extended method too. */
export function isExtendedDocumentStore(value: unknown): value is ExtendedDocumentStore {
  return isDocumentStore(value) && EXTENDED_DOCUMENT_STORE_METHODS.every((m) => typeof (value as unknown as Record<string, unknown>)[m] === "function");
}

/**
 * Defines `<method>_async` on a store class for each protocol method it has and whose async form it
 * does not define itself. The async form calls the plain one and always answers a promise (a
 * synchronous throw becomes a rejection).
 */
export function addAsyncForms<C extends abstract new (...args: any[]) => object>(cls: C): C {
  const proto = cls.prototype as Record<string, unknown>;
  for (const name of [...DOCUMENT_STORE_METHODS, ...EXTENDED_DOCUMENT_STORE_METHODS]) {
    if (typeof proto[name] !== "function" || typeof proto[`${name}_async`] === "function") continue;
    Object.defineProperty(proto, `${name}_async`, {
      configurable: true,
      writable: true,
      value: async function (this: Record<string, (...args: unknown[]) => unknown>, ...args: unknown[]) {
        return this[name]!(...args);
      },
    });
  }
  return cls;
}
