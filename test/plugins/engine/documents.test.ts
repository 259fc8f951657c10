import { test } from "uvu";
import * as assert from "uvu/assert";
import { Document } from "../../../plugins/engine/dataclasses/document.js";
import { DuplicateDocumentError, InMemoryDocumentStore, expit } from "../../../plugins/engine/document-store.js";

const close = (actual: number | null, expected: number, label = "") => assert.ok(actual !== null && Math.abs(actual - expected) < 1e-12, `${label} ${actual} ≠ ${expected}`);

// Tokens (lowercased, Haystack 3.x's (?u)\b\w+\b keeps "a"): 9, 6, 9 and 2 → average length 6.5.
const TEXTS = ["The quick brown fox jumps over the lazy dog", "The lazy dog sleeps all day", "A quick brown dog outpaces a quick red fox", "Cats sleep"];

function corpusStore(algorithm: "BM25L" | "BM25Okapi" | "BM25Plus") {
  const store = new InMemoryDocumentStore({ bm25_algorithm: algorithm });
  const docs = TEXTS.map((content, i) => new Document({ content, meta: { n: i } }));
  store.write_documents(docs);
  return { store, docs };
}

/** Scores by corpus position, from a retrieval. */
const scoresByDoc = (results: Document[]) => Object.fromEntries(results.map((d) => [TEXTS.indexOf(d.content!), d.score]));

/*
 * Expected values: Haystack's own InMemoryDocumentStore code (3.2, its default tokeniser) run on this
 * corpus (see bm25-haystack-cases.py for how it is run). For example BM25L, "quick fox", document 2
 * (9 tokens, quick ×2, fox ×1), N = 4, avgdl = 6.5, k1 1.5, b 0.75, δ 0.5:
 *   idf(quick) = idf(fox) = ln((4 + 1) / (2 + 0.5)) = ln 2
 *   c(quick) = 2 / (0.25 + 0.75 · 9/6.5) = 1.5758, c(fox) = 0.7879
 *   score = ln 2 · [2.5 · 2.0758 / 3.5758 + 2.5 · 1.2879 / 2.7879] = 1.7976919625934604
 */
const EXPECTED = {
  BM25L: {
    "quick fox": [1.5931205359643903, 0.8664339756999316, 1.7976919625934604, 0.8664339756999316],
    "lazy dog": [1.2064488124279158, 1.3385232087358139, 0.8431055322956865, 0.6561388278116735],
    sleep: [0.75248300270371, 0.75248300270371, 0.75248300270371, 1.9033393597799724],
  },
  BM25Plus: {
    "quick fox": [2.5680534886319286, 1.3862943611198906, 2.8584368439252286, 1.3862943611198906],
    "lazy dog": [1.9447524601368948, 2.1372872733817703, 1.3538728963808757, 1.0498221244986776],
    sleep: [1.2039728043259361, 1.2039728043259361, 1.2039728043259361, 2.9527601178719887],
  },
} as const;

for (const algorithm of ["BM25L", "BM25Plus"] as const) {
  test(`${algorithm}: scores and ranking match Haystack's formulas`, () => {
    const { store } = corpusStore(algorithm);
    for (const [query, expected] of Object.entries(EXPECTED[algorithm]) as [string, readonly number[]][]) {
      const results = store.bm25_retrieval(query, null, 10);
      assert.is(results.length, 4);
      const got = scoresByDoc(results);
      expected.forEach((score, i) => close(got[i]!, score, `${algorithm} ${query} doc ${i}`));
      // Sorted by score, ties in write order (Python's stable sort).
      const sorted = [...expected.keys()].sort((a, b) => expected[b]! - expected[a]!);
      assert.equal(results.map((d) => TEXTS.indexOf(d.content!)), sorted);
    }
  });
}

test("BM25Okapi: IDF ≤ 0 becomes ε × mean IDF; zero scores are kept unscaled", () => {
  const { store } = corpusStore("BM25Okapi");
  // lazy: n = 2 → idf ln(2.5/2.5) = 0; dog: n = 3 → negative → ε = 0.25 · Σidf / |V|.
  const lazy = scoresByDoc(store.bm25_retrieval("lazy dog", null, 10));
  [0.10157156728002337, 0.12342361761118378, 0.10157156728002337, 0].forEach((s, i) => close(lazy[i]!, s, `doc ${i}`));
  const sleep = store.bm25_retrieval("sleep", null, 10);
  assert.is(sleep.length, 4);
  close(sleep[0]!.score, 1.2307119759814131);
  assert.equal(sleep.slice(1).map((d) => d.score), [0, 0, 0]);
});

