/**
 * @module PgvectorDocumentStore: Haystack's document store on PostgreSQL + pgvector
 * (haystack_integrations.document_stores.pgvector), same init parameters, same table, same SQL
 * and scores. Each store owns a `pg` pool, created and connected on first use (a pipeline deploys
 * without its database); the schema is set up once per pool. Every method is async; an
 * unreachable database is a DocumentStoreUnavailableError (503) naming the store.
 */
import type { Pool, PoolClient, QueryResult, QueryResultRow } from "pg";
import * as v from "valibot";
import { addAsyncForms, DocumentStoreError, DuplicateDocumentError, DuplicatePolicy, Document, type AsyncForms, type ExtendedDocumentStore, type Filters } from "svc/engine";
import { DocumentStoreUnavailableError, isMissingVector, isUnavailable, missingVector, poolConfig, serverName, unavailable, type PoolLimits } from "./connection.js";
import { fromRow, SELECT_COLUMNS, toColumns, type DocumentRow } from "./rows.js";
import { efSearchSql, ensureSchema, qualifiedTable } from "./schema.js";
import { filtersToSql, hasFilters, validateFilters } from "./sql-filters.js";
import { StoreOptions, type StoreOptionsInput, type StoreOptionsValue, type VectorFunction } from "./store-options.js";
import { embeddingQuery, keywordQuery } from "./retrieval-sql.js";
import { MetadataQueries } from "./metadata-queries.js";

export const DEFAULT_POOL_LIMITS: PoolLimits = { max: 10, connectionTimeoutMillis: 10_000 };
/** Rows per INSERT statement: one round trip each; a write of more is one transaction. */
export const WRITE_BATCH_SIZE = 1000;
const POLICIES = new Set<string>(Object.values(DuplicatePolicy));

export class PgvectorDocumentStore {
  static readonly type = "haystack_integrations.document_stores.pgvector.document_store.PgvectorDocumentStore";
  static readonly aliases = ["PgvectorDocumentStore"];

  readonly options: StoreOptionsValue;
  private pool: Promise<Pool> | null = null;
  private setup: Promise<void> | null = null;
  /** host:port/database once the connection string is known (for messages). */
  private server: string | null = null;
  private readonly metadata = new MetadataQueries(this);

  constructor(init: StoreOptionsInput = {}, private readonly limits: PoolLimits = DEFAULT_POOL_LIMITS) {
    const parsed = v.safeParse(StoreOptions, init);
    if (!parsed.success) throw new Error(parsed.issues.map((i) => (i.path?.length ? `${i.path.map((p) => p.key).join(".")}: ${i.message}` : i.message)).join("; "));
    this.options = parsed.output;
  }

  static fromDict(initParameters: Record<string, unknown> = {}, limits?: PoolLimits): PgvectorDocumentStore {
    return new PgvectorDocumentStore(initParameters as StoreOptionsInput, limits);
  }

  toDict(): { type: string; init_parameters: Record<string, unknown> } {
    const { connection_string, ...rest } = this.options;
    return { type: PgvectorDocumentStore.type, init_parameters: { connection_string: connection_string.toDict(), ...rest } };
  }

  get table(): string {
    return qualifiedTable(this.options);
  }

  /** How messages name this store: type and table, never the connection string. */
  get label(): string {
    return `PgvectorDocumentStore (table ${this.options.schema_name}.${this.options.table_name}${this.server ? ` on ${this.server}` : ""})`;
  }

  // ---- connection ----

  /** The pool, made on first use; `pg` itself is imported then (it adds ~0.1 s to a start that never uses it). */
  private connect(): Promise<Pool> {
    this.pool ??= this.openPool().catch((error) => {
      this.pool = null;
      throw error;
    });
    return this.pool;
  }

  private async openPool(): Promise<Pool> {
    let connectionString: string | undefined;
    try {
      connectionString = this.options.connection_string.resolveValue();
    } catch (error) {
      throw new DocumentStoreUnavailableError(`${this.label} has no connection string: ${(error as Error).message}. Set it to a postgresql:// URI of a database with pgvector.`, error);
    }
    if (!connectionString) throw new DocumentStoreUnavailableError(`${this.label} has no connection string. Set PG_CONN_STR (or the store's connection_string) to a postgresql:// URI.`);
    const config = poolConfig(connectionString, this.limits);
    const { default: pg } = await import("pg");
    const pool = new pg.Pool(config);
    // An idle connection that breaks (server restart) is dropped by the pool; without a listener
    // its error event would end the process.
    pool.on("error", () => undefined);
    const ef = efSearchSql(this.options);
    if (ef) pool.on("connect", (client) => void client.query(ef).catch(() => undefined));
    this.server = serverName(config);
    return pool;
  }

