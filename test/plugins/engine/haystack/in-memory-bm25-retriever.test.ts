/**
 * Haystack's test/components/retrievers/test_in_memory_bm25_retriever.py, ported value for value
 * (the init/serde cases in in-memory-retriever-cases.ts). svc has one async-capable `run`:
 * `test_run_async_*` runs it too; each parametrized pipeline case is one test.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { Document, InMemoryBM25Retriever, InMemoryDocumentStore, Pipeline } from "svc/engine";
import { sharedCases } from "./in-memory-retriever-cases.js";

const mockDocs = () => ["Javascript", "Java", "Python", "Ruby", "PHP"].map((l) => new Document({ content: `${l} is a popular programming language` }));

sharedCases(test, InMemoryBM25Retriever, { fakeStoreType: "MyFakeStore", extraDefaults: {}, customExtras: {}, fromDictPolicy: "replace" });

test("test_retriever_valid_run", () => {
  const store = new InMemoryDocumentStore({ shared: false });
  store.write_documents(mockDocs());
  const result = new InMemoryBM25Retriever({ document_store: store, top_k: 5 }).run({ query: "PHP" });
  assert.ok("documents" in result);
  assert.is(result.documents.length, 5);
  assert.is(result.documents[0]!.content, "PHP is a popular programming language");
});

for (const name of ["test_run_with_filter_policy_merge_combines_init_and_runtime_filters", "test_run_async_with_filter_policy_merge_combines_init_and_runtime_filters"]) {
  test(name, async () => {
    const store = new InMemoryDocumentStore({ shared: false });
    store.write_documents([
      new Document({ content: "python article current", meta: { type: "article", year: 2020 } }),
      new Document({ content: "python blog current", meta: { type: "blog", year: 2021 } }),
      new Document({ content: "python article archived", meta: { type: "article", year: 2019 } }),
    ]);
    const retriever = new InMemoryBM25Retriever({ document_store: store, filters: { field: "meta.type", operator: "==", value: "article" }, filter_policy: "merge" });
    const result = await retriever.run({ query: "python", filters: { field: "meta.year", operator: ">=", value: 2020 } });
    assert.equal(result.documents.map((d) => d.content), ["python article current"]);
  });
}

const runInPipeline = async (data: Record<string, unknown>) => {
  const store = new InMemoryDocumentStore({ shared: false });
  store.write_documents(mockDocs());
  const pipeline = new Pipeline().addComponent("retriever", new InMemoryBM25Retriever({ document_store: store }));
  const result = (await pipeline.run({ retriever: data })) as { retriever?: { documents: Document[] } };
  assert.ok(result.retriever);
  assert.ok(result.retriever.documents.length > 0);
  return result.retriever.documents;
};

for (const [query, expected] of [
  ["Javascript", "Javascript is a popular programming language"],
  ["Java", "Java is a popular programming language"],
] as const) {
  test(`test_run_with_pipeline: ${query}`, async () => {
    const docs = await runInPipeline({ query });
    assert.is(docs[0]!.content, expected);
  });
}

for (const [query, expected, top_k] of [
  ["Javascript", "Javascript is a popular programming language", 1],
  ["Java", "Java is a popular programming language", 2],
  ["Ruby", "Ruby is a popular programming language", 3],
] as const) {
  test(`test_run_with_pipeline_and_top_k: ${query}, ${top_k}`, async () => {
    const docs = await runInPipeline({ query, top_k });
    assert.is(docs.length, top_k);
    assert.is(docs[0]!.content, expected);
  });
}

test.run();
