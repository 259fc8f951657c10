/**
 * Haystack's test/dataclasses/test_sparse_embedding.py. A sparse embedding is a plain
 * `{indices, values}` object in svc, checked when a Document carries it. Skipped, Python-only: the
 * `dataclasses.replace` mutation warning and its no-warning twin.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { checkSparseEmbedding, Document, ValueError } from "svc/engine";

const SE = { indices: [0, 2, 4], values: [0.1, 0.2, 0.3] };

test("test_init, test_init_with_wrong_parameters", () => {
  assert.equal(new Document({ content: "x", sparse_embedding: SE }).sparse_embedding, SE);
  const bad = { indices: [0, 2], values: [0.1, 0.2, 0.3, 0.4] };
  assert.throws(() => checkSparseEmbedding(bad), (e: Error) => e instanceof ValueError && e.message === "Length of indices and values must be the same.");
  assert.throws(() => new Document({ content: "x", sparse_embedding: bad }), /Length of indices and values must be the same/);
  assert.throws(() => Document.fromDict({ content: "x", sparse_embedding: bad }), /Length of indices and values must be the same/);
});

test("test_to_dict, test_from_dict", () => {
  assert.equal(new Document({ sparse_embedding: SE }).toDict().sparse_embedding, { indices: [0, 2, 4], values: [0.1, 0.2, 0.3] });
  assert.equal(Document.fromDict({ sparse_embedding: { indices: [0, 2, 4], values: [0.1, 0.2, 0.3] } }).sparse_embedding, SE);
});

test("test_eq", () => {
  const d = (values: number[]) => new Document({ id: "1", sparse_embedding: { indices: [0, 2, 4], values } });
  assert.ok(d([0.1, 0.2, 0.3]).equals(d([0.1, 0.2, 0.3])));
  assert.not.ok(d([0.1, 0.2, 0.3]).equals(d([0.1, 0.2, 0.4])));
});

test.run();
