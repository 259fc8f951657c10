/**
 * One corpus, every instance: an indexing YAML on one `svc run` process turns files into
 * Documents (converter → splitter → embedder → writer) in a PgvectorDocumentStore; a query YAML on
 * another process finds them by embedding and by keyword. The embedder is OpenAI's, answered by
 * the loopback fixture (bag-of-words vectors, 16 dimensions). Both deploy Haystack's own type paths unchanged. When
 * the database goes away, runs answer 503 naming the store, deploys still work, the servers stay up.
 * Documents also arrive as JSON (content, meta, embedding) straight to a DocumentWriter.
 */
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { post, startInstance, stopAll, type Instance } from "../../helpers/cluster.js";
import { fixtureEmbedding } from "../../fixtures/openai-embeddings.js";
import { startOpenAIFixture, type OpenAIFixture } from "../../fixtures/openai-server.js";
import { startPglite, type TestPglite } from "../../helpers/pglite.js";

const STORE = `
      document_store:
        type: haystack_integrations.document_stores.pgvector.document_store.PgvectorDocumentStore
        init_parameters:
          embedding_dimension: 16
          vector_function: cosine_similarity
          table_name: shared_corpus
          keyword_index_name: shared_corpus_keyword`;

const INDEXING = `
components:
  converter:
    type: haystack.components.converters.txt.TextFileToDocument
  splitter:
    type: haystack.components.preprocessors.document_splitter.DocumentSplitter
    init_parameters: {split_by: period, split_length: 1}
  embedder:
    type: haystack.components.embedders.openai_document_embedder.OpenAIDocumentEmbedder
    init_parameters: {model: text-embedding-3-small}
  writer:
    type: haystack.components.writers.document_writer.DocumentWriter
    init_parameters:
      policy: OVERWRITE${STORE}
connections:
  - {sender: converter.documents, receiver: splitter.documents}
  - {sender: splitter.documents, receiver: embedder.documents}
  - {sender: embedder.documents, receiver: writer.documents}
inputs:
  sources: [converter.sources]
outputs:
  documents_written: writer.documents_written
`;

const QUERY = `
components:
  text_embedder:
    type: haystack.components.embedders.openai_text_embedder.OpenAITextEmbedder
    init_parameters: {model: text-embedding-3-small}
  by_embedding:
    type: haystack_integrations.components.retrievers.pgvector.embedding_retriever.PgvectorEmbeddingRetriever
    init_parameters:
      top_k: 2${STORE}
  by_keyword:
    type: haystack_integrations.components.retrievers.pgvector.keyword_retriever.PgvectorKeywordRetriever
    init_parameters:
      top_k: 5
      filters: {field: content, operator: "not like", value: "Der %"}${STORE}
connections:
  - {sender: text_embedder.embedding, receiver: by_embedding.query_embedding}
inputs:
  query: [text_embedder.text, by_keyword.query]
outputs:
  nearest: by_embedding.documents
  matches: by_keyword.documents
`;

const JSON_STORE = `
      document_store:
        type: haystack_integrations.document_stores.pgvector.document_store.PgvectorDocumentStore
        init_parameters:
          embedding_dimension: 3
          vector_function: inner_product
          table_name: json_corpus
          keyword_index_name: json_corpus_keyword`;

const JSON_INDEXING = `
components:
  writer:
    type: haystack.components.writers.document_writer.DocumentWriter
    init_parameters:
      policy: OVERWRITE${JSON_STORE}
inputs:
  documents: writer.documents
outputs:
  documents_written: writer.documents_written
`;

const JSON_QUERY = `
components:
  retriever:
    type: haystack_integrations.components.retrievers.pgvector.embedding_retriever.PgvectorEmbeddingRetriever
    init_parameters:
      top_k: 2${JSON_STORE}
inputs:
  query_embedding: retriever.query_embedding
  filters: retriever.filters
outputs:
  documents: retriever.documents
`;

const test = suite("pgvector across svc instances");
let db: TestPglite;
let openai: OpenAIFixture;
let indexer: Instance | undefined;
let searcher: Instance | undefined;

test.before(async () => {
  [db, openai] = await Promise.all([startPglite(), startOpenAIFixture({ apiKey: "k" })]);
  const env = { PG_CONN_STR: db.url, OPENAI_API_KEY: "k", OPENAI_BASE_URL: openai.url };
  [indexer, searcher] = await Promise.all([startInstance({ env }), startInstance({ env })]);
});
test.after(async () => {
  await stopAll(indexer, searcher);
  await db?.stop();
  await openai?.close();
});

const deployYaml = (url: string, name: string, source: string) => post(`${url}/deploy-yaml`, { name, source_code: source, save_file: false });

