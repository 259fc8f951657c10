/**
 * @module Haystack's FilterDocumentsAsyncTest (document_store_async.py): smoke tests of the
 * `filter_documents_async` path, run only through the `*_async` forms.
 */
import assert from "node:assert/strict";
import { Document } from "../dataclasses/document.js";
import type { ContractCase } from "./contract.js";
import { createFilterableDocs } from "./fixtures.js";

export const asyncCases: ContractCase[] = [
  {
    name: "FilterDocumentsAsyncTest.test_no_filters_async",
    group: "base",
    only: "async",
    async run({ store }) {
      await store.write_documents([new Document({ content: "first doc" }), new Document({ content: "second doc" }), new Document({ content: "third doc" })]);
      assert.equal((await store.filter_documents()).length, 3);
    },
  },
  {
    name: "FilterDocumentsAsyncTest.test_filter_simple_async",
    group: "base",
    only: "async",
    async run({ store, assertDocumentsEqual, embeddingSize }) {
      const docs = createFilterableDocs(embeddingSize);
      await store.write_documents(docs);
      const result = await store.filter_documents({ field: "meta.number", operator: "==", value: 2 });
      assertDocumentsEqual(result, docs.filter((d) => d.meta.number === 2));
    },
  },
  {
    name: "FilterDocumentsAsyncTest.test_filter_compound_async",
    group: "base",
    only: "async",
    async run({ store, assertDocumentsEqual, embeddingSize }) {
      const docs = createFilterableDocs(embeddingSize);
      await store.write_documents(docs);
      const filters = {
        operator: "AND",
        conditions: [
          { field: "meta.number", operator: "==", value: 2 },
          { field: "meta.name", operator: "==", value: "name_0" },
        ],
      };
      assertDocumentsEqual(await store.filter_documents(filters), docs.filter((d) => d.meta.number === 2 && d.meta.name === "name_0"));
    },
  },
];
