/**
 * The pgvector RAG example (pipelines/pgvector_indexing.yml, pipelines/pgvector_rag.yml), deployed
 * as `svc run` deploys the pipelines folder: both deploy without a database and answer a 503 naming
 * the store and PG_CONN_STR; once PG_CONN_STR points at a database (PGlite with pgvector), the next
 * runs index documents and answer a question from them, with their sources. The model is the
 * loopback OpenAI fixture (it echoes the prompt, so the answer shows what was retrieved).
 */
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { copyFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import enginePlugin from "svc/engine";
import pgvectorPlugin from "svc/pgvector";
import { repoRoot } from "../../helpers/cli.js";
import { startPipelineKernel, tempDir, type PipelineKernel } from "../../helpers/pipelines.js";
import { startPglite, type TestPglite } from "../../helpers/pglite.js";
import { startOpenAIFixture, type OpenAIFixture } from "../../fixtures/openai-server.js";

const test = suite("pipelines/: the pgvector RAG example");
const EXAMPLES = ["pgvector_indexing.yml", "pgvector_rag.yml"];
const ENV = ["PG_CONN_STR", "OPENAI_API_KEY", "OPENAI_BASE_URL"] as const;
const saved = Object.fromEntries(ENV.map((name) => [name, process.env[name]]));
let k: PipelineKernel;
let openai: OpenAIFixture;
let db: TestPglite | undefined;

test.before(async () => {
  openai = await startOpenAIFixture({ apiKey: "k" });
  delete process.env.PG_CONN_STR;
  process.env.OPENAI_API_KEY = "k";
  process.env.OPENAI_BASE_URL = openai.url;
  const dir = join(tempDir(), "pipelines");
  mkdirSync(dir);
  for (const file of EXAMPLES) copyFileSync(join(repoRoot, "pipelines", file), join(dir, file));
  k = await startPipelineKernel({ dir, plugins: [enginePlugin(), pgvectorPlugin()] });
});
test.after(async () => {
  await k?.close();
  await db?.stop();
  await openai?.close();
  for (const name of ENV) if (saved[name] === undefined) delete process.env[name];
  else process.env[name] = saved[name];
});

const DOCUMENTS = [
  { content: "The svc service deploys Haystack YAML pipelines unchanged.", meta: { title: "Deploying" } },
  { content: "PostgreSQL with pgvector keeps the documents every instance shares.", meta: { title: "Stores" } },
  { content: "Bananas are rich in potassium.", meta: { title: "Fruit" } },
];

test("deploys without a database; runs answer 503 naming the store and PG_CONN_STR", async () => {
  const { deployed, total } = await k.kernel.deployer.deployAll();
  assert.equal([...deployed].sort(), ["pgvector_indexing", "pgvector_rag"]);
  assert.is(total, 2);
  for (const [name, body] of [["pgvector_indexing", { documents: DOCUMENTS }], ["pgvector_rag", { query: "Where are documents kept?" }]] as const) {
    const res = await k.run(name, body);
    assert.is(res.status, 503, JSON.stringify(res.body));
    assert.is(res.body.error.type, "server_error");
    assert.match(res.body.error.message, /PgvectorDocumentStore \(table public\.svc_rag_documents\) has no connection string/);
    assert.match(res.body.error.message, /PG_CONN_STR/);
  }
});

test("PG_CONN_STR set: the same deployments index documents and answer from them", async () => {
  db = await startPglite();
  process.env.PG_CONN_STR = db.url;
  const written = await k.run("pgvector_indexing", { documents: DOCUMENTS });
  assert.is(written.status, 200, JSON.stringify(written.body));
  assert.is(written.body.result.writer.documents_written, 3);

  const asked = await k.run("pgvector_rag", { query: "Where does PostgreSQL keep the documents?" });
  assert.is(asked.status, 200, JSON.stringify(asked.body));
  const [answer] = asked.body.result.answer_builder.answers as Array<{ data: string; query: string; documents: Array<{ content: string; score: number }> }>;
  assert.is(answer!.query, "Where does PostgreSQL keep the documents?");
  // The echoing model shows the prompt: the keyword match is among the documents it was given.
  assert.match(answer!.data, "PostgreSQL with pgvector keeps the documents every instance shares.");
  assert.match(answer!.data, "Question: Where does PostgreSQL keep the documents?");
  assert.is(answer!.documents[0]!.content, "PostgreSQL with pgvector keeps the documents every instance shares.", "found by both retrievers, it ranks first");
  assert.ok(answer!.documents.length <= 3);
});

test.run();
