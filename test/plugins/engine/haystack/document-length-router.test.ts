/**
 * Haystack's DocumentLengthRouter tests (test/components/routers/test_document_length_router.py),
 * ported value for value; `component_from_dict` is loading the dict through the registry.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { Document, DocumentLengthRouter, createRegistry } from "svc/engine";

const TYPE = "haystack.components.routers.document_length_router.DocumentLengthRouter";
const LONG = "Long document ".repeat(20);

test("test_init", () => assert.is(new DocumentLengthRouter({ threshold: 20 }).initParameters.threshold, 20));

test("test_run", () => {
  const docs = [new Document({ content: "Short" }), new Document({ content: LONG })];
  const result = new DocumentLengthRouter({ threshold: 10 }).run({ documents: docs });
  assert.is(result.short_documents.length, 1);
  assert.is(result.long_documents.length, 1);
  assert.is(result.short_documents[0], docs[0]);
  assert.is(result.long_documents[0], docs[1]);
});

test("test_run_with_null_content", () => {
  const docs = [new Document({ content: null }), new Document({ content: LONG })];
  const result = new DocumentLengthRouter({ threshold: 10 }).run({ documents: docs });
  assert.is(result.short_documents.length, 1);
  assert.is(result.long_documents.length, 1);
  assert.is(result.short_documents[0], docs[0]);
  assert.is(result.long_documents[0], docs[1]);
});

test("test_run_with_negative_threshold", () => {
  const docs = [new Document({ content: null }), new Document({ content: "Short" }), new Document({ content: LONG })];
  const result = new DocumentLengthRouter({ threshold: -1 }).run({ documents: docs });
  assert.is(result.short_documents.length, 1);
  assert.is(result.long_documents.length, 2);
  assert.is(result.short_documents[0], docs[0]);
  assert.is(result.long_documents[0], docs[1]);
  assert.is(result.long_documents[1], docs[2]);
});

test("test_to_dict", () => assert.equal(new DocumentLengthRouter({ threshold: 10 }).toDict(), { type: TYPE, init_parameters: { threshold: 10 } }));

test("test_from_dict", () => {
  const Loaded = createRegistry().components.get(TYPE);
  const loaded = new Loaded({ threshold: 10 });
  assert.instance(loaded, DocumentLengthRouter);
  assert.is((loaded as DocumentLengthRouter).initParameters.threshold, 10);
});

test.run();
