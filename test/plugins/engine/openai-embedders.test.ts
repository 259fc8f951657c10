/**
 * @module OpenAITextEmbedder, OpenAIDocumentEmbedder and MultiQueryEmbeddingRetriever against the
 * loopback fixture speaking OpenAI's `/v1/embeddings` protocol, checked once with the real client.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import OpenAI from "openai";
import { NOOP_TRACER } from "svc/plugin";
import { createRegistry, Document, InMemoryDocumentStore, InMemoryEmbeddingRetriever, loadPipelineYaml, MultiQueryEmbeddingRetriever, OpenAIDocumentEmbedder, OpenAITextEmbedder, type ComponentContext } from "svc/engine";
import { fixtureEmbedding } from "../../fixtures/openai-embeddings.js";
import { startOpenAIFixture, type OpenAIFixture } from "../../fixtures/openai-server.js";

const KEY = "test-key";
const apiKey = { type: "env_var", env_vars: ["TEST_OPENAI_EMBED_KEY"], strict: true };
const ctx = (): ComponentContext => ({ name: "embedder", signal: new AbortController().signal, tracer: NOOP_TRACER });
const f32 = (xs: number[]) => xs.map(Math.fround);

async function withFixture(fn: (f: OpenAIFixture) => Promise<void>): Promise<void> {
  const fixture = await startOpenAIFixture({ apiKey: KEY });
  process.env.TEST_OPENAI_EMBED_KEY = KEY;
  try {
    await fn(fixture);
  } finally {
    delete process.env.TEST_OPENAI_EMBED_KEY;
    await fixture.close();
  }
}

const embeddingRequests = (f: OpenAIFixture) => f.requests.filter((r) => r.path === "/v1/embeddings");

test("the fixture speaks /v1/embeddings to the real client (float and base64)", () =>
  withFixture(async (f) => {
    const client = new OpenAI({ baseURL: f.url, apiKey: KEY });
    const floats = await client.embeddings.create({ model: "m", input: ["a b", "c"], encoding_format: "float" });
    assert.equal(floats.data.map((d) => d.embedding), [fixtureEmbedding("a b"), fixtureEmbedding("c")]);
    const decoded = await client.embeddings.create({ model: "m", input: "a b", dimensions: 4 });
    assert.equal(decoded.data[0]!.embedding, fixtureEmbedding("a b", 4), "the client's default base64 is decoded");
  }));

test("OpenAITextEmbedder: prefix + text + suffix, dimensions, and {model, usage} in meta", () =>
  withFixture(async (f) => {
    const embedder = new OpenAITextEmbedder({ api_key: apiKey, api_base_url: f.url, model: "text-embedding-3-small", dimensions: 8, prefix: "query: ", suffix: "!" });
    const result = await embedder.run({ text: "red fox" }, ctx());
    assert.equal(result, { embedding: f32(fixtureEmbedding("query: red fox!", 8)), meta: { model: "text-embedding-3-small", usage: { prompt_tokens: 3, total_tokens: 3 } } });
    assert.equal(embeddingRequests(f)[0]!.body, { model: "text-embedding-3-small", input: "query: red fox!", encoding_format: "float", dimensions: 8 });
    assert.not.ok("dimensions" in (await (async () => {
      await new OpenAITextEmbedder({ api_key: apiKey, api_base_url: f.url }).run({ text: "x" }, ctx());
      return embeddingRequests(f)[1]!.body;
    })()), "no dimensions unless set");
    assert.is(embeddingRequests(f)[1]!.body.model, "text-embedding-ada-002", "Haystack's default model");
  }));

test("OpenAIDocumentEmbedder: batches, meta_fields_to_embed with the separator, usage summed, ids kept", () =>
  withFixture(async (f) => {
    const embedder = new OpenAIDocumentEmbedder({ api_key: apiKey, api_base_url: f.url, batch_size: 2, meta_fields_to_embed: ["title", "page", "missing"], embedding_separator: " | ", prefix: "passage: " });
    const docs = [
      new Document({ content: "first text", meta: { title: "Intro", page: 1 } }),
      new Document({ content: "second", meta: { title: null } }),
      new Document({ content: null, meta: { title: "Empty", page: 2.5 } }),
    ];
    const { documents, meta } = await embedder.run({ documents: docs }, ctx());
    const texts = ["passage: Intro | 1 | first text", "passage: second", "passage: Empty | 2.5 | "];
    assert.equal(embeddingRequests(f).map((r) => r.body.input), [texts.slice(0, 2), texts.slice(2)], "two batches");
    assert.equal(documents.map((d) => d.embedding), texts.map((t) => f32(fixtureEmbedding(t))));
    assert.equal(documents.map((d) => d.id), docs.map((d) => d.id));
    // Words per text: 5 + 2 + 4 ("2.5" is two).
    assert.equal(meta, { model: "text-embedding-ada-002", usage: { prompt_tokens: 11, total_tokens: 11 } });
  }));

test("OpenAIDocumentEmbedder: a failed batch leaves its documents unembedded, or raises with raise_on_failure", () =>
  withFixture(async (f) => {
    const docs = [new Document({ content: "a" }), new Document({ content: "b" })];
    const lenient = new OpenAIDocumentEmbedder({ api_key: apiKey, api_base_url: f.url, batch_size: 1, max_retries: 0 });
    f.script({ status: 400, error: { message: "bad input" } });
    const errors: string[] = [];
    const original = console.error;
    console.error = (m: string) => void errors.push(m);
    let result;
    try {
      result = await lenient.run({ documents: docs }, ctx());
    } finally {
      console.error = original;
    }
    assert.equal(result.documents.map((d) => d.embedding), [null, f32(fixtureEmbedding("b"))]);
    assert.match(errors[0]!, new RegExp(`Failed embedding of documents ${docs[0]!.id} caused by bad input$`));
    const strict = new OpenAIDocumentEmbedder({ api_key: apiKey, api_base_url: f.url, raise_on_failure: true, max_retries: 0 });
    f.script({ status: 400, error: { message: "bad input" } });
    await strict.run({ documents: docs }, ctx()).then(() => assert.unreachable(), (e: Error) => assert.match(e.message, /OpenAIDocumentEmbedder 'embedder': the OpenAI API answered 400: bad input/));
    delete process.env.TEST_OPENAI_EMBED_KEY;
    await new OpenAITextEmbedder({ api_key: apiKey, api_base_url: f.url }).run({ text: "x" }, ctx()).then(() => assert.unreachable(), (e: Error) => assert.match(e.message, /no OpenAI API key: set the environment variable TEST_OPENAI_EMBED_KEY/));
  }));

test("Haystack's YAML for an indexing and a query pipeline (embedders, writer, embedding retriever)", () =>
  withFixture(async (f) => {
    const store = `{type: haystack.document_stores.in_memory.document_store.InMemoryDocumentStore, init_parameters: {bm25_tokenization_regex: '(?u)\\b\\w\\w+\\b', bm25_algorithm: BM25L, bm25_parameters: {}, embedding_similarity_function: cosine, index: embed-yaml-test, return_embedding: true}}`;
    const key = "{type: env_var, env_vars: [TEST_OPENAI_EMBED_KEY], strict: true}";
    const indexing = `components:
  embedder:
    type: haystack.components.embedders.openai_document_embedder.OpenAIDocumentEmbedder
    init_parameters: {api_key: ${key}, model: text-embedding-ada-002, dimensions: null, api_base_url: '${f.url}', organization: null, prefix: '', suffix: '', batch_size: 32, progress_bar: true, meta_fields_to_embed: [], embedding_separator: "\\n", timeout: null, max_retries: null, http_client_kwargs: null, raise_on_failure: false}
  writer:
    type: haystack.components.writers.document_writer.DocumentWriter
    init_parameters: {document_store: ${store}, policy: NONE}
connections:
- {sender: embedder.documents, receiver: writer.documents}
`;
    const query = `components:
  text_embedder:
    type: haystack.components.embedders.openai_text_embedder.OpenAITextEmbedder
    init_parameters: {api_key: ${key}, model: text-embedding-ada-002, dimensions: null, api_base_url: '${f.url}', organization: null, prefix: '', suffix: '', timeout: null, max_retries: null, http_client_kwargs: null}
  retriever:
    type: haystack.components.retrievers.in_memory.embedding_retriever.InMemoryEmbeddingRetriever
    init_parameters: {document_store: ${store}, filters: null, top_k: 2, scale_score: false, return_embedding: false, filter_policy: replace}
connections:
- {sender: text_embedder.embedding, receiver: retriever.query_embedding}
`;
    const registry = createRegistry();
    const texts = ["foxes live in forests", "whales swim in the ocean", "the forest is green"];
    await loadPipelineYaml(indexing, registry).run({ embedder: { documents: texts.map((content) => new Document({ content })) } });
    const result = (await loadPipelineYaml(query, registry).run({ text_embedder: { text: "forest foxes" } })) as { retriever: { documents: Document[] } };
    const cosine = (a: number[], b: number[]) => a.reduce((s, x, i) => s + x * b[i]!, 0) / Math.sqrt(a.reduce((s, x) => s + x * x, 0) * b.reduce((s, x) => s + x * x, 0));
    const q = f32(fixtureEmbedding("forest foxes"));
    const expected = texts.map((t) => ({ t, s: cosine(q, f32(fixtureEmbedding(t))) })).sort((a, b) => b.s - a.s).slice(0, 2);
    assert.equal(result.retriever.documents.map((d) => d.content), expected.map((e) => e.t));
    result.retriever.documents.forEach((d, i) => assert.ok(Math.abs(d.score! - expected[i]!.s) < 1e-12));
    assert.ok(result.retriever.documents.every((d) => d.embedding === null), "return_embedding: false");
  }));

test("MultiQueryEmbeddingRetriever: one embedding and retrieval per query, best copy per id, sorted by score", () =>
  withFixture(async (f) => {
    const store = new InMemoryDocumentStore({ embedding_similarity_function: "cosine" });
    const texts = ["geothermal energy from the earth", "natural gas is a fossil fuel", "wind turbines make energy", "cats sleep"];
    store.write_documents(texts.map((content) => new Document({ content, embedding: f32(fixtureEmbedding(content)) })));
    const multi = new MultiQueryEmbeddingRetriever({
      retriever: new InMemoryEmbeddingRetriever({ document_store: store, top_k: 1 }),
      query_embedder: new OpenAITextEmbedder({ api_key: apiKey, api_base_url: f.url }),
      max_workers: 2,
    });
    const queries = ["geothermal energy", "natural gas", "turbines energy", "geothermal earth"];
    const { documents } = await multi.run({ queries }, ctx());
    const single = await Promise.all(queries.map((q) => store.embedding_retrieval(f32(fixtureEmbedding(q)), null, 1)));
    const best = new Map<string, Document>();
    for (const d of single.flat()) if (!best.has(d.id) || d.score! > best.get(d.id)!.score!) best.set(d.id, d);
    assert.equal(documents.map((d) => [d.content, d.score]), [...best.values()].sort((a, b) => b.score! - a.score!).map((d) => [d.content, d.score]));
    assert.is(new Set(documents.map((d) => d.id)).size, documents.length, "no duplicates");
    assert.is(embeddingRequests(f).length, 4);
    const widened = await multi.run({ queries: ["cats"], retriever_kwargs: { top_k: 3 } }, ctx());
    assert.is(widened.documents.length, 3, "retriever_kwargs reach the retriever");
    const yaml = `components:
  multi:
    type: haystack.components.retrievers.multi_query_embedding_retriever.MultiQueryEmbeddingRetriever
    init_parameters:
      retriever:
        type: haystack.components.retrievers.in_memory.embedding_retriever.InMemoryEmbeddingRetriever
        init_parameters: {document_store: {type: haystack.document_stores.in_memory.document_store.InMemoryDocumentStore, init_parameters: {index: ${store.index}, embedding_similarity_function: cosine}}, top_k: 1}
      query_embedder:
        type: haystack.components.embedders.openai_text_embedder.OpenAITextEmbedder
        init_parameters: {api_key: {type: env_var, env_vars: [TEST_OPENAI_EMBED_KEY], strict: true}, api_base_url: '${f.url}'}
      max_workers: 3
`;
    const pipeline = loadPipelineYaml(yaml, createRegistry());
    const fromYaml = (await pipeline.run({ multi: { queries } })) as { multi: { documents: Document[] } };
    assert.equal(fromYaml.multi.documents.map((d) => d.content), documents.map((d) => d.content));
    assert.throws(() => new MultiQueryEmbeddingRetriever({ retriever: new OpenAITextEmbedder({}), query_embedder: new OpenAITextEmbedder({}) }), /takes no query_embedding/);
  }));

test.run();
