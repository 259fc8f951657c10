/**
 * @module Contract cases for Haystack 3.x's extended write methods: delete_all_documents,
 * delete_by_filter, update_by_filter, count_documents_by_filter (DeleteAllTest,
 * DeleteByFilterTest, UpdateByFilterTest, CountDocumentsByFilterTest).
 */
import assert from "node:assert/strict";
import { Document } from "../dataclasses/document.js";
import type { ContractCase } from "./contract.js";
import { createFilterableDocs } from "./fixtures.js";

const eq = (field: string, value: unknown) => ({ field, operator: "==", value });
const and = (...conditions: object[]) => ({ operator: "AND", conditions });
const or = (...conditions: object[]) => ({ operator: "OR", conditions });

const ALPHA_BETA = () => [
  new Document({ content: "Doc 1", meta: { category: "Alpha", year: 2023, status: "draft" } }),
  new Document({ content: "Doc 2", meta: { category: "Alpha", year: 2024, status: "published" } }),
  new Document({ content: "Doc 3", meta: { category: "Beta", year: 2023, status: "draft" } }),
];

const AB_STATUS = () => [
  new Document({ content: "Doc 1", meta: { category: "A", status: "active" } }),
  new Document({ content: "Doc 2", meta: { category: "B", status: "active" } }),
  new Document({ content: "Doc 3", meta: { category: "A", status: "inactive" } }),
  new Document({ content: "Doc 4", meta: { category: "A", status: "active" } }),
];

