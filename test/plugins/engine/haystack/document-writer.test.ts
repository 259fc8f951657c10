/**
 * Haystack's test/components/writers/test_document_writer.py, ported value for value. Haystack's
 * `document_store_class("MockedDocumentStore")` is a store class here whose `toDict` names that
 * type; `from_dict` is loading the component from a pipeline YAML (the registry builds the store).
 * svc has one async `run` and one async `close`: `test_run_async*` run the same `run`,
 * `test_close_async` closes a store whose `close` answers a promise.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { Document, DocumentWriter, InMemoryDocumentStore, createRegistry, loadPipelineYaml } from "svc/engine";

const WRITER_TYPE = "haystack.components.writers.document_writer.DocumentWriter";
const STORE_TYPE = "haystack.document_stores.in_memory.document_store.InMemoryDocumentStore";

/** Haystack's `document_store_class("MockedDocumentStore")`: a store that stores nothing. */
class MockedDocumentStore {
  count_documents() {
    return 0;
  }
  filter_documents() {
    return [];
  }
  write_documents() {
    return 0;
  }
  delete_documents() {}
  toDict() {
    return { type: "haystack.testing.factory.MockedDocumentStore", init_parameters: {} };
  }
}

const twoDocuments = () => [new Document({ content: "This is the text of a document." }), new Document({ content: "This is the text of another document." })];

/** `DocumentWriter.from_dict(data)`: the component as a pipeline YAML loads it. */
function fromDict(data: { type: string; init_parameters: Record<string, unknown> }): DocumentWriter {
  const yaml = `components:\n  writer: ${JSON.stringify(data)}\n`;
  return loadPipelineYaml(yaml, createRegistry()).getComponent("writer") as DocumentWriter;
}

/** The error loading `data` throws. */
function fromDictError(data: { type: string; init_parameters: Record<string, unknown> }): Error {
  try {
    fromDict(data);
  } catch (e) {
    return e as Error;
  }
  assert.unreachable("expected from_dict to fail");
  throw new Error("unreachable");
}

test("test_to_dict", () => {
  const component = new DocumentWriter({ document_store: new MockedDocumentStore() });
  assert.equal(component.toDict(), {
    type: WRITER_TYPE,
    init_parameters: { document_store: { type: "haystack.testing.factory.MockedDocumentStore", init_parameters: {} }, policy: "NONE" },
  });
});

test("test_to_dict_with_custom_init_parameters", () => {
  const component = new DocumentWriter({ document_store: new MockedDocumentStore(), policy: "SKIP" });
  assert.equal(component.toDict(), {
    type: WRITER_TYPE,
    init_parameters: { document_store: { type: "haystack.testing.factory.MockedDocumentStore", init_parameters: {} }, policy: "SKIP" },
  });
  // Haystack writes the enum's name; svc accepts any case and writes the name too.
  assert.is(new DocumentWriter({ document_store: new MockedDocumentStore(), policy: "overwrite" }).toDict().init_parameters.policy, "OVERWRITE");
});

test("test_from_dict", () => {
  const component = fromDict({ type: WRITER_TYPE, init_parameters: { document_store: { type: STORE_TYPE, init_parameters: {} }, policy: "SKIP" } });
  assert.instance(component.initParameters.document_store, InMemoryDocumentStore);
  assert.is(component.initParameters.policy, "skip");
});

test("test_from_dict_without_policy", () => {
  const component = fromDict({ type: WRITER_TYPE, init_parameters: { document_store: { type: STORE_TYPE, init_parameters: {} } } });
  assert.instance(component.initParameters.document_store, InMemoryDocumentStore);
  assert.is(component.initParameters.policy, "none");
});

test("test_from_dict_without_docstore", () => {
  const error = fromDictError({ type: WRITER_TYPE, init_parameters: {} });
  assert.match(error.message, /missing 1 required positional argument: 'document_store'/);
});

test("test_from_dict_nonexisting_docstore", () => {
  const error = fromDictError({ type: WRITER_TYPE, init_parameters: { document_store: { type: "haystack.does.not.exist.DocumentStore", init_parameters: {} } } });
  assert.match(error.message, /Failed to deserialize 'document_store':.*haystack\.does\.not\.exist\.DocumentStore/s);
});

for (const name of ["test_run", "test_run_async"]) {
  test(name, async () => {
    const writer = new DocumentWriter({ document_store: new InMemoryDocumentStore({ shared: false }) });
    const result = await writer.run({ documents: twoDocuments() });
    assert.is(result.documents_written, 2);
  });
}

for (const name of ["test_run_skip_policy", "test_run_async_skip_policy"]) {
  test(name, async () => {
    const writer = new DocumentWriter({ document_store: new InMemoryDocumentStore({ shared: false }), policy: "SKIP" });
    const documents = twoDocuments();
    assert.is((await writer.run({ documents })).documents_written, 2);
    assert.is((await writer.run({ documents })).documents_written, 0);
  });
}

test("test_close", async () => {
  const calls: unknown[][] = [];
  const closable = Object.assign(new MockedDocumentStore(), { close: (...args: unknown[]) => void calls.push(args) });
  await new DocumentWriter({ document_store: closable }).close();
  assert.equal(calls, [[]]);
  // A store without close: nothing is called, nothing fails.
  await new DocumentWriter({ document_store: new MockedDocumentStore() }).close();
});

test("test_close_async", async () => {
  let awaited = 0;
  const closable = Object.assign(new MockedDocumentStore(), {
    close: () =>
      new Promise<void>((resolve) =>
        setImmediate(() => {
          awaited++;
          resolve();
        }),
      ),
  });
  await new DocumentWriter({ document_store: closable }).close();
  assert.is(awaited, 1, "close awaits the store's close");
  await new DocumentWriter({ document_store: new MockedDocumentStore() }).close();
});

test.run();
