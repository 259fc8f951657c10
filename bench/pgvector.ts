/**
 * @module Document-store benchmarks (issue 25 point 6): 50,000 documents with 384-dimension
 * embeddings written through svc (`POST /{name}/run` to a DocumentWriter, 1,000 documents a
 * request) into PgvectorDocumentStore on PGlite, then keyword and embedding queries (p50, p99)
 * through svc — side by side with the same SQL sent straight with `pg` (svc's overhead is the
 * difference; PGlite is single-threaded WASM, so the database's own time dominates) and with the
 * in-memory store through svc. It also counts the statements a write sends: one INSERT per batch
 * of WRITE_BATCH_SIZE documents, never one per document. `BENCH_PGVECTOR_DOCS` changes the corpus
 * size; `node dist/bench/pgvector.js` runs this bench alone.
 */
import { fileURLToPath } from "node:url";
import pg from "pg";
import enginePlugin from "svc/engine";
import pgvectorPlugin, { PgvectorDocumentStore, WRITE_BATCH_SIZE } from "svc/pgvector";
import { Secret } from "svc/engine";
import { embeddingQuery, keywordQuery } from "../plugins/pgvector/retrieval-sql.js";
import { startPglite } from "../test/helpers/pglite.js";
import { startPipelineKernel } from "../test/helpers/pipelines.js";

const DOCS = Number(process.env.BENCH_PGVECTOR_DOCS ?? 50_000);
const DIM = 384;
const PER_REQUEST = 1000;
const QUERIES = Number(process.env.BENCH_PGVECTOR_QUERIES ?? 100);
const WORDS = ["pipeline", "agent", "retrieval", "haystack", "component", "stream", "token", "model", "query", "answer", "vector", "index", "postgres", "cluster", "embedding", "document"];

/** A deterministic pseudo-random generator, so every run writes the same corpus. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

function corpus(n: number): Array<{ id: string; content: string; meta: Record<string, unknown>; embedding: number[] }> {
  const next = random(25);
  return Array.from({ length: n }, (_, i) => ({
    id: `doc-${i}`,
    content: Array.from({ length: 30 }, () => WORDS[Math.floor(next() * WORDS.length)]).join(" ") + ` number${i}`,
    meta: { i, group: i % 10 },
    embedding: Array.from({ length: DIM }, () => Math.round((next() * 2 - 1) * 1e4) / 1e4),
  }));
}

const storeYaml = (kind: "pg" | "memory") =>
  kind === "pg"
    ? `
      document_store:
        type: haystack_integrations.document_stores.pgvector.document_store.PgvectorDocumentStore
        init_parameters:
          connection_string: {type: env_var, env_vars: [SVC_BENCH_PG_URL], strict: true}
          table_name: bench_docs
          keyword_index_name: bench_docs_keyword
          embedding_dimension: ${DIM}
          vector_function: cosine_similarity`
    : `
      document_store:
        type: haystack.document_stores.in_memory.document_store.InMemoryDocumentStore
        init_parameters: {index: svc-bench-documents, embedding_similarity_function: cosine}`;

const writerYaml = (kind: "pg" | "memory") => `
components:
  writer:
    type: haystack.components.writers.document_writer.DocumentWriter
    init_parameters:
      policy: OVERWRITE${storeYaml(kind)}
inputs:
  documents: writer.documents
outputs:
  documents_written: writer.documents_written
`;

const retrieverYaml = (kind: "pg" | "memory", by: "embedding" | "keyword") => {
  const type =
    kind === "pg"
      ? by === "embedding"
        ? "haystack_integrations.components.retrievers.pgvector.embedding_retriever.PgvectorEmbeddingRetriever"
        : "haystack_integrations.components.retrievers.pgvector.keyword_retriever.PgvectorKeywordRetriever"
      : by === "embedding"
        ? "haystack.components.retrievers.in_memory.embedding_retriever.InMemoryEmbeddingRetriever"
        : "haystack.components.retrievers.in_memory.bm25_retriever.InMemoryBM25Retriever";
  return `
components:
  retriever:
    type: ${type}
    init_parameters:
      top_k: 10${storeYaml(kind)}
inputs:
  ${by === "embedding" ? "query_embedding" : "query"}: retriever.${by === "embedding" ? "query_embedding" : "query"}
outputs:
  documents: retriever.documents
`;
};

function percentiles(times: number[]): { p50: number; p99: number } {
  const sorted = [...times].sort((a, b) => a - b);
  return { p50: sorted[Math.floor(sorted.length * 0.5)]!, p99: sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))]! };
}

async function timed(n: number, fn: (i: number) => Promise<unknown>): Promise<{ p50: number; p99: number }> {
  for (let i = 0; i < Math.min(5, n); i++) await fn(i); // warm-up
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const started = performance.now();
    await fn(i);
    times.push(performance.now() - started);
  }
  return percentiles(times);
}

/** Counts the statements every `pg` client in this process sends (the store's included). */
function countStatements(): { count(): number } {
  const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = proto.query;
  let n = 0;
  proto.query = function (this: unknown, ...args: unknown[]) {
    n++;
    return original.apply(this, args);
  };
  return { count: () => n };
}