test("deleting keeps Haystack's statistics: the average is updated and emptied tokens leave the vocabulary", () => {
  const expected = {
    BM25L: { "red fox": [1.1832432744966406, 0.9067705514109137, 1.7602016586211853], "lazy dog": [0.7322299897690632, 0.8083058328619529, 0.4557572666833364] },
    BM25Okapi: { "red fox": [-0.0069895735884588665, 0, 0.47663231873437256], "lazy dog": [-0.013979147176917733, -0.016637154034500685, -0.0069895735884588665] },
    BM25Plus: { "red fox": [1.8958067324309393, 1.4508328822574619, 2.8244024749272483], "lazy dog": [1.1749291254160648, 1.283574483132521, 0.7299552752425873] },
  };
  for (const [algorithm, queries] of Object.entries(expected)) {
    const { store, docs } = corpusStore(algorithm as "BM25L");
    store.delete_documents([docs[3]!.id, "unknown-id"]);
    assert.is(store.count_documents(), 3);
    for (const [query, scores] of Object.entries(queries)) {
      const got = scoresByDoc(store.bm25_retrieval(query, null, 10, false));
      scores.forEach((s, i) => (s === 0 && algorithm !== "BM25Okapi" ? assert.is(got[i], undefined) : close(got[i] ?? 0, s, `${algorithm} ${query} ${i}`)));
    }
  }
});

test("scale_score maps scores through expit(score / 8); top_k cuts; a copy is returned", () => {
  const { store, docs } = corpusStore("BM25L");
  const scaled = store.bm25_retrieval("quick fox", null, 2, true);
  assert.is(scaled.length, 2);
  close(scaled[0]!.score, 0.5559426684247485);
  close(scaled[1]!.score, 0.5496211405338285);
  close(scaled[0]!.score!, expit(1.7976919625934604 / 8));
  assert.is(scaled[0]!.id, docs[2]!.id);
  assert.is.not(scaled[0], docs[2]);
  scaled[0]!.meta.n = 99;
  assert.is(docs[2]!.meta.n, 2, "the stored document's meta is not shared");
  assert.is(docs[2]!.score, null);
});

test("BM25Okapi keeps negative scores unless scaled (Haystack's repetitive-documents case)", () => {
  const texts = [
    "Use pip to install a basic version of Haystack's latest release: pip install farm-haystack. All the core Haystack components live in the haystack repo. But there's also the haystack-extras repo which contains components that are not as widely used, and you need to install them separately.",
    "Use pip to install a basic version of Haystack's latest release: pip install farm-haystack[inference]. All the core Haystack components live in the haystack repo. But there's also the haystack-extras repo which contains components that are not as widely used, and you need to install them separately.",
    "Use pip to install only the Haystack 2.0 code: pip install haystack-ai. The haystack-ai package is built on the main branch which is an unstable beta version, but it's useful if you want to try the new features as soon as they are merged.",
  ];
  const store = new InMemoryDocumentStore({ bm25_algorithm: "BM25Okapi" });
  store.write_documents(texts.map((content) => new Document({ content })));
  const raw = store.bm25_retrieval("Haystack installation", null, 10, false);
  assert.is(raw.length, 3);
  assert.ok(raw.every((d) => d.score! < 0));
  const scaled = store.bm25_retrieval("Haystack installation", null, 10, true);
  assert.is(scaled.length, 3);
  assert.ok(scaled.every((d) => d.score! > 0 && d.score! < 1));
});

test("retrieval skips documents without content, drops zero scores (BM25L/Plus) and rejects an empty query", () => {
  const store = new InMemoryDocumentStore();
  store.write_documents([new Document({ content: "Gardening tips" }), new Document({ meta: { only: "meta" } }), new Document({ content: "" })]);
  assert.is(store.count_documents(), 3);
  assert.equal(store.bm25_retrieval("zebra", null, 10), [], "no corpus token: every score is 0");
  // BM25L scores the empty document too (δ > 0); the one without content is never a candidate.
  assert.equal(store.bm25_retrieval("gardening", null, 10).map((d) => d.content), ["Gardening tips", ""]);
  assert.throws(() => store.bm25_retrieval("", null, 10), /Query should be a non-empty string/);
  const empty = new InMemoryDocumentStore();
  assert.equal(empty.bm25_retrieval("anything", null, 10), []);
  // Only token-less documents: no division by zero, no NaN.
  empty.write_documents([new Document({ content: "" }), new Document({ content: "!" })]);
  for (const algorithm of ["BM25L", "BM25Okapi", "BM25Plus"] as const) {
    const same = new InMemoryDocumentStore({ index: empty.index, bm25_algorithm: algorithm });
    assert.ok(same.bm25_retrieval("anything", null, 10).every((d) => d.score === 0));
  }
});

