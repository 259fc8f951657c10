/**
 * @module Contract cases for Haystack 3.x's metadata queries: count_unique_metadata_by_filter,
 * get_metadata_fields_info, get_metadata_field_min_max, get_metadata_field_unique_values. One
 * adaptation: JavaScript has one number type, so "distinct types" checks 1, "1" and true (Haystack
 * also has 1.0, which is 1 here).
 */
import assert from "node:assert/strict";
import { Document } from "../dataclasses/document.js";
import type { ContractCase } from "./contract.js";

const docs = (...metas: Record<string, unknown>[]) => metas.map((meta, i) => new Document({ content: `Doc ${i + 1}`, meta }));
const eq = (field: string, value: unknown) => ({ field, operator: "==", value });
const close = (actual: unknown, expected: number) => assert.ok(typeof actual === "number" && Math.abs(actual - expected) < 1e-6, `${String(actual)} ≠ ${expected}`);

export const metadataCases: ContractCase[] = [
  {
    name: "CountUniqueMetadataByFilterTest.test_count_unique_metadata_by_filter_all_documents",
    group: "extended",
    async run({ store }) {
      await store.write_documents(
        docs(
          { category: "A", status: "active", priority: 1 },
          { category: "B", status: "active", priority: 2 },
          { category: "A", status: "inactive", priority: 1 },
          { category: "A", status: "active", priority: 3 },
          { category: "C", status: "active", priority: 2 },
        ),
      );
      assert.deepEqual(await store.count_unique_metadata_by_filter({}, ["category", "status", "priority"]), { category: 3, status: 2, priority: 3 });
      assert.deepEqual(await store.count_unique_metadata_by_filter({}, ["meta.category"]), { category: 3 });
    },
  },
  {
    name: "CountUniqueMetadataByFilterTest.test_count_unique_metadata_by_filter_with_filter",
    group: "extended",
    async run({ store }) {
      await store.write_documents(
        docs({ category: "A", status: "active", priority: 1 }, { category: "B", status: "archived", priority: 2 }, { category: "A", status: "inactive", priority: 1 }, { category: "A", status: "active", priority: 3 }),
      );
      assert.deepEqual(await store.count_unique_metadata_by_filter(eq("meta.category", "A"), ["status", "priority"]), { status: 2, priority: 2 });
    },
  },
  {
    name: "CountUniqueMetadataByFilterTest.test_count_unique_metadata_by_filter_with_multiple_filters",
    group: "extended",
    async run({ store }) {
      await store.write_documents(
        docs({ category: "B", year: 2023, status: "draft" }, { category: "B", year: 2023, status: "draft" }, { category: "B", year: 2023, status: "published" }, { category: "B", year: 2024, status: "draft" }),
      );
      const filters = { operator: "AND", conditions: [eq("meta.category", "B"), eq("meta.year", 2023)] };
      assert.deepEqual(await store.count_unique_metadata_by_filter(filters, ["status", "year"]), { status: 2, year: 1 });
    },
  },
  {
    name: "GetMetadataFieldsInfoTest.test_get_metadata_fields_info",
    group: "extended",
    async run({ store }) {
      await store.write_documents(docs({ category: "A", status: "active", priority: 1 }, { category: "B", status: "inactive", rating: 0.5 }));
      const info = await store.get_metadata_fields_info();
      for (const field of ["category", "status", "priority", "rating"]) assert.ok(field in info, `${field} is missing from ${JSON.stringify(info)}`);
      for (const value of Object.values(info)) assert.equal(typeof value.type, "string");
    },
  },
  {
    name: "GetMetadataFieldsInfoTest.test_get_metadata_fields_info_empty_collection",
    group: "extended",
    async run({ store }) {
      assert.deepEqual(await store.get_metadata_fields_info(), {});
    },
  },
  {
    name: "GetMetadataFieldMinMaxTest.test_get_metadata_field_min_max_numeric",
    group: "extended",
    async run({ store }) {
      await store.write_documents(docs({ priority: 5 }, { priority: 1 }, { priority: 10 }, { priority: 3 }));
      assert.deepEqual(await store.get_metadata_field_min_max("priority"), { min: 1, max: 10 });
    },
  },
  {
    name: "GetMetadataFieldMinMaxTest.test_get_metadata_field_min_max_float",
    group: "extended",
    async run({ store }) {
      await store.write_documents(docs({ rating: 0.8 }, { rating: 0.6 }, { rating: 0.95 }, { rating: 0.7 }));
      const result = await store.get_metadata_field_min_max("rating");
      close(result.min, 0.6);
      close(result.max, 0.95);
    },
  },
  {
    name: "GetMetadataFieldMinMaxTest.test_get_metadata_field_min_max_single_value",
    group: "extended",
    async run({ store }) {
      await store.write_documents(docs({ priority: 42 }));
      assert.deepEqual(await store.get_metadata_field_min_max("priority"), { min: 42, max: 42 });
    },
  },
  {
    name: "GetMetadataFieldMinMaxTest.test_get_metadata_field_min_max_empty_collection",
    group: "extended",
    async run({ store }) {
      assert.deepEqual(await store.get_metadata_field_min_max("priority"), { min: null, max: null });
    },
  },
  {
    name: "GetMetadataFieldMinMaxTest.test_get_metadata_field_min_max_meta_prefix",
    group: "extended",
    async run({ store }) {
      await store.write_documents(
        docs({ priority: 5, age: 10 }, { priority: 1, age: 20 }, { priority: 10, age: 15 }, { priority: 3, age: 5 }, { rating: 10.5 }, { rating: 20.3 }, { rating: 5.2 }, { rating: 15.7 }),
      );
      assert.deepEqual(await store.get_metadata_field_min_max("meta.priority"), { min: 1, max: 10 });
      const rating = await store.get_metadata_field_min_max("meta.rating");
      close(rating.min, 5.2);
      close(rating.max, 20.3);
    },
  },
  {
    name: "GetMetadataFieldUniqueValuesTest.test_get_metadata_field_unique_values_basic",
    group: "extended",
    async run({ store }) {
      await store.write_documents(docs({ category: "A" }, { category: "B" }, { category: "A" }, { category: "C" }, { category: "B" }));
      const [values, total] = await store.get_metadata_field_unique_values("category");
      assert.ok(Array.isArray(values));
      assert.equal(values.length, 3);
      assert.deepEqual([...values].sort(), ["A", "B", "C"]);
      assert.equal(total, 3);
    },
  },
  {
    name: "GetMetadataFieldUniqueValuesTest.test_get_metadata_field_unique_values_meta_prefix",
    group: "extended",
    async run({ store }) {
      await store.write_documents(docs({ category: "A" }, { category: "B" }, { category: "A" }));
      const [values, total] = await store.get_metadata_field_unique_values("category");
      const [prefixed, prefixedTotal] = await store.get_metadata_field_unique_values("meta.category");
      assert.deepEqual([...prefixed].sort(), [...values].sort());
      assert.equal(prefixedTotal, total);
      assert.equal(total, 2);
    },
  },
  {
    name: "GetMetadataFieldUniqueValuesTest.test_get_metadata_field_unique_values_search_term",
    group: "extended",
    async run({ store }) {
      await store.write_documents([
        new Document({ content: "Doc 1", meta: { category: "All_Beauty" } }),
        new Document({ content: "Doc 2", meta: { category: "Electronics" } }),
        new Document({ content: "something about beauty products", meta: { category: "Home" } }),
      ]);
      assert.deepEqual(await store.get_metadata_field_unique_values("category", "beaut"), [["All_Beauty"], 1]);
    },
  },
  {
    name: "GetMetadataFieldUniqueValuesTest.test_get_metadata_field_unique_values_pagination",
    group: "extended",
    async run({ store }) {
      await store.write_documents(docs(...[0, 1, 2, 3, 4].map((i) => ({ category: `category_${i}` }))));
      assert.deepEqual(await store.get_metadata_field_unique_values("category", null, 0, 2), [["category_0", "category_1"], 5]);
      assert.deepEqual(await store.get_metadata_field_unique_values("category", null, 2, 2), [["category_2", "category_3"], 5]);
      assert.deepEqual(await store.get_metadata_field_unique_values("category", null, 4, 2), [["category_4"], 5]);
    },
  },
  {
    name: "GetMetadataFieldUniqueValuesTest.test_get_metadata_field_unique_values_empty_store",
    group: "extended",
    async run({ store }) {
      assert.deepEqual(await store.get_metadata_field_unique_values("category"), [[], 0]);
    },
  },
  {
    name: "GetMetadataFieldUniqueValuesTest.test_get_metadata_field_unique_values_missing_field",
    group: "extended",
    async run({ store }) {
      await store.write_documents(docs({ category: "A" }));
      assert.deepEqual(await store.get_metadata_field_unique_values("missing_field"), [[], 0]);
    },
  },
  {
    name: "GetMetadataFieldUniqueValuesTest.test_get_metadata_field_unique_values_preserves_type",
    group: "extended",
    async run({ store }) {
      await store.write_documents(docs({ priority: 1 }, { priority: 2 }, { priority: 1 }));
      const [values, total] = await store.get_metadata_field_unique_values("priority");
      assert.deepEqual([...values].sort(), [1, 2]);
      assert.equal(total, 2);
    },
  },
  {
    name: "GetMetadataFieldUniqueValuesTest.test_get_metadata_field_unique_values_distinct_types",
    group: "extended",
    async run({ store }) {
      await store.write_documents(docs({ priority: 1 }, { priority: "1" }, { priority: true }, { priority: 1 }));
      const [values, total] = await store.get_metadata_field_unique_values("priority");
      assert.equal(total, 3);
      assert.equal(values.length, 3);
      const byType = Object.fromEntries(values.map((v) => [typeof v, v]));
      assert.deepEqual(byType, { number: 1, string: "1", boolean: true });
    },
  },
  {
    name: "GetMetadataFieldUniqueValuesTest.test_get_metadata_field_unique_values_with_filters",
    group: "extended",
    async run({ store }) {
      await store.write_documents(docs({ category: "A", status: "active" }, { category: "B", status: "active" }, { category: "C", status: "inactive" }));
      const [values, total] = await store.get_metadata_field_unique_values("category", null, 0, 10, eq("meta.status", "active"));
      assert.deepEqual([...values].sort(), ["A", "B"]);
      assert.equal(total, 2);
    },
  },
];
