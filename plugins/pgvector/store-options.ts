/**
 * @module PgvectorDocumentStore's init parameters (Haystack's names, defaults and checks), as a
 * valibot schema: a YAML with a bad value fails at deploy with the parameter named.
 */
import * as v from "valibot";
import { secretParameter } from "svc/engine";

export const VECTOR_FUNCTIONS = ["cosine_similarity", "inner_product", "l2_distance"] as const;
export type VectorFunction = (typeof VECTOR_FUNCTIONS)[number];

const name = (what: string, fallback: string) => v.optional(v.pipe(v.string(), v.minLength(1, `${what} must not be empty`), v.maxLength(63, `${what} must be at most 63 characters (PostgreSQL's identifier limit)`)), fallback);

export const vectorFunctionSchema = v.picklist(VECTOR_FUNCTIONS, (issue) => `vector_function must be one of ${JSON.stringify(VECTOR_FUNCTIONS)}, but got ${String(issue.input)}`);

export const StoreOptions = v.object({
  connection_string: secretParameter("PG_CONN_STR"),
  create_extension: v.optional(v.boolean(), true),
  schema_name: name("schema_name", "public"),
  table_name: name("table_name", "haystack_documents"),
  language: v.optional(v.pipe(v.string(), v.regex(/^[A-Za-z_][A-Za-z0-9_.]*$/, "language must be a text search configuration name (SELECT cfgname FROM pg_ts_config)")), "english"),
  embedding_dimension: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(16_000)), 768),
  vector_type: v.optional(v.picklist(["vector", "halfvec"], "vector_type must be one of ['vector', 'halfvec']"), "vector"),
  vector_function: v.optional(vectorFunctionSchema, "cosine_similarity"),
  recreate_table: v.optional(v.boolean(), false),
  search_strategy: v.optional(v.picklist(["exact_nearest_neighbor", "hnsw"], "search_strategy must be 'exact_nearest_neighbor' or 'hnsw'"), "exact_nearest_neighbor"),
  hnsw_recreate_index_if_exists: v.optional(v.boolean(), false),
  hnsw_index_creation_kwargs: v.optional(v.nullable(v.record(v.string(), v.pipe(v.number(), v.integer(), v.minValue(1)))), null),
  hnsw_index_name: name("hnsw_index_name", "haystack_hnsw_index"),
  hnsw_ef_search: v.optional(v.nullable(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(1000))), null),
  keyword_index_name: name("keyword_index_name", "haystack_keyword_index"),
});

export type StoreOptionsInput = v.InferInput<typeof StoreOptions>;
export type StoreOptionsValue = v.InferOutput<typeof StoreOptions>;
