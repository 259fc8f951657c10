/**
 * @module Haystack metadata filters as a parameterised SQL condition, a port of
 * haystack_integrations/document_stores/pgvector/filters.py. Every value — and every meta key —
 * travels as a `$n` parameter; the SQL text only ever holds fixed fragments and column names
 * from a closed list. Meta values live in the `meta` JSONB column: scalar operators read them as
 * text (`meta->>key`) and cast to the filter value's type (numbers to `numeric`, where Haystack
 * picks `integer` or `real` from the Python type, which JavaScript cannot tell apart: `numeric`
 * compares both exactly); the array operators read the JSONB value (`meta->key`).
 * Beyond Haystack's AND/OR, NOT is supported, with the in-memory store's meaning (not all of).
 */
import type { Filters } from "svc/engine";

export class SqlFilterError extends Error {
  override name = "FilterError";
}

export const INVALID_FILTER_SYNTAX = "Invalid filter syntax. See https://docs.haystack.deepset.ai/docs/metadata-filtering for details.";

/** A condition and its parameters; placeholders are numbered from `firstParam`. */
export interface SqlCondition {
  sql: string;
  params: unknown[];
}

/** The columns a filter may name without `meta.` (Haystack's Document fields stored as columns). */
const COLUMNS = new Set(["id", "content", "blob_mime_type"]);
const ARRAY_OPERATORS = new Set(["array_contains", "array_overlaps"]);
const LOGICAL = new Set(["AND", "OR", "NOT"]);
const ORDERED = new Set([">", ">=", "<", "<="]);

/** Haystack's `_validate_filters`: a dict with `operator` or `conditions`. */
export function validateFilters(filters: unknown): void {
  if (filters === null || filters === undefined) return;
  if (typeof filters !== "object" || Array.isArray(filters)) throw new TypeError("Filters must be a dictionary");
  if (Object.keys(filters).length === 0) return;
  if (!("operator" in filters) && !("conditions" in filters)) throw new Error(INVALID_FILTER_SYNTAX);
}

/** Whether filters select anything narrower than everything. */
export function hasFilters(filters: Filters | null | undefined): filters is Filters {
  return !!filters && Object.keys(filters).length > 0;
}

/** The WHERE condition for filters; `firstParam` is the number of the first `$n` it may use. */
export function filtersToSql(filters: Filters, firstParam = 1): SqlCondition {
  const params: unknown[] = [];
  const bind = (value: unknown) => {
    params.push(value);
    return `$${firstParam + params.length - 1}`;
  };
  return { sql: condition(filters, bind), params };
}

type Bind = (value: unknown) => string;

function condition(filter: Filters, bind: Bind): string {
  return "field" in filter ? comparison(filter, bind) : logical(filter, bind);
}

function logical(filter: Filters, bind: Bind): string {
  if (!("operator" in filter)) throw new SqlFilterError(`'operator' key missing in ${show(filter)}`);
  if (!("conditions" in filter)) throw new SqlFilterError(`'conditions' key missing in ${show(filter)}`);
  const operator = filter.operator;
  if (!LOGICAL.has(operator)) throw new SqlFilterError(`Unknown logical operator '${String(operator)}'. Valid operators are: 'AND', 'OR', 'NOT'`);
  const conditions = filter.conditions;
  if (!Array.isArray(conditions) || conditions.length === 0) throw new SqlFilterError(`'conditions' must be a non-empty list in ${show(filter)}`);
  const parts = conditions.map((c: Filters) => condition(c, bind));
  if (operator === "NOT") return `(NOT COALESCE((${parts.join(" AND ")}), false))`;
  return `(${parts.join(` ${operator} `)})`;
}

