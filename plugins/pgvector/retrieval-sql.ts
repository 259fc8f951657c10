/**
 * @module The retrieval queries, Haystack's: embedding retrieval orders by the pgvector distance
 * operator (so an HNSW index built for that function is used) and scores as Haystack does —
 * cosine_similarity `1 - (embedding <=> q)`, inner_product `(embedding <#> q) * -1`, l2_distance
 * `embedding <-> q` (smaller is closer); keyword retrieval ranks with
 * `ts_rank_cd(to_tsvector(language, content), plainto_tsquery(language, query))`.
 * The query vector, query text, filter values and top_k are parameters.
 */
import pgvector from "pgvector";
import type { Filters } from "svc/engine";
import { SELECT_COLUMNS } from "./rows.js";
import { languageSql } from "./schema.js";
import { VECTOR_FUNCTIONS, type StoreOptionsValue, type VectorFunction } from "./store-options.js";

interface QueryTarget {
  readonly options: StoreOptionsValue;
  readonly table: string;
  where(filters: Filters | null | undefined, first?: number): { where: string; params: unknown[] };
}

const DISTANCE: Record<VectorFunction, { operator: string; score: (distance: string) => string }> = {
  cosine_similarity: { operator: "<=>", score: (d) => `1 - (${d})` },
  inner_product: { operator: "<#>", score: (d) => `(${d}) * -1` },
  l2_distance: { operator: "<->", score: (d) => d },
};

function checkedTopK(topK: number | undefined): number {
  const k = topK ?? 10;
  if (!Number.isInteger(k) || k < 1) throw new Error(`top_k must be a positive integer, got ${String(topK)}`);
  return k;
}

export function embeddingQuery(
  store: QueryTarget,
  queryEmbedding: number[],
  options: { filters?: Filters | null; top_k?: number; vector_function?: VectorFunction | null },
): { sql: string; params: unknown[] } {
  if (!Array.isArray(queryEmbedding) || queryEmbedding.length === 0) throw new Error("query_embedding must be a non-empty list of floats");
  if (queryEmbedding.some((x) => typeof x !== "number" || !Number.isFinite(x))) throw new Error("query_embedding must be a non-empty list of floats");
  const dimension = store.options.embedding_dimension;
  if (queryEmbedding.length !== dimension) {
    throw new Error(`query_embedding dimension (${queryEmbedding.length}) does not match PgvectorDocumentStore embedding dimension (${dimension}).`);
  }
  const fn = options.vector_function ?? store.options.vector_function;
  if (!VECTOR_FUNCTIONS.includes(fn)) throw new Error(`vector_function must be one of ${JSON.stringify(VECTOR_FUNCTIONS)}, but got ${String(fn)}`);
  const { operator, score } = DISTANCE[fn];
  const distance = `embedding ${operator} $1::${store.options.vector_type}`;
  const { where, params } = store.where(options.filters, 3);
  return {
    sql: `SELECT ${SELECT_COLUMNS}, ${score(distance)} AS score FROM ${store.table}${where} ORDER BY ${distance} ASC LIMIT $2`,
    params: [pgvector.toSql(queryEmbedding), checkedTopK(options.top_k), ...params],
  };
}

export function keywordQuery(store: QueryTarget, query: string, options: { filters?: Filters | null; top_k?: number }): { sql: string; params: unknown[] } {
  if (typeof query !== "string" || !query) throw new Error("query must be a non-empty string");
  const language = languageSql(store.options);
  // to_tsvector(language, content) exactly as the GIN index spells it, so the index serves the match.
  const vector = `to_tsvector(${language}, content)`;
  const { where, params } = store.where(options.filters, 3);
  const filter = where ? ` AND ${where.slice(" WHERE ".length)}` : "";
  return {
    sql: `SELECT ${SELECT_COLUMNS}, ts_rank_cd(${vector}, query) AS score FROM ${store.table}, plainto_tsquery(${language}, $1) query WHERE ${vector} @@ query${filter} ORDER BY score DESC LIMIT $2`,
    params: [query, checkedTopK(options.top_k), ...params],
  };
}
