// Retrieval with no API key at all: the bundled documents in ./docs are split into passages and
// indexed with BM25 at setup; a query returns the best passages with their scores and sources.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import * as v from "valibot";
import { BasePipelineWrapper, NOOP_TRACER } from "svc";
import { Document, DocumentSplitter, InMemoryBM25Retriever, InMemoryDocumentStore, Pipeline } from "svc/engine";

const here = dirname(fileURLToPath(import.meta.url));

const Input = v.object({
  query: v.pipe(v.string(), v.minLength(1), v.description("What to look for in the svc documentation.")),
  top_k: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(20), v.description("How many passages to return.")), 3),
});

export class PipelineWrapper extends BasePipelineWrapper {
  static description = "Searches the bundled svc documentation with BM25 and returns the best passages.";
  static inputSchema = Input;

  private pipeline!: Pipeline;

  async setup(): Promise<void> {
    const store = new InMemoryDocumentStore({ index: `docs_search-${process.pid}-${Date.now()}` });
    const files = readdirSync(join(here, "docs")).filter((f) => f.endsWith(".md")).sort();
    const documents = files.map((f) => new Document({ content: readFileSync(join(here, "docs", f), "utf8"), meta: { source: f } }));
    const splitter = new DocumentSplitter({ split_by: "passage", split_length: 1, split_overlap: 0 });
    const { documents: passages } = (await splitter.run({ documents }, { name: "splitter", signal: new AbortController().signal, tracer: NOOP_TRACER })) as { documents: Document[] };
    store.write_documents(passages.filter((p) => (p.content ?? "").trim() !== ""));
    this.pipeline = new Pipeline().addComponent("retriever", new InMemoryBM25Retriever({ document_store: store }));
  }

  async runApi(input: v.InferOutput<typeof Input>, ctx: { signal: AbortSignal }) {
    const result = await this.pipeline.run({ retriever: { query: input.query, top_k: input.top_k } }, { signal: ctx.signal });
    const documents = (result.retriever as { documents: Document[] }).documents;
    return {
      query: input.query,
      passages: documents.map((d) => ({ source: d.meta.source, score: Number((d.score ?? 0).toFixed(4)), text: (d.content ?? "").trim() })),
    };
  }
}
