/**
 * @module MultiQueryEmbeddingRetriever: embeds each of several queries with a text embedder, runs
 * an embedding retriever for each (at most `max_workers` at a time), and returns the union: one
 * copy per document id (the best-scored one), sorted by score, highest first. YAML nests both
 * components as `{type, init_parameters}`, as Haystack writes them.
 */
import * as v from "valibot";
import { Component, isComponent, output, socket, type ComponentContext } from "../component.js";
import { Document } from "../dataclasses/document.js";

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

  async run(inputs: MultiQueryInputs, ctx: ComponentContext): Promise<{ documents: Document[] }> {
    await this.warmUp();
    const { query_embedder, retriever, max_workers } = this.initParameters;
    const kwargs = inputs.retriever_kwargs ?? {};
    const inner = (name: string): ComponentContext => ({ ...ctx, name: `${ctx.name}.${name}` });
    const results: Document[][] = new Array(inputs.queries.length);
    let next = 0;
    const worker = async () => {
      while (next < inputs.queries.length && !ctx.signal.aborted) {
        const i = next++;
        const { embedding } = (await query_embedder.run({ text: inputs.queries[i] }, inner("query_embedder"))) as { embedding: number[] };
        const found = (await retriever.run({ ...kwargs, query_embedding: embedding }, inner("retriever"))) as { documents?: Document[] };
        results[i] = found?.documents ?? [];
      }
    };
    await Promise.all(Array.from({ length: Math.min(max_workers, inputs.queries.length) }, worker));
    if (ctx.signal.aborted) throw ctx.signal.reason;
    // Per id the best-scored copy, in first-seen order; then a stable sort by score (None as 0).
    const best = new Map<string, Document>();
    for (const doc of results.flat()) {
      const current = best.get(doc.id);
      if (!current || (doc.score ?? -Infinity) > (current.score ?? -Infinity)) best.set(doc.id, doc);
    }
    const documents = [...best.values()].sort((a, b) => (b.score ?? 0) - (a.score ?? 0));
    return { documents };
  }
}
