/**
 * @module Port of Haystack's test/components/embedders/test_openai_text_embedder.py and
 * test_openai_document_embedder.py (values, not Python), against the loopback OpenAI fixture
 * (`/v1/embeddings`, scripted with Haystack's vectors where a case fixes them). The private
 * helpers (`_prepare_input`, `_prepare_output`, `_prepare_texts_to_embed`, `_embed_batch`) are
 * checked through the request the fixture recorded and the run's output. The separate sync/async
 * clients are Python-only.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { Document, Secret } from "svc/engine";
import { OpenAITextEmbedder } from "../../../../plugins/engine/components/openai-text-embedder.js";
import { OpenAIDocumentEmbedder } from "../../../../plugins/engine/components/openai-document-embedder.js";
import { pipelineFromDocument, readPipelineDocument } from "../../../../plugins/engine/yaml.js";
import { createRegistry } from "svc/engine";
import { startOpenAIFixture, type OpenAIFixture } from "../../../fixtures/openai-server.js";
import { withEnv, loggedContext } from "../../../helpers/env.js";

const TEXT = "haystack.components.embedders.openai_text_embedder.OpenAITextEmbedder";
const DOCS = "haystack.components.embedders.openai_document_embedder.OpenAIDocumentEmbedder";
const KEY = "fake-api-key";

const logged = () => loggedContext("embedder");
const ctx = () => logged().ctx;

async function withFixture(fn: (f: OpenAIFixture) => Promise<void>): Promise<void> {
  const fixture = await startOpenAIFixture({ apiKey: KEY });
  try {
    await fn(fixture);
  } finally {
    await fixture.close();
  }
}
const fromDict = (data: Record<string, unknown>) => pipelineFromDocument(readPipelineDocument({ components: { c: data }, connections: [] }), createRegistry()).getComponent("c");
const noEnv = { OPENAI_TIMEOUT: undefined, OPENAI_MAX_RETRIES: undefined };
const mistake = { status: 500, error: { message: "Mocked error", type: "server_error" } };

for (const [kind, Cls] of [["text", OpenAITextEmbedder], ["document", OpenAIDocumentEmbedder]] as const) {
  const name = `test_openai_${kind}_embedder`;
  test(`${name}: test_init_default`, () =>
    withEnv({ OPENAI_API_KEY: KEY }, () => {
      const e = new Cls();
      const p = e.initParameters as Record<string, any>;
      assert.is(Secret.fromEnvVar("OPENAI_API_KEY").resolveValue(), KEY);
      assert.equal([p.model, p.api_base_url ?? null, p.organization ?? null, p.prefix, p.suffix, p.timeout ?? null, p.max_retries ?? null], ["text-embedding-ada-002", null, null, "", "", null, null]);
      if (kind === "document") assert.equal([p.batch_size, p.progress_bar, p.meta_fields_to_embed ?? [], p.embedding_separator], [32, true, [], "\n"]);
      assert.is(e.clientSettings, undefined);
    }));
  for (const withParams of [true, false]) {
    test(`${name}: test_init_with_parameters${withParams ? "" : "_and_env_vars"}`, () =>
      withEnv({ OPENAI_TIMEOUT: "100", OPENAI_MAX_RETRIES: "10" }, () => {
        const extra = kind === "document" ? { batch_size: 64, progress_bar: false, meta_fields_to_embed: ["test_field"], embedding_separator: " | " } : {};
        const e = new Cls({ api_key: Secret.fromToken(KEY), model: "model", api_base_url: "https://my-custom-base-url.com", organization: "fake-organization", prefix: "prefix", suffix: "suffix", ...extra, ...(withParams ? { timeout: 40.0, max_retries: 1 } : {}) });
        const p = e.initParameters as Record<string, any>;
        assert.equal([p.api_key.resolveValue(), p.model, p.api_base_url, p.organization, p.prefix, p.suffix], [KEY, "model", "https://my-custom-base-url.com", "fake-organization", "prefix", "suffix"]);
        if (kind === "document") assert.equal([p.batch_size, p.progress_bar, p.meta_fields_to_embed, p.embedding_separator], [64, false, ["test_field"], " | "]);
        assert.equal([p.timeout ?? null, p.max_retries ?? null], withParams ? [40, 1] : [null, null]);
        assert.is(e.clientSettings, undefined);
      }));
  }
  const docDefaults = kind === "document" ? { batch_size: 32, progress_bar: true, meta_fields_to_embed: [], embedding_separator: "\n", raise_on_failure: false } : {};
  test(`${name}: test_to_dict`, () =>
    withEnv({ OPENAI_API_KEY: KEY }, () =>
      assert.equal(new Cls().toDict(), {
        type: kind === "text" ? TEXT : DOCS,
        init_parameters: {
          api_key: { env_vars: ["OPENAI_API_KEY"], strict: true, type: "env_var" }, api_base_url: null, dimensions: null, model: "text-embedding-ada-002",
          organization: null, http_client_kwargs: null, prefix: "", suffix: "", timeout: null, max_retries: null, ...docDefaults,
        },
      })));
  test(`${name}: test_to_dict_with_custom_init_parameters`, () =>
    withEnv({ ENV_VAR: KEY }, () => {
      const custom = kind === "document" ? { batch_size: 64, progress_bar: false, meta_fields_to_embed: ["test_field"], embedding_separator: " | ", raise_on_failure: true } : {};
      const base = { model: "model", organization: "my-org", http_client_kwargs: { proxy: "http://localhost:8080" }, prefix: "prefix", suffix: "suffix", timeout: 10.0, max_retries: 2, ...custom };
      const e = new Cls({ api_key: Secret.fromEnvVar("ENV_VAR", false), ...base });
      assert.equal(e.toDict(), { type: kind === "text" ? TEXT : DOCS, init_parameters: { api_key: { env_vars: ["ENV_VAR"], strict: false, type: "env_var" }, api_base_url: null, dimensions: null, ...base } });
    }));
  test(`${name}: test_warm_up_uses_default_timeout_and_max_retries`, () =>
    withEnv({ ...noEnv, OPENAI_API_KEY: KEY }, async () => {
      const e = new Cls();
      await e.warmUp();
      assert.equal([e.clientSettings!.maxRetries, e.clientSettings!.timeoutSeconds], [5, 30]);
    }));
  test(`${name}: test_warm_up_uses_timeout_and_max_retries_from_parameters`, () =>
    withEnv(noEnv, async () => {
      const e = new Cls({ api_key: Secret.fromToken(KEY), timeout: 40.0, max_retries: 1 });
      await e.warmUp();
      assert.equal([e.clientSettings!.maxRetries, e.clientSettings!.timeoutSeconds], [1, 40]);
    }));
  test(`${name}: test_warm_up_uses_timeout_and_max_retries_from_env_vars`, () =>
    withEnv({ OPENAI_TIMEOUT: "100", OPENAI_MAX_RETRIES: "10" }, async () => {
      const e = new Cls({ api_key: Secret.fromToken(KEY) });
      await e.warmUp();
      assert.equal([e.clientSettings!.maxRetries, e.clientSettings!.timeoutSeconds], [10, 100]);
    }));
  test(`${name}: test_sync_lifecycle (+ test_async_lifecycle)`, async () => {
    const e = new Cls({ api_key: Secret.fromToken(KEY) });
    await e.warmUp();
    assert.ok(e.clientSettings);
    e.close();
    assert.is(e.clientSettings, undefined);
  });
  test(`${name}: test_close_is_safe_without_warm_up`, () => {
    const e = new Cls({ api_key: Secret.fromToken(KEY) });
    e.close();
    assert.is(e.clientSettings, undefined);
  });
}

test("test_openai_text_embedder: test_from_dict", () =>
  withEnv({ OPENAI_API_KEY: KEY }, () => {
    const e = fromDict({
      type: TEXT,
      init_parameters: {
        api_key: { env_vars: ["OPENAI_API_KEY"], strict: true, type: "env_var" }, model: "text-embedding-ada-002", api_base_url: "https://my-custom-base-url.com",
        organization: "fake-organization", http_client_kwargs: null, prefix: "prefix", suffix: "suffix",
      },
    }) as OpenAITextEmbedder;
    const p = e.initParameters;
    assert.equal([p.api_key!.resolveValue(), p.model, p.api_base_url, p.organization, p.http_client_kwargs, p.prefix, p.suffix], [KEY, "text-embedding-ada-002", "https://my-custom-base-url.com", "fake-organization", null, "prefix", "suffix"]);
  }));

test("test_openai_text_embedder: test_prepare_input (the request sent)", () =>
  withFixture(async (f) => {
    await new OpenAITextEmbedder({ api_key: Secret.fromToken(KEY), api_base_url: f.url, dimensions: 1536 }).run({ text: "The food was delicious" }, ctx());
    assert.equal(f.requests[0]!.body, { model: "text-embedding-ada-002", input: "The food was delicious", encoding_format: "float", dimensions: 1536 });
  }));

test("test_openai_text_embedder: test_prepare_output (the run's output)", () =>
  withFixture(async (f) => {
    f.script({ embeddings: [[0.1, 0.2, 0.3]], model: "text-embedding-ada-002", usage: { prompt_tokens: 6, total_tokens: 6 } } as any);
    const result = await new OpenAITextEmbedder({ api_key: Secret.fromToken(KEY), api_base_url: f.url, model: "m" }).run({ text: "x" }, ctx());
    assert.equal(result, { embedding: [0.1, 0.2, 0.3], meta: { model: "text-embedding-ada-002", usage: { prompt_tokens: 6, total_tokens: 6 } } });
  }));

test("test_openai_text_embedder: test_run_wrong_input_format", async () => {
  const e = new OpenAITextEmbedder({ api_key: Secret.fromToken(KEY) });
  await e.run({ text: [1, 2, 3] as any }, ctx()).then(
    () => assert.unreachable(),
    (err: Error) => assert.ok(err instanceof TypeError && err.message.includes("OpenAITextEmbedder expects a string as an input")),
  );
});

const docs = (n: number, extra: (i: number) => Record<string, unknown> = () => ({})) => Array.from({ length: n }, (_, i) => new Document({ id: `${i}`, content: `document number ${i}`, ...extra(i) }));

test("test_openai_document_embedder: test_prepare_texts_to_embed_w_metadata", () =>
  withFixture(async (f) => {
    const documents = docs(5, (i) => ({ content: `document number ${i}:\ncontent`, meta: { meta_field: `meta_value ${i}` } }));
    await new OpenAIDocumentEmbedder({ api_key: Secret.fromToken(KEY), api_base_url: f.url, meta_fields_to_embed: ["meta_field"], embedding_separator: " | " }).run({ documents }, ctx());
    assert.equal(f.requests[0]!.body.input, [0, 1, 2, 3, 4].map((i) => `meta_value ${i} | document number ${i}:\ncontent`));
  }));

test("test_openai_document_embedder: test_prepare_texts_to_embed_w_suffix", () =>
  withFixture(async (f) => {
    await new OpenAIDocumentEmbedder({ api_key: Secret.fromToken(KEY), api_base_url: f.url, prefix: "my_prefix ", suffix: " my_suffix" }).run({ documents: docs(5) }, ctx());
    assert.equal(f.requests[0]!.body.input, [0, 1, 2, 3, 4].map((i) => `my_prefix document number ${i} my_suffix`));
  }));

test("test_openai_document_embedder: test_run_wrong_input_format", async () => {
  const e = new OpenAIDocumentEmbedder({ api_key: Secret.fromToken(KEY) });
  for (const documents of ["text", [1, 2, 3]]) {
    await e.run({ documents: documents as any }, ctx()).then(
      () => assert.unreachable(),
      (err: Error) => assert.ok(err instanceof TypeError && err.message.includes("OpenAIDocumentEmbedder expects a list of Documents as input")),
    );
  }
});

test("test_openai_document_embedder: test_run_on_empty_list", async () => {
  const result = await new OpenAIDocumentEmbedder({ api_key: Secret.fromToken(KEY) }).run({ documents: [] }, ctx());
  assert.equal(result.documents, []);
});

test("test_openai_document_embedder: test_embed_batch_handles_exceptions_gracefully", () =>
  withFixture(async (f) => {
    f.script(mistake);
    const { ctx: context, errors } = logged();
    const texts = [new Document({ id: "1", content: "text1" }), new Document({ id: "2", content: "text2" })];
    const result = await new OpenAIDocumentEmbedder({ api_key: Secret.fromToken(KEY), api_base_url: f.url, max_retries: 0, batch_size: 2 }).run({ documents: texts }, context);
    assert.is(errors.length, 1);
    assert.ok(errors[0]!.includes("Failed embedding of documents 1, 2 caused by Mocked error"), errors[0]);
    assert.ok(result.documents.every((d) => d.embedding == null));
  }));

test("test_openai_document_embedder: test_run_handles_exceptions_gracefully", () =>
  withFixture(async (f) => {
    f.script([mistake, { embeddings: [[0.4, 0.5, 0.6]], model: "text-embedding-ada-002", usage: { prompt_tokens: 10, total_tokens: 10 } } as any]);
    const documents = [new Document({ content: "I love cheese", meta: { topic: "Cuisine" } }), new Document({ content: "A transformer is a deep learning architecture", meta: { topic: "ML" } })];
    const result = await new OpenAIDocumentEmbedder({ api_key: Secret.fromToken(KEY), api_base_url: f.url, max_retries: 0, batch_size: 1 }).run({ documents }, ctx());
    assert.is(result.documents.length, 2);
    assert.is(result.documents[0]!.embedding ?? null, null);
    assert.equal(result.documents[1]!.embedding, [0.4, 0.5, 0.6]);
  }));

test("test_openai_document_embedder: test_embed_batch_raises_exception_on_failure", () =>
  withFixture(async (f) => {
    f.script(mistake);
    const texts = [new Document({ id: "1", content: "text1" }), new Document({ id: "2", content: "text2" })];
    await new OpenAIDocumentEmbedder({ api_key: Secret.fromToken(KEY), api_base_url: f.url, max_retries: 0, raise_on_failure: true }).run({ documents: texts }, ctx()).then(
      () => assert.unreachable(),
      (err: Error) => assert.match(err.message, /Mocked error/),
    );
  }));

// ---- The live runs (Haystack's `test_run` / `test_run_async`, real OpenAI): the fixture in its
// likeOpenAI mode answers ada-002's 1536-long vectors, its `-v2` snapshot name and the usage in
// cl100k_base tokens, so Haystack's exact usage values hold only if svc embeds the same texts.
async function withOpenAI(fn: (f: OpenAIFixture) => Promise<void>): Promise<void> {
  const fixture = await startOpenAIFixture({ apiKey: KEY, likeOpenAI: true });
  try {
    await fn(fixture);
  } finally {
    await fixture.close();
  }
}

for (const name of ["test_run", "test_run_async"]) {
  test(`test_openai_text_embedder: ${name}`, () =>
    withOpenAI(async (f) => {
      const embedder = new OpenAITextEmbedder({ model: "text-embedding-ada-002", prefix: "prefix ", suffix: " suffix", api_key: Secret.fromToken(KEY), api_base_url: f.url, max_retries: 0 });
      const result = (await embedder.run({ text: "The food was delicious" }, ctx())) as { embedding: number[]; meta: { model: string; usage: unknown } };
      assert.is(result.embedding.length, 1536);
      assert.ok(result.embedding.every((x) => typeof x === "number" && Number.isFinite(x)));
      assert.ok(result.meta.model.includes("text") && result.meta.model.includes("ada"));
      assert.equal(result.meta.usage, { prompt_tokens: 6, total_tokens: 6 });
      assert.equal(f.requests[0]!.body.input, "prefix The food was delicious suffix");
    }));

  test(`test_openai_document_embedder: ${name}`, () =>
    withOpenAI(async (f) => {
      const docs = [new Document({ content: "I love cheese", meta: { topic: "Cuisine" } }), new Document({ content: "A transformer is a deep learning architecture", meta: { topic: "ML" } })];
      const embedder = new OpenAIDocumentEmbedder({ model: "text-embedding-ada-002", meta_fields_to_embed: ["topic"], embedding_separator: " | ", api_key: Secret.fromToken(KEY), api_base_url: f.url, max_retries: 0 });
      const result = (await embedder.run({ documents: docs }, ctx())) as { documents: Document[]; meta: { model: string; usage: unknown } };
      assert.ok(embedder.clientSettings);
      const embedded = result.documents;
      assert.is(embedded.length, docs.length);
      docs.forEach((doc, i) => {
        const newDoc = embedded[i]!;
        assert.is(doc.embedding ?? null, null);
        assert.ok(newDoc !== doc);
        assert.ok(newDoc instanceof Document);
        assert.is(newDoc.embedding!.length, 1536);
        assert.ok(newDoc.embedding!.every((x) => typeof x === "number" && Number.isFinite(x)));
      });
      assert.ok(result.meta.model.includes("text") && result.meta.model.includes("ada"));
      assert.equal(result.meta.usage, { prompt_tokens: 15, total_tokens: 15 });
    }));
}

test.run();