  /** The schema is set up on first use; a failure is retried on the next call (the database may be back). */
  private ready(): Promise<void> {
    this.setup ??= this.withClient((client) => ensureSchema(client, this.options), "Could not set up the table").catch((error) => {
      this.setup = null;
      throw error;
    });
    return this.setup;
  }

  private async withClient<T>(work: (client: PoolClient) => Promise<T>, what: string): Promise<T> {
    let client: PoolClient;
    try {
      client = await (await this.connect()).connect();
    } catch (error) {
      throw this.failure(error, what);
    }
    try {
      return await work(client);
    } catch (error) {
      throw this.failure(error, what);
    } finally {
      client.release();
    }
  }

  /** One statement after setup. */
  async query<R extends QueryResultRow = any>(sql: string, params: unknown[], what: string): Promise<QueryResult<R>> {
    await this.ready();
    try {
      return await (await this.connect()).query<R>(sql, params);
    } catch (error) {
      throw this.failure(error, what);
    }
  }

  private failure(error: unknown, what: string): Error {
    if (error instanceof DocumentStoreError || error instanceof DocumentStoreUnavailableError) return error;
    if (isMissingVector(error)) return missingVector(this.label, error);
    if (isUnavailable(error)) return unavailable(this.label, error);
    return new DocumentStoreError(`${what} in ${this.label}. Error: ${(error as Error)?.message ?? String(error)}`, { cause: error } as never);
  }

  /** Ends the pool (undeploy, shutdown); a later call opens a new one. */
  async close(): Promise<void> {
    const pool = this.pool;
    this.pool = null;
    this.setup = null;
    await (await pool?.catch(() => undefined))?.end().catch(() => undefined);
  }

  // ---- Haystack's store protocol ----

  async count_documents(): Promise<number> {
    const result = await this.query<{ n: string }>(`SELECT COUNT(*) AS n FROM ${this.table}`, [], "Could not count documents");
    return Number(result.rows[0]?.n ?? 0);
  }

  async filter_documents(filters?: Filters | null): Promise<Document[]> {
    const { where, params } = this.where(filters);
    const result = await this.query<DocumentRow>(`SELECT ${SELECT_COLUMNS} FROM ${this.table}${where}`, params, "Could not filter documents");
    return result.rows.map((row) => fromRow(row));
  }

  /** Writes in batches of WRITE_BATCH_SIZE rows, one statement each, all in one transaction. NONE means FAIL. */
  async write_documents(documents: Document[], policy: DuplicatePolicy | string = DuplicatePolicy.NONE): Promise<number> {
    if (!Array.isArray(documents) || documents.some((d) => !(d instanceof Document))) throw new Error("param 'documents' must contain a list of objects of type Document");
    let mode = String(policy).toLowerCase();
    if (!POLICIES.has(mode)) throw new Error(`Unknown DuplicatePolicy '${String(policy)}'. Use one of NONE, SKIP, OVERWRITE, FAIL.`);
    if (mode === DuplicatePolicy.NONE) mode = DuplicatePolicy.FAIL;
    if (documents.length === 0) return 0;
    const unique = dedupe(documents, mode as DuplicatePolicy);
    const conflict = mode === DuplicatePolicy.OVERWRITE ? OVERWRITE : mode === DuplicatePolicy.SKIP ? " ON CONFLICT DO NOTHING" : "";
    const cast = this.options.vector_type;
    const sql =
      `INSERT INTO ${this.table} (id, embedding, content, blob_data, blob_meta, blob_mime_type, meta) ` +
      `SELECT d.id, d.embedding::${cast}, d.content, d.blob_data, d.blob_meta::jsonb, d.blob_mime_type, d.meta::jsonb ` +
      `FROM unnest($1::text[], $2::text[], $3::text[], $4::bytea[], $5::text[], $6::text[], $7::text[]) AS d(id, embedding, content, blob_data, blob_meta, blob_mime_type, meta)` +
      `${conflict} RETURNING id`;
    await this.ready();
    const batches: Document[][] = [];
    for (let i = 0; i < unique.length; i += WRITE_BATCH_SIZE) batches.push(unique.slice(i, i + WRITE_BATCH_SIZE));
    return this.withClient(async (client) => {
      const transaction = batches.length > 1;
      if (transaction) await client.query("BEGIN");
      try {
        let written = 0;
        for (const batch of batches) written += (await client.query(sql, toColumns(batch))).rowCount ?? 0;
        if (transaction) await client.query("COMMIT");
        return written;
      } catch (error) {
        if (transaction) await client.query("ROLLBACK").catch(() => undefined);
        const e = error as { code?: string; detail?: string };
        if (e.code === "23505") throw new DuplicateDocumentError(`ID '${/\(id\)=\((.*)\)/.exec(e.detail ?? "")?.[1] ?? "?"}' already exists.`);
        throw error;
      }
    }, "Could not write documents");
  }

