/** @module The contract suite's assertions (node:assert only). */
import assert from "node:assert/strict";
import type { Document } from "../dataclasses/document.js";

/** Documents equal by id, content, meta, blob and embedding (to 1e-5: float32 columns round), in any order. */
export function assertDocumentsEqual(received: Document[], expected: Document[]): void {
  assert.ok(Array.isArray(received), `expected a list of documents, got ${typeof received}`);
  const plain = (docs: Document[]) =>
    [...docs]
      .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
      .map((d) => ({ id: d.id, content: d.content, meta: d.meta, blob: d.blob?.toDict() ?? null, embedding: d.embedding }));
  const got = plain(received);
  const want = plain(expected);
  assert.deepEqual(
    got.map((d) => d.id),
    want.map((d) => d.id),
    "the ids of the documents differ",
  );
  for (let i = 0; i < want.length; i++) {
    const g = got[i]!;
    const w = want[i]!;
    assert.deepEqual({ ...g, embedding: null }, { ...w, embedding: null }, `document ${w.id} differs`);
    if (w.embedding === null) {
      assert.equal(g.embedding, null, `document ${w.id} has an embedding it was not written with`);
      continue;
    }
    assert.ok(g.embedding && g.embedding.length === w.embedding.length, `document ${w.id}: embedding length ${g.embedding?.length} ≠ ${w.embedding.length}`);
    for (let j = 0; j < w.embedding.length; j++) assert.ok(Math.abs(g.embedding[j]! - w.embedding[j]!) <= 1e-5, `document ${w.id}: embedding[${j}] ${g.embedding[j]} ≠ ${w.embedding[j]}`);
  }
}

/** Awaits a rejection whose error has this `name` (DuplicateDocumentError, FilterError …). */
export async function rejectsNamed(promise: Promise<unknown>, name: string): Promise<Error> {
  let error: unknown;
  try {
    await promise;
  } catch (e) {
    error = e;
  }
  assert.ok(error instanceof Error, `expected a ${name}, but nothing was thrown`);
  assert.equal(error.name, name, `expected a ${name}, got ${error.name}: ${error.message}`);
  return error;
}

/** Awaits any rejection. */
export async function rejects(promise: Promise<unknown>): Promise<Error> {
  let error: unknown;
  try {
    await promise;
  } catch (e) {
    error = e;
  }
  assert.ok(error instanceof Error, "expected an error, but nothing was thrown");
  return error;
}
