/**
 * @module Ranking texts by relevance to a query with the engine's BM25 (the in-memory document
 * store of `svc/engine`), for the search tools over templates, components and documentation: no
 * embedding model to download, and the same scores the engine's retriever gives.
 */

export interface Ranked<T> {
  item: T;
  score: number;
}

let sequence = 0;

/** The engine's default BM25 tokens: lower-cased runs of two or more letters, digits or `_`. */
const tokens = (text: string) => new Set(text.toLowerCase().match(/[\p{L}\p{N}_]{2,}/gu) ?? []);

/** `PromptBuilder`, `prompt_builder`, `a.b.c` also as separate words, so a query in plain words finds them. */
export function words(identifier: string): string {
  return identifier.replace(/[._-]+/g, " ").replace(/([a-z0-9])([A-Z])/g, "$1 $2");
}

/**
 * The `topK` items whose text best matches `query`, best first, with their BM25 score; items that
 * share no term with the query are left out.
 */
export async function rankByBm25<T>(items: readonly T[], textOf: (item: T) => string, query: string, topK: number): Promise<Ranked<T>[]> {
  // BM25L scores every document that any query term occurs in somewhere; keep the ones that share a term.
  const wanted = tokens(query);
  const candidates = items.filter((item) => [...tokens(textOf(item))].some((t) => wanted.has(t)));
  if (candidates.length === 0) return [];
  const { Document, InMemoryDocumentStore } = await import("svc/engine");
  // Writing, scoring and deleting run without a pause, so calls never see each other's documents
  // although they share one index name (which keeps the engine's table of indexes from growing).
  const store = new InMemoryDocumentStore({ index: "svc-platform-ranking", bm25_algorithm: "BM25L" });
  const ids = candidates.map(() => `rank-${++sequence}`);
  store.write_documents(candidates.map((item, i) => new Document({ id: ids[i], content: textOf(item) })));
  try {
    const hits = store.bm25_retrieval(query, null, topK);
    const byId = new Map(ids.map((id, i) => [id, candidates[i]!]));
    return hits.map((d) => ({ item: byId.get(d.id)!, score: d.score ?? 0 }));
  } finally {
    store.delete_documents(ids);
  }
}
