/**
 * Haystack's test/components/retrievers/test_in_memory_embedding_retriever.py, ported value for
 * value (the init/serde cases in in-memory-retriever-cases.ts). svc has one async-capable `run`:
 * `test_run_async_*` runs it too.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { Document, InMemoryDocumentStore, InMemoryEmbeddingRetriever, Pipeline } from "svc/engine";
import { sharedCases } from "./in-memory-retriever-cases.js";

sharedCases(test, InMemoryEmbeddingRetriever, {
  fakeStoreType: "test_module.MyFakeStore",
  extraDefaults: { return_embedding: false },
  customExtras: { return_embedding: true },
  fromDictPolicy: "merge",
});

const threeDocuments = () => {
  const ds = new InMemoryDocumentStore({ embedding_similarity_function: "cosine", shared: false });
  ds.write_documents([
    new Document({ content: "my document", embedding: [0.1, 0.2, 0.3, 0.4] }),
    new Document({ content: "another document", embedding: [1.0, 1.0, 1.0, 1.0] }),
    new Document({ content: "third document", embedding: [0.5, 0.7, 0.5, 0.7] }),
  ]);
  return ds;
};

test("test_valid_run", async () => {
  const top_k = 3;
  const retriever = new InMemoryEmbeddingRetriever({ document_store: threeDocuments(), top_k });
  const result = await retriever.run({ query_embedding: [0.1, 0.1, 0.1, 0.1], return_embedding: true });
  assert.ok("documents" in result);
  assert.is(result.documents.length, top_k);
  assert.equal(result.documents[0]!.embedding, [1.0, 1.0, 1.0, 1.0]);
});

for (const name of ["test_run_with_filter_policy_merge_combines_init_and_runtime_filters", "test_run_async_with_filter_policy_merge_combines_init_and_runtime_filters"]) {
  test(name, async () => {
    const ds = new InMemoryDocumentStore({ embedding_similarity_function: "cosine", shared: false });
    ds.write_documents([
      new Document({ content: "python article current", embedding: [1.0, 0.0, 0.0, 0.0], meta: { type: "article", year: 2020 } }),
      new Document({ content: "python blog current", embedding: [1.0, 0.0, 0.0, 0.0], meta: { type: "blog", year: 2021 } }),
      new Document({ content: "python article archived", embedding: [1.0, 0.0, 0.0, 0.0], meta: { type: "article", year: 2019 } }),
    ]);
    const retriever = new InMemoryEmbeddingRetriever({ document_store: ds, filters: { field: "meta.type", operator: "==", value: "article" }, filter_policy: "merge" });
    const result = await retriever.run({ query_embedding: [1.0, 0.0, 0.0, 0.0], filters: { field: "meta.year", operator: ">=", value: 2020 } });
    assert.equal(result.documents.map((d) => d.content), ["python article current"]);
  });
}

test("test_run_with_pipeline", async () => {
  const top_k = 2;
  const pipeline = new Pipeline().addComponent("retriever", new InMemoryEmbeddingRetriever({ document_store: threeDocuments(), top_k }));
  const result = (await pipeline.run({ retriever: { query_embedding: [0.1, 0.1, 0.1, 0.1], return_embedding: true } })) as { retriever?: { documents: Document[] } };
  assert.ok(result.retriever);
  const docs = result.retriever.documents;
  assert.is(docs.length, top_k);
  assert.equal(docs[0]!.embedding, [1.0, 1.0, 1.0, 1.0]);
});

test.run();
