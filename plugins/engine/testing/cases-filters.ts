/**
 * @module Contract cases for filter_documents (FilterDocumentsTest): every comparison operator with
 * numbers, ISO dates (compared as dates), None, and the values that must raise a FilterError;
 * AND/OR/NOT; malformed filters. Expected results are computed from the fixtures the way Haystack's
 * tests compute them.
 */
import assert from "node:assert/strict";
import { Document } from "../dataclasses/document.js";
import type { Filters } from "../filters.js";
import { rejectsNamed } from "./assertions.js";
import type { ContractCase, ContractContext } from "./contract.js";
import { createFilterableDocs, isoMillis } from "./fixtures.js";

type Meta = Record<string, unknown>;
const num = (d: Document) => d.meta.number as number | undefined;

/** A case that writes the filterable documents, filters, and compares with the fixtures selected by `expected`. */
function selects(name: string, filters: Filters, expected: (meta: Meta) => boolean, nonEmpty = false): ContractCase {
  return {
    name: `FilterDocumentsTest.${name}`,
    group: "base",
    async run({ store, assertDocumentsEqual, embeddingSize }: ContractContext) {
      const docs = createFilterableDocs(embeddingSize);
      await store.write_documents(docs);
      const want = docs.filter((d) => expected(d.meta));
      if (nonEmpty) assert.ok(want.length > 0, "the case must select some documents");
      assertDocumentsEqual(await store.filter_documents(filters), want);
    },
  };
}

/** A case whose filter must fail with a FilterError once documents are stored. */
function fails(name: string, filters: Filters): ContractCase {
  return {
    name: `FilterDocumentsTest.${name}`,
    group: "base",
    async run({ store, embeddingSize }: ContractContext) {
      await store.write_documents(createFilterableDocs(embeddingSize));
      await rejectsNamed(Promise.resolve().then(() => store.filter_documents(filters)), "FilterError");
    },
  };
}

const ORDERING = [
  [">", "greater_than", (a: number, b: number) => a > b],
  [">=", "greater_than_equal", (a: number, b: number) => a >= b],
  ["<", "less_than", (a: number, b: number) => a < b],
  ["<=", "less_than_equal", (a: number, b: number) => a <= b],
] as const;

const DATES = { ">": "1972-12-11T19:54:58", ">=": "1969-07-21T20:17:40", "<": "1969-07-21T20:17:40", "<=": "1969-07-21T20:17:40" } as const;

const orderingCases = ORDERING.flatMap(([op, label, cmp]) => [
  selects(`test_comparison_${label}`, { field: "meta.number", operator: op, value: 0 }, (m) => typeof m.number === "number" && cmp(m.number, 0), true),
  selects(`test_comparison_${label}_with_iso_date`, { field: "meta.date", operator: op, value: DATES[op] }, (m) => typeof m.date === "string" && cmp(isoMillis(m.date), isoMillis(DATES[op])), op !== "<"),
  fails(`test_comparison_${label}_with_string`, { field: "meta.number", operator: op, value: "1" }),
  fails(`test_comparison_${label}_with_list`, { field: "meta.number", operator: op, value: [1] }),
  selects(`test_comparison_${label}_with_none`, { field: "meta.number", operator: op, value: null }, () => false),
]);

