/**
 * @module The init parameters every retriever shares with Haystack's (`filters`, `top_k`,
 * `filter_policy`: same names, defaults, checks and messages), for the in-memory retrievers and
 * for an integration's (svc:pgvector's) alike. Spread into a component's init schema beside its
 * own `document_store` and extras.
 */
import * as v from "valibot";
import { parseFilterPolicy } from "./filters.js";

/** A Haystack filter as it arrives in YAML or a run: checked in depth by the store. */
export const filtersSchema = v.record(v.string(), v.any());

export const retrieverEntries = {
  filters: v.optional(v.nullable(filtersSchema), null),
  top_k: v.optional(
    v.pipe(
      v.number(),
      v.check((n) => n > 0, (issue) => `top_k must be greater than 0. Currently, the top_k is ${String(issue.input)}`),
      v.integer((issue) => `top_k must be an integer. Currently, the top_k is ${String(issue.input)}`),
    ),
    10,
  ),
  filter_policy: v.optional(
    v.pipe(
      v.string(),
      v.check((p) => ["replace", "merge"].includes(p.toLowerCase()), "filter_policy must be 'replace' or 'merge'"),
      v.transform((p: string) => parseFilterPolicy(p)),
    ),
    "replace",
  ),
};
