/**
 * @module The init parameters both pgvector retrievers share, with Haystack's names, defaults and
 * messages.
 */
import * as v from "valibot";
import { parseFilterPolicy } from "svc/engine";
import { PgvectorDocumentStore } from "./document-store.js";

export const retrieverEntries = {
  document_store: v.instance(PgvectorDocumentStore, "document_store must be an instance of PgvectorDocumentStore"),
  filters: v.optional(v.nullable(v.record(v.string(), v.any())), null),
  top_k: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1, (issue) => `top_k must be greater than 0. Currently, the top_k is ${String(issue.input)}`)), 10),
  filter_policy: v.optional(
    v.pipe(
      v.string(),
      v.check((p) => ["replace", "merge"].includes(p.toLowerCase()), "filter_policy must be 'replace' or 'merge'"),
      v.transform((p: string) => parseFilterPolicy(p)),
    ),
    "replace",
  ),
};
