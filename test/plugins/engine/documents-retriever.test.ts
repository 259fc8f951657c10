import { test } from "uvu";
import * as assert from "uvu/assert";
import { NOOP_TRACER } from "svc/plugin";
import { Document } from "../../../plugins/engine/dataclasses/document.js";
import { DuplicateDocumentError, InMemoryDocumentStore } from "../../../plugins/engine/document-store.js";
import { InMemoryBM25Retriever } from "../../../plugins/engine/components/in-memory-bm25-retriever.js";
import { DocumentWriter } from "../../../plugins/engine/components/document-writer.js";

const ctx = () => ({ name: "x", signal: new AbortController().signal, tracer: NOOP_TRACER });
const close = (actual: number | null, expected: number) => assert.ok(actual !== null && Math.abs(actual - expected) < 1e-12, `${actual} ≠ ${expected}`);

async function rejects(promise: Promise<unknown>, expected: RegExp | (new (...args: any[]) => Error)) {
  try {
    await promise;
  } catch (error) {
    if (expected instanceof RegExp) assert.match((error as Error).message, expected);
    else assert.instance(error, expected);
    return;
  }
  assert.unreachable("expected a rejection");
}

// The corpus of documents.test.ts; its scores there are checked against Haystack's formulas.
const TEXTS = ["The quick brown fox jumps over the lazy dog", "The lazy dog sleeps all day", "A quick brown dog outpaces a quick red fox", "Cats sleep"];

function corpusStore() {
  const store = new InMemoryDocumentStore();
  store.write_documents(TEXTS.map((content, i) => new Document({ content, meta: { n: i } })));
  return { store };
}

test("InMemoryBM25Retriever: defaults, runtime top_k/scale_score, validation and serialization", () => {
  const { store } = corpusStore();
  const retriever = new InMemoryBM25Retriever({ document_store: store, top_k: 2 });
  const out = retriever.run({ query: "quick fox" }, ctx());
  assert.equal(out.documents.map((d) => TEXTS.indexOf(d.content!)), [2, 0]);
  close(out.documents[0]!.score, 1.7976919625934604);
  const more = retriever.run({ query: "quick fox", top_k: 3, scale_score: true }, ctx());
  assert.is(more.documents.length, 3);
  close(more.documents[0]!.score, 0.5559426684247485);
  assert.throws(() => new InMemoryBM25Retriever({ document_store: store, top_k: 0 }), /top_k must be greater than 0/);
  assert.throws(() => new InMemoryBM25Retriever({ document_store: {} }), /document_store must be an instance of InMemoryDocumentStore/);
  assert.throws(() => new InMemoryBM25Retriever({ document_store: store, filter_policy: "sometimes" }), /filter_policy/);
  const dict = retriever.toDict();
  assert.is(dict.type, "haystack.components.retrievers.in_memory.bm25_retriever.InMemoryBM25Retriever");
  assert.equal((dict.init_parameters.document_store as { init_parameters: { index: string } }).init_parameters.index, store.index);
  assert.equal(Object.keys(retriever.inputSockets), ["query", "filters", "top_k", "scale_score"]);
  assert.ok(retriever.inputSockets.query!.mandatory && !retriever.inputSockets.filters!.mandatory);
});

test("InMemoryBM25Retriever: runtime filters replace or merge with the init filters", () => {
  const { store } = corpusStore();
  const initFilters = { field: "meta.n", operator: "<", value: 3 };
  const replace = new InMemoryBM25Retriever({ document_store: store, filters: initFilters });
  const merge = new InMemoryBM25Retriever({ document_store: store, filters: initFilters, filter_policy: "MERGE" });
  const ids = (docs: Document[]) => docs.map((d) => d.meta.n).sort();
  assert.equal(ids(replace.run({ query: "sleep" }, ctx()).documents), [0, 1, 2]);
  const runtime = { field: "meta.n", operator: ">", value: 0 };
  assert.equal(ids(replace.run({ query: "sleep", filters: runtime }, ctx()).documents), [1, 2, 3]);
  // Same field: the runtime condition wins; different fields: AND.
  assert.equal(ids(merge.run({ query: "sleep", filters: runtime }, ctx()).documents), [1, 2, 3]);
  assert.equal(ids(merge.run({ query: "sleep", filters: { field: "content", operator: "!=", value: TEXTS[1] } }, ctx()).documents), [0, 2]);
  assert.equal(initFilters, { field: "meta.n", operator: "<", value: 3 }, "init filters are not mutated");
});

test("DocumentWriter: writes with the init or runtime policy and returns documents_written", async () => {
  const store = new InMemoryDocumentStore();
  const writer = new DocumentWriter({ document_store: store, policy: "SKIP" });
  const docs = [new Document({ content: "one" }), new Document({ content: "two" })];
  assert.equal(await writer.run({ documents: docs }, ctx()), { documents_written: 2 });
  assert.equal(await writer.run({ documents: docs }, ctx()), { documents_written: 0 });
  await rejects(writer.run({ documents: docs, policy: "FAIL" }, ctx()), /already exists/);
  assert.equal(await writer.run({ documents: docs, policy: "OVERWRITE" }, ctx()), { documents_written: 2 });
  const strict = new DocumentWriter({ document_store: store });
  await rejects(strict.run({ documents: docs }, ctx()), DuplicateDocumentError);
  assert.throws(() => new DocumentWriter({ document_store: store, policy: "MAYBE" }), /policy must be one of/);
  assert.throws(() => new DocumentWriter({}), /document_store/);
  assert.equal(writer.toDict().init_parameters, { document_store: store.toDict(), policy: "SKIP" });
  assert.is(DocumentWriter.type, "haystack.components.writers.document_writer.DocumentWriter");
});

test.run();
