/** Haystack's test/document_stores/test_filter_policy.py, ported value for value (`apply_filter_policy` with MERGE). */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { applyFilterPolicy } from "svc/engine";

const DATE = { field: "meta.date", operator: ">=", value: "2015-01-01" };
const TYPE = { field: "meta.type", operator: "==", value: "article" };
const RATING = { field: "meta.rating", operator: ">=", value: 3 };
const GENRE = { field: "meta.genre", operator: "IN", value: ["economy", "politics"] };
const PUBLISHER = { field: "meta.publisher", operator: "==", value: "nytimes" };
const and = (...conditions: object[]) => ({ operator: "AND", conditions });

test("test_merge_two_comparison_filters", () => {
  assert.equal(applyFilterPolicy("merge", DATE, TYPE), and(DATE, TYPE));
});

test("test_merge_init_comparison_and_runtime_logical_filters", () => {
  assert.equal(applyFilterPolicy("merge", DATE, and(TYPE, RATING)), and(TYPE, RATING, DATE));
});

test("test_merge_runtime_comparison_and_init_logical_filters_with_string_operators", () => {
  assert.equal(applyFilterPolicy("merge", and(TYPE, RATING), and(GENRE, PUBLISHER)), and(TYPE, RATING, GENRE, PUBLISHER));
});

test("test_merge_runtime_comparison_and_init_logical_filters", () => {
  assert.equal(applyFilterPolicy("merge", and(TYPE, RATING), DATE), and(TYPE, RATING, DATE));
});

test("test_merge_two_logical_filters", () => {
  const init = and(TYPE, RATING);
  const before = structuredClone(init);
  assert.equal(applyFilterPolicy("merge", init, and(GENRE, PUBLISHER)), and(TYPE, RATING, GENRE, PUBLISHER));
  assert.equal(init, before, "svc never mutates the init filters");
});

test("test_merge_with_different_logical_operators", () => {
  const runtime = { operator: "OR", conditions: [GENRE] };
  assert.equal(applyFilterPolicy("merge", and(TYPE), runtime), runtime);
});

test("test_merge_comparison_filters_with_same_field", () => {
  const runtime = { field: "meta.date", operator: "<=", value: "2020-12-31" };
  assert.equal(applyFilterPolicy("merge", DATE, runtime), runtime);
});

for (const op of ["AND", "OR", "NOT"]) {
  test(`test_merge_with_custom_logical_operator[${op}]`, () => {
    assert.equal(applyFilterPolicy("merge", DATE, TYPE, op), { operator: op, conditions: [DATE, TYPE] });
  });
}

test.run();
