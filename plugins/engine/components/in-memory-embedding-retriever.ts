/**
 * @module InMemoryEmbeddingRetriever: the documents of an InMemoryDocumentStore most similar to a
 * query embedding (the store's dot product or cosine similarity). Runtime filters replace the
 * init filters, or merge with them (`filter_policy`); `top_k`, `scale_score` and
 * `return_embedding` given at run time win over the init values.
 */
import * as v from "valibot";
import { Component, output, socket, type ComponentContext } from "../component.js";
import { Document } from "../dataclasses/document.js";
import { InMemoryDocumentStore } from "../document-store.js";
import { applyFilterPolicy, type Filters } from "../filters.js";
import { filtersSchema, retrieverEntries } from "../retriever-parameters.js";
import { requiredArgumentMessage } from "../init-parameters.js";

/** Init parameters shared with InMemoryBM25Retriever's (same names, checks and messages). */
export const inMemoryRetrieverEntries = {
  document_store: v.instance(InMemoryDocumentStore, "document_store must be an instance of InMemoryDocumentStore"),
  ...retrieverEntries,
  scale_score: v.optional(v.boolean(), false),
};

const Init = v.object({ ...inMemoryRetrieverEntries, return_embedding: v.optional(v.boolean(), false) }, requiredArgumentMessage);

type InitParameters = v.InferOutput<typeof Init>;

export interface EmbeddingRetrieverInputs {
  query_embedding: number[];
  filters?: Filters | null;
  top_k?: number | null;
  scale_score?: boolean | null;
  return_embedding?: boolean | null;
}

export class InMemoryEmbeddingRetriever extends Component<InitParameters> {
  static override readonly type = "haystack.components.retrievers.in_memory.embedding_retriever.InMemoryEmbeddingRetriever";
  static override readonly aliases = ["InMemoryEmbeddingRetriever"];
  static override readonly initSchema = Init;

  get document_store(): InMemoryDocumentStore {
    return this.initParameters.document_store;
  }

  protected inputSpecs() {
    return {
      query_embedding: socket(v.array(v.number())),
      filters: socket(v.nullable(filtersSchema), { default: null }),
      top_k: socket(v.nullable(v.number()), { default: null }),
      scale_score: socket(v.nullable(v.boolean()), { default: null }),
      return_embedding: socket(v.nullable(v.boolean()), { default: null }),
    };
  }

  protected outputSpecs() {
    return { documents: output(v.array(v.instance(Document))) };
  }

  run(inputs: EmbeddingRetrieverInputs, _ctx?: ComponentContext): { documents: Document[] } {
    const p = this.initParameters;
    const filters = applyFilterPolicy(p.filter_policy, p.filters, inputs.filters);
    const documents = p.document_store.embedding_retrieval(
      inputs.query_embedding,
      filters,
      inputs.top_k ?? p.top_k,
      inputs.scale_score ?? p.scale_score,
      inputs.return_embedding ?? p.return_embedding,
    );
    return { documents };
  }
}
