/**
 * @module PgvectorEmbeddingRetriever (haystack_integrations.components.retrievers.pgvector): the
 * documents of a PgvectorDocumentStore closest to a query embedding, scored as the store's (or the
 * retriever's, or the run's) vector function scores them. Runtime filters replace or merge with
 * the init filters (`filter_policy`); `top_k` and `vector_function` at run time win.
 */
import * as v from "valibot";
import { applyFilterPolicy, Component, filtersSchema, Document, output, socket, type ComponentContext, type Filters } from "svc/engine";
import { PgvectorDocumentStore } from "./document-store.js";
import { retrieverEntries } from "./retriever-options.js";
import { vectorFunctionSchema, type VectorFunction } from "./store-options.js";

const Init = v.object({ ...retrieverEntries, vector_function: v.optional(v.nullable(vectorFunctionSchema), null) });

export class PgvectorEmbeddingRetriever extends Component<v.InferOutput<typeof Init>> {
  static override readonly type = "haystack_integrations.components.retrievers.pgvector.embedding_retriever.PgvectorEmbeddingRetriever";
  static override readonly aliases = ["PgvectorEmbeddingRetriever"];
  static override readonly initSchema = Init;

  get document_store(): PgvectorDocumentStore {
    return this.initParameters.document_store;
  }

  protected inputSpecs() {
    return {
      query_embedding: socket(v.array(v.number())),
      filters: socket(v.nullable(filtersSchema), { default: null }),
      top_k: socket(v.nullable(v.pipe(v.number(), v.integer(), v.minValue(1))), { default: null }),
      vector_function: socket(v.nullable(vectorFunctionSchema), { default: null }),
    };
  }

  protected outputSpecs() {
    return { documents: output(v.array(v.instance(Document))) };
  }

  async run(inputs: { query_embedding: number[]; filters?: Filters | null; top_k?: number | null; vector_function?: VectorFunction | null }, _ctx?: ComponentContext) {
    const p = this.initParameters;
    const documents = await p.document_store._embedding_retrieval(inputs.query_embedding, {
      filters: applyFilterPolicy(p.filter_policy, p.filters, inputs.filters),
      top_k: inputs.top_k ?? p.top_k,
      vector_function: inputs.vector_function ?? p.vector_function ?? p.document_store.options.vector_function,
    });
    return { documents };
  }
}