test("duplicate policies: NONE means FAIL, SKIP counts only new ones, OVERWRITE replaces and re-indexes", () => {
  const store = new InMemoryDocumentStore();
  const a = new Document({ id: "a", content: "alpha beta" });
  assert.is(store.write_documents([a]), 1);
  try {
    store.write_documents([new Document({ id: "b", content: "beta" }), a]);
    assert.unreachable("should fail");
  } catch (error) {
    assert.instance(error, DuplicateDocumentError);
    assert.is((error as Error).message, "ID 'a' already exists.");
  }
  assert.is(store.count_documents(), 2, "documents before the duplicate stay written, as in Haystack");
  assert.throws(() => store.write_documents([a], "FAIL"), /ID 'a' already exists/);
  assert.is(store.write_documents([a, new Document({ id: "c", content: "gamma" })], "SKIP"), 1);
  assert.is(store.write_documents([new Document({ id: "a", content: "delta delta" })], "overwrite"), 1);
  assert.is(store.count_documents(), 3);
  assert.equal(store.bm25_retrieval("alpha", null, 10), []);
  assert.equal(store.bm25_retrieval("delta", null, 10)[0]!.id, "a");
  assert.equal(store.filter_documents().map((d) => d.id), ["b", "c", "a"], "an overwritten document moves to the end, like a re-inserted dict key");
  assert.throws(() => store.write_documents([a], "sometimes"), /Unknown DuplicatePolicy/);
  assert.throws(() => store.write_documents([{ id: "x" } as unknown as Document]), /Please provide a list of Documents/);
});

test("storage is shared per index name across instances; a fresh store gets its own uuid index", () => {
  const index = `shared-${Date.now()}`;
  const one = new InMemoryDocumentStore({ index });
  const two = new InMemoryDocumentStore({ index, bm25_algorithm: "BM25Plus" });
  const other = new InMemoryDocumentStore();
  assert.match(other.index, /^[0-9a-f-]{36}$/);
  const doc = new Document({ content: "Hello world" });
  one.write_documents([doc]);
  assert.is(two.count_documents(), 1);
  assert.is(other.count_documents(), 0);
  two.write_documents([new Document({ content: "Hello another world" })]);
  assert.equal(one.filter_documents().map((d) => d.content), ["Hello world", "Hello another world"]);
  assert.is(two.bm25_retrieval("another", null, 10)[0]!.content, "Hello another world");
  one.delete_documents([doc.id]);
  assert.is(two.count_documents(), 1);
  const restored = InMemoryDocumentStore.fromDict(two.toDict().init_parameters);
  assert.is(restored.count_documents(), 1);
  assert.is(restored.bm25_algorithm, "BM25Plus");
});

test("toDict and fromDict use Haystack's init parameters and defaults", () => {
  const store = new InMemoryDocumentStore();
  assert.equal(store.toDict(), {
    type: "haystack.document_stores.in_memory.document_store.InMemoryDocumentStore",
    init_parameters: {
      bm25_tokenization_regex: "(?u)\\b\\w+\\b",
      bm25_algorithm: "BM25L",
      bm25_parameters: {},
      embedding_similarity_function: "dot_product",
      index: store.index,
      shared: true,
      return_embedding: true,
      strict_datetime_comparison: false,
    },
  });
  const custom = InMemoryDocumentStore.fromDict({ bm25_algorithm: "BM25Okapi", bm25_parameters: { k1: 1.2 }, index: "my_cool_index", embedding_similarity_function: "cosine" });
  assert.equal(custom.toDict().init_parameters.bm25_parameters, { k1: 1.2 });
  assert.is(custom.index, "my_cool_index");
  assert.is(InMemoryDocumentStore.type, "haystack.document_stores.in_memory.document_store.InMemoryDocumentStore");
  assert.equal(InMemoryDocumentStore.aliases, ["InMemoryDocumentStore"]);
  assert.throws(() => new InMemoryDocumentStore({ bm25_algorithm: "invalid" as "BM25L" }), /BM25 algorithm 'invalid' is not supported/);
});

