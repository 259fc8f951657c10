/**
 * @module The DDL of a PgvectorDocumentStore, Haystack's exactly (document_store.py): the table,
 * the GIN keyword index on to_tsvector(language, content), the HNSW index for the vector
 * function, `hnsw.ef_search`. Names come from init parameters, never from requests, and are
 * quoted as PostgreSQL quotes them (doubled quotes inside).
 */

/** A quoted identifier, `"name"`. */
const id = (name: string) => `"${name.replace(/"/g, '""')}"`;
/** A quoted literal; standard_conforming_strings (on since 9.1) keeps backslashes literal. */
const lit = (text: string) => `'${text.replace(/'/g, "''")}'`;
import type { PoolClient } from "pg";
import type { StoreOptionsValue } from "./store-options.js";

const OPS: Record<string, Record<string, string>> = {
  vector: { cosine_similarity: "vector_cosine_ops", inner_product: "vector_ip_ops", l2_distance: "vector_l2_ops" },
  halfvec: { cosine_similarity: "halfvec_cosine_ops", inner_product: "halfvec_ip_ops", l2_distance: "halfvec_l2_ops" },
};
const HNSW_KWARGS = new Set(["m", "ef_construction"]);

/** `"schema"."table"` */
export function qualifiedTable(o: StoreOptionsValue): string {
  return `${id(o.schema_name)}.${id(o.table_name)}`;
}

/** `'english'::regconfig`, the language as the keyword index spells it. */
export function languageSql(o: StoreOptionsValue): string {
  return `${lit(o.language)}::regconfig`;
}

/**
 * Creates what is missing (table, keyword index, HNSW index) on one connection; idempotent. In one
 * transaction under an advisory lock on the table's name, so instances starting together do not
 * race on CREATE TABLE IF NOT EXISTS (which is not safe concurrently).
 */
export async function ensureSchema(client: PoolClient, o: StoreOptionsValue): Promise<void> {
  await client.query("BEGIN");
  try {
    await client.query("SELECT pg_advisory_xact_lock(hashtext($1))", [`svc:pgvector:${o.schema_name}.${o.table_name}`]);
    await createMissing(client, o);
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  }
}

async function createMissing(client: PoolClient, o: StoreOptionsValue): Promise<void> {
  if (o.create_extension) await client.query("CREATE EXTENSION IF NOT EXISTS vector");
  const table = qualifiedTable(o);
  if (o.recreate_table) await client.query(`DROP TABLE IF EXISTS ${table}`);
  await client.query(
    `CREATE TABLE IF NOT EXISTS ${table} (id VARCHAR(128) PRIMARY KEY, embedding ${o.vector_type}(${o.embedding_dimension}), content TEXT, blob_data BYTEA, blob_meta JSONB, blob_mime_type VARCHAR(255), meta JSONB)`,
  );
  const indexExists = async (name: string) =>
    (await client.query("SELECT 1 FROM pg_indexes WHERE schemaname = $1 AND tablename = $2 AND indexname = $3", [o.schema_name, o.table_name, name])).rowCount! > 0;
  if (!(await indexExists(o.keyword_index_name))) {
    await client.query(`CREATE INDEX ${id(o.keyword_index_name)} ON ${table} USING GIN (to_tsvector(${lit(o.language)}, content))`);
  }
  if (o.search_strategy === "hnsw") {
    const exists = await indexExists(o.hnsw_index_name);
    if (exists && !o.hnsw_recreate_index_if_exists) return;
    await client.query(`DROP INDEX IF EXISTS ${id(o.schema_name)}.${id(o.hnsw_index_name)}`);
    const kwargs = Object.entries(o.hnsw_index_creation_kwargs ?? {}).filter(([k]) => HNSW_KWARGS.has(k));
    const withClause = kwargs.length > 0 ? ` WITH (${kwargs.map(([k, n]) => `${k} = ${Math.trunc(n)}`).join(", ")})` : "";
    await client.query(`CREATE INDEX ${id(o.hnsw_index_name)} ON ${table} USING hnsw (embedding ${OPS[o.vector_type]![o.vector_function]})${withClause}`);
  }
}

/** Per-connection setting for HNSW queries (Haystack sets it on its one connection). */
export function efSearchSql(o: StoreOptionsValue): string | null {
  return o.search_strategy === "hnsw" && o.hnsw_ef_search ? `SET hnsw.ef_search = ${Math.trunc(o.hnsw_ef_search)}` : null;
}
