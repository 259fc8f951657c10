/**
 * PgvectorDocumentStore on PGlite (a real Postgres with pgvector): Haystack's retrieval tests
 * (test_retrieval.py's values), the table layout shared with Haystack both ways, filters as SQL
 * parameters, batch writes, HNSW, and the bad inputs.
 */
import { suite } from "uvu";
import * as assert from "uvu/assert";
import pg from "pg";
import { ByteStream, Document, DuplicateDocumentError, Secret } from "svc/engine";
import { PgvectorDocumentStore, filtersToSql, WRITE_BATCH_SIZE } from "svc/pgvector";
import { startPglite, type TestPglite } from "../../helpers/pglite.js";
import { rejects } from "../../helpers/rejects.js";

const test = suite("PgvectorDocumentStore on PGlite");
let db: TestPglite;
let raw: pg.Pool;
let n = 0;
const stores: PgvectorDocumentStore[] = [];

function makeStore(extra: Record<string, unknown> = {}): PgvectorDocumentStore {
  // Index names are per schema in Postgres (as in Haystack): one keyword index name per table.
  const i = n++;
  const store = new PgvectorDocumentStore({ connection_string: Secret.fromToken(db.url), table_name: `t${i}`, keyword_index_name: `t${i}_keyword`, embedding_dimension: 768, ...extra } as never);
  stores.push(store);
  return store;
}

test.before(async () => {
  db = await startPglite();
  raw = new pg.Pool({ connectionString: db.url, max: 2 });
});
test.after(async () => {
  await Promise.all(stores.map((s) => s.close()));
  await raw?.end();
  await db?.stop();
});

const vec = (head: number[]) => [...head, ...new Array(768 - head.length).fill(0)];

// test_retrieval.py: the same three documents and query for each vector function.
for (const [fn, better] of [["cosine_similarity", ">"], ["inner_product", ">"], ["l2_distance", "<"]] as const) {
  test(`embedding retrieval, ${fn}: order and scores as Haystack computes them`, async () => {
    const store = makeStore({ vector_function: fn });
    const query = vec([0.1, 0.1, 0.1, 0.1]);
    const most = vec([0.8, 0.8, 0.8, 0.8]);
    const second = vec([0.8, 0.8, 0.8, 0.8 * 0.9 + 0.2 * 0.5]); // close to the query, less than `most`
    const other = vec([0.8, -0.8, 0.8, -0.8]);
    await store.write_documents([
      new Document({ content: "Most similar document", embedding: most }),
      new Document({ content: "2nd best document", embedding: second }),
      new Document({ content: "Not very similar document", embedding: other }),
    ]);
    const results = await store._embedding_retrieval(query, { top_k: 2, filters: {} });
    assert.is(results.length, 2);
    const dot = (a: number[], b: number[]) => a.reduce((s, x, i) => s + x * b[i]!, 0);
    const expected = (e: number[]) =>
      fn === "cosine_similarity" ? dot(e, query) / Math.sqrt(dot(e, e) * dot(query, query)) : fn === "inner_product" ? dot(e, query) : Math.sqrt(dot(e.map((x, i) => x - query[i]!), e.map((x, i) => x - query[i]!)));
    for (const doc of results) {
      const stored = doc.content === "Most similar document" ? most : doc.content === "2nd best document" ? second : other;
      assert.ok(Math.abs(doc.score! - expected(stored)) < 1e-5, `${fn} score ${doc.score} vs ${expected(stored)}`);
    }
    assert.ok(better === ">" ? results[0]!.score! >= results[1]!.score! : results[0]!.score! <= results[1]!.score!);
    assert.not.ok(results.some((d) => d.content === "Not very similar document"));
  });
}

test("embedding retrieval with filters; bad query embeddings are refused", async () => {
  const store = makeStore();
  const docs = Array.from({ length: 10 }, (_, i) => new Document({ content: `Document ${i}`, embedding: vec([Math.sin(i + 1), Math.cos(i + 1), 0.5]), meta: i < 5 ? { meta_field: "custom_value" } : {} }));
  await store.write_documents(docs);
  const results = await store._embedding_retrieval(vec([0.3, 0.2, 0.1]), { top_k: 3, filters: { field: "meta.meta_field", operator: "==", value: "custom_value" } });
  assert.is(results.length, 3);
  for (const r of results) assert.is(r.meta.meta_field, "custom_value");
  assert.ok(results[0]!.score! >= results[1]!.score! && results[1]!.score! >= results[2]!.score!);
  await rejects(() => store._embedding_retrieval([]), /query_embedding must be a non-empty list of floats/);
  await rejects(() => store._embedding_retrieval([0.1, 0.1]), /query_embedding dimension \(2\) does not match PgvectorDocumentStore embedding dimension \(768\)/);
});