test("bm25_parameters change the scores; return_embedding false strips embeddings", () => {
  const { store } = corpusStore("BM25L");
  const tuned = new InMemoryDocumentStore({ index: store.index, bm25_parameters: { k1: 1.2, b: 0.5, delta: 1 } });
  const base = store.bm25_retrieval("quick fox", null, 1)[0]!.score!;
  assert.ok(Math.abs(tuned.bm25_retrieval("quick fox", null, 1)[0]!.score! - base) > 1e-6);
  const noEmbedding = new InMemoryDocumentStore({ return_embedding: false });
  noEmbedding.write_documents([new Document({ content: "vector text", embedding: [0.1, 0.2] })]);
  assert.is(noEmbedding.filter_documents()[0]!.embedding, null);
  assert.is(noEmbedding.bm25_retrieval("vector", null, 1)[0]!.embedding, null);
  assert.equal(new InMemoryDocumentStore({ index: noEmbedding.index }).bm25_retrieval("vector", null, 1)[0]!.embedding, [0.1, 0.2]);
});

test("tokenization: Unicode words like Python's \\w; a custom Python regex is honoured", () => {
  // With one document, a query finds it exactly when one of its tokens is a corpus token.
  const finds = (init: ConstructorParameters<typeof InMemoryDocumentStore>[0], content: string, query: string) => {
    const store = new InMemoryDocumentStore(init);
    store.write_documents([new Document({ content })]);
    return store.bm25_retrieval(query, null, 5).length === 1;
  };
  const text = "Über naïve café — 東京 x_y 42";
  for (const q of ["über", "NAÏVE", "café", "東京", "x_y", "42"]) assert.ok(finds({}, text, q), q);
  for (const q of ["x", "y", "caf", "naïv"]) assert.not.ok(finds({}, text, q), q);
  // The 3.x default takes single letters; the 2.x pattern needs two word characters.
  assert.ok(finds({}, "a b c", "b"));
  assert.not.ok(finds({ bm25_tokenization_regex: "(?u)\\b\\w\\w+\\b" }, "a b c", "b"));
  assert.ok(finds({ bm25_tokenization_regex: "(?i)\\b\\w+\\b" }, "a b c", "b"));
  // findall returns the group when the pattern has one.
  assert.ok(finds({ bm25_tokenization_regex: "(?P<word>[a-z]+)-\\d" }, "ab-1 cd-2 ef", "cd-9"));
  assert.not.ok(finds({ bm25_tokenization_regex: "(?P<word>[a-z]+)-\\d" }, "ab-1 cd-2 ef", "ef"));
});

// Its speed is measured by `npm run bench` (bench/engine.ts), not here.
test("BM25 over 10,000 generated documents: every algorithm ranks, limits and filters", () => {
  const words = Array.from({ length: 2000 }, (_, i) => `w${i.toString(36)}`);
  let seed = 42;
  const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const docs = Array.from({ length: 10_000 }, (_, i) => new Document({ content: Array.from({ length: 40 + (i % 60) }, () => words[Math.floor(rand() * words.length)]).join(" "), meta: { i } }));
  for (const algorithm of ["BM25L", "BM25Okapi", "BM25Plus"] as const) {
    const store = new InMemoryDocumentStore({ bm25_algorithm: algorithm });
    store.write_documents(docs);
    for (let i = 0; i < 5; i++) {
      const results = store.bm25_retrieval(`${words[i]} ${words[i + 7]} ${words[i + 99]}`, null, 10);
      assert.is(results.length, 10, algorithm);
      const scores = results.map((d) => d.score!);
      assert.equal(scores, [...scores].sort((a, b) => b - a), `${algorithm} ranks by score`);
    }
    const filtered = store.bm25_retrieval(`${words[3]} ${words[5]}`, { field: "meta.i", operator: ">=", value: 5000 }, 10);
    assert.is(filtered.length, 10);
    assert.ok(filtered.every((d) => (d.meta.i as number) >= 5000), `${algorithm} honours the filter`);
  }
});

test.run();
