/**
 * @module PgvectorKeywordRetriever (haystack_integrations.components.retrievers.pgvector): full-text
 * search over a PgvectorDocumentStore's content in the store's language, ranked by ts_rank_cd.
 * Runtime filters replace or merge with the init filters (`filter_policy`); `top_k` at run time wins.
 */
import * as v from "valibot";
import { applyFilterPolicy, Component, filtersSchema, Document, output, socket, type ComponentContext, type Filters } from "svc/engine";
import { PgvectorDocumentStore } from "./document-store.js";
import { retrieverEntries } from "./retriever-options.js";

const Init = v.object(retrieverEntries);

export class PgvectorKeywordRetriever extends Component<v.InferOutput<typeof Init>> {
  static override readonly type = "haystack_integrations.components.retrievers.pgvector.keyword_retriever.PgvectorKeywordRetriever";
  static override readonly aliases = ["PgvectorKeywordRetriever"];
  static override readonly initSchema = Init;

  get document_store(): PgvectorDocumentStore {
    return this.initParameters.document_store;
  }

  protected inputSpecs() {
    return {
      query: socket(v.string()),
      filters: socket(v.nullable(filtersSchema), { default: null }),
      top_k: socket(v.nullable(v.pipe(v.number(), v.integer(), v.minValue(1))), { default: null }),
    };
  }

  protected outputSpecs() {
    return { documents: output(v.array(v.instance(Document))) };
  }

  async run(inputs: { query: string; filters?: Filters | null; top_k?: number | null }, _ctx?: ComponentContext) {
    const p = this.initParameters;
    const documents = await p.document_store._keyword_retrieval(inputs.query, {
      filters: applyFilterPolicy(p.filter_policy, p.filters, inputs.filters),
      top_k: inputs.top_k ?? p.top_k,
    });
    return { documents };
  }
}
