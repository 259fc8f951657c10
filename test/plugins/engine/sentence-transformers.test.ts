import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { createRegistry, Document, loadPipelineYaml, SentenceTransformersDocumentEmbedder, SentenceTransformersTextEmbedder } from "svc/engine";
import { E, T, tokenId, tokenVector, writeTinyModel } from "../../fixtures/tiny-onnx-model.js";

const root = mkdtempSync(join(tmpdir(), "svc-st-"));
const meanModel = writeTinyModel(join(root, "mean"));
const ctx = { name: "embedder", signal: new AbortController().signal } as never;

/*
 * sentence-transformers' mean pooling: sum of the token vectors where attention_mask is 1, divided
 * by the number of such tokens; normalize_embeddings divides by the L2 norm (at least 1e-12).
 * The tokenizer adds [CLS] … [SEP]; "cats" is "cat" + "##s". The graph gives E[id] + T[0] per token.
 */
const mean = (ids: number[]) => E[0]!.map((_, d) => ids.reduce((s, id) => s + tokenVector(id)[d]!, 0) / ids.length);
const unit = (x: number[]) => {
  const n = Math.sqrt(x.reduce((s, v) => s + v * v, 0));
  return x.map((v) => v / n);
};
const ids = (...tokens: Parameters<typeof tokenId>[0][]) => ["[CLS]", ...tokens, "[SEP]"].map((t) => tokenId(t as never));

function close(actual: number[], expected: number[], label: string) {
  assert.is(actual.length, expected.length, label);
  actual.forEach((a, i) => assert.ok(Math.abs(a - expected[i]!) < 1e-6, `${label}[${i}]: ${a} ≠ ${expected[i]}`));
}

test("text embedder: the ONNX model runs in-process, mean pooling as sentence-transformers computes it", async () => {
  assert.equal(T[1], [0, 0, 0, 0]);
  const embedder = new SentenceTransformersTextEmbedder({ model: meanModel });
  await embedder.warmUp();
  const { embedding } = await embedder.run({ text: "Hello world" }, ctx);
  close(embedding, mean(ids("hello", "world")), "Hello world");
  const normalized = new SentenceTransformersTextEmbedder({ model: meanModel, normalize_embeddings: true, prefix: "the ", suffix: " dog" });
  close((await normalized.run({ text: "cats" }, ctx)).embedding, unit(mean(ids("the", "cat", "##s", "dog"))), "prefix + text + suffix, normalized");
  const truncated = new SentenceTransformersTextEmbedder({ model: meanModel, truncate_dim: 2, normalize_embeddings: true });
  close((await truncated.run({ text: "hello" }, ctx)).embedding, unit(mean(ids("hello")).slice(0, 2)), "truncate_dim, then normalize");
});

test("document embedder: batches with padding give each document its own mean, meta fields embedded first", async () => {
  const embedder = new SentenceTransformersDocumentEmbedder({ model: meanModel, batch_size: 2, meta_fields_to_embed: ["topic"], embedding_separator: " " });
  const docs = [new Document({ content: "hello world" }), new Document({ content: "dog", meta: { topic: "cat" } }), new Document({ content: "the cats dog hello" })];
  const { documents } = await embedder.run({ documents: docs }, ctx);
  close(documents[0]!.embedding!, mean(ids("hello", "world")), "first of a padded batch");
  close(documents[1]!.embedding!, mean(ids("cat", "dog")), "meta field + content, padded");
  close(documents[2]!.embedding!, mean(ids("the", "cat", "##s", "dog", "hello")), "second batch");
  assert.equal(documents.map((d) => d.id), docs.map((d) => d.id), "ids stay");
  assert.is(docs[0]!.embedding, null, "inputs are not changed");
});

test("the model's own Pooling and Normalize modules and max_seq_length are applied", async () => {
  const cls = writeTinyModel(join(root, "cls"), { pooling: "cls", normalizeModule: true });
  const { embedding } = await new SentenceTransformersTextEmbedder({ model: cls }).run({ text: "dog world" }, ctx);
  close(embedding, unit(tokenVector(tokenId("[CLS]"))), "CLS pooling + Normalize module");
  const max = writeTinyModel(join(root, "max"), { pooling: "max", maxSeqLength: 3 });
  const r = await new SentenceTransformersTextEmbedder({ model: max }).run({ text: "hello world dog cat" }, ctx);
  // max_seq_length 3 keeps [CLS] hello [SEP].
  const kept = ids("hello");
  close(r.embedding, E[0]!.map((_, d) => Math.max(...kept.map((id) => tokenVector(id)[d]!))), "max pooling, truncated");
});

