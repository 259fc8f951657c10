/**
 * Haystack's test/components/retrievers/test_in_memory_bm25_retriever.py and
 * test_in_memory_embedding_retriever.py: init defaults and validation, to_dict / YAML loading, runs
 * (also in a Pipeline), merged filter policies, the wrong store type.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { NOOP_TRACER } from "svc/plugin";
import { createRegistry, Document, InMemoryBM25Retriever, InMemoryDocumentStore, InMemoryEmbeddingRetriever, loadPipelineYaml, Pipeline } from "svc/engine";

const ctx = () => ({ name: "retriever", signal: new AbortController().signal, tracer: NOOP_TRACER });
const LANGUAGES = ["Javascript", "Java", "Python", "Ruby", "PHP"].map((l) => `${l} is a popular programming language`);
const mockDocs = () => LANGUAGES.map((content) => new Document({ content }));
const STORE_TYPE = "haystack.document_stores.in_memory.document_store.InMemoryDocumentStore";

const retrievers = [
  ["InMemoryBM25Retriever", InMemoryBM25Retriever, {}],
  ["InMemoryEmbeddingRetriever", InMemoryEmbeddingRetriever, { return_embedding: false }],
] as const;

for (const [name, Retriever, extra] of retrievers) {
  test(`${name}: init defaults, parameters, invalid top_k, wrong store type`, () => {
    const store = new InMemoryDocumentStore({ shared: false });
    const r = new Retriever({ document_store: store });
    assert.equal({ filters: r.initParameters.filters, top_k: r.initParameters.top_k, scale_score: r.initParameters.scale_score }, { filters: null, top_k: 10, scale_score: false });
    const custom = new Retriever({ document_store: store, filters: { name: "test.txt" }, top_k: 5, scale_score: true });
    assert.equal(custom.initParameters.filters, { name: "test.txt" });
    assert.is(custom.initParameters.top_k, 5);
    assert.throws(() => new Retriever({ document_store: store, top_k: -2 }), /top_k must be greater than 0/);
    assert.throws(() => new Retriever({ document_store: { write_documents: () => 0 } }), /document_store must be an instance of InMemoryDocumentStore/);
  });

  test(`${name}: to_dict nests the store's to_dict`, () => {
    const store = new InMemoryDocumentStore({ index: "test_to_dict_with_custom_init_parameters" });
    const r = new Retriever({ document_store: store, filters: { name: "test.txt" }, top_k: 5, scale_score: true });
    const dict = r.toDict();
    assert.is(dict.type, Retriever.type);
    // Haystack also writes the defaults (filter_policy, return_embedding); whether the dump does is the YAML dump's part (issue 24).
    const defaults = { filter_policy: "replace", ...extra };
    const written = Object.fromEntries(Object.keys(defaults).filter((k) => k in dict.init_parameters).map((k) => [k, dict.init_parameters[k]]));
    assert.equal(dict.init_parameters, { document_store: store.toDict(), filters: { name: "test.txt" }, top_k: 5, scale_score: true, ...written });
    assert.equal(written, Object.fromEntries(Object.keys(written).map((k) => [k, (defaults as Record<string, unknown>)[k]])));
  });

  test(`${name}: from YAML (from_dict) builds its store; a missing or unknown store type is an error`, () => {
    const registry = createRegistry();
    const yaml = (store: string) => `components:\n  r:\n    type: ${Retriever.type}\n    init_parameters:\n      document_store: ${store}\n      filters: {name: test.txt}\n      top_k: 5\n`;
    const p = loadPipelineYaml(yaml(`{type: ${STORE_TYPE}, init_parameters: {}}`), registry);
    const r = p.getComponent("r") as InstanceType<typeof Retriever>;
    assert.instance(r.initParameters.document_store, InMemoryDocumentStore);
    assert.equal([r.initParameters.filters, r.initParameters.top_k, r.initParameters.scale_score, r.initParameters.filter_policy], [{ name: "test.txt" }, 5, false, "replace"]);
    assert.throws(() => loadPipelineYaml(yaml("{init_parameters: {}}"), registry), /document_store/);
    // Haystack names the unknown type (ImportError); naming it is the YAML loader's part (issue 24 §5).
    assert.throws(() => loadPipelineYaml(yaml("{type: haystack.does.not.exist.Docstore, init_parameters: {}}"), registry), /document_store/);
  });
}

test("InMemoryBM25Retriever: valid run (PHP first of five), merged filter policy, in a pipeline with top_k", async () => {
  const store = new InMemoryDocumentStore({ shared: false });
  store.write_documents(mockDocs());
  const result = new InMemoryBM25Retriever({ document_store: store, top_k: 5 }).run({ query: "PHP" }, ctx());
  assert.is(result.documents.length, 5);
  assert.is(result.documents[0]!.content, "PHP is a popular programming language");

  const merged = new InMemoryDocumentStore({ shared: false });
  merged.write_documents([
    new Document({ content: "python article current", meta: { type: "article", year: 2020 } }),
    new Document({ content: "python blog current", meta: { type: "blog", year: 2021 } }),
    new Document({ content: "python article archived", meta: { type: "article", year: 2019 } }),
  ]);
  const retriever = new InMemoryBM25Retriever({ document_store: merged, filters: { field: "meta.type", operator: "==", value: "article" }, filter_policy: "merge" });
  const run = retriever.run({ query: "python", filters: { field: "meta.year", operator: ">=", value: 2020 } }, ctx());
  assert.equal(run.documents.map((d) => d.content), ["python article current"]);

  for (const [query, expected, top_k] of [["Javascript", LANGUAGES[0], 1], ["Java", LANGUAGES[1], 2], ["Ruby", LANGUAGES[3], 3]] as const) {
    const pipeline = new Pipeline().addComponent("retriever", new InMemoryBM25Retriever({ document_store: store }));
    const out = (await pipeline.run({ retriever: { query, top_k } })) as { retriever: { documents: Document[] } };
    assert.is(out.retriever.documents.length, top_k);
    assert.is(out.retriever.documents[0]!.content, expected);
  }
});

test("InMemoryEmbeddingRetriever: valid run returns embeddings on request, merged filter policy, in a pipeline", async () => {
  const store = new InMemoryDocumentStore({ embedding_similarity_function: "cosine", shared: false });
  store.write_documents([
    new Document({ content: "my document", embedding: [0.1, 0.2, 0.3, 0.4] }),
    new Document({ content: "another document", embedding: [1.0, 1.0, 1.0, 1.0] }),
    new Document({ content: "third document", embedding: [0.5, 0.7, 0.5, 0.7] }),
  ]);
  const result = await new InMemoryEmbeddingRetriever({ document_store: store, top_k: 3 }).run({ query_embedding: [0.1, 0.1, 0.1, 0.1], return_embedding: true }, ctx());
  assert.is(result.documents.length, 3);
  assert.equal(result.documents[0]!.embedding, [1, 1, 1, 1]);

  const merged = new InMemoryDocumentStore({ embedding_similarity_function: "cosine", shared: false });
  merged.write_documents([
    new Document({ content: "python article current", embedding: [1, 0, 0, 0], meta: { type: "article", year: 2020 } }),
    new Document({ content: "python blog current", embedding: [1, 0, 0, 0], meta: { type: "blog", year: 2021 } }),
    new Document({ content: "python article archived", embedding: [1, 0, 0, 0], meta: { type: "article", year: 2019 } }),
  ]);
  const retriever = new InMemoryEmbeddingRetriever({ document_store: merged, filters: { field: "meta.type", operator: "==", value: "article" }, filter_policy: "merge" });
  const run = await retriever.run({ query_embedding: [1, 0, 0, 0], filters: { field: "meta.year", operator: ">=", value: 2020 } }, ctx());
  assert.equal(run.documents.map((d) => d.content), ["python article current"]);

  const pipeline = new Pipeline().addComponent("retriever", new InMemoryEmbeddingRetriever({ document_store: store, top_k: 2 }));
  const out = (await pipeline.run({ retriever: { query_embedding: [0.1, 0.1, 0.1, 0.1], return_embedding: true } })) as { retriever: { documents: Document[] } };
  assert.is(out.retriever.documents.length, 2);
  assert.equal(out.retriever.documents[0]!.embedding, [1, 1, 1, 1]);
});

test.run();