  async delete_documents(document_ids: string[]): Promise<void> {
    if (!document_ids?.length) return;
    await this.query(`DELETE FROM ${this.table} WHERE id = ANY($1::text[])`, [document_ids], "Could not delete documents");
  }

  async delete_all_documents(): Promise<void> {
    await this.query(`TRUNCATE TABLE ${this.table}`, [], "Could not delete all documents");
  }

  async delete_by_filter(filters: Filters): Promise<number> {
    const { where, params } = this.where(filters);
    return (await this.query(`DELETE FROM ${this.table}${where}`, params, "Could not delete documents by filter")).rowCount ?? 0;
  }

  async update_by_filter(filters: Filters, meta: Record<string, unknown>): Promise<number> {
    if (!meta || typeof meta !== "object" || Object.keys(meta).length === 0) throw new Error("meta must be a non-empty dictionary");
    const { where, params } = this.where(filters, 2);
    const sql = `UPDATE ${this.table} SET meta = COALESCE(meta, '{}'::jsonb) || $1::jsonb${where}`;
    return (await this.query(sql, [JSON.stringify(meta), ...params], "Could not update documents by filter")).rowCount ?? 0;
  }

  async count_documents_by_filter(filters: Filters): Promise<number> {
    const { where, params } = this.where(filters);
    const result = await this.query<{ n: string }>(`SELECT COUNT(*) AS n FROM ${this.table}${where}`, params, "Could not count documents by filter");
    return Number(result.rows[0]?.n ?? 0);
  }

  count_unique_metadata_by_filter(filters: Filters, metadata_fields: string[]): Promise<Record<string, number>> {
    return this.metadata.countUnique(filters, metadata_fields);
  }

  get_metadata_fields_info(): Promise<Record<string, { type: string }>> {
    return this.metadata.fieldsInfo();
  }

  get_metadata_field_min_max(metadata_field: string): Promise<{ min: unknown; max: unknown }> {
    return this.metadata.minMax(metadata_field);
  }

  get_metadata_field_unique_values(metadata_field: string, search_term?: string | null, from_ = 0, size = 10, filters?: Filters | null): Promise<[unknown[], number]> {
    return this.metadata.uniqueValues(metadata_field, search_term ?? null, from_, size, filters ?? null);
  }

  /** ` WHERE …` and its parameters (numbered from `first`), or nothing for no filters. */
  where(filters: Filters | null | undefined, first = 1): { where: string; params: unknown[] } {
    validateFilters(filters);
    if (!hasFilters(filters)) return { where: "", params: [] };
    const { sql, params } = filtersToSql(filters, first);
    return { where: ` WHERE ${sql}`, params };
  }

  // ---- retrieval (the retrievers' entry points, as in Haystack) ----

  async _embedding_retrieval(query_embedding: number[], options: { filters?: Filters | null; top_k?: number; vector_function?: VectorFunction | null } = {}): Promise<Document[]> {
    const { sql, params } = embeddingQuery(this, query_embedding, options);
    const result = await this.query<DocumentRow>(sql, params, "Could not retrieve documents");
    return result.rows.map((row) => fromRow(row));
  }

  async _keyword_retrieval(query: string, options: { filters?: Filters | null; top_k?: number } = {}): Promise<Document[]> {
    const { sql, params } = keywordQuery(this, query, options);
    const result = await this.query<DocumentRow>(sql, params, "Could not retrieve documents");
    return result.rows.map((row) => fromRow(row));
  }
}

// Haystack's `*_async` names for every protocol method (the plain ones are already async).
addAsyncForms(PgvectorDocumentStore);
export interface PgvectorDocumentStore extends AsyncForms<ExtendedDocumentStore> {}

const OVERWRITE =
  " ON CONFLICT (id) DO UPDATE SET embedding = EXCLUDED.embedding, content = EXCLUDED.content, blob_data = EXCLUDED.blob_data, " +
  "blob_meta = EXCLUDED.blob_meta, blob_mime_type = EXCLUDED.blob_mime_type, meta = EXCLUDED.meta";

/**
 * One row per id inside a write (one statement cannot touch a row twice): OVERWRITE keeps the last
 * version, as Haystack's row-by-row writes end with; SKIP the first; FAIL keeps both so the
 * database reports the duplicate.
 */
function dedupe(documents: Document[], policy: DuplicatePolicy): Document[] {
  if (policy === DuplicatePolicy.FAIL) return documents;
  const byId = new Map<string, Document>();
  for (const doc of documents) if (policy === DuplicatePolicy.OVERWRITE || !byId.has(doc.id)) byId.set(doc.id, doc);
  return byId.size === documents.length ? documents : [...byId.values()];
}
