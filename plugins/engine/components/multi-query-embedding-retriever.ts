/**
 * @module MultiQueryEmbeddingRetriever: embeds each of several queries with a text embedder, runs
 * an embedding retriever for each (at most `max_workers` at a time), and returns the union: one
 * copy per document id (the best-scored one), sorted by score, highest first. YAML nests both
 * components as `{type, init_parameters}`, as Haystack writes them.
 */
import * as v from "valibot";
import { Component, isComponent, output, socket, type ComponentContext } from "../component.js";
import { Document } from "../dataclasses/document.js";
import { deduplicateDocuments } from "./deduplicate-documents.js";
import { closeAll, runQueries } from "./multi-query-pool.js";
import { runNested } from "./nested-component.js";

const Init = v.object({
  retriever: v.custom<Component>(isComponent, "retriever must be an embedding retriever component (YAML: a nested {type, init_parameters})"),
  query_embedder: v.custom<Component>(isComponent, "query_embedder must be a text embedder component (YAML: a nested {type, init_parameters})"),
  max_workers: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1)), 3),
});

type InitParameters = v.InferOutput<typeof Init>;

export interface MultiQueryInputs {
  queries: string[];
  retriever_kwargs?: Record<string, unknown> | null;
}

export class MultiQueryEmbeddingRetriever extends Component<InitParameters> {
  static override readonly type = "haystack.components.retrievers.multi_query_embedding_retriever.MultiQueryEmbeddingRetriever";
  static override readonly aliases = ["MultiQueryEmbeddingRetriever"];
  static override readonly initSchema = Init;

  private warming?: Promise<void>;

  constructor(init: unknown = {}) {
    super(init);
    const { retriever, query_embedder } = this.initParameters;
    if (!("query_embedding" in retriever.inputSockets)) throw new Error(`Invalid init parameters for ${this.type}: retriever ${retriever.type} takes no query_embedding.`);
    if (!("text" in query_embedder.inputSockets) || !("embedding" in query_embedder.outputSockets)) {
      throw new Error(`Invalid init parameters for ${this.type}: query_embedder ${query_embedder.type} is not a text embedder (text in, embedding out).`);
    }
  }

  protected inputSpecs() {
    return {
      queries: socket(v.array(v.string())),
      retriever_kwargs: socket(v.nullable(v.record(v.string(), v.unknown())), { default: null }),
    };
  }

  protected outputSpecs() {
    return { documents: output(v.array(v.instance(Document))) };
  }

  /** Warms the embedder and the retriever once; concurrent callers share the one warm-up. */
  warmUp(): Promise<void> {
    const { query_embedder, retriever } = this.initParameters;
    this.warming ??= (async () => {
      await query_embedder.warmUp?.();
      await retriever.warmUp?.();
    })().catch((error: unknown) => {
      this.warming = undefined; // a failed warm-up may be retried
      throw error;
    });
    return this.warming;
  }

  /** Releases the embedder's and the retriever's resources. */
  close(): Promise<void> {
    return closeAll([this.initParameters.query_embedder, this.initParameters.retriever]);
  }

  async run(inputs: MultiQueryInputs, ctx: ComponentContext): Promise<{ documents: Document[] }> {
    await this.warmUp();
    const { query_embedder, retriever, max_workers } = this.initParameters;
    const kwargs = inputs.retriever_kwargs ?? {};
    const results = await runQueries(inputs.queries, max_workers, ctx, async (text, inner) => {
      const { embedding } = (await runNested(query_embedder, { text }, { ...inner, name: `${ctx.name}.query_embedder` })) as { embedding: number[] };
      const found = (await runNested(retriever, { ...kwargs, query_embedding: embedding }, { ...inner, name: `${ctx.name}.retriever` })) as { documents?: Document[] };
      return found?.documents ?? [];
    });
    // Per id the best-scored copy, in first-seen order; then a stable sort by score (None as 0).
    const documents = deduplicateDocuments(results.flat()).sort((a, b) => (b.score ?? 0) - (a.score ?? 0));
    return { documents };
  }
}