export const filterCases: ContractCase[] = [
  {
    name: "FilterDocumentsTest.test_no_filters",
    group: "base",
    async run({ store, assertDocumentsEqual }) {
      assertDocumentsEqual(await store.filter_documents(), []);
      assertDocumentsEqual(await store.filter_documents({}), []);
      const docs = [new Document({ content: "test doc" })];
      await store.write_documents(docs);
      assertDocumentsEqual(await store.filter_documents(), docs);
      assertDocumentsEqual(await store.filter_documents({}), docs);
      assertDocumentsEqual(await store.filter_documents(null), docs);
    },
  },
  selects("test_comparison_equal", { field: "meta.number", operator: "==", value: 100 }, (m) => m.number === 100),
  selects("test_comparison_equal (a value that matches)", { field: "meta.number", operator: "==", value: 2 }, (m) => m.number === 2, true),
  selects("test_comparison_equal_with_none", { field: "meta.number", operator: "==", value: null }, (m) => m.number === undefined, true),
  selects("test_comparison_not_equal", { field: "meta.number", operator: "!=", value: 100 }, () => true, true),
  selects("test_comparison_not_equal (a value that matches)", { field: "meta.number", operator: "!=", value: 2 }, (m) => m.number !== 2, true),
  selects("test_comparison_not_equal_with_none", { field: "meta.number", operator: "!=", value: null }, (m) => m.number !== undefined, true),
  selects("test_comparison_equal (a string field)", { field: "meta.chapter", operator: "==", value: "intro" }, (m) => m.chapter === "intro", true),
  selects("test_comparison_equal (content)", { field: "content", operator: "==", value: "A Foo Document 1" }, (m) => m.name === "name_1" && m.page === "100", true),
  ...orderingCases,
  selects("test_comparison_in", { field: "meta.number", operator: "in", value: [10, -10] }, (m) => m.number === 10 || m.number === -10, true),
  selects("test_comparison_in (strings)", { field: "meta.page", operator: "in", value: ["100", "123"] }, (m) => m.page === "100" || m.page === "123", true),
  fails("test_comparison_in_with_with_non_list", { field: "meta.number", operator: "in", value: 9 }),
  fails("test_comparison_in_with_with_non_list_iterable (a string)", { field: "meta.number", operator: "in", value: "10" }),
  // Python's tuple (10, 11): a non-list iterable, a Set in JS.
  fails("test_comparison_in_with_with_non_list_iterable", { field: "meta.number", operator: "in", value: new Set([10, 11]) }),
  selects("test_comparison_not_in", { field: "meta.number", operator: "not in", value: [9, 10] }, () => true, true),
  selects("test_comparison_not_in (values that match)", { field: "meta.number", operator: "not in", value: [2, -2] }, (m) => m.number !== 2 && m.number !== -2, true),
  fails("test_comparison_not_in_with_with_non_list", { field: "meta.number", operator: "not in", value: 9 }),
  fails("test_comparison_not_in_with_with_non_list_iterable", { field: "meta.number", operator: "not in", value: new Set([10, 11]) }),
  selects(
    "test_and_operator",
    { operator: "AND", conditions: [{ field: "meta.number", operator: "==", value: 100 }, { field: "meta.name", operator: "==", value: "name_0" }] },
    (m) => m.number === 100 && m.name === "name_0",
  ),
  selects(
    "test_and_operator (a match)",
    { operator: "AND", conditions: [{ field: "meta.number", operator: "==", value: -2 }, { field: "meta.name", operator: "==", value: "name_0" }] },
    (m) => m.number === -2 && m.name === "name_0",
    true,
  ),
  selects(
    "test_or_operator",
    { operator: "OR", conditions: [{ field: "meta.number", operator: "==", value: 100 }, { field: "meta.name", operator: "==", value: "name_0" }] },
    (m) => m.number === 100 || m.name === "name_0",
    true,
  ),
  selects(
    "test_not_operator",
    { operator: "NOT", conditions: [{ field: "meta.number", operator: "==", value: 100 }, { field: "meta.name", operator: "==", value: "name_0" }] },
    (m) => !(m.number === 100 && m.name === "name_0"),
    true,
  ),
  selects(
    "test_not_operator (a match to exclude)",
    { operator: "NOT", conditions: [{ field: "meta.number", operator: "==", value: 2 }, { field: "meta.name", operator: "==", value: "name_0" }] },
    (m) => !(m.number === 2 && m.name === "name_0"),
    true,
  ),
  selects(
    "nested logic (AND of OR and a date range)",
    {
      operator: "AND",
      conditions: [
        { field: "meta.date", operator: ">=", value: "1970-01-01T00:00:00" },
        { operator: "OR", conditions: [{ field: "meta.chapter", operator: "==", value: "abstract" }, { field: "meta.number", operator: "<", value: -5 }] },
      ],
    },
    (m) => typeof m.date === "string" && isoMillis(m.date) >= isoMillis("1970-01-01T00:00:00") && (m.chapter === "abstract" || (num({ meta: m } as Document) ?? 0) < -5),
    true,
  ),
  fails("test_missing_top_level_operator_key", { conditions: [{ field: "meta.name", operator: "==", value: "test" }] }),
  fails("test_missing_top_level_conditions_key", { operator: "AND" }),
  fails("test_missing_condition_field_key", { operator: "AND", conditions: [{ operator: "==", value: "test" }] }),
  fails("test_missing_condition_operator_key", { operator: "AND", conditions: [{ field: "meta.name", value: "test" }] }),
  fails("test_missing_condition_value_key", { operator: "AND", conditions: [{ field: "meta.name", operator: "==" }] }),
];