test("documents indexed on one instance are found from another", async () => {
  for (const [url, name, source] of [[indexer!.url, "indexing", INDEXING], [searcher!.url, "search", QUERY]] as const) {
    const deployed = await deployYaml(url, name, source);
    assert.is(deployed.status, 200, JSON.stringify(deployed.body));
  }
  const files = { "animals.txt": "The quick brown fox jumps over the fence. A lazy dog sleeps in the sun.", "tiere.txt": "Der braune fox springt." };
  const form = new FormData();
  for (const [name, text] of Object.entries(files)) form.append("files", new Blob([text], { type: "text/plain" }), name);
  const res = await fetch(`${indexer!.url}/indexing/run`, { method: "POST", body: form });
  const written = { status: res.status, body: (await res.json()) as any };
  assert.is(written.status, 200, JSON.stringify(written.body));
  // Results come in Hayhooks' shape (outputs keyed by component), svc's default.
  assert.is(written.body.result.writer.documents_written, 3); // two sentences, one sentence

  const query = "quick brown fox";
  const found = await post(`${searcher!.url}/search/run`, { query });
  assert.is(found.status, 200, JSON.stringify(found.body));
  const nearest = found.body.result.by_embedding.documents as Array<{ content: string; score: number; meta: Record<string, unknown> }>;
  assert.is(nearest.length, 2);
  assert.is(nearest[0]!.content, "The quick brown fox jumps over the fence.");
  // cosine_similarity scores 1 - cosine distance: the fixture's vectors give the expected value.
  const cos = (a: number[], b: number[]) => a.reduce((s, x, i) => s + x * b[i]!, 0) / Math.sqrt(a.reduce((s, x) => s + x * x, 0) * b.reduce((s, x) => s + x * x, 0));
  assert.ok(Math.abs(nearest[0]!.score - cos(fixtureEmbedding(query), fixtureEmbedding(nearest[0]!.content))) < 1e-4);
  assert.ok(nearest[0]!.score >= nearest[1]!.score);
  const matches = found.body.result.by_keyword.documents as Array<{ content: string; meta: Record<string, unknown> }>;
  assert.equal(matches.map((d) => d.content), ["The quick brown fox jumps over the fence."]); // the init filter leaves out the German
});

test("Documents sent as JSON to a DocumentWriter on one instance are found by a query YAML on another", async () => {
  assert.is((await deployYaml(indexer!.url, "json_indexing", JSON_INDEXING)).status, 200);
  assert.is((await deployYaml(searcher!.url, "json_search", JSON_QUERY)).status, 200);
  const documents = [
    { id: "north", content: "Points north", meta: { axis: "y", rank: 1 }, embedding: [0, 1, 0] },
    { id: "east", content: "Points east", meta: { axis: "x", rank: 2 }, embedding: [1, 0, 0] },
    { content: "Points up and north", meta: { axis: "y", rank: 3 }, embedding: [0, 0.6, 0.8] },
  ];
  const written = await post(`${indexer!.url}/json_indexing/run`, { documents });
  assert.is(written.status, 200, JSON.stringify(written.body));
  assert.is(written.body.result.writer.documents_written, 3);

  const found = await post(`${searcher!.url}/json_search/run`, { query_embedding: [0, 1, 0], filters: null });
  assert.is(found.status, 200, JSON.stringify(found.body));
  // Documents come as Haystack's to_dict writes them: meta fields flattened beside id and content.
  const nearest = found.body.result.retriever.documents as Array<{ id: string; content: string; score: number; axis: string; rank: number }>;
  // inner_product scores the dot product: 1 and 0.6.
  assert.equal(nearest.map((d) => [d.content, Math.round(d.score * 1e6) / 1e6]), [["Points north", 1], ["Points up and north", 0.6]]);
  assert.is(nearest[0]!.id, "north");
  assert.equal([nearest[0]!.axis, nearest[0]!.rank], ["y", 1]);
  assert.match(nearest[1]!.id, /^[0-9a-f]{64}$/, "an id made from the content, as Haystack makes it");
  const filtered = await post(`${searcher!.url}/json_search/run`, { query_embedding: [0, 1, 0], filters: { field: "meta.axis", operator: "==", value: "x" } });
  assert.is(filtered.status, 200, JSON.stringify(filtered.body));
  assert.equal(filtered.body.result.retriever.documents.map((d: { id: string }) => d.id), ["east"]);

  const badEmbedding = await post(`${indexer!.url}/json_indexing/run`, { documents: [{ content: "too short", embedding: [1, 0] }] });
  assert.ok(badEmbedding.status >= 400 && badEmbedding.status < 600 && badEmbedding.status !== 503, JSON.stringify(badEmbedding.body));
  assert.match(badEmbedding.body.error.message, /dimension|expected 3/i);
});

test("database down: runs answer 503 naming the store, deploys still succeed, the server stays up", async () => {
  await db.stop();
  const down = await post(`${searcher!.url}/search/run`, { query: "fox" });
  assert.is(down.status, 503, JSON.stringify(down.body));
  assert.match(down.body.error.message, /PgvectorDocumentStore \(table public\.shared_corpus/);
  assert.is(down.body.error.type, "server_error");
  // A pipeline with a store deploys without its database.
  assert.is((await deployYaml(searcher!.url, "search2", QUERY)).status, 200);
  const status = await fetch(`${searcher!.url}/status`);
  assert.is(status.status, 200);
});

test.run();
