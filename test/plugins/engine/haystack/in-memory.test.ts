/**
 * Haystack's test/document_stores/test_in_memory.py (TestMemoryDocumentStore's own cases and
 * TestMemoryDocumentStoreNotShared's), ported value for value. The shared store suites it mixes in
 * run through svc/engine/testing (document-store-contract.test.ts). Haystack's fixtures:
 * `document_store` is a BM25L store, `cosine_document_store` a cosine one, `in_memory_doc_store`
 * the default store; each is instance-local here so cases do not share an index. caplog is the
 * store's `logger`; the private helpers are read through `tokenize_bm25`, `avg_doc_len` and the
 * scores of `embedding_retrieval`. `asyncio.gather` is Promise.all over the `*_async` forms.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ByteStream, Document, DocumentStoreError, DuplicateDocumentError, InMemoryDocumentStore } from "svc/engine";
import { assertDocumentsEqual } from "svc/engine/testing";
import { captureLogger } from "../../../helpers/kernel.js";

const STORE_TYPE = "haystack.document_stores.in_memory.document_store.InMemoryDocumentStore";
const documentStore = () => new InMemoryDocumentStore({ bm25_algorithm: "BM25L", shared: false });
const cosineDocumentStore = () => new InMemoryDocumentStore({ embedding_similarity_function: "cosine", shared: false });
const inMemoryDocStore = () => new InMemoryDocumentStore({ shared: false });

/** The error `fn` throws. */
async function thrown(fn: () => unknown): Promise<Error> {
  try {
    await fn();
  } catch (e) {
    return e as Error;
  }
  assert.unreachable("expected an error");
  throw new Error("unreachable");
}

