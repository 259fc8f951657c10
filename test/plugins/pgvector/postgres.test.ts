/**
 * svc:pgvector against Debian's PostgreSQL (started by the harness: initdb in a temp dir on a free
 * port, password authentication, no pgvector): what a real server adds over PGlite. A run whose
 * store cannot be used answers a clear 503 naming the store — the `vector` extension missing, a
 * wrong password, nothing listening, the server's connection slots full, the server restarted —
 * and the server stays up and serves the next run. Skipped (with the reason) only when the
 * PostgreSQL binaries are not installed; CI installs them (.ci/run).
 */
import { suite } from "uvu";
import * as assert from "uvu/assert";
import pg from "pg";
import enginePlugin from "svc/engine";
import pgvectorPlugin from "svc/pgvector";
import { startPipelineKernel, type PipelineKernel } from "../../helpers/pipelines.js";
import { postgresSkipReason, startPostgres, type TestPostgres } from "../../helpers/postgres.js";
import { freePort } from "../../helpers/redis.js";

const skip = postgresSkipReason();
const test = suite("svc:pgvector on Debian's PostgreSQL (no pgvector)");
let db: TestPostgres;
let k: PipelineKernel;
let envCount = 0;
const envNames: string[] = [];

/** A query YAML whose store reads its connection string from a fresh environment variable set to `url`. */
function queryYaml(url: string, extra = ""): string {
  const env = `SVC_TEST_PG_URL_${process.pid}_${envCount++}`;
  process.env[env] = url;
  envNames.push(env);
  return `
components:
  retriever:
    type: haystack_integrations.components.retrievers.pgvector.keyword_retriever.PgvectorKeywordRetriever
    init_parameters:
      document_store:
        type: haystack_integrations.document_stores.pgvector.document_store.PgvectorDocumentStore
        init_parameters:
          connection_string: {type: env_var, env_vars: [${env}], strict: true}
          table_name: docs
          embedding_dimension: 4${extra}
inputs:
  query: retriever.query
outputs:
  documents: retriever.documents
`;
}

async function deployAndRun(name: string, source: string): Promise<{ status: number; body: any }> {
  const deployed = await fetch(`${k.url}/deploy-yaml`, { method: "POST", body: JSON.stringify({ name, source_code: source, save_file: false, overwrite: true }) });
  assert.is(deployed.status, 200, await deployed.text()); // a store never connects at deploy
  return k.run(name, { query: "fox" });
}

async function assertStillServes(): Promise<void> {
  const status = await fetch(`${k.url}/status`);
  assert.is(status.status, 200);
}

const urlWith = (password: string, port = db.port) => `postgresql://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`;

test.before(async () => {
  if (skip) return;
  db = await startPostgres({ maxConnections: 8 });
  k = await startPipelineKernel({ plugins: [enginePlugin(), pgvectorPlugin()], settings: { pgvectorPoolSize: 2, pgvectorConnectTimeoutSeconds: 5 } as never });
});
test.after(async () => {
  await k?.close();
  await db?.remove();
  for (const name of envNames) delete process.env[name];
});

if (skip) {
  test(`skipped: ${skip}`, () => undefined);
} else {
  test("the vector extension missing: 503 saying to install pgvector, naming the store; create_extension false alike", async () => {
    const created = await deployAndRun("no_vector", queryYaml(db.url));
    assert.is(created.status, 503, JSON.stringify(created.body));
    assert.is(created.body.error.type, "server_error");
    assert.match(created.body.error.message, `PgvectorDocumentStore (table public.docs on 127.0.0.1:${db.port}/postgres)`);
    assert.match(created.body.error.message, /has no pgvector extension .*Install pgvector on the server/);
    assert.match(created.body.error.message, /extension "vector" is not available|vector\.control/);

    const notCreated = await deployAndRun("no_vector_type", queryYaml(db.url, "\n          create_extension: false"));
    assert.is(notCreated.status, 503, JSON.stringify(notCreated.body));
    assert.match(notCreated.body.error.message, /has no pgvector extension/);
    assert.match(notCreated.body.error.message, /type "vector" does not exist/);
    assert.not.match(JSON.stringify(created.body) + JSON.stringify(notCreated.body), db.password);
    await assertStillServes();
  });

  test("a wrong password: 503 naming the store, the password never shown", async () => {
    const res = await deployAndRun("bad_password", queryYaml(urlWith("not-the-password")));
    assert.is(res.status, 503, JSON.stringify(res.body));
    assert.match(res.body.error.message, `PgvectorDocumentStore (table public.docs on 127.0.0.1:${db.port}/postgres) cannot reach its database`);
    assert.match(res.body.error.message, /password authentication failed for user "postgres"/);
    assert.not.match(res.body.error.message, "not-the-password");
    await assertStillServes();
  });

  test("nothing listening: 503 naming the store; the server stays up", async () => {
    const port = await freePort();
    const res = await deployAndRun("refused", queryYaml(urlWith(db.password, port)));
    assert.is(res.status, 503, JSON.stringify(res.body));
    assert.match(res.body.error.message, `PgvectorDocumentStore (table public.docs on 127.0.0.1:${port}/postgres) cannot reach its database`);
    assert.match(res.body.error.message, /ECONNREFUSED/);
    await assertStillServes();
  });

  test("the server's connection slots full: 503 naming the store; a run after they free up reaches the server", async () => {
    // A role without superuser rights, so the superuser-reserved slots stay closed to it.
    const admin = new pg.Client({ connectionString: db.url });
    await admin.connect();
    await admin.query("CREATE ROLE app LOGIN PASSWORD 'app-password'");
    await admin.end();
    const appUrl = `postgresql://app:app-password@127.0.0.1:${db.port}/postgres`;
    const holders: pg.Client[] = [];
    try {
      for (;;) {
        const client = new pg.Client({ connectionString: appUrl });
        try {
          await client.connect();
        } catch (error) {
          await client.end().catch(() => undefined);
          assert.match((error as Error).message, /remaining connection slots are reserved|too many clients/);
          break;
        }
        holders.push(client);
        assert.ok(holders.length < 50, "the server never refused a connection");
      }
      const full = await deployAndRun("slots_full", queryYaml(appUrl));
      assert.is(full.status, 503, JSON.stringify(full.body));
      assert.match(full.body.error.message, /PgvectorDocumentStore \(table public\.docs on 127\.0\.0\.1:\d+\/postgres\) cannot reach its database: .*(remaining connection slots|too many clients)/);
    } finally {
      await Promise.all(holders.map((c) => c.end().catch(() => undefined)));
    }
    // The same pipeline, slots free: the run gets through to the server (which has no pgvector).
    const again = await k.run("slots_full", { query: "fox" });
    assert.is(again.status, 503);
    assert.match(again.body.error.message, /has no pgvector extension/);
    await assertStillServes();
  });

  test("the server restarted: a run while it is down is a 503, the next run after it is back reaches it", async () => {
    const before = await deployAndRun("restarts", queryYaml(db.url));
    assert.match(before.body.error.message, /has no pgvector extension/); // connected: the pool holds a connection now
    await db.stop();
    const down = await k.run("restarts", { query: "fox" });
    assert.is(down.status, 503, JSON.stringify(down.body));
    assert.match(down.body.error.message, /PgvectorDocumentStore \(table public\.docs on .*\) cannot reach its database/);
    await assertStillServes();
    await db.start();
    const back = await k.run("restarts", { query: "fox" });
    assert.is(back.status, 503);
    assert.match(back.body.error.message, /has no pgvector extension/, "the pool reconnected to the restarted server");
  });
}

test.run();