test("a model id is looked up in the Hugging Face cache; a missing model fails at warm-up naming where it looked", async () => {
  const hub = join(root, "hub");
  const snapshot = join(hub, "models--acme--tiny", "snapshots", "abc123");
  writeTinyModel(snapshot);
  mkdirSync(join(hub, "models--acme--tiny", "refs"), { recursive: true });
  writeFileSync(join(hub, "models--acme--tiny", "refs", "main"), "abc123");
  const saved = process.env.HF_HUB_CACHE;
  process.env.HF_HUB_CACHE = hub;
  try {
    const { embedding } = await new SentenceTransformersTextEmbedder({ model: "acme/tiny" }).run({ text: "hello world" }, ctx);
    close(embedding, mean(ids("hello", "world")), "from the cache");
    const missing = new SentenceTransformersTextEmbedder({ model: "acme/absent" });
    const error = await missing.warmUp().then(() => null, (e: Error) => e);
    assert.ok(error, "warm-up fails");
    assert.match(error!.message, /Model 'acme\/absent' was not found on disk \(models are never downloaded\)/);
    assert.ok(error!.message.includes(join(hub, "models--acme--absent", "snapshots", "main")), error!.message);
  } finally {
    if (saved === undefined) delete process.env.HF_HUB_CACHE;
    else process.env.HF_HUB_CACHE = saved;
  }
  const incomplete = join(root, "incomplete");
  mkdirSync(incomplete, { recursive: true });
  writeFileSync(join(incomplete, "config.json"), "{}");
  const error = await new SentenceTransformersDocumentEmbedder({ model: incomplete }).warmUp().then(() => null, (e: Error) => e);
  assert.match(error!.message, /lacks tokenizer.json, tokenizer_config.json, onnx\/model.onnx/);
});

test("loads from Haystack's own YAML (both type paths) and refuses what it cannot do", async () => {
  const yaml = (type: string, extra = "") => `components:
  embedder:
    type: ${type}
    init_parameters:
      model: ${meanModel}
      device: {type: single, device: cpu}
      token: {type: env_var, env_vars: [HF_API_TOKEN, HF_TOKEN], strict: false}
      prefix: ''
      suffix: ''
      batch_size: 32
      progress_bar: true
      normalize_embeddings: true
      trust_remote_code: false
      local_files_only: false
      truncate_dim: null
      model_kwargs: null
      tokenizer_kwargs: null
      config_kwargs: null
      precision: float32
      encode_kwargs: null
      backend: torch
      revision: null
${extra}`;
  const registry = createRegistry();
  const v2 = loadPipelineYaml(yaml("haystack.components.embedders.sentence_transformers_text_embedder.SentenceTransformersTextEmbedder"), registry);
  const result = (await v2.run({ embedder: { text: "hello world" } })) as { embedder: { embedding: number[] } };
  close(result.embedder.embedding, unit(mean(ids("hello", "world"))), "from YAML");
  const v3 = loadPipelineYaml(
    yaml("haystack_integrations.components.embedders.sentence_transformers.sentence_transformers_document_embedder.SentenceTransformersDocumentEmbedder", "      meta_fields_to_embed: [topic]\n      embedding_separator: \"\\n\"\n"),
    registry,
  );
  const out = (await v3.run({ embedder: { documents: [new Document({ content: "dog", meta: { topic: "cat" } })] } })) as { embedder: { documents: Document[] } };
  close(out.embedder.documents[0]!.embedding!, unit(mean(ids("cat", "dog"))), "document embedder from YAML");
  assert.throws(() => new SentenceTransformersTextEmbedder({ model: meanModel, precision: "int8" }), /Only precision 'float32' is supported/);
  assert.throws(() => new SentenceTransformersTextEmbedder({ model: meanModel, encode_kwargs: { task: "x" } }), /encode_kwargs is not supported/);
});

test.after(() => rmSync(root, { recursive: true, force: true }));

test.run();