function withTmpDir(fn: (dir: string) => void): void {
  const dir = mkdtempSync(join(tmpdir(), "svc-in-memory-"));
  try {
    fn(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A store whose log lines are captured (Haystack's caplog). */
function logged(store: InMemoryDocumentStore): string[] {
  const { logger, logs } = captureLogger();
  store.logger = logger;
  return logs;
}

test("test_filter_documents_date_equality_with_equivalent_iso_formats", () => {
  const store = documentStore();
  const docs = [new Document({ id: "1", content: "doc", meta: { date: "2025-02-03T12:45:46Z" } })];
  store.write_documents(docs);
  assertDocumentsEqual(store.filter_documents({ field: "meta.date", operator: "==", value: "2025-02-03T12:45:46+00:00" }), docs);
  assertDocumentsEqual(store.filter_documents({ field: "meta.date", operator: "in", value: ["2025-02-03T12:45:46+00:00"] }), docs);
});

test("test_filter_documents_with_strict_datetime_comparison", () => {
  const store = new InMemoryDocumentStore({ strict_datetime_comparison: true, shared: false });
  store.write_documents([new Document({ content: "doc", meta: { date: "2025-02-03T12:45:46Z" } })]);
  assert.equal(store.filter_documents({ field: "meta.date", operator: ">=", value: "2025-02-01" }), []);
});

test("test_to_dict", () => {
  const store = new InMemoryDocumentStore();
  assert.equal(store.toDict(), {
    type: STORE_TYPE,
    init_parameters: {
      bm25_tokenization_regex: String.raw`(?u)\b\w+\b`,
      bm25_algorithm: "BM25L",
      bm25_parameters: {},
      embedding_similarity_function: "dot_product",
      index: store.index,
      shared: true,
      return_embedding: true,
      strict_datetime_comparison: false,
    },
  });
});

test("test_to_dict_with_custom_init_parameters", () => {
  const store = new InMemoryDocumentStore({
    bm25_tokenization_regex: "custom_regex",
    bm25_algorithm: "BM25Plus",
    bm25_parameters: { key: "value" } as never,
    embedding_similarity_function: "cosine",
    index: "my_cool_index",
    return_embedding: true,
    strict_datetime_comparison: true,
  });
  assert.equal(store.toDict(), {
    type: STORE_TYPE,
    init_parameters: {
      bm25_tokenization_regex: "custom_regex",
      bm25_algorithm: "BM25Plus",
      bm25_parameters: { key: "value" },
      embedding_similarity_function: "cosine",
      index: "my_cool_index",
      shared: true,
      return_embedding: true,
      strict_datetime_comparison: true,
    },
  });
});

test("test_from_dict", () => {
  const store = InMemoryDocumentStore.fromDict({ bm25_tokenization_regex: "custom_regex", bm25_algorithm: "BM25Plus", bm25_parameters: { key: "value" }, index: "my_cool_index" });
  // Haystack checks re.compile("custom_regex") was called: the store tokenizes with that pattern.
  assert.equal(store.tokenize_bm25("a custom_regex b CUSTOM_REGEX"), ["custom_regex", "custom_regex"]);
  assert.is(store.bm25_algorithm, "BM25Plus");
  assert.equal(store.bm25_parameters, { key: "value" });
  assert.is(store.index, "my_cool_index");
});

test("test_save_to_disk_and_load_from_disk", () =>
  withTmpDir((dir) => {
    const store = new InMemoryDocumentStore();
    const docs = [new Document({ content: "Hello world" }), new Document({ content: "Haystack supports multiple languages" })];
    store.write_documents(docs);
    const path = join(dir, "in_memory_doc_store.json");
    store.save_to_disk(path);
    const loaded = InMemoryDocumentStore.load_from_disk(path);
    assert.is(loaded.count_documents(), 2);
    assert.equal([...loaded.storage.values()].map((d) => d.toDict()), docs.map((d) => d.toDict()));
    assert.equal(loaded.toDict(), store.toDict());
  }),
);

test("test_save_to_disk_and_load_from_disk_with_blob_and_sparse_embedding", () =>
  withTmpDir((dir) => {
    const store = new InMemoryDocumentStore();
    const doc = new Document({
      content: "document with binary data",
      blob: new ByteStream(Buffer.from("binary data"), {}, "image/png"),
      sparse_embedding: { indices: [0, 5], values: [0.1, 0.9] },
    });
    store.write_documents([doc]);
    const path = join(dir, "in_memory_doc_store.json");
    store.save_to_disk(path);
    const loaded = InMemoryDocumentStore.load_from_disk(path).filter_documents()[0]!;
    assert.instance(loaded.blob, ByteStream);
    assert.equal(loaded.sparse_embedding, { indices: [0, 5], values: [0.1, 0.9] });
    assert.equal(loaded.toDict(), doc.toDict());
    // The loaded store can be saved again.
    InMemoryDocumentStore.load_from_disk(path).save_to_disk(path);
  }),
);

test("test_invalid_bm25_algorithm", async () => {
  const error = await thrown(() => new InMemoryDocumentStore({ bm25_algorithm: "invalid" as never }));
  assert.match(error.message, "BM25 algorithm 'invalid' is not supported");
});

test("test_write_documents", async () => {
  const store = documentStore();
  const docs = [new Document({ id: "1" })];
  assert.is(store.write_documents(docs), 1);
  assert.instance(await thrown(() => store.write_documents(docs)), DuplicateDocumentError);
});

test("test_bm25_retrieval", () => {
  const store = documentStore();
  store.write_documents([new Document({ content: "Hello world" }), new Document({ content: "Haystack supports multiple languages" })]);
  const results = store.bm25_retrieval("What languages?", null, 1);
  assert.is(results.length, 1);
  assert.is(results[0]!.content, "Haystack supports multiple languages");
});

test("test_bm25_retrieval_with_empty_document_store", () => {
  const store = documentStore();
  const logs = logged(store);
  assert.is(store.bm25_retrieval("How to test this?", null, 2).length, 0);
  assert.ok(logs.some((l) => l.includes("No documents found for BM25 retrieval. Returning empty list.")), logs.join("\n"));
});

for (const algorithm of ["BM25Okapi", "BM25L", "BM25Plus"] as const) {
  test(`test_bm25_retrieval_with_tokenless_corpus: ${algorithm}`, () => {
    const store = new InMemoryDocumentStore({ bm25_algorithm: algorithm, shared: false });
    store.write_documents([new Document({ content: "", meta: { i: 1 } }), new Document({ content: "", meta: { i: 2 } })]);
    const results = store.bm25_retrieval("anything");
    if (algorithm === "BM25Okapi") {
      assert.is(results.length, 2);
      assert.ok(results.every((d) => d.score === 0));
    } else assert.equal(results, []);
  });
}

test("test_bm25_retrieval_empty_query", async () => {
  const store = documentStore();
  store.write_documents([new Document({ content: "Hello world" }), new Document({ content: "Haystack supports multiple languages" })]);
  assert.match((await thrown(() => store.bm25_retrieval("", null, 1))).message, "Query should be a non-empty string");
});

test("test_bm25_retrieval_with_different_top_k", () => {
  const store = documentStore();
  store.write_documents([new Document({ content: "Hello world" }), new Document({ content: "Haystack supports multiple languages" }), new Document({ content: "Python is a popular programming language" })]);
  assert.is(store.bm25_retrieval("language", null, 2).length, 2);
  assert.is(store.bm25_retrieval("languages", null, 3).length, 3);
});

test("test_bm25_plus_retrieval", () => {
  const store = new InMemoryDocumentStore({ bm25_algorithm: "BM25Plus", shared: false });
  store.write_documents([new Document({ content: "Hello world" }), new Document({ content: "Haystack supports multiple languages" }), new Document({ content: "Python is a popular programming language" })]);
  const results = store.bm25_retrieval("language", null, 1);
  assert.is(results.length, 1);
  assert.is(results[0]!.content, "Python is a popular programming language");
});

const LANGUAGES = ["Javascript", "Java", "Python", "Ruby", "PHP"].map((l) => `${l} is a popular programming language`);

test("test_bm25_retrieval_with_two_queries", () => {
  const store = documentStore();
  store.write_documents(LANGUAGES.map((content) => new Document({ content })));
  assert.is(store.bm25_retrieval("Java", null, 1)[0]!.content, "Java is a popular programming language");
  assert.is(store.bm25_retrieval("Python", null, 1)[0]!.content, "Python is a popular programming language");
});

test("test_bm25_retrieval_with_updated_docs", () => {
  const store = documentStore();
  store.write_documents([new Document({ content: "Hello world" })]);
  assert.is(store.bm25_retrieval("Python", null, 1).length, 0);
  store.write_documents([new Document({ content: "Python is a popular programming language" })]);
  let results = store.bm25_retrieval("Python", null, 1);
  assert.is(results.length, 1);
  assert.is(results[0]!.content, "Python is a popular programming language");
  store.write_documents([new Document({ content: "Java is a popular programming language" })]);
  results = store.bm25_retrieval("Python", null, 1);
  assert.is(results.length, 1);
  assert.is(results[0]!.content, "Python is a popular programming language");
});

test("test_bm25_retrieval_with_scale_score", () => {
  const store = documentStore();
  store.write_documents([new Document({ content: "Python programming" }), new Document({ content: "Java programming" })]);
  const scaled = store.bm25_retrieval("Python", null, 1, true);
  assert.ok(scaled[0]!.score !== null && scaled[0]!.score >= 0 && scaled[0]!.score <= 1);
  assert.is.not(store.bm25_retrieval("Python", null, 1, false)[0]!.score, scaled[0]!.score);
});

test("test_bm25_retrieval_with_non_scaled_BM25Okapi", () => {
  const docs = [
    `Use pip to install a basic version of Haystack's latest release: pip install
                farm-haystack. All the core Haystack components live in the haystack repo. But there's also the
                haystack-extras repo which contains components that are not as widely used, and you need to
                install them separately.`,
    `Use pip to install a basic version of Haystack's latest release: pip install
                farm-haystack[inference]. All the core Haystack components live in the haystack repo. But there's
                also the haystack-extras repo which contains components that are not as widely used, and you need
                to install them separately.`,
    `Use pip to install only the Haystack 2.0 code: pip install haystack-ai. The haystack-ai
                package is built on the main branch which is an unstable beta version, but it's useful if you want
                to try the new features as soon as they are merged.`,
  ].map((content) => new Document({ content }));
  const store = new InMemoryDocumentStore({ bm25_algorithm: "BM25Okapi", shared: false });
  store.write_documents(docs);
  const unscaled = store.bm25_retrieval("Haystack installation", null, 10, false);
  assert.is(unscaled.length, 3);
  assert.ok(unscaled.every((d) => !d.score || d.score < 0));
  const scaled = store.bm25_retrieval("Haystack installation", null, 10, true);
  assert.is(scaled.length, 3);
  assert.ok(scaled.every((d) => !d.score || (d.score >= 0 && d.score <= 1)));
});

test("test_bm25_retrieval_default_filter", () => {
  const store = documentStore();
  store.write_documents([new Document({}), new Document({ content: "Gardening" }), new Document({ content: "Bird watching" })]);
  assert.is(store.bm25_retrieval("doesn't matter, top_k is 10", null, 10).length, 0);
});

const TWO_EMBEDDED = () => [
  new Document({ content: "Hello world", embedding: [0.1, 0.2, 0.3, 0.4] }),
  new Document({ content: "Haystack supports multiple languages", embedding: [1.0, 1.0, 1.0, 1.0] }),
];

test("test_embedding_retrieval_return_embedding_false_on_store", () => {
  const store = new InMemoryDocumentStore({ embedding_similarity_function: "cosine", return_embedding: false, shared: false });
  store.write_documents(TWO_EMBEDDED());
  assert.ok(store.embedding_retrieval([0.1, 0.1, 0.1, 0.1], null, 2).every((d) => d.embedding === null));
  assert.ok(store.bm25_retrieval("languages", null, 2).every((d) => d.embedding === null));
  assert.ok(store.filter_documents().every((d) => d.embedding === null));
});

test("test_embedding_retrieval_override_return_embedding", () => {
  const store = new InMemoryDocumentStore({ embedding_similarity_function: "cosine", return_embedding: false, shared: false });
  store.write_documents(TWO_EMBEDDED());
  const results = store.embedding_retrieval([0.1, 0.2, 0.3, 0.4], null, 2, false, true);
  assert.is(results.length, 2);
  const known = [JSON.stringify([1.0, 1.0, 1.0, 1.0]), JSON.stringify([0.1, 0.2, 0.3, 0.4])];
  for (const d of results) assert.ok(known.includes(JSON.stringify(d.embedding)));
});

test("test_embedding_retrieval", () => {
  const store = cosineDocumentStore();
  store.write_documents(TWO_EMBEDDED());
  const results = store.embedding_retrieval([0.1, 0.1, 0.1, 0.1], {}, 1, false);
  assert.is(results.length, 1);
  assert.is(results[0]!.content, "Haystack supports multiple languages");
});

test("test_embedding_retrieval_with_zero_vector_does_not_produce_nan", () => {
  const store = cosineDocumentStore();
  store.write_documents([new Document({ content: "zero", embedding: [0.0, 0.0, 0.0] }), new Document({ content: "normal", embedding: [1.0, 0.0, 0.0] })]);
  const scores = Object.fromEntries(store.embedding_retrieval([1.0, 0.0, 0.0], null, 10, false).map((d) => [d.content, d.score]));
  assert.ok(Object.values(scores).every((s) => s !== null && !Number.isNaN(s)));
  assert.is(scores.zero, 0);
});

test("test_embedding_retrieval_invalid_query", async () => {
  const store = inMemoryDocStore();
  assert.match((await thrown(() => store.embedding_retrieval([]))).message, "query_embedding should be a non-empty list of floats");
  assert.match((await thrown(() => store.embedding_retrieval(["invalid", "list", "of", "strings"] as never))).message, "query_embedding should be a non-empty list of floats");
});

test("test_embedding_retrieval_no_embeddings", () => {
  const store = inMemoryDocStore();
  const logs = logged(store);
  store.write_documents([new Document({ content: "Hello world" }), new Document({ content: "Haystack supports multiple languages" })]);
  assert.is(store.embedding_retrieval([0.1, 0.1, 0.1, 0.1]).length, 0);
  assert.ok(logs.some((l) => l.includes("No Documents found with embeddings. Returning empty list.")), logs.join("\n"));
});

test("test_embedding_retrieval_some_documents_wo_embeddings", () => {
  const store = inMemoryDocStore();
  const logs = logged(store);
  store.write_documents([new Document({ content: "Hello world", embedding: [0.1, 0.2, 0.3, 0.4] }), new Document({ content: "Haystack supports multiple languages" })]);
  store.embedding_retrieval([0.1, 0.1, 0.1, 0.1]);
  assert.ok(logs.some((l) => l.includes("Skipping some Documents that don't have an embedding.")), logs.join("\n"));
});

test("test_embedding_retrieval_documents_different_embedding_sizes", async () => {
  const store = inMemoryDocStore();
  store.write_documents([new Document({ content: "Hello world", embedding: [0.1, 0.2, 0.3, 0.4] }), new Document({ content: "Haystack supports multiple languages", embedding: [1.0, 1.0] })]);
  const error = await thrown(() => store.embedding_retrieval([0.1, 0.1, 0.1, 0.1]));
  assert.instance(error, DocumentStoreError);
  assert.match(error.message, "The embedding size of all Documents should be the same.");
});

test("test_embedding_retrieval_query_documents_different_embedding_sizes", async () => {
  const store = inMemoryDocStore();
  store.write_documents([new Document({ content: "Hello world", embedding: [0.1, 0.2, 0.3, 0.4] })]);
  const error = await thrown(() => store.embedding_retrieval([0.1, 0.1]));
  assert.instance(error, DocumentStoreError);
  assert.match(error.message, "The embedding size of the query should be the same as the embedding size of the Documents.");
});

const THREE_EMBEDDED = () => [...TWO_EMBEDDED(), new Document({ content: "Python is a popular programming language", embedding: [0.5, 0.5, 0.5, 0.5] })];

test("test_embedding_retrieval_with_different_top_k", () => {
  const store = inMemoryDocStore();
  store.write_documents(THREE_EMBEDDED());
  assert.is(store.embedding_retrieval([0.1, 0.1, 0.1, 0.1], null, 2).length, 2);
  assert.is(store.embedding_retrieval([0.1, 0.1, 0.1, 0.1], null, 3).length, 3);
});

test("test_embedding_retrieval_with_scale_score", () => {
  const store = inMemoryDocStore();
  store.write_documents(THREE_EMBEDDED());
  const scaled = store.embedding_retrieval([0.1, 0.1, 0.1, 0.1], null, 1, true);
  assert.ok(scaled[0]!.score !== null && scaled[0]!.score >= 0 && scaled[0]!.score <= 1);
  assert.is.not(store.embedding_retrieval([0.1, 0.1, 0.1, 0.1], null, 1, false)[0]!.score, scaled[0]!.score);
});

test("test_embedding_retrieval_return_embedding", () => {
  const store = cosineDocumentStore();
  store.write_documents(TWO_EMBEDDED());
  assert.is(store.embedding_retrieval([0.1, 0.1, 0.1, 0.1], null, 1, false, false)[0]!.embedding, null);
  assert.equal(store.embedding_retrieval([0.1, 0.1, 0.1, 0.1], null, 1, false, true)[0]!.embedding, [1.0, 1.0, 1.0, 1.0]);
});

/** `_compute_query_embedding_similarity_scores` read through unscaled retrieval, in the documents' order. */
function similarityScores(similarity: "cosine" | "dot_product"): number[] {
  const store = new InMemoryDocumentStore({ embedding_similarity_function: similarity, shared: false });
  const docs = [new Document({ content: "Document 1", embedding: [1.0, 0.0, 0.0, 0.0] }), new Document({ content: "Document 2", embedding: [1.0, 1.0, 1.0, 1.0] })];
  store.write_documents(docs);
  const byContent = new Map(store.embedding_retrieval([0.1, 0.1, 0.1, 0.1], null, 10, false).map((d) => [d.content, d.score]));
  return docs.map((d) => byContent.get(d.content)!);
}

test("test_compute_cosine_similarity_scores", () => {
  assert.equal(similarityScores("cosine"), [0.5, 1.0]);
});

test("test_compute_dot_product_similarity_scores", () => {
  assert.equal(similarityScores("dot_product"), [0.1, 0.4]);
});

test("test_multiple_document_stores_using_same_index", () => {
  const index = `test_multiple_document_stores_using_same_index-${process.pid}`;
  const store1 = new InMemoryDocumentStore({ index });
  const store2 = new InMemoryDocumentStore({ index });
  const counts = () => [store1.count_documents(), store2.count_documents()];
  const contents = (s: InMemoryDocumentStore) => s.filter_documents().map((d) => d.toDict());
  assert.equal(counts(), [0, 0]);
  const doc1 = new Document({ content: "Hello world" });
  store1.write_documents([doc1]);
  assert.equal(counts(), [1, 1]);
  assert.equal(contents(store1), [doc1.toDict()]);
  assert.equal(contents(store2), [doc1.toDict()]);
  const doc2 = new Document({ content: "Hello another world" });
  store2.write_documents([doc2]);
  assert.equal(counts(), [2, 2]);
  assert.equal(contents(store1), [doc1.toDict(), doc2.toDict()]);
  assert.equal(contents(store2), [doc1.toDict(), doc2.toDict()]);
  store1.delete_documents([doc2.id]);
  assert.equal(counts(), [1, 1]);
  store2.delete_documents([doc1.id]);
  assert.equal(counts(), [0, 0]);
});

test("test_write_documents_async", async () => {
  const store = documentStore();
  const docs = [new Document({ id: "1" })];
  assert.is(await store.write_documents_async(docs), 1);
  assert.instance(await thrown(() => store.write_documents_async(docs)), DuplicateDocumentError);
});

test("test_filter_documents", async () => {
  const store = documentStore();
  const docs = [new Document({ content: "1", meta: { number: -10 } }), new Document({ content: "2", meta: { number: 100 } })];
  await store.write_documents_async(docs);
  const result = await store.filter_documents_async({ field: "meta.number", operator: "==", value: 100 });
  assertDocumentsEqual(result, docs.filter((d) => d.meta.number === 100));
});

test("test_bm25_retrieval_async", async () => {
  const store = documentStore();
  await store.write_documents_async([new Document({ content: "Hello world" }), new Document({ content: "Haystack supports multiple languages" })]);
  const results = await store.bm25_retrieval_async("What languages?", null, 1);
  assert.is(results.length, 1);
  assert.is(results[0]!.content, "Haystack supports multiple languages");
});

test("test_embedding_retrieval_async", async () => {
  const store = cosineDocumentStore();
  await store.write_documents_async(TWO_EMBEDDED());
  const results = await store.embedding_retrieval_async([0.1, 0.1, 0.1, 0.1], {}, 1, false);
  assert.is(results.length, 1);
  assert.is(results[0]!.content, "Haystack supports multiple languages");
});

test("test_concurrent_bm25_retrievals", async () => {
  const store = documentStore();
  const queries = ["Python", "Java", "JavaScript", "Ruby"];
  await store.write_documents_async(queries.map((q) => new Document({ content: `${q} is a popular programming language` })));
  const results = await Promise.all(queries.map((query) => store.bm25_retrieval_async(query, null, 1)));
  results.forEach((result, i) => {
    assert.is(result.length, 1);
    assert.is(result[0]!.content, `${queries[i]} is a popular programming language`);
  });
});

test("test_concurrent_embedding_retrievals", async () => {
  const store = cosineDocumentStore();
  const names = ["Python programming", "Java programming", "JavaScript programming", "Ruby programming"];
  const axis = (i: number) => [0, 1, 2, 3].map((j) => (i === j ? 1.0 : 0.0));
  await store.write_documents_async(names.map((content, i) => new Document({ content, embedding: axis(i) })));
  const results = await Promise.all(names.map((_, i) => store.embedding_retrieval_async(axis(i), null, 1)));
  results.forEach((result, i) => {
    assert.is(result.length, 1);
    assert.is(result[0]!.content, names[i]);
  });
});

test("test_mixed_concurrent_operations", async () => {
  const store = documentStore();
  await store.write_documents_async(["First document", "Second document", "Third document"].map((content) => new Document({ content })));
  const results = await Promise.all([
    store.bm25_retrieval_async("First", null, 1),
    store.write_documents_async([new Document({ content: "Fourth document" })]),
    store.bm25_retrieval_async("Fourth", null, 1),
    store.filter_documents_async(),
  ]);
  assert.is(results[0].length, 1);
  assert.is(results[1], 1);
  assert.is(results[2].length, 1);
  assert.is(results[3].length, 4);
});

test("test_concurrent_operations_with_errors", async () => {
  const store = documentStore();
  await store.write_documents_async([new Document({ content: "Test document" })]);
  const error = await thrown(() => Promise.all([store.bm25_retrieval_async("Test", null, 1), store.bm25_retrieval_async("", null, 1), store.embedding_retrieval_async([], null, 1)]));
  // Haystack's ValueError: svc's plain Error with the same message, not a DocumentStoreError.
  assert.not.instance(error, DocumentStoreError);
  assert.match(error.message, /Query should be a non-empty string|query_embedding should be a non-empty list of floats/);
});

test("test_concurrent_operations_with_large_dataset", async () => {
  const store = documentStore();
  await store.write_documents_async(Array.from({ length: 100 }, (_, i) => new Document({ content: `Document ${i} content` })));
  const queries = Array.from({ length: 10 }, (_, i) => `Document ${i * 10}`);
  const results = await Promise.all(queries.map((query) => store.bm25_retrieval_async(query, null, 1)));
  results.forEach((result, i) => {
    assert.is(result.length, 1);
    assert.is(result[0]!.content, `Document ${i * 10} content`);
  });
});

test("test_bm25_tokenization_includes_single_char_tokens", () => {
  assert.equal(inMemoryDocStore().tokenize_bm25("Luna is a dog"), ["luna", "is", "a", "dog"]);
});

test("test_bm25_retrieval_with_single_char_query", () => {
  const store = inMemoryDocStore();
  store.write_documents(["C programming language", "Java programming language", "Python programming language"].map((content) => new Document({ content })));
  const results = store.bm25_retrieval("C", null, 1);
  assert.is(results.length, 1);
  assert.is(results[0]!.content, "C programming language");
});

test("test_bm25_retrieval_single_char_content_token", () => {
  const store = inMemoryDocStore();
  store.write_documents([new Document({ content: "I like R" }), new Document({ content: "I like Python" })]);
  const results = store.bm25_retrieval("R programming", null, 1);
  assert.is(results.length, 1);
  assert.is(results[0]!.content, "I like R");
});

const approx = (a: number, b: number) => Math.abs(a - b) <= 1e-6 * Math.max(1, Math.abs(b));

test("test_bm25_avg_doc_len_correctness", () => {
  const store = inMemoryDocStore();
  store.write_documents([new Document({ content: "hello world", id: "d1" }), new Document({ content: "foo bar baz", id: "d2" }), new Document({ content: "go", id: "d3" })]);
  assert.ok(approx(store.avg_doc_len, 2.0), String(store.avg_doc_len));
});

test("test_bm25_avg_doc_len_after_delete", () => {
  const store = inMemoryDocStore();
  store.write_documents([new Document({ content: "hello world", id: "d1" }), new Document({ content: "foo bar baz", id: "d2" })]);
  assert.ok(approx(store.avg_doc_len, 2.5), String(store.avg_doc_len));
  store.delete_documents(["d1"]);
  assert.ok(approx(store.avg_doc_len, 3.0), String(store.avg_doc_len));
});

test("test_bm25_okapi_scores_do_not_depend_on_deleted_documents", () => {
  const active = () => [new Document({ id: "d1", content: "common alpha" }), new Document({ id: "d2", content: "common beta" }), new Document({ id: "d3", content: "common gamma" })];
  const fresh = new InMemoryDocumentStore({ bm25_algorithm: "BM25Okapi", shared: false });
  const reused = new InMemoryDocumentStore({ bm25_algorithm: "BM25Okapi", shared: false });
  const deleted = new Document({ content: "one two three four five six seven eight nine ten" });
  reused.write_documents([deleted]);
  reused.delete_documents([deleted.id]);
  fresh.write_documents(active());
  reused.write_documents(active());
  const scores = (s: InMemoryDocumentStore) => Object.fromEntries(s.bm25_retrieval("common", null, 3).map((d) => [d.id, d.score!]));
  const want = scores(fresh);
  const got = scores(reused);
  assert.equal(Object.keys(got).sort(), Object.keys(want).sort());
  for (const id of Object.keys(want)) assert.ok(approx(got[id]!, want[id]!), `${id}: ${got[id]} vs ${want[id]}`);
});

test("test_default_store_is_shared_and_registers_global_storage", () => {
  const index = `test_default_store_is_shared_and_registers_global_storage-${process.pid}`;
  const store = new InMemoryDocumentStore({ index });
  try {
    assert.is(store.shared, true);
    // Registered process-wide: another store of the index sees the same storage.
    store.write_documents([new Document({ content: "Hello world" })]);
    assert.is(new InMemoryDocumentStore({ index }).count_documents(), 1);
  } finally {
    store.delete_all_documents();
  }
});

test("test_shared_false_keeps_storage_instance_local", () => {
  const index = `test_shared_false_keeps_storage_instance_local-${process.pid}`;
  const store = new InMemoryDocumentStore({ index, shared: false });
  assert.is(store.shared, false);
  store.write_documents([new Document({ content: "Hello world" })]);
  assert.is(store.count_documents(), 1);
  // Nothing is registered process-wide: a shared store of that index is empty.
  assert.is(new InMemoryDocumentStore({ index }).count_documents(), 0);
  assert.is(new InMemoryDocumentStore({ index, shared: false }).count_documents(), 0);
});

test.run();