test("keyword retrieval: ts_rank_cd order, filters, empty query refused (test_retrieval.py)", async () => {
  const store = makeStore();
  const e = vec([0.1]);
  const docs = [
    new Document({ content: "The quick brown fox chased the dog", embedding: e, meta: { meta_field: "right_value" } }),
    new Document({ content: "The fox was brown", embedding: e, meta: { meta_field: "right_value" } }),
    new Document({ content: "The lazy dog", embedding: e, meta: { meta_field: "right_value" } }),
    new Document({ content: "fox fox fox", embedding: e, meta: { meta_field: "wrong_value" } }),
  ];
  await store.write_documents(docs);
  const results = await store._keyword_retrieval("fox", { top_k: 2 });
  assert.is(results.length, 2);
  for (const doc of results) assert.ok(doc.content!.includes("fox"));
  assert.is(results[0]!.id, docs[3]!.id);
  assert.ok(results[0]!.score! > results[1]!.score!);
  const filtered = await store._keyword_retrieval("fox", { top_k: 3, filters: { field: "meta.meta_field", operator: "==", value: "right_value" } });
  assert.is(filtered.length, 2);
  for (const doc of filtered) assert.is(doc.meta.meta_field, "right_value");
  await rejects(() => store._keyword_retrieval(""), /query must be a non-empty string/);
});

test("a table Haystack wrote reads back, and what svc writes has Haystack's columns", async () => {
  const store = makeStore({ table_name: "haystack_written", keyword_index_name: "haystack_keyword_index" });
  await store.count_documents(); // creates the table as Haystack's CREATE_TABLE_STATEMENT does
  // A row as Haystack's converters write it (blob split in three columns, meta JSONB).
  await raw.query(
    "INSERT INTO public.haystack_written (id, embedding, content, blob_data, blob_meta, blob_mime_type, meta) VALUES ($1, $2::vector, $3, $4, $5::jsonb, $6, $7::jsonb)",
    ["hs-1", `[${vec([1, 2]).join(",")}]`, "from haystack", Buffer.from([1, 2, 3]), JSON.stringify({ source: "x" }), "application/octet-stream", JSON.stringify({ year: 2024, tags: ["a"] })],
  );
  const [doc] = await store.filter_documents({ field: "id", operator: "==", value: "hs-1" });
  assert.is(doc!.content, "from haystack");
  assert.equal(doc!.meta, { year: 2024, tags: ["a"] });
  assert.equal(doc!.embedding!.slice(0, 3), [1, 2, 0]);
  assert.equal([...doc!.blob!.data], [1, 2, 3]);
  assert.equal(doc!.blob!.meta, { source: "x" });
  assert.is(doc!.blob!.mimeType, "application/octet-stream");

  const mine = new Document({ content: "from svc\u0000!", blob: new ByteStream(Buffer.from("hi"), { k: 1 }, "text/plain"), meta: { n: 1.5 }, embedding: vec([0.5]) });
  await store.write_documents([mine]);
  const row = (await raw.query("SELECT id, embedding::text AS e, content, blob_data, blob_meta, blob_mime_type, meta, pg_typeof(embedding)::text AS t FROM public.haystack_written WHERE id = $1", [mine.id])).rows[0];
  assert.is(row.content, "from svc!"); // NUL removed, as Haystack does
  assert.is(row.t, "vector");
  assert.ok(row.e.startsWith("[0.5,0,"));
  assert.is(row.blob_data.toString(), "hi");
  assert.equal(row.blob_meta, { k: 1 });
  assert.is(row.blob_mime_type, "text/plain");
  assert.equal(row.meta, { n: 1.5 });
  const cols = (await raw.query("SELECT column_name, data_type FROM information_schema.columns WHERE table_name = 'haystack_written' ORDER BY ordinal_position")).rows.map((r) => r.column_name);
  assert.equal(cols, ["id", "embedding", "content", "blob_data", "blob_meta", "blob_mime_type", "meta"]);
  const indexes = (await raw.query("SELECT indexname FROM pg_indexes WHERE tablename = 'haystack_written'")).rows.map((r) => r.indexname).sort();
  assert.equal(indexes, ["haystack_keyword_index", "haystack_written_pkey"]);
});

test("filters become parameters: values (and meta keys) never enter the SQL text", () => {
  const evil = "x'; DROP TABLE t; --";
  const { sql, params } = filtersToSql({ operator: "AND", conditions: [{ field: `meta.${evil}`, operator: "==", value: evil }, { field: "meta.n", operator: ">", value: 3 }, { field: "meta.tags", operator: "array_overlaps", value: ["a", "b"] }] });
  assert.not.ok(sql.includes("DROP"));
  assert.equal(params, [evil, evil, "n", 3, "tags", ["a", "b"]]);
  assert.is(sql, "(meta->>$1::text = $2 AND (meta->>$3::text)::numeric > $4 AND (jsonb_typeof(meta->$5::text) = 'array' AND meta->$5::text ?| $6::text[]))");
  assert.throws(() => filtersToSql({ field: "meta.a", operator: "in", value: "x" }), /value must be a list when using 'in' comparator/);
  assert.throws(() => filtersToSql({ field: "meta.a", operator: ">", value: "abc" }), /Strings are only comparable if they are ISO formatted dates/);
  assert.throws(() => filtersToSql({ field: "content", operator: "array_contains", value: ["a"] }), /only supported on meta fields/);
  assert.throws(() => filtersToSql({ field: "meta.a", operator: "array_contains", value: [] }), /non-empty list/);
  assert.throws(() => filtersToSql({ field: "meta.a", operator: "array_overlaps", value: [1] }), /list of strings/);
  assert.throws(() => filtersToSql({ operator: "XOR", conditions: [] }), /Unknown logical operator 'XOR'/);
  assert.throws(() => filtersToSql({ field: "meta.a", operator: "~", value: 1 }), /Unknown comparison operator '~'/);
  assert.throws(() => filtersToSql({ field: "embedding", operator: "==", value: 1 }), /Unknown field 'embedding'/);
});

