/**
 * @module MultiQueryTextRetriever (haystack.components.retrievers.multi_query_text_retriever):
 * runs a text retriever for each query (at most `max_workers` at once), then returns the
 * documents deduplicated by id (the best score kept) and sorted by score, highest first.
 */
import * as v from "valibot";
import { Component, output, socket, type ComponentContext } from "../component.js";
import { Document } from "../dataclasses/document.js";
import { deduplicateDocuments } from "./deduplicate-documents.js";
import { closeAll, runQueries } from "./multi-query-pool.js";
import { componentParameter, runNested } from "./nested-component.js";

const Init = v.object({
  retriever: componentParameter("retriever"),
  max_workers: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1)), 3),
});

export class MultiQueryTextRetriever extends Component<v.InferOutput<typeof Init>> {
  static override readonly type = "haystack.components.retrievers.multi_query_text_retriever.MultiQueryTextRetriever";
  static override readonly aliases = ["MultiQueryTextRetriever"];
  static override readonly initSchema = Init;

  protected inputSpecs() {
    return { queries: socket(v.array(v.string())), retriever_kwargs: socket(v.nullable(v.record(v.string(), v.unknown())), { default: null }) };
  }

  protected outputSpecs() {
    return { documents: output(v.array(v.instance(Document))) };
  }

  warmUp() {
    return this.initParameters.retriever.warmUp?.();
  }

  /** Releases the retriever's resources. */
  close(): Promise<void> {
    return closeAll([this.initParameters.retriever]);
  }

  async run(inputs: { queries: string[]; retriever_kwargs?: Record<string, unknown> | null }, ctx: ComponentContext): Promise<{ documents: Document[] }> {
    const { retriever, max_workers } = this.initParameters;
    const kwargs = inputs.retriever_kwargs ?? {};
    const results = await runQueries(inputs.queries, max_workers, ctx, async (query, inner) => {
      const out = await runNested(retriever, { ...kwargs, query }, { ...inner, name: `${ctx.name}.retriever` });
      return Array.isArray(out?.documents) ? (out.documents as Document[]) : [];
    });
    const documents = deduplicateDocuments(results.flat());
    documents.sort((a, b) => (b.score ?? 0) - (a.score ?? 0));
    return { documents };
  }

  override toDict() {
    return { type: this.type, init_parameters: { retriever: this.initParameters.retriever.toDict(), max_workers: this.initParameters.max_workers } };
  }
}
