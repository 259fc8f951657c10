/**
 * @module InMemoryBM25Retriever: BM25 keyword retrieval from an InMemoryDocumentStore. YAML nests
 * the store as `{type, init_parameters}`; the loader builds the instance before this component is
 * constructed. Runtime filters replace the init filters, or merge with them (`filter_policy`).
 */
import * as v from "valibot";
import { Component, output, socket, type ComponentContext } from "../component.js";
import { Document } from "../dataclasses/document.js";
import { InMemoryDocumentStore } from "../document-store.js";
import { applyFilterPolicy, type Filters } from "../filters.js";
import { inMemoryRetrieverEntries } from "./in-memory-embedding-retriever.js";
import { filtersSchema } from "../retriever-parameters.js";
import { requiredArgumentMessage } from "../init-parameters.js";

const Init = v.object(inMemoryRetrieverEntries, requiredArgumentMessage);

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
      filters: socket(v.nullable(filtersSchema), { default: null }),
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