test("a filter SQL injection attempt is data: the table survives and nothing matches", async () => {
  const store = makeStore();
  await store.write_documents([new Document({ content: "a", meta: { name: "ok" } })]);
  const found = await store.filter_documents({ field: "meta.name'; DROP TABLE t0; --", operator: "==", value: "x' OR '1'='1" });
  assert.equal(found, []);
  assert.is(await store.count_documents(), 1);
});

test("large writes: batches of WRITE_BATCH_SIZE in one transaction; a duplicate rolls all back", async () => {
  const store = makeStore({ embedding_dimension: 4 });
  const docs = Array.from({ length: WRITE_BATCH_SIZE * 2 + 5 }, (_, i) => new Document({ id: `d${i}`, content: `doc ${i}`, embedding: [i, 1, 0, 0] }));
  assert.is(await store.write_documents(docs), docs.length);
  assert.is(await store.count_documents(), docs.length);
  const again = [...Array.from({ length: WRITE_BATCH_SIZE + 1 }, (_, i) => new Document({ id: `new${i}`, content: "n" })), new Document({ id: "d7", content: "dup" })];
  assert.instance(await rejects(() => store.write_documents(again), /ID 'd7' already exists/), DuplicateDocumentError);
  assert.is(await store.count_documents(), docs.length); // nothing half-written
  assert.is(await store.write_documents([new Document({ id: "d1", content: "first" }), new Document({ id: "d1", content: "second" })], "OVERWRITE"), 1);
  assert.is((await store.filter_documents({ field: "id", operator: "==", value: "d1" }))[0]!.content, "second");
  assert.is(await store.write_documents([new Document({ id: "d1", content: "skipped" }), new Document({ id: "fresh", content: "f" })], "SKIP"), 1);
});

test("hnsw: the index for the vector function, with its options; queries still rank correctly", async () => {
  const store = makeStore({ embedding_dimension: 3, search_strategy: "hnsw", vector_function: "l2_distance", hnsw_index_creation_kwargs: { m: 8, ef_construction: 32 }, hnsw_ef_search: 50, hnsw_index_name: "my_hnsw" });
  await store.write_documents([new Document({ content: "near", embedding: [1, 0, 0] }), new Document({ content: "far", embedding: [0, 0, 9] })]);
  const def = (await raw.query("SELECT indexdef FROM pg_indexes WHERE indexname = 'my_hnsw'")).rows[0]?.indexdef as string;
  assert.match(def, /USING hnsw \(embedding vector_l2_ops\) WITH \(m='?8'?, ef_construction='?32'?\)/);
  const [first] = await store._embedding_retrieval([1, 0, 0.1], { top_k: 1 });
  assert.is(first!.content, "near");
});

test("halfvec tables and toDict round-trip (the connection string stays a reference)", async () => {
  const store = makeStore({ embedding_dimension: 3, vector_type: "halfvec" });
  await store.write_documents([new Document({ content: "h", embedding: [0.5, 0.25, 1] })]);
  const [doc] = await store.filter_documents();
  assert.equal(doc!.embedding, [0.5, 0.25, 1]);
  const envStore = new PgvectorDocumentStore({ table_name: "x" });
  const dict = envStore.toDict();
  assert.equal(dict.init_parameters.connection_string, { type: "env_var", env_vars: ["PG_CONN_STR"], strict: true });
  assert.is(dict.type, "haystack_integrations.document_stores.pgvector.document_store.PgvectorDocumentStore");
  assert.is(PgvectorDocumentStore.fromDict(dict.init_parameters).options.table_name, "x");
});

test("bad init parameters are refused with Haystack's messages", () => {
  assert.throws(() => new PgvectorDocumentStore({ vector_function: "dot" as never }), /vector_function must be one of \["cosine_similarity","inner_product","l2_distance"\], but got dot/);
  assert.throws(() => new PgvectorDocumentStore({ vector_type: "bits" as never }), /vector_type must be one of \['vector', 'halfvec'\]/);
  assert.throws(() => new PgvectorDocumentStore({ search_strategy: "ivf" as never }), /search_strategy/);
  assert.throws(() => new PgvectorDocumentStore({ embedding_dimension: 0 }), /embedding_dimension/);
});

test.run();
