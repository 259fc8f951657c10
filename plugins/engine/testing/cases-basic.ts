/**
 * @module Contract cases for count_documents, write_documents (duplicate policies, bad input) and
 * delete_documents: CountDocumentsTest, WriteDocumentsTest, DeleteDocumentsTest. svc's rule where
 * Haystack leaves the default to the store: NONE means FAIL.
 */
import assert from "node:assert/strict";
import { Document } from "../dataclasses/document.js";
import { rejects, rejectsNamed } from "./assertions.js";
import type { ContractCase } from "./contract.js";

export const basicCases: ContractCase[] = [
  {
    name: "CountDocumentsTest.test_count_empty",
    group: "base",
    async run({ store }) {
      assert.equal(await store.count_documents(), 0);
    },
  },
  {
    name: "CountDocumentsTest.test_count_not_empty",
    group: "base",
    async run({ store }) {
      await store.write_documents([new Document({ content: "test doc 1" }), new Document({ content: "test doc 2" }), new Document({ content: "test doc 3" })]);
      assert.equal(await store.count_documents(), 3);
    },
  },
  {
    name: "WriteDocumentsTest.test_write_documents (NONE means FAIL)",
    group: "base",
    async run({ store, assertDocumentsEqual }) {
      const doc = new Document({ content: "test doc" });
      assert.equal(await store.write_documents([doc]), 1);
      assertDocumentsEqual(await store.filter_documents(), [doc]);
      await rejectsNamed(store.write_documents([doc]), "DuplicateDocumentError");
      await rejectsNamed(store.write_documents([doc], "NONE"), "DuplicateDocumentError");
      assert.equal(await store.count_documents(), 1);
    },
  },
  {
    name: "WriteDocumentsTest.test_write_documents_duplicate_fail",
    group: "base",
    async run({ store, assertDocumentsEqual }) {
      const doc = new Document({ content: "test doc" });
      assert.equal(await store.write_documents([doc], "fail"), 1);
      await rejectsNamed(store.write_documents([doc], "fail"), "DuplicateDocumentError");
      assertDocumentsEqual(await store.filter_documents(), [doc]);
    },
  },
  {
    name: "WriteDocumentsTest.test_write_documents_duplicate_skip",
    group: "base",
    async run({ store }) {
      const doc = new Document({ content: "test doc" });
      assert.equal(await store.write_documents([doc], "skip"), 1);
      assert.equal(await store.write_documents([doc], "skip"), 0);
      // A batch with one new and one known document writes (and counts) only the new one.
      assert.equal(await store.write_documents([doc, new Document({ content: "other" })], "SKIP"), 1);
      assert.equal(await store.count_documents(), 2);
    },
  },
  {
    name: "WriteDocumentsTest.test_write_documents_duplicate_overwrite",
    group: "base",
    async run({ store, assertDocumentsEqual }) {
      const doc1 = new Document({ id: "1", content: "test doc 1" });
      const doc2 = new Document({ id: "1", content: "test doc 2" });
      assert.equal(await store.write_documents([doc2], "overwrite"), 1);
      assertDocumentsEqual(await store.filter_documents(), [doc2]);
      assert.equal(await store.write_documents([doc1], "OVERWRITE"), 1);
      assertDocumentsEqual(await store.filter_documents(), [doc1]);
    },
  },
  {
    name: "WriteDocumentsTest.test_write_documents_invalid_input",
    group: "base",
    async run({ store }) {
      await rejects(store.write_documents(["not a document for sure"] as never));
      await rejects(store.write_documents("not a list actually" as never));
      assert.equal(await store.count_documents(), 0);
    },
  },
  {
    name: "WriteDocumentsTest: meta, blob-less content and embeddings round-trip",
    group: "base",
    async run({ store, assertDocumentsEqual }) {
      const docs = [
        new Document({ id: "a", content: "with meta", meta: { str: "x", int: 7, float: 2.5, bool: false, list: ["p", "q"], nested: { k: 1 } } }),
        new Document({ id: "b", content: null, meta: { only: "meta" } }),
        new Document({ id: "c", content: "with embedding", embedding: [0.25, -0.5, 1] }),
      ];
      assert.equal(await store.write_documents(docs), 3);
      assertDocumentsEqual(await store.filter_documents(), docs);
    },
  },
  {
    name: "DeleteDocumentsTest.test_delete_documents",
    group: "base",
    async run({ store }) {
      const doc = new Document({ content: "test doc" });
      await store.write_documents([doc]);
      assert.equal(await store.count_documents(), 1);
      await store.delete_documents([doc.id]);
      assert.equal(await store.count_documents(), 0);
    },
  },
  {
    name: "DeleteDocumentsTest.test_delete_documents_empty_document_store",
    group: "base",
    async run({ store }) {
      await store.delete_documents(["non_existing_id"]);
      assert.equal(await store.count_documents(), 0);
    },
  },
  {
    name: "DeleteDocumentsTest.test_delete_documents_non_existing_document",
    group: "base",
    async run({ store }) {
      const doc = new Document({ content: "test doc" });
      await store.write_documents([doc]);
      await store.delete_documents(["non_existing_id"]);
      assert.equal(await store.count_documents(), 1);
    },
  },
];
