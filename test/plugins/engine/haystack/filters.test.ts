/**
 * Haystack's test/utils/test_filters.py (`document_matches_filter`), ported value for value. Each
 * parametrized case is one svc test named after its pytest id. Left out as Python-only: the cases
 * whose values are Python `datetime` objects (listed in filters-cases.ts, and the two datetime-object
 * rows of the strict comparison). A Python tuple (a "non-list iterable") is a JS Set here.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { Document, FilterError, documentMatchesFilter } from "svc/engine";
import { DOCUMENT_MATCHES_FILTER_DATA } from "./filters-cases.js";

for (const c of DOCUMENT_MATCHES_FILTER_DATA) {
  test(`test_document_matches_filter: ${c.id}`, () => {
    assert.is(documentMatchesFilter(c.filters, new Document(c.document)), c.expected);
  });
}

const STRICT_OPERATORS: Array<[string, boolean]> = [
  ["==", false],
  ["!=", true],
  [">", false],
  [">=", false],
  ["<", false],
  ["<=", false],
  ["in", false],
  ["not in", true],
];
const STRICT_VALUES: Array<[string, string]> = [
  ["2025-02-03T12:45:46", "2025-02-03T12:45:46+00:00"],
  ["2025-02-03T12:45:46+00:00", "2025-02-03T12:45:46"],
];
for (const [documentValue, filterValue] of STRICT_VALUES) {
  for (const [operator, expected] of STRICT_OPERATORS) {
    test(`test_document_matches_filter_strict_datetime_comparison: ${operator} ${documentValue} vs ${filterValue}`, () => {
      const value = operator === "in" || operator === "not in" ? [filterValue] : filterValue;
      const filters = { field: "meta.date", operator, value };
      assert.is(documentMatchesFilter(filters, new Document({ meta: { date: documentValue } }), { strictDatetimeComparison: true }), expected);
    });
  }
}

test("test_document_matches_filter_strict_datetime_comparison_in_nested_condition", () => {
  const filters = { operator: "AND", conditions: [{ field: "meta.date", operator: ">=", value: "2025-02-03T12:45:46+00:00" }] };
  assert.not.ok(documentMatchesFilter(filters, new Document({ meta: { date: "2025-02-03T12:45:46" } }), { strictDatetimeComparison: true }));
});

const RAISES: Array<[string, Record<string, unknown>]> = [
  ["> operator with string filter value", { field: "meta.page", operator: ">", value: "10" }],
  ["> operator with list filter value", { field: "meta.page", operator: ">", value: [10] }],
  [">= operator with string filter value", { field: "meta.page", operator: ">=", value: "10" }],
  [">= operator with list filter value", { field: "meta.page", operator: ">=", value: [10] }],
  ["< operator with string filter value", { field: "meta.page", operator: "<", value: "10" }],
  ["< operator with list filter value", { field: "meta.page", operator: "<", value: [10] }],
  ["<= operator with string filter value", { field: "meta.page", operator: "<=", value: "10" }],
  ["<= operator with list filter value", { field: "meta.page", operator: "<=", value: [10] }],
  ["in operator with non list filter value", { field: "meta.page", operator: "in", value: 1 }],
  ["in operator with non list filter value (an iterable)", { field: "meta.page", operator: "in", value: new Set([10, 11]) }],
  ["not in operator with non list filter value", { field: "meta.page", operator: "not in", value: 1 }],
  ["not in operator with non list filter value (an iterable)", { field: "meta.page", operator: "not in", value: new Set([10, 11]) }],
  ["Missing root operator key", { conditions: [{ field: "meta.name", operator: "==", value: "test" }] }],
  ["Missing root conditions key", { operator: "AND" }],
  ["Missing condition field key", { operator: "==", value: "test" }],
  ["Missing condition operator key", { field: "meta.name", value: "test" }],
  ["Missing condition value key", { field: "meta.name", operator: "==" }],
  ["Unknown comparison operator", { field: "meta.page", operator: "gt", value: 10 }],
  ["Unknown logical operator", { operator: "XOR", conditions: [{ field: "meta.page", operator: "==", value: 10 }] }],
  ["Unknown nested logical operator", { operator: "AND", conditions: [{ operator: "XOR", conditions: [{ field: "meta.page", operator: "==", value: 10 }] }] }],
  ["Lowercase logical operator", { operator: "and", conditions: [{ field: "meta.page", operator: "==", value: 10 }] }],
];

/** The FilterError `fn` throws (fails when it throws nothing or another error). */
function filterError(fn: () => unknown): FilterError {
  try {
    fn();
  } catch (e) {
    assert.instance(e, FilterError);
    return e as FilterError;
  }
  assert.unreachable("expected a FilterError, nothing was thrown");
  throw new Error("unreachable");
}

for (const [id, filters] of RAISES) {
  test(`test_document_matches_filter_raises_error: ${id}`, () => {
    filterError(() => documentMatchesFilter(filters, new Document({ meta: { page: 10 } })));
  });
}

const UNKNOWN_OPERATOR_MESSAGES: Array<[string, Record<string, unknown>, string]> = [
  ["Unknown comparison operator", { field: "meta.page", operator: "gt", value: 10 }, "Unknown comparison operator 'gt'"],
  ["Unknown logical operator", { operator: "XOR", conditions: [{ field: "meta.page", operator: "==", value: 10 }] }, "Unknown logical operator 'XOR'"],
  [
    "Unknown nested logical operator",
    { operator: "AND", conditions: [{ operator: "XOR", conditions: [{ field: "meta.page", operator: "==", value: 10 }] }] },
    "Unknown logical operator 'XOR'",
  ],
  ["Lowercase logical operator", { operator: "and", conditions: [{ field: "meta.page", operator: "==", value: 10 }] }, "Unknown logical operator 'and'"],
];
for (const [id, filters, message] of UNKNOWN_OPERATOR_MESSAGES) {
  test(`test_document_matches_filter_unknown_operator_error_message: ${id}`, () => {
    const error = filterError(() => documentMatchesFilter(filters, new Document({ meta: { page: 10 } })));
    assert.ok(error.message.includes(message), error.message);
  });
}

test.run();