export async function pgvectorBench(): Promise<string[]> {
  const lines: string[] = [`\ndocument stores: ${DOCS.toLocaleString("en")} documents, ${DIM}-dim embeddings, top_k 10, ${QUERIES} queries each (PGlite ${"in its own process"})`];
  const db = await startPglite();
  process.env.SVC_BENCH_PG_URL = db.url;
  const k = await startPipelineKernel({ plugins: [enginePlugin(), pgvectorPlugin()], settings: { maxBodyBytes: 256 * 1024 * 1024 } as never });
  const raw = new pg.Pool({ connectionString: db.url, max: 1 });
  const statements = countStatements();
  try {
    for (const kind of ["pg", "memory"] as const) {
      for (const [name, source] of [[`${kind}_write`, writerYaml(kind)], [`${kind}_embedding`, retrieverYaml(kind, "embedding")], [`${kind}_keyword`, retrieverYaml(kind, "keyword")]]) {
        const res = await fetch(`${k.url}/deploy-yaml`, { method: "POST", body: JSON.stringify({ name, source_code: source, save_file: false, overwrite: true }) });
        if (res.status !== 200) throw new Error(`deploy ${name}: ${res.status} ${await res.text()}`);
      }
    }
    const docs = corpus(DOCS);
    const bodies: string[] = [];
    for (let i = 0; i < docs.length; i += PER_REQUEST) bodies.push(JSON.stringify({ documents: docs.slice(i, i + PER_REQUEST) }));
    const rows: string[][] = [];

    // Writes: through svc into each store; straight with pg, the same INSERT the store sends.
    const writeThroughSvc = async (kind: "pg" | "memory") => {
      const before = statements.count();
      const started = performance.now();
      for (const body of bodies) {
        const res = await fetch(`${k.url}/${kind}_write/run`, { method: "POST", headers: { "content-type": "application/json" }, body });
        if (res.status !== 200) throw new Error(`${kind}_write: ${res.status} ${(await res.text()).slice(0, 300)}`);
        await res.arrayBuffer();
      }
      return { seconds: (performance.now() - started) / 1000, statements: statements.count() - before };
    };
    const pgWrite = await writeThroughSvc("pg");
    // One INSERT per batch: at most ceil(1000 / WRITE_BATCH_SIZE) per request, plus the schema set-up once.
    const maxStatements = bodies.length * Math.ceil(PER_REQUEST / WRITE_BATCH_SIZE) + 20;
    if (pgWrite.statements > maxStatements) throw new Error(`PgvectorDocumentStore sent ${pgWrite.statements} statements for ${DOCS} documents: not one per batch`);
    const direct = new PgvectorDocumentStore({ connection_string: Secret.fromToken(db.url), table_name: "bench_direct", keyword_index_name: "bench_direct_keyword", embedding_dimension: DIM } as never);
    await direct.count_documents(); // creates the table
    const insert =
      `INSERT INTO "public"."bench_direct" (id, embedding, content, meta) SELECT d.id, d.embedding::vector, d.content, d.meta::jsonb ` +
      `FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) AS d(id, embedding, content, meta)`;
    let started = performance.now();
    for (let i = 0; i < docs.length; i += PER_REQUEST) {
      const batch = docs.slice(i, i + PER_REQUEST);
      await raw.query(insert, [batch.map((d) => d.id), batch.map((d) => `[${d.embedding.join(",")}]`), batch.map((d) => d.content), batch.map((d) => JSON.stringify(d.meta))]);
    }
    const directWrite = (performance.now() - started) / 1000;
    const memoryWrite = await writeThroughSvc("memory");
    const rate = (seconds: number) => `${Math.round(DOCS / seconds).toLocaleString("en")} docs/s (${seconds.toFixed(1)} s)`;
    rows.push(["write", "svc → pgvector (PGlite)", rate(pgWrite.seconds), `${pgWrite.statements} statements for ${bodies.length} requests`]);
    rows.push(["write", "pg straight (same INSERT)", rate(directWrite), `${bodies.length} statements`]);
    rows.push(["write", "svc → in-memory", rate(memoryWrite.seconds), ""]);

    // Queries: each a fresh query embedding / keyword pair, the same for every target.
    const next = random(7);
    const queryEmbeddings = Array.from({ length: QUERIES + 5 }, () => Array.from({ length: DIM }, () => next() * 2 - 1));
    const keywords = Array.from({ length: QUERIES + 5 }, (_, i) => `${WORDS[i % WORDS.length]} ${WORDS[(i * 7 + 3) % WORDS.length]}`);
    const run = async (name: string, body: unknown) => {
      const res = await fetch(`${k.url}/${name}/run`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
      const json = (await res.json()) as { result?: { retriever?: { documents?: unknown[] } } };
      if (res.status !== 200 || json.result?.retriever?.documents?.length !== 10) throw new Error(`${name}: ${res.status} ${JSON.stringify(json).slice(0, 300)}`);
    };
    const sqlStore = new PgvectorDocumentStore({ connection_string: Secret.fromToken(db.url), table_name: "bench_docs", keyword_index_name: "bench_docs_keyword", embedding_dimension: DIM } as never);
    const straight = async (q: { sql: string; params: unknown[] }) => {
      const result = await raw.query(q.sql, q.params);
      if (result.rows.length !== 10) throw new Error(`straight query: ${result.rows.length} rows`);
    };
    const fmt = (p: { p50: number; p99: number }) => [`p50 ${p.p50.toFixed(1)} ms`, `p99 ${p.p99.toFixed(1)} ms`];
    rows.push(["embedding query", "svc → pgvector (PGlite)", ...fmt(await timed(QUERIES, (i) => run("pg_embedding", { query_embedding: queryEmbeddings[i] })))]);
    rows.push(["embedding query", "pg straight (same SQL)", ...fmt(await timed(QUERIES, (i) => straight(embeddingQuery(sqlStore, queryEmbeddings[i]!, { top_k: 10, vector_function: "cosine_similarity" }))))]);
    rows.push(["embedding query", "svc → in-memory", ...fmt(await timed(QUERIES, (i) => run("memory_embedding", { query_embedding: queryEmbeddings[i] })))]);
    rows.push(["keyword query", "svc → pgvector (PGlite)", ...fmt(await timed(QUERIES, (i) => run("pg_keyword", { query: keywords[i] })))]);
    rows.push(["keyword query", "pg straight (same SQL)", ...fmt(await timed(QUERIES, (i) => straight(keywordQuery(sqlStore, keywords[i]!, { top_k: 10 }))))]);
    rows.push(["keyword query", "svc → in-memory (BM25)", ...fmt(await timed(QUERIES, (i) => run("memory_keyword", { query: keywords[i] })))]);
    await Promise.all([direct.close(), sqlStore.close()]);

    const widths = [0, 1, 2, 3].map((c) => Math.max(...rows.map((r) => (r[c] ?? "").length)));
    for (const row of rows) lines.push(row.map((cell, c) => cell.padEnd(widths[c]!)).join("  ").trimEnd());
  } finally {
    await raw.end();
    await k.close();
    await db.stop();
    delete process.env.SVC_BENCH_PG_URL;
  }
  return lines;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const line of await pgvectorBench()) console.log(line);
}
