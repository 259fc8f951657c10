/**
 * The init, to_dict and from_dict cases Haystack's test_in_memory_bm25_retriever.py and
 * test_in_memory_embedding_retriever.py share (same names, same values), registered for one
 * retriever. Haystack's `document_store_class("MyFakeStore", bases=(InMemoryDocumentStore,))` is
 * an InMemoryDocumentStore subclass whose `toDict` is replaced; `from_dict` is loading the component
 * from a pipeline YAML; `document_store_class("SomeOtherDocumentStore")` is a plain store object.
 */
import type { Test } from "uvu";
import * as assert from "uvu/assert";
import { InMemoryBM25Retriever, InMemoryDocumentStore, InMemoryEmbeddingRetriever, createRegistry, loadPipelineYaml } from "svc/engine";

export const STORE_TYPE = "haystack.document_stores.in_memory.document_store.InMemoryDocumentStore";

type RetrieverClass = typeof InMemoryBM25Retriever | typeof InMemoryEmbeddingRetriever;
type Retriever = InMemoryBM25Retriever | InMemoryEmbeddingRetriever;
type Dict = { type: string; init_parameters: Record<string, unknown> };

/** `Retriever.from_dict(data)`: the component as a pipeline YAML loads it. */
export function fromDict(data: Dict): Retriever {
  return loadPipelineYaml(`components:\n  retriever: ${JSON.stringify(data)}\n`, createRegistry()).getComponent("retriever") as Retriever;
}

function fromDictError(data: Dict): Error {
  try {
    fromDict(data);
  } catch (e) {
    return e as Error;
  }
  assert.unreachable("expected from_dict to fail");
  throw new Error("unreachable");
}

/** An InMemoryDocumentStore subclass that serializes as `toDict` says. */
export function fakeStore(toDict: Dict): InMemoryDocumentStore {
  const store = new InMemoryDocumentStore({ shared: false });
  store.toDict = () => toDict;
  return store;
}

/** Haystack's `document_store_class("SomeOtherDocumentStore")()`: a store, but not an in-memory one. */
export const someOtherDocumentStore = () => ({ count_documents: () => 0, filter_documents: () => [], write_documents: () => 0, delete_documents: () => undefined });

/** Registers test_init_*, test_to_dict*, test_from_dict* and test_invalid_run_wrong_store_type. */
export function sharedCases(test: Test, Retriever: RetrieverClass, options: { fakeStoreType: string; extraDefaults: Record<string, unknown>; customExtras: Record<string, unknown>; fromDictPolicy: "replace" | "merge" }): void {
  const store = () => new InMemoryDocumentStore({ shared: false });

  test("test_init_default", () => {
    const r = new Retriever({ document_store: store() });
    assert.is(r.initParameters.filters, null);
    assert.is(r.initParameters.top_k, 10);
    assert.is(r.initParameters.scale_score, false);
  });

  test("test_init_with_parameters", () => {
    const r = new Retriever({ document_store: store(), filters: { name: "test.txt" }, top_k: 5, scale_score: true });
    assert.equal(r.initParameters.filters, { name: "test.txt" });
    assert.is(r.initParameters.top_k, 5);
    assert.is(r.initParameters.scale_score, true);
  });

  test("test_init_with_invalid_top_k_parameter", () => {
    assert.throws(() => new Retriever({ document_store: store(), top_k: -2 }), /top_k must be greater than 0/);
  });

  test("test_to_dict", () => {
    const component = new Retriever({ document_store: fakeStore({ type: options.fakeStoreType, init_parameters: {} }) });
    assert.equal(component.toDict(), {
      type: Retriever.type,
      init_parameters: { document_store: { type: options.fakeStoreType, init_parameters: {} }, filters: null, top_k: 10, scale_score: false, ...options.extraDefaults, filter_policy: "replace" },
    });
  });

  test("test_to_dict_with_custom_init_parameters", () => {
    const ds = new InMemoryDocumentStore({ index: "test_to_dict_with_custom_init_parameters" });
    const documentStore = options.fakeStoreType === "MyFakeStore" ? new InMemoryDocumentStore({ index: "test_to_dict_with_custom_init_parameters" }) : fakeStore({ type: options.fakeStoreType, init_parameters: {} });
    const serialized = options.fakeStoreType === "MyFakeStore" ? ds.toDict() : { type: options.fakeStoreType, init_parameters: {} };
    const component = new Retriever({ document_store: documentStore, filters: { name: "test.txt" }, top_k: 5, scale_score: true, ...options.customExtras });
    assert.equal(component.toDict(), {
      type: Retriever.type,
      init_parameters: { document_store: serialized, filters: { name: "test.txt" }, top_k: 5, scale_score: true, ...options.customExtras, filter_policy: "replace" },
    });
  });

  test("test_from_dict", () => {
    const policy = options.fromDictPolicy === "merge" ? { filter_policy: "merge" } : {};
    const component = fromDict({ type: Retriever.type, init_parameters: { document_store: { type: STORE_TYPE, init_parameters: {} }, filters: { name: "test.txt" }, top_k: 5, ...policy } });
    assert.instance(component.document_store, InMemoryDocumentStore);
    assert.equal(component.initParameters.filters, { name: "test.txt" });
    assert.is(component.initParameters.top_k, 5);
    assert.is(component.initParameters.scale_score, false);
    assert.is(component.initParameters.filter_policy, options.fromDictPolicy);
  });

  test("test_from_dict_without_docstore", () => {
    assert.match(fromDictError({ type: Retriever.type, init_parameters: {} }).message, /missing 1 required positional argument: 'document_store'/);
  });

  test("test_from_dict_without_docstore_type", () => {
    const error = fromDictError({ type: Retriever.type, init_parameters: { document_store: { init_parameters: {} } } });
    assert.match(error.message, /document_store must be an instance of InMemoryDocumentStore/);
  });

  test("test_from_dict_nonexisting_docstore", () => {
    const error = fromDictError({ type: Retriever.type, init_parameters: { document_store: { type: "haystack.does.not.exist.Docstore", init_parameters: {} } } });
    assert.match(error.message, /Failed to deserialize 'document_store':.*haystack\.does\.not\.exist\.Docstore/s);
  });

  test("test_invalid_run_wrong_store_type", () => {
    assert.throws(() => new Retriever({ document_store: someOtherDocumentStore() as never }), /document_store must be an instance of InMemoryDocumentStore/);
  });
}
