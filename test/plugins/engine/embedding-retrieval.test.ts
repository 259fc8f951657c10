/**
 * @module embedding_retrieval on InMemoryDocumentStore and InMemoryEmbeddingRetriever, with scores
 * from Haystack's formulas (document_store.py `_compute_query_embedding_similarity_scores`):
 * dot product q·d; cosine (q/|q|)·(d/|d|) with a zero vector left as is; scale_score gives
 * expit(dot / 100) for dot product and (cosine + 1) / 2 for cosine.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { createRegistry, Document, DocumentStoreError, InMemoryDocumentStore, InMemoryEmbeddingRetriever, loadPipelineYaml } from "svc/engine";

const close = (actual: number | null, expected: number, label = "") => assert.ok(actual !== null && Math.abs(actual - expected) < 1e-12, `${label} ${actual} ≠ ${expected}`);
const expit = (x: number) => 1 / (1 + Math.exp(-x));

function store(similarity: "dot_product" | "cosine") {
  const s = new InMemoryDocumentStore({ embedding_similarity_function: similarity });
  s.write_documents([
    new Document({ id: "a", content: "a", embedding: [1, 0, 0], meta: { kind: "x", n: 1 } }),
    new Document({ id: "b", content: "b", embedding: [0.5, 0.5, 0], meta: { kind: "y", n: 2 } }),
    new Document({ id: "c", content: "c", embedding: [3, 4, 0], meta: { kind: "x", n: 3 } }),
    new Document({ id: "z", content: "zero", embedding: [0, 0, 0], meta: { kind: "y", n: 4 } }),
    new Document({ id: "none", content: "no embedding", meta: { kind: "x", n: 5 } }),
  ]);
  return s;
}

const Q = [0.6, 0.8, 0];

test("dot product: q·d, highest first; scaled: expit(q·d / 100)", () => {
  const s = store("dot_product");
  const docs = s.embedding_retrieval(Q);
  // a: 0.6, b: 0.3 + 0.4 = 0.7, c: 1.8 + 3.2 = 5.0, z: 0; the document without embedding is skipped.
  assert.equal(docs.map((d) => d.id), ["c", "b", "a", "z"]);
  [5, 0.7, 0.6, 0].forEach((score, i) => close(docs[i]!.score, score, docs[i]!.id));
  const scaled = s.embedding_retrieval(Q, null, 2, true);
  assert.equal(scaled.map((d) => d.id), ["c", "b"]);
  close(scaled[0]!.score, expit(5 / 100));
  close(scaled[1]!.score, expit(0.7 / 100));
});

test("cosine: unit vectors (a zero vector stays zero); scaled: (cos + 1) / 2", () => {
  const s = store("cosine");
  const docs = s.embedding_retrieval(Q, null, 10, false);
  // |Q| = 1. a: 0.6; b: 0.7 / (√0.5) ; c: 5 / 5 = 1; z: 0.
  assert.equal(docs.map((d) => d.id), ["c", "b", "a", "z"]);
  close(docs[0]!.score, 1);
  close(docs[1]!.score, 0.7 / Math.sqrt(0.5));
  close(docs[2]!.score, 0.6);
  close(docs[3]!.score, 0);
  const scaled = s.embedding_retrieval([-0.6, -0.8, 0], null, 1, true);
  close(scaled[0]!.score, 0.5, "z, the only one not negative: (0 + 1) / 2");
});

test("filters, top_k, return_embedding; stored documents are not changed", () => {
  const s = store("dot_product");
  const x = s.embedding_retrieval(Q, { field: "meta.kind", operator: "==", value: "x" }, 10);
  assert.equal(x.map((d) => d.id), ["c", "a"]);
  assert.ok(x.every((d) => d.embedding === null), "return_embedding defaults to false");
  const withEmbedding = s.embedding_retrieval(Q, { operator: "AND", conditions: [{ field: "meta.n", operator: ">", value: 1 }] }, 1, false, true);
  assert.equal(withEmbedding.map((d) => [d.id, d.embedding]), [["c", [3, 4, 0]]]);
  assert.equal(s.embedding_retrieval(Q, null, 10, false, null)[0]!.embedding, [3, 4, 0], "null: the store's return_embedding (true)");
  assert.is(s.filter_documents({ field: "id", operator: "==", value: "c" })[0]!.score, null);
  assert.equal(s.embedding_retrieval(Q, { field: "meta.kind", operator: "==", value: "none" }), []);
});

test("bad queries and mismatched sizes fail with Haystack's messages", () => {
  const s = store("cosine");
  assert.throws(() => s.embedding_retrieval([]), /query_embedding should be a non-empty list of floats/);
  assert.throws(() => s.embedding_retrieval([1, 2]), (e: Error) => e instanceof DocumentStoreError && /embedding size of the query should be the same/.test(e.message));
  s.write_documents([new Document({ id: "odd", embedding: [1, 2] })]);
  assert.throws(() => s.embedding_retrieval(Q), /embedding size of all Documents should be the same/);
});

test("InMemoryEmbeddingRetriever: init values, run-time overrides and filter_policy", () => {
  const s = store("dot_product");
  const retriever = new InMemoryEmbeddingRetriever({ document_store: s, filters: { field: "meta.kind", operator: "==", value: "x" }, top_k: 1, filter_policy: "merge" });
  assert.equal(retriever.run({ query_embedding: Q }).documents.map((d) => d.id), ["c"]);
  const merged = retriever.run({ query_embedding: Q, filters: { field: "meta.n", operator: "<", value: 3 }, top_k: 5, scale_score: true, return_embedding: true });
  assert.equal(merged.documents.map((d) => [d.id, d.embedding]), [["a", [1, 0, 0]]]);
  close(merged.documents[0]!.score, expit(0.6 / 100));
  const replace = new InMemoryEmbeddingRetriever({ document_store: s, filters: { field: "meta.kind", operator: "==", value: "x" } });
  assert.equal(replace.run({ query_embedding: Q, filters: { field: "meta.kind", operator: "==", value: "y" } }).documents.map((d) => d.id), ["b", "z"]);
  assert.throws(() => new InMemoryEmbeddingRetriever({ document_store: s, top_k: 0 }), /top_k must be greater than 0/);
  assert.throws(() => new InMemoryEmbeddingRetriever({ document_store: {} }), /document_store must be an instance of InMemoryDocumentStore/);
  assert.equal(Object.keys(retriever.inputSockets), ["query_embedding", "filters", "top_k", "scale_score", "return_embedding"]);
  assert.equal(Object.keys(retriever.outputSockets), ["documents"]);
});

test("loads from Haystack's to_dict YAML and dumps it back", async () => {
  const s = store("cosine");
  const yaml = `components:
  retriever:
    type: haystack.components.retrievers.in_memory.embedding_retriever.InMemoryEmbeddingRetriever
    init_parameters:
      document_store:
        type: haystack.document_stores.in_memory.document_store.InMemoryDocumentStore
        init_parameters:
          bm25_tokenization_regex: (?u)\\b\\w\\w+\\b
          bm25_algorithm: BM25L
          bm25_parameters: {}
          embedding_similarity_function: cosine
          index: ${s.index}
          return_embedding: true
      filters: null
      top_k: 2
      scale_score: true
      return_embedding: false
      filter_policy: replace
connections: []
`;
  const pipeline = loadPipelineYaml(yaml, createRegistry());
  const result = (await pipeline.run({ retriever: { query_embedding: Q } })) as { retriever: { documents: Document[] } };
  assert.equal(result.retriever.documents.map((d) => d.id), ["c", "b"]);
  close(result.retriever.documents[0]!.score, 1);
  const dumped = pipeline.getComponent("retriever").toDict();
  assert.is(dumped.type, InMemoryEmbeddingRetriever.type);
  assert.equal((dumped.init_parameters.document_store as { init_parameters: { index: string } }).init_parameters.index, s.index);
});

test.run();