function comparison(filter: Filters, bind: Bind): string {
  const field = filter.field;
  if (!("operator" in filter)) throw new SqlFilterError(`'operator' key missing in ${show(filter)}`);
  if (!("value" in filter)) throw new SqlFilterError(`'value' key missing in ${show(filter)}`);
  const operator = filter.operator as string;
  const build = OPERATORS[operator];
  if (!build) throw new SqlFilterError(`Unknown comparison operator '${operator}'. Valid operators are: ${Object.keys(OPERATORS).map((o) => `'${o}'`).join(", ")}`);
  if (typeof field !== "string") throw new SqlFilterError(`'field' must be a string in ${show(filter)}`);
  const value = filter.value;
  // None is never ordered: no row matches (checked before the field's key is bound).
  if (value === null && ORDERED.has(operator)) return "false";
  let column: string;
  if (field.startsWith("meta.")) {
    const key = `${bind(field.slice(5))}::text`;
    column = ARRAY_OPERATORS.has(operator) ? `meta->${key}` : castFor(`meta->>${key}`, value);
  } else if (ARRAY_OPERATORS.has(operator)) {
    throw new SqlFilterError(`Operator '${operator}' is only supported on meta fields, but got field '${field}'. Prefix the field name with 'meta.' to filter on an array stored in a document's metadata.`);
  } else if (COLUMNS.has(field)) {
    column = field;
  } else {
    throw new SqlFilterError(`Unknown field '${field}': filter on ${[...COLUMNS].join(", ")} or on meta fields as 'meta.<name>'.`);
  }
  return build(column, value, bind, field);
}

/** Meta values are text in `->>`: cast them to the type of the value compared with. */
function castFor(text: string, value: unknown): string {
  const sample = Array.isArray(value) ? value[0] : value;
  if (typeof sample === "boolean") return `(${text})::boolean`;
  if (typeof sample === "number") return `(${text})::numeric`;
  return text;
}

type Build = (column: string, value: unknown, bind: Bind, field: string) => string;

const ISO_DATE = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}(?::?\d{2}(?::?\d{2}(?:[.,]\d{1,6})?)?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?)?$/;

function ordered(op: string): Build {
  return (column, value, bind) => {
    if (typeof value === "string" && !ISO_DATE.test(value)) {
      throw new SqlFilterError("Can't compare strings using operators '>', '>=', '<', '<='. Strings are only comparable if they are ISO formatted dates.");
    }
    if (Array.isArray(value) || (value !== null && typeof value === "object")) throw new SqlFilterError(`Filter value can't be of type ${Array.isArray(value) ? "list" : "dict"} using operators '>', '>=', '<', '<='`);
    return `${column} ${op} ${bind(value)}`;
  };
}

function list(name: string, build: (column: string, p: string) => string): Build {
  return (column, value, bind, field) => {
    if (!Array.isArray(value)) throw new SqlFilterError(`${field}'s value must be a list when using '${name}' comparator in PgVector`);
    return build(column, bind(value));
  };
}

function text(op: string): Build {
  return (column, value, bind, field) => {
    if (typeof value !== "string") throw new SqlFilterError(`${field}'s value must be a str when using 'LIKE' `);
    return `${column} ${op} ${bind(value)}`;
  };
}

function arrayValue(operator: string, value: unknown, field: string): unknown[] {
  if (!Array.isArray(value)) throw new SqlFilterError(`${field}'s value must be a list when using '${operator}' comparator in PgVector`);
  if (value.length === 0) throw new SqlFilterError(`${field}'s value must be a non-empty list when using '${operator}' comparator in PgVector`);
  return value;
}

const OPERATORS: Record<string, Build> = {
  "==": (column, value, bind) => (value === null ? `${column} IS NULL` : `${column} = ${bind(value)}`),
  "!=": (column, value, bind) => `${column} IS DISTINCT FROM ${bind(value)}`,
  ">": ordered(">"),
  ">=": ordered(">="),
  "<": ordered("<"),
  "<=": ordered("<="),
  in: list("in", (column, p) => `${column} = ANY(${p})`),
  "not in": list("not in", (column, p) => `(${column} IS NULL OR ${column} != ALL(${p}))`),
  like: text("LIKE"),
  "not like": text("NOT LIKE"),
  array_contains: (column, value, bind, field) => `${column} @> ${bind(JSON.stringify(arrayValue("array_contains", value, field)))}::jsonb`,
  array_overlaps: (column, value, bind, field) => {
    const items = arrayValue("array_overlaps", value, field);
    if (!items.every((item) => typeof item === "string")) throw new SqlFilterError(`${field}'s value must be a list of strings when using 'array_overlaps' comparator in PgVector`);
    return `(jsonb_typeof(${column}) = 'array' AND ${column} ?| ${bind(items)}::text[])`;
  },
};

function show(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch {
    return String(value);
  }
}
