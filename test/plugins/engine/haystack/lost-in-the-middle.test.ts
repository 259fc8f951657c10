/**
 * Haystack's LostInTheMiddleRanker tests (test/components/rankers/test_lost_in_the_middle.py),
 * ported value for value. Each `test` names the Haystack case(s) it ports.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { ByteStream, Document, LostInTheMiddleRanker } from "svc/engine";

const numbered = (n: number, prefix = "") => Array.from({ length: n }, (_, i) => new Document({ content: `${prefix}${i + 1}` }));
const order = (ranker: LostInTheMiddleRanker, documents: Document[], top_k?: number) => ranker.run(top_k === undefined ? { documents } : { documents, top_k }).documents.map((d) => d.content);

test("test_lost_in_the_middle_order_odd, _even, _two_docs", () => {
  const ranker = new LostInTheMiddleRanker();
  assert.equal(order(ranker, numbered(9)), ["1", "3", "5", "7", "9", "8", "6", "4", "2"]);
  assert.equal(order(ranker, numbered(10)), ["1", "3", "5", "7", "9", "10", "8", "6", "4", "2"]);
  assert.equal(order(ranker, numbered(2)), ["1", "2"]);
});

test("test_lost_in_the_middle_with_non_textual_documents", () => {
  assert.throws(() => new LostInTheMiddleRanker().run({ documents: [new Document({ content: "1" }), new Document({ blob: new ByteStream(Buffer.from("some bytes")) })] }), /Some provided documents are not textual/);
});

test("test_lost_in_the_middle_init, _init_invalid_word_count_threshold, _init_invalid_top_k (2)", () => {
  assert.is(new LostInTheMiddleRanker().initParameters.word_count_threshold, null);
  assert.is(new LostInTheMiddleRanker({ word_count_threshold: 10 }).initParameters.word_count_threshold, 10);
  for (const w of [0, -5]) assert.throws(() => new LostInTheMiddleRanker({ word_count_threshold: w }), /Invalid value for word_count_threshold/);
  for (const top_k of [0, -1]) assert.throws(() => new LostInTheMiddleRanker({ top_k }), new RegExp(`top_k must be > 0, but got ${top_k}`));
});

test("test_lost_in_the_middle_run_invalid_runtime_top_k (3)", () => {
  for (const [init, run] of [[null, 0], [null, -1], [3, 0]] as const) {
    assert.throws(() => new LostInTheMiddleRanker({ top_k: init }).run({ documents: numbered(4), top_k: run }), new RegExp(`top_k must be > 0, but got ${run}`));
  }
});

test("test_lost_in_the_middle_with_word_count_threshold, test_word_count_threshold_greater_than_total_number_of_words_returns_all_documents", () => {
  const docs = numbered(9, "word");
  assert.equal(order(new LostInTheMiddleRanker({ word_count_threshold: 6 }), docs), ["word1", "word3", "word5", "word6", "word4", "word2"]);
  const all = ["word1", "word3", "word5", "word7", "word9", "word8", "word6", "word4", "word2"];
  assert.equal(order(new LostInTheMiddleRanker({ word_count_threshold: 9 }), docs), all);
  assert.equal(order(new LostInTheMiddleRanker({ word_count_threshold: 100 }), docs), all);
});

test("test_empty_documents_returns_empty_list, test_list_of_one_document_returns_same_document, test_run_deduplicates_documents", () => {
  const ranker = new LostInTheMiddleRanker();
  assert.equal(ranker.run({ documents: [] }), { documents: [] });
  const doc = new Document({ content: "test" });
  assert.equal(ranker.run({ documents: [doc] }), { documents: [doc] });
  const deduped = ranker.run({ documents: [new Document({ id: "duplicate", content: "keep me", score: 0.9 }), new Document({ id: "duplicate", content: "drop me", score: 0.1 }), new Document({ id: "unique", content: "unique" })] }).documents;
  assert.equal(deduped.map((d) => d.content), ["keep me", "unique"]);
});

test("test_lost_in_the_middle_order_with_top_k (10 parametrized cases)", () => {
  const ranker = new LostInTheMiddleRanker();
  for (const top_k of [1, 2, 3, 4, 5, 6, 7, 8, 12, 20]) {
    const result = order(ranker, numbered(9), top_k);
    assert.equal(result, top_k < 9 ? order(ranker, numbered(top_k)) : order(ranker, numbered(9)), `top_k ${top_k}`);
  }
});

test.run();
