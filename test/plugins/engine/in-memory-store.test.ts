/**
 * InMemoryDocumentStore against Haystack's test/document_stores/test_in_memory.py: BM25 scores equal
 * to Haystack's own to 6 digits (bm25-haystack-cases.ts, computed by Haystack's code) for all three
 * algorithms, also after deletes and writes; tokenisation; ISO dates; shared and local storage;
 * to_dict; save_to_disk / load_from_disk; embedding retrieval cases.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ByteStream, Document, DocumentStoreError, InMemoryDocumentStore } from "svc/engine";
import { HAYSTACK_BM25_CASES } from "./bm25-haystack-cases.js";

for (const c of HAYSTACK_BM25_CASES) {
  test(`BM25 ${c.algorithm} = Haystack's scores: ${c.name}`, () => {
    const store = new InMemoryDocumentStore({ bm25_algorithm: c.algorithm, shared: false });
    store.write_documents(c.docs.map((d) => new Document(d)));
    for (const step of c.steps) {
      if (step.op === "delete") store.delete_documents(step.ids!);
      else if (step.op === "add") store.write_documents(step.docs!.map((d) => new Document(d)));
      else {
        const got = store.bm25_retrieval(step.query!, null, step.top_k, step.scale_score);
        const label = `${step.query} (top_k ${step.top_k}, scaled ${step.scale_score})`;
        assert.equal(
          got.map((d) => d.id),
          step.results!.map(([id]) => id),
          `ranking for ${label}`,
        );
        got.forEach((d, i) => {
          const want = step.results![i]![1];
          assert.ok(Math.abs(d.score! - want) < 5e-7 * Math.max(1, Math.abs(want)), `${label}: ${d.id} scored ${d.score}, Haystack ${want}`);
        });
      }
    }
  });
}

test("the cases cover every algorithm, deletes and adds, and negative BM25Okapi scores", () => {
  assert.equal(new Set(HAYSTACK_BM25_CASES.map((c) => c.algorithm)), new Set(["BM25L", "BM25Okapi", "BM25Plus"]));
  const steps = HAYSTACK_BM25_CASES.flatMap((c) => c.steps);
  assert.ok(steps.some((s) => s.op === "delete") && steps.some((s) => s.op === "add"));
  assert.ok(steps.some((s) => s.results?.some(([, score]) => score < 0)));
});

test("tokenisation indexes one-character words (test_bm25_tokenization_includes_single_char_tokens)", () => {
  const store = new InMemoryDocumentStore({ shared: false });
  store.write_documents([new Document({ content: "C programming language" }), new Document({ content: "Java programming language" }), new Document({ content: "Python programming language" })]);
  assert.is(store.bm25_retrieval("C", null, 1)[0]!.content, "C programming language");
  const r = new InMemoryDocumentStore({ shared: false });
  r.write_documents([new Document({ content: "I like R" }), new Document({ content: "I like Python" })]);
  assert.is(r.bm25_retrieval("R programming", null, 1)[0]!.content, "I like R");
  // The 2.x pattern, given explicitly, still skips them.
  const legacy = new InMemoryDocumentStore({ shared: false, bm25_tokenization_regex: String.raw`(?u)\b\w\w+\b` });
  legacy.write_documents([new Document({ content: "I like R" })]);
  assert.equal(legacy.bm25_retrieval("R", null, 1), []);
});

test("BM25: a tokenless corpus scores 0 (kept only by unscaled BM25Okapi); empty query and store; content-less documents", () => {
  for (const algorithm of ["BM25Okapi", "BM25L", "BM25Plus"] as const) {
    const store = new InMemoryDocumentStore({ bm25_algorithm: algorithm, shared: false });
    assert.equal(store.bm25_retrieval("anything"), []);
    store.write_documents([new Document({ content: "", meta: { i: 1 } }), new Document({ content: "", meta: { i: 2 } })]);
    const results = store.bm25_retrieval("anything");
    if (algorithm === "BM25Okapi") assert.equal(results.map((d) => d.score), [0, 0]);
    else assert.equal(results, []);
    assert.throws(() => store.bm25_retrieval(""), /Query should be a non-empty string/);
  }
  const store = new InMemoryDocumentStore({ shared: false });
  store.write_documents([new Document(), new Document({ content: "Gardening" }), new Document({ content: "Bird watching" })]);
  assert.equal(store.bm25_retrieval("doesn't matter, top_k is 10", null, 10), []);
});

test("filters: equal ISO dates in other spellings match with == and in; strict_datetime_comparison keeps naive and aware apart", () => {
  const store = new InMemoryDocumentStore({ shared: false });
  const doc = new Document({ id: "1", content: "doc", meta: { date: "2025-02-03T12:45:46Z" } });
  store.write_documents([doc]);
  assert.equal(store.filter_documents({ field: "meta.date", operator: "==", value: "2025-02-03T12:45:46+00:00" }).map((d) => d.id), ["1"]);
  assert.equal(store.filter_documents({ field: "meta.date", operator: "in", value: ["2025-02-03T13:45:46+01:00"] }).map((d) => d.id), ["1"]);
  assert.equal(store.filter_documents({ field: "meta.date", operator: "!=", value: "2025-02-03T12:45:46.000Z" }), []);
  assert.equal(store.filter_documents({ field: "meta.date", operator: ">=", value: "2025-02-01" }).map((d) => d.id), ["1"]);
  // A partial date is not a date for ==.
  assert.equal(store.filter_documents({ field: "meta.date", operator: "==", value: "2025" }), []);
  const strict = new InMemoryDocumentStore({ shared: false, strict_datetime_comparison: true });
  strict.write_documents([doc]);
  assert.equal(strict.filter_documents({ field: "meta.date", operator: ">=", value: "2025-02-01" }), []);
  assert.equal(strict.filter_documents({ field: "meta.date", operator: "==", value: "2025-02-03T12:45:46" }), []);
  assert.equal(strict.filter_documents({ field: "meta.date", operator: ">=", value: "2025-02-01T00:00:00+00:00" }).map((d) => d.id), ["1"]);
});

test("to_dict: Haystack 3.x's init parameters and defaults; fromDict reads them", () => {
  const store = new InMemoryDocumentStore();
  assert.equal(store.toDict(), {
    type: "haystack.document_stores.in_memory.document_store.InMemoryDocumentStore",
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
  const custom = InMemoryDocumentStore.fromDict({ bm25_tokenization_regex: "custom_regex", bm25_algorithm: "BM25Plus", bm25_parameters: { k1: 1.2 }, index: "my_cool_index", strict_datetime_comparison: true, shared: false });
  assert.equal(custom.toDict().init_parameters, { ...custom.toDict().init_parameters, bm25_algorithm: "BM25Plus", index: "my_cool_index", strict_datetime_comparison: true, shared: false });
  assert.throws(() => new InMemoryDocumentStore({ bm25_algorithm: "invalid" as never }), /BM25 algorithm 'invalid' is not supported/);
});

test("shared stores of one index see each other's documents; shared: false keeps them in the instance", () => {
  const index = `shared-${process.pid}`;
  const a = new InMemoryDocumentStore({ index });
  const b = new InMemoryDocumentStore({ index });
  a.write_documents([new Document({ content: "Hello world" })]);
  b.write_documents([new Document({ content: "Hello another world" })]);
  assert.is(a.count_documents(), 2);
  assert.equal(a.filter_documents().map((d) => d.content), ["Hello world", "Hello another world"]);
  a.delete_all_documents();
  assert.is(b.count_documents(), 0);
  const local = new InMemoryDocumentStore({ index, shared: false });
  local.write_documents([new Document({ content: "mine" })]);
  assert.is(new InMemoryDocumentStore({ index, shared: false }).count_documents(), 0);
  assert.is(a.count_documents(), 0);
});

test("save_to_disk and load_from_disk: Haystack's JSON, blob and sparse embedding kept, BM25 rebuilt; bad files", () => {
  const dir = mkdtempSync(join(tmpdir(), "svc-store-"));
  try {
    const store = new InMemoryDocumentStore({ bm25_algorithm: "BM25Plus", index: `disk-${process.pid}` });
    const docs = [
      new Document({ content: "Hello world" }),
      new Document({ content: "Haystack supports multiple languages", meta: { lang: "en" }, embedding: [0.5, 1] }),
      new Document({ content: "document with binary data", blob: new ByteStream(Buffer.from("binary data"), {}, "image/png"), sparse_embedding: { indices: [0, 5], values: [0.1, 0.9] } }),
    ];
    store.write_documents(docs);
    const path = join(dir, "store.json");
    store.save_to_disk(path);
    store.delete_all_documents();
    const loaded = InMemoryDocumentStore.load_from_disk(path);
    assert.is(loaded.count_documents(), 3);
    assert.equal(loaded.toDict(), store.toDict());
    assert.equal(loaded.filter_documents().map((d) => d.toDict()), docs.map((d) => d.toDict()));
    assert.is(loaded.filter_documents()[2]!.blob!.toString(), "binary data");
    assert.ok(loaded.bm25_retrieval("languages", null, 1)[0]!.content!.startsWith("Haystack"));
    loaded.save_to_disk(path);
    assert.throws(() => InMemoryDocumentStore.load_from_disk(join(dir, "missing.json")), /File .*missing\.json not found/);
    writeFileSync(join(dir, "bad.json"), "{not json");
    assert.throws(() => InMemoryDocumentStore.load_from_disk(join(dir, "bad.json")), (e: Error) => e instanceof DocumentStoreError && /Error loading InMemoryDocumentStore from disk/.test(e.message));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("embedding retrieval: Haystack's cosine and dot-product cases, zero vectors, sizes, return_embedding", () => {
  const docs = () => [new Document({ content: "Hello world", embedding: [0.1, 0.2, 0.3, 0.4] }), new Document({ content: "Haystack supports multiple languages", embedding: [1.0, 1.0, 1.0, 1.0] })];
  const cosine = new InMemoryDocumentStore({ embedding_similarity_function: "cosine", shared: false });
  cosine.write_documents(docs());
  const top = cosine.embedding_retrieval([0.1, 0.1, 0.1, 0.1], {}, 1, false);
  assert.is(top[0]!.content, "Haystack supports multiple languages");
  assert.ok(Math.abs(top[0]!.score! - 1) < 1e-12);
  assert.is(top[0]!.embedding, null);
  assert.equal(cosine.embedding_retrieval([0.1, 0.1, 0.1, 0.1], null, 1, false, true)[0]!.embedding, [1, 1, 1, 1]);
  const dot = new InMemoryDocumentStore({ shared: false });
  dot.write_documents([new Document({ content: "Document 1", embedding: [1, 0, 0, 0] }), new Document({ content: "Document 2", embedding: [1, 1, 1, 1] })]);
  const scores = dot.embedding_retrieval([0.1, 0.1, 0.1, 0.1], null, 2).map((d) => d.score!);
  assert.ok(Math.abs(scores[0]! - 0.4) < 1e-12 && Math.abs(scores[1]! - 0.1) < 1e-12, String(scores));
  const zero = new InMemoryDocumentStore({ embedding_similarity_function: "cosine", shared: false });
  zero.write_documents([new Document({ content: "zero", embedding: [0, 0, 0] }), new Document({ content: "normal", embedding: [1, 0, 0] })]);
  assert.equal(Object.fromEntries(zero.embedding_retrieval([1, 0, 0]).map((d) => [d.content, d.score])), { normal: 1, zero: 0 });
  assert.throws(() => dot.embedding_retrieval([]), /query_embedding should be a non-empty list of floats/);
  assert.throws(() => dot.embedding_retrieval(["invalid"] as never), /query_embedding should be a non-empty list of floats/);
  assert.throws(() => dot.embedding_retrieval([0.1, 0.1]), /The embedding size of the query should be the same/);
  dot.write_documents([new Document({ content: "short", embedding: [1, 1] })]);
  assert.throws(() => dot.embedding_retrieval([0.1, 0.1, 0.1, 0.1]), /The embedding size of all Documents should be the same/);
  const noEmbedding = new InMemoryDocumentStore({ shared: false, return_embedding: false, embedding_similarity_function: "cosine" });
  noEmbedding.write_documents(docs());
  assert.ok(noEmbedding.embedding_retrieval([0.1, 0.1, 0.1, 0.1], null, 2).every((d) => d.embedding === null));
  assert.ok(noEmbedding.bm25_retrieval("languages", null, 2).every((d) => d.embedding === null));
  assert.ok(noEmbedding.filter_documents().every((d) => d.embedding === null));
});

test("async forms: write, filter, retrieval; errors become rejections; concurrent reads and writes", async () => {
  const store = new InMemoryDocumentStore({ shared: false });
  assert.is(await store.write_documents_async([new Document({ id: "1" })]), 1);
  let error: unknown;
  await store.write_documents_async([new Document({ id: "1" })]).catch((e) => (error = e));
  assert.is((error as Error).name, "DuplicateDocumentError");
  await store.write_documents_async(["Python", "Java", "JavaScript", "Ruby"].map((l) => new Document({ content: `${l} is a popular programming language` })));
  const results = await Promise.all(["Python", "Java", "JavaScript", "Ruby"].map((q) => store.bm25_retrieval_async(q, null, 1)));
  assert.equal(results.map((r) => r[0]!.content!.split(" ")[0]), ["Python", "Java", "JavaScript", "Ruby"]);
  assert.is((await store.count_documents_by_filter_async({ field: "content", operator: "!=", value: null })), 4);
  assert.is(await store.count_documents_async(), 5);
});

test.run();