export const extendedCases: ContractCase[] = [
  {
    name: "DeleteAllTest.test_delete_all_documents",
    group: "extended",
    async run({ store }) {
      await store.write_documents([new Document({ content: "first doc", id: "1" }), new Document({ content: "second doc", id: "2" })]);
      assert.equal(await store.count_documents(), 2);
      await store.delete_all_documents();
      assert.equal(await store.count_documents(), 0);
      await store.write_documents([new Document({ content: "new doc after delete all", id: "3" })]);
      assert.equal(await store.count_documents(), 1);
      // The ids of deleted documents are free again.
      assert.equal(await store.write_documents([new Document({ content: "first doc", id: "1" })]), 1);
    },
  },
  {
    name: "DeleteAllTest.test_delete_all_documents_empty_store",
    group: "extended",
    async run({ store }) {
      await store.delete_all_documents();
      assert.equal(await store.count_documents(), 0);
    },
  },
  {
    name: "DeleteByFilterTest.test_delete_by_filter",
    group: "extended",
    async run({ store }) {
      await store.write_documents([
        new Document({ content: "Doc 1", meta: { category: "Alpha" } }),
        new Document({ content: "Doc 2", meta: { category: "Beta" } }),
        new Document({ content: "Doc 3", meta: { category: "Alpha" } }),
      ]);
      assert.equal(await store.delete_by_filter(eq("meta.category", "Alpha")), 2);
      assert.equal(await store.count_documents(), 1);
      const remaining = await store.filter_documents();
      assert.equal(remaining.length, 1);
      assert.equal(remaining[0]!.meta.category, "Beta");
    },
  },
  {
    name: "DeleteByFilterTest.test_delete_by_filter_no_matches",
    group: "extended",
    async run({ store }) {
      await store.write_documents([new Document({ content: "Doc 1", meta: { category: "Alpha" } }), new Document({ content: "Doc 2", meta: { category: "Beta" } })]);
      assert.equal(await store.delete_by_filter(eq("meta.category", "Gamma")), 0);
      assert.equal(await store.count_documents(), 2);
    },
  },
  {
    name: "DeleteByFilterTest.test_delete_by_filter_advanced_filters",
    group: "extended",
    async run({ store }) {
      await store.write_documents(ALPHA_BETA());
      assert.equal(await store.delete_by_filter(and(eq("meta.category", "Alpha"), eq("meta.year", 2023))), 1);
      assert.equal(await store.count_documents(), 2);
      assert.equal(await store.delete_by_filter(or(eq("meta.category", "Beta"), eq("meta.status", "published"))), 2);
      assert.equal(await store.count_documents(), 0);
    },
  },
  {
    name: "UpdateByFilterTest.test_update_by_filter",
    group: "extended",
    async run({ store, embeddingSize }) {
      const docs = createFilterableDocs(embeddingSize);
      await store.write_documents(docs);
      const expected = docs.filter((d) => d.meta.chapter === "intro").length;
      assert.equal(await store.update_by_filter(eq("meta.chapter", "intro"), { updated: true }), expected);
      const updated = await store.filter_documents(eq("meta.updated", true));
      assert.equal(updated.length, expected);
      for (const doc of updated) {
        assert.equal(doc.meta.chapter, "intro");
        assert.equal(doc.meta.updated, true);
      }
      for (const doc of await store.filter_documents(eq("meta.chapter", "abstract"))) assert.notEqual(doc.meta.updated, true);
      // Content and embeddings are left as they were.
      const before = docs.find((d) => d.meta.chapter === "intro")!;
      const after = updated.find((d) => d.id === before.id)!;
      assert.equal(after.content, before.content);
      assert.equal(after.embedding?.length, before.embedding?.length);
    },
  },
  {
    name: "UpdateByFilterTest.test_update_by_filter_no_matches",
    group: "extended",
    async run({ store, embeddingSize }) {
      const docs = createFilterableDocs(embeddingSize);
      await store.write_documents(docs);
      assert.equal(await store.update_by_filter(eq("meta.chapter", "nonexistent_chapter"), { updated: true }), 0);
      assert.equal(await store.count_documents(), docs.length);
      assert.equal((await store.filter_documents(eq("meta.updated", true))).length, 0);
    },
  },
  {
    name: "UpdateByFilterTest.test_update_by_filter_multiple_fields",
    group: "extended",
    async run({ store, embeddingSize }) {
      const docs = createFilterableDocs(embeddingSize);
      await store.write_documents(docs);
      const expected = docs.filter((d) => d.meta.chapter === "intro").length;
      assert.equal(await store.update_by_filter(eq("meta.chapter", "intro"), { updated: true, extra_field: "set" }), expected);
      const updated = await store.filter_documents(eq("meta.extra_field", "set"));
      assert.equal(updated.length, expected);
      for (const doc of updated) {
        assert.equal(doc.meta.updated, true);
        assert.equal(doc.meta.extra_field, "set");
        assert.equal(doc.meta.chapter, "intro");
        assert.equal(doc.meta.number, 2);
      }
      for (const doc of await store.filter_documents(eq("meta.chapter", "abstract"))) assert.notEqual(doc.meta.extra_field, "set");
    },
  },
  {
    name: "UpdateByFilterTest.test_update_by_filter_advanced_filters",
    group: "extended",
    async run({ store }) {
      await store.write_documents(ALPHA_BETA().map((d) => new Document({ ...d, meta: { ...d.meta, status: "draft" } })));
      assert.equal(await store.update_by_filter(and(eq("meta.category", "Alpha"), eq("meta.year", 2023)), { status: "published" }), 1);
      const published = await store.filter_documents(eq("meta.status", "published"));
      assert.equal(published.length, 1);
      assert.equal(published[0]!.meta.category, "Alpha");
      assert.equal(published[0]!.meta.year, 2023);
      assert.equal(await store.update_by_filter(or(eq("meta.category", "Beta"), eq("meta.year", 2024)), { featured: true }), 2);
      assert.equal((await store.filter_documents(eq("meta.featured", true))).length, 2);
    },
  },
  {
    name: "CountDocumentsByFilterTest.test_count_documents_by_filter_simple",
    group: "extended",
    async run({ store }) {
      await store.write_documents(AB_STATUS());
      assert.equal(await store.count_documents_by_filter(eq("meta.category", "A")), 3);
      assert.equal(await store.count_documents_by_filter(eq("meta.category", "B")), 1);
    },
  },
  {
    name: "CountDocumentsByFilterTest.test_count_documents_by_filter_compound",
    group: "extended",
    async run({ store }) {
      await store.write_documents(AB_STATUS());
      assert.equal(await store.count_documents_by_filter(and(eq("meta.category", "A"), eq("meta.status", "active"))), 2);
    },
  },
  {
    name: "CountDocumentsByFilterTest.test_count_documents_by_filter_no_matches",
    group: "extended",
    async run({ store }) {
      await store.write_documents([new Document({ content: "Doc 1", meta: { category: "A" } }), new Document({ content: "Doc 2", meta: { category: "B" } })]);
      assert.equal(await store.count_documents_by_filter(eq("meta.category", "Z")), 0);
    },
  },
  {
    name: "CountDocumentsByFilterTest.test_count_documents_by_filter_empty_collection",
    group: "extended",
    async run({ store }) {
      assert.equal(await store.count_documents_by_filter(eq("meta.category", "A")), 0);
    },
  },
];
