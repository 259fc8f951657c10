/**
 * svc:pgvector when its database is busy or goes away mid-run, on PGlite with pgvector (a data
 * directory, so a restart keeps the documents): the store's own pool exhausted answers 503 naming
 * the store while the run holding the connection still completes; a server restarted while a run
 * waits on it answers that run 503, and the next run works again with the data intact.
 */
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { join } from "node:path";
import pg from "pg";
import enginePlugin from "svc/engine";
import pgvectorPlugin from "svc/pgvector";
import { startPipelineKernel, tempDir, type PipelineKernel } from "../../helpers/pipelines.js";
import { startPglite, type TestPglite } from "../../helpers/pglite.js";

const test = suite("svc:pgvector: pool exhausted, server restarted");
let db: TestPglite;
let k: PipelineKernel;
const dataDir = join(tempDir("svc-pglite-"), "data");
const ENV = `SVC_TEST_PG_OUTAGES_${process.pid}`;

const STORE = `
      document_store:
        type: haystack_integrations.document_stores.pgvector.document_store.PgvectorDocumentStore
        init_parameters:
          connection_string: {type: env_var, env_vars: [${ENV}], strict: true}
          table_name: outages
          keyword_index_name: outages_keyword
          embedding_dimension: 3`;

const INDEXING = `
components:
  writer:
    type: haystack.components.writers.document_writer.DocumentWriter
    init_parameters:
      policy: OVERWRITE${STORE}
inputs:
  documents: writer.documents
outputs:
  documents_written: writer.documents_written
`;

const QUERY = `
components:
  retriever:
    type: haystack_integrations.components.retrievers.pgvector.keyword_retriever.PgvectorKeywordRetriever
    init_parameters:${STORE}
inputs:
  query: retriever.query
outputs:
  documents: retriever.documents
`;

const deployYaml = async (name: string, source: string) => {
  const res = await fetch(`${k.url}/deploy-yaml`, { method: "POST", body: JSON.stringify({ name, source_code: source, save_file: false, overwrite: true }) });
  assert.is(res.status, 200, await res.text());
};
const contents = (body: any) => (body.result.retriever.documents as Array<{ content: string }>).map((d) => d.content).sort();

/** A transaction on another connection: PGlite runs one at a time, so every other statement waits until it ends. */
async function holdDatabase(): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: db.url });
  client.on("error", () => undefined); // the restart test ends it from the server's side
  await client.connect();
  await client.query("BEGIN");
  await client.query("SELECT 1");
  return client;
}

test.before(async () => {
  db = await startPglite({ dataDir });
  process.env[ENV] = db.url;
  k = await startPipelineKernel({ plugins: [enginePlugin(), pgvectorPlugin()], settings: { pgvectorPoolSize: 1, pgvectorConnectTimeoutSeconds: 3 } as never });
  await deployYaml("indexing", INDEXING);
  await deployYaml("search", QUERY);
  const written = await k.run("indexing", { documents: [{ content: "The quick brown fox" }, { content: "A lazy fox sleeps", meta: { n: 2 } }] });
  assert.is(written.status, 200, JSON.stringify(written.body));
  // The query store's one connection is open: PGlite would hold a new connection's handshake too.
  assert.is((await k.run("search", { query: "fox" })).status, 200);
});
test.after(async () => {
  await k?.close();
  await db?.stop();
  delete process.env[ENV];
});

test("the store's pool exhausted: the waiting run answers 503 naming the store; the one holding the connection completes", async () => {
  const holder = await holdDatabase();
  let first: Promise<{ status: number; body: any }> | undefined;
  try {
    first = k.run("search", { query: "fox" }); // takes the pool's one connection, then waits on the database
    await new Promise((resolve) => setTimeout(resolve, 300));
    const second = await k.run("search", { query: "fox" });
    assert.is(second.status, 503, JSON.stringify(second.body));
    assert.match(second.body.error.message, /PgvectorDocumentStore \(table public\.outages on 127\.0\.0\.1:\d+\/postgres\) is unavailable: no database connection became free in time/);
  } finally {
    await holder.query("COMMIT").catch(() => undefined);
    await holder.end();
  }
  const done = await first!;
  assert.is(done.status, 200, JSON.stringify(done.body));
  assert.equal(contents(done.body), ["A lazy fox sleeps", "The quick brown fox"]);
});

test("the server restarted mid-run: that run answers 503, the next one works again with the documents intact", async () => {
  const holder = await holdDatabase();
  const during = k.run("search", { query: "fox" }); // waits on the database
  await new Promise((resolve) => setTimeout(resolve, 300));
  await db.stop(); // ends every connection, the held one and the run's
  await holder.end().catch(() => undefined);
  const cut = await during;
  assert.is(cut.status, 503, JSON.stringify(cut.body));
  assert.match(cut.body.error.message, /PgvectorDocumentStore \(table public\.outages on .*\) cannot reach its database/);
  const down = await k.run("search", { query: "fox" });
  assert.is(down.status, 503, JSON.stringify(down.body));

  db = await startPglite({ dataDir, port: db.port });
  const back = await k.run("search", { query: "fox" });
  assert.is(back.status, 200, JSON.stringify(back.body));
  assert.equal(contents(back.body), ["A lazy fox sleeps", "The quick brown fox"]);
  const written = await k.run("indexing", { documents: [{ content: "A third fox" }] });
  assert.is(written.status, 200, JSON.stringify(written.body));
});

test.run();
