/**
 * @module The contract suite's documents: Haystack's `create_filterable_docs` (18 documents over
 * meta.name/page/chapter/number/date, some without embedding, two shared embeddings) with
 * deterministic pseudo-random embeddings, so a failure reproduces.
 */
import { Document } from "../dataclasses/document.js";

/** A deterministic generator (mulberry32): the same seed gives the same embedding on every run. */
export function seededEmbedding(seed: number, size = 768): number[] {
  let a = seed >>> 0;
  const out = new Array<number>(size);
  for (let i = 0; i < size; i++) {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    out[i] = ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  return out;
}

export const TEST_EMBEDDING_1 = seededEmbedding(1_000_001);
export const TEST_EMBEDDING_2 = seededEmbedding(1_000_002);

/** Haystack's filterable documents, in its order. */
export function createFilterableDocs(embeddingSize = 768): Document[] {
  const docs: Document[] = [];
  const emb = (seed: number) => seededEmbedding(seed, embeddingSize);
  for (let i = 0; i < 3; i++) {
    docs.push(
      new Document({ content: `A Foo Document ${i}`, meta: { name: `name_${i}`, page: "100", chapter: "intro", number: 2, date: "1969-07-21T20:17:40" }, embedding: emb(10 * i + 1) }),
      new Document({ content: `A Bar Document ${i}`, meta: { name: `name_${i}`, page: "123", chapter: "abstract", number: -2, date: "1972-12-11T19:54:58" }, embedding: emb(10 * i + 2) }),
      new Document({ content: `A Foobar Document ${i}`, meta: { name: `name_${i}`, page: "90", chapter: "conclusion", number: -10, date: "1989-11-09T17:53:00" }, embedding: emb(10 * i + 3) }),
      new Document({ content: `Document ${i} without embedding`, meta: { name: `name_${i}`, no_embedding: true, chapter: "conclusion" } }),
      new Document({ content: `Doc ${i} with zeros emb`, meta: { name: "zeros_doc" }, embedding: embeddingSize === 768 ? TEST_EMBEDDING_1 : seededEmbedding(1_000_001, embeddingSize) }),
      new Document({ content: `Doc ${i} with ones emb`, meta: { name: "ones_doc" }, embedding: embeddingSize === 768 ? TEST_EMBEDDING_2 : seededEmbedding(1_000_002, embeddingSize) }),
    );
  }
  return docs;
}

/** Python's `datetime.fromisoformat` for the naive dates of the fixtures (wall-clock milliseconds). */
export const isoMillis = (value: string): number => Date.parse(`${value}Z`);
