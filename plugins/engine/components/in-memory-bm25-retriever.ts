/**
 * @module InMemoryBM25Retriever: BM25 keyword retrieval from an InMemoryDocumentStore. YAML nests
 * the store as `{type, init_parameters}`; the loader builds the instance before this component is
 * constructed. Runtime filters replace the init filters, or merge with them (`filter_policy`).
 */
import * as v from "valibot";
import { Component, output, socket, type ComponentContext } from "../component.js";
import { Document } from "../dataclasses/document.js";
import { InMemoryDocumentStore } from "../document-store.js";
import { applyFilterPolicy, parseFilterPolicy, type Filters } from "../filters.js";

const FiltersSchema = v.record(v.string(), v.any());

const Init = v.object({
  document_store: v.instance(InMemoryDocumentStore, "document_store must be an instance of InMemoryDocumentStore"),
  filters: v.optional(v.nullable(FiltersSchema), null),
  top_k: v.optional(
    v.pipe(
      v.number(),
      v.check((n) => n > 0, (issue) => `top_k must be greater than 0. Currently, the top_k is ${String(issue.input)}`),
    ),
    10,
  ),
  scale_score: v.optional(v.boolean(), false),
  filter_policy: v.optional(
    v.pipe(
      v.string(),
      v.check((p) => ["replace", "merge"].includes(p.toLowerCase()), "filter_policy must be 'replace' or 'merge'"),
      v.transform((p: string) => parseFilterPolicy(p)),
    ),
    "replace",
  ),
});

type InitParameters = v.InferOutput<typeof Init>;

export class InMemoryBM25Retriever extends Component<InitParameters> {
  static override readonly type = "haystack.components.retrievers.in_memory.bm25_retriever.InMemoryBM25Retriever";
  static override readonly aliases = ["InMemoryBM25Retriever"];
  static override readonly initSchema = Init;

  get document_store(): InMemoryDocumentStore {
    return this.initParameters.document_store;
  }

  protected inputSpecs() {
    return {
      query: socket(v.string()),
      filters: socket(v.nullable(FiltersSchema), { default: null }),
      top_k: socket(v.nullable(v.number()), { default: null }),
      scale_score: socket(v.nullable(v.boolean()), { default: null }),
    };
  }

  protected outputSpecs() {
    return { documents: output(v.array(v.instance(Document))) };
  }

  run(inputs: { query: string; filters?: Filters | null; top_k?: number | null; scale_score?: boolean | null }, _ctx?: ComponentContext) {
    const p = this.initParameters;
    const filters = applyFilterPolicy(p.filter_policy, p.filters, inputs.filters);
    const documents = p.document_store.bm25_retrieval(inputs.query, filters, inputs.top_k ?? p.top_k, inputs.scale_score ?? p.scale_score);
    return { documents };
  }
}
