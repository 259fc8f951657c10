/**
 * @module Haystack 2.x metadata filters (haystack/utils/filters.py): comparison conditions
 * `{field, operator, value}` with ==, !=, >, >=, <, <=, in, not in, and logic conditions
 * `{operator: AND|OR|NOT, conditions}`; plus the retrievers' filter policies (replace/merge).
 * Values compare with Python's semantics (True == 1, deep list/dict equality, None never ordered,
 * strings ordered only as ISO dates, two ISO dates equal when they denote the same instant), because
 * filters arrive in YAML written for Haystack.
 */
import { ByteStream, Document } from "./dataclasses/document.js";

export type Filters = Record<string, any>;

export class FilterError extends Error {
  override name = "FilterError";
}

export const INVALID_FILTER_SYNTAX = "Invalid filter syntax. See https://docs.haystack.deepset.ai/docs/metadata-filtering for details.";

export interface FilterOptions {
  /** A naive and an aware date never match (Haystack's `strict_datetime_comparison`); by default the naive one takes the other's zone. */
  strictDatetimeComparison?: boolean;
}

/** Whether the filters match a Document (or ByteStream). */
export function documentMatchesFilter(filters: Filters, document: Document | ByteStream, options: FilterOptions = {}): boolean {
  const strict = options.strictDatetimeComparison === true;
  return "field" in filters ? comparison(filters, document, strict) : logic(filters, document, strict);
}

const LOGICAL: Record<string, (doc: Document | ByteStream, conditions: Filters[], strict: boolean) => boolean> = {
  AND: (doc, conditions, strict) => conditions.every((c) => comparison(c, doc, strict)),
  OR: (doc, conditions, strict) => conditions.some((c) => comparison(c, doc, strict)),
  NOT: (doc, conditions, strict) => !conditions.every((c) => comparison(c, doc, strict)),
};

function logic(condition: Filters, document: Document | ByteStream, strict: boolean): boolean {
  if (!("operator" in condition)) throw new FilterError(`'operator' key missing in ${JSON.stringify(condition)}`);
  if (!("conditions" in condition)) throw new FilterError(`'conditions' key missing in ${JSON.stringify(condition)}`);
  const op = LOGICAL[condition.operator as string];
  if (!op) throw new FilterError(`Unknown logical operator '${String(condition.operator)}'. Use one of AND, OR, NOT.`);
  if (!Array.isArray(condition.conditions)) throw new FilterError(`'conditions' must be a list in ${JSON.stringify(condition)}`);
  return op(document, condition.conditions, strict);
}

function comparison(condition: Filters, document: Document | ByteStream, strict: boolean): boolean {
  // Only comparison conditions have a 'field'; anything else is a nested logic condition.
  if (!("field" in condition)) return logic(condition, document, strict);
  if (!("operator" in condition)) throw new FilterError(`'operator' key missing in ${JSON.stringify(condition)}`);
  if (!("value" in condition)) throw new FilterError(`'value' key missing in ${JSON.stringify(condition)}`);
  const op = COMPARISON[condition.operator as string];
  if (!op) throw new FilterError(`Unknown comparison operator '${String(condition.operator)}'. Use one of ${Object.keys(COMPARISON).join(", ")}.`);
  return op(fieldValue(document, String(condition.field)), condition.value ?? null, strict);
}

const DOCUMENT_FIELDS = new Set(["id", "content", "blob", "meta", "score", "embedding", "sparse_embedding"]);
const BYTESTREAM_FIELDS: Record<string, string> = { data: "data", meta: "meta", mime_type: "mimeType" };

function attribute(document: Document | ByteStream, name: string): unknown {
  if (document instanceof ByteStream) return name in BYTESTREAM_FIELDS ? (document as any)[BYTESTREAM_FIELDS[name]!] : undefined;
  return DOCUMENT_FIELDS.has(name) ? (document as any)[name] : undefined;
}

/** `meta.a.b` walks nested dicts (missing → None); a bare name that is not a field is a meta key (legacy filters). */
function fieldValue(document: Document | ByteStream, field: string): unknown {
  if (field.includes(".")) {
    const [head, ...parts] = field.split(".");
    let value = attribute(document, head!);
    for (const part of parts) {
      if (!isDict(value) || !(part in value)) return null;
      value = value[part];
    }
    return value ?? null;
  }
  const isField = document instanceof ByteStream ? field in BYTESTREAM_FIELDS : DOCUMENT_FIELDS.has(field);
  return (isField ? attribute(document, field) : document.meta[field]) ?? null;
}

const isDict = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v) && !Buffer.isBuffer(v);

/** Python's `==` on JSON-like values. */
export function pyEqual(a: unknown, b: unknown): boolean {
  a ??= null;
  b ??= null;
  if (a === b) return true;
  const numeric = (v: unknown) => typeof v === "number" || typeof v === "boolean";
  if (numeric(a) && numeric(b)) return Number(a) === Number(b);
  if (Array.isArray(a) || Array.isArray(b)) return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => pyEqual(x, b[i]));
  if (Buffer.isBuffer(a) && Buffer.isBuffer(b)) return a.equals(b);
  if (isDict(a) && isDict(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => k in b && pyEqual(a[k], b[k]));
  }
  return false;
}

/** Python's `==` in a filter: equal values, or two full ISO dates denoting the same instant (3.x). */
function equal(docValue: unknown, filterValue: unknown, strict: boolean): boolean {
  if (pyEqual(docValue, filterValue)) return true;
  if (!looksLikeIsoDate(docValue) || !looksLikeIsoDate(filterValue)) return false;
  const a = tryParseDate(docValue);
  const b = tryParseDate(filterValue);
  if (!a || !b || (strict && (a.offset === null) !== (b.offset === null))) return false;
  return compareDates(a, b) === 0;
}

/** Haystack's `_looks_like_iso_date`: a complete YYYY-MM-DD, alone or followed by T, t or a space. */
function looksLikeIsoDate(value: unknown): value is string {
  return typeof value === "string" && /^\d{4}-\d{2}-\d{2}(?:$|[Tt ])/.test(value);
}

function tryParseDate(value: string): ParsedDate | null {
  try {
    return parseDate(value);
  } catch {
    return null;
  }
}

/**
 * The sign of docValue − filterValue for >, >=, <, <=, or null when they never order: a None on
 * either side, or (strict) a naive and an aware date. Strings on either side compare as dates.
 */
function order(docValue: unknown, filterValue: unknown, strict: boolean): number | null {
  if (docValue === null || filterValue === null) return null;
  if (typeof docValue === "string" || typeof filterValue === "string") {
    const a = parseDate(docValue);
    const b = parseDate(filterValue);
    if (strict && (a.offset === null) !== (b.offset === null)) return null;
    return Math.sign(compareDates(a, b));
  }
  if (Array.isArray(filterValue)) throw new FilterError("Filter value can't be of type list using operators '>', '>=', '<', '<='");
  const ordered = (v: unknown) => typeof v === "number" || typeof v === "boolean";
  if (!ordered(docValue) || !ordered(filterValue)) throw new FilterError(`Can't compare ${pyType(docValue)} and ${pyType(filterValue)} using operators '>', '>=', '<', '<='`);
  return Math.sign(Number(docValue) - Number(filterValue));
}

function inList(docValue: unknown, filterValue: unknown, strict: boolean): boolean {
  if (!Array.isArray(filterValue)) throw new FilterError(`Filter value must be a \`list\` when using operator 'in' or 'not in', received type '${pyType(filterValue)}'`);
  return filterValue.some((e) => equal(e, docValue, strict));
}

const ordering = (test: (sign: number) => boolean) => (d: unknown, f: unknown, strict: boolean) => {
  const sign = order(d, f, strict);
  return sign !== null && test(sign);
};

const COMPARISON: Record<string, (docValue: unknown, filterValue: unknown, strict: boolean) => boolean> = {
  "==": equal,
  "!=": (d, f, strict) => !equal(d, f, strict),
  ">": ordering((s) => s > 0),
  ">=": ordering((s) => s >= 0),
  "<": ordering((s) => s < 0),
  "<=": ordering((s) => s <= 0),
  in: inList,
  "not in": (d, f, strict) => !inList(d, f, strict),
};

function pyType(v: unknown): string {
  if (v === null) return "NoneType";
  if (Array.isArray(v)) return "list";
  if (typeof v === "string") return "str";
  if (typeof v === "boolean") return "bool";
  if (typeof v === "number") return Number.isInteger(v) ? "int" : "float";
  return typeof v === "object" ? "dict" : typeof v;
}

/** A date as wall-clock milliseconds (+ microseconds) and its UTC offset in minutes (null = naive). */
interface ParsedDate {
  wall: number;
  micros: number;
  offset: number | null;
}

const ISO = /^(\d{4})-?(\d{2})-?(\d{2})(?:[T ](\d{2})(?::?(\d{2})(?::?(\d{2})(?:[.,](\d{1,9}))?)?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

/** `datetime.fromisoformat`, falling back (as Haystack falls back to dateutil) to written-out dates. */
function parseDate(value: unknown): ParsedDate {
  const fail = () => new FilterError("Can't compare strings using operators '>', '>=', '<', '<='. Strings are only comparable if they are ISO formatted dates.");
  if (typeof value !== "string") throw fail();
  const m = ISO.exec(value.trim());
  if (m) {
    const [, y, mo, d, h = "0", mi = "0", s = "0", frac = "", tz] = m;
    const wall = Date.UTC(+y!, +mo! - 1, +d!, +h, +mi, +s, +frac.padEnd(3, "0").slice(0, 3));
    if (Number.isNaN(wall) || +mo! < 1 || +mo! > 12 || +d! < 1 || +d! > 31) throw fail();
    let offset: number | null = null;
    if (tz) offset = tz.toUpperCase() === "Z" ? 0 : (tz[0] === "-" ? -1 : 1) * (+tz.slice(1, 3) * 60 + +(tz.replace(":", "").slice(3, 5) || 0));
    return { wall, micros: +frac.padEnd(6, "0").slice(3, 6), offset };
  }
  // Written-out dates ("March 3, 2021 10:00"): read as naive wall-clock time.
  if (/[a-z]{3}/i.test(value)) {
    const date = new Date(value);
    if (!Number.isNaN(date.getTime())) {
      const wall = Date.UTC(date.getFullYear(), date.getMonth(), date.getDate(), date.getHours(), date.getMinutes(), date.getSeconds(), date.getMilliseconds());
      return { wall, micros: 0, offset: null };
    }
  }
  throw fail();
}

/** A naive date takes the other's time zone, as Haystack's _ensure_both_dates_naive_or_aware does. */
function compareDates(a: ParsedDate, b: ParsedDate): number {
  const aOffset = a.offset ?? b.offset ?? 0;
  const bOffset = b.offset ?? a.offset ?? 0;
  const diff = a.wall - aOffset * 60_000 - (b.wall - bOffset * 60_000);
  return diff !== 0 ? diff : a.micros - b.micros;
}

// ---- Filter policies (haystack/document_stores/types/filter_policy.py) ----

export type FilterPolicy = "replace" | "merge";

export function parseFilterPolicy(value: unknown): FilterPolicy {
  const policy = String(value ?? "").toLowerCase();
  if (policy !== "replace" && policy !== "merge") throw new Error(`Unknown FilterPolicy type '${String(value)}'. Supported types are: ['replace', 'merge']`);
  return policy;
}

const isComparison = (f: Filters) => "field" in f && "operator" in f && "value" in f;
const isLogical = (f: Filters) => "operator" in f && "conditions" in f;

/**
 * Runtime filters replace the init filters, or with "merge" are combined with them under AND.
 * Unlike Haystack, never mutates either input (Haystack appends runtime conditions to the init list).
 */
export function applyFilterPolicy(policy: FilterPolicy, init?: Filters | null, runtime?: Filters | null, op = "AND"): Filters | null {
  const has = (f?: Filters | null): f is Filters => !!f && Object.keys(f).length > 0;
  if (policy === "merge" && has(init) && has(runtime)) {
    if (isComparison(init) && isComparison(runtime)) return init.field === runtime.field ? runtime : { operator: op, conditions: [init, runtime] };
    if (isComparison(init) && isLogical(runtime)) {
      if (runtime.operator !== op) return runtime;
      const conditions: Filters[] = [...runtime.conditions];
      if (!conditions.some((c) => c.field === init.field)) conditions.push(init);
      return { operator: runtime.operator, conditions };
    }
    if (isLogical(init) && isComparison(runtime)) {
      if (init.operator !== op) return runtime;
      const conditions = (init.conditions as Filters[]).filter((c) => c.field !== runtime.field);
      return { operator: init.operator, conditions: [...conditions, runtime] };
    }
    if (isLogical(init) && isLogical(runtime)) {
      return init.operator === runtime.operator ? { operator: init.operator, conditions: [...init.conditions, ...runtime.conditions] } : runtime;
    }
  }
  return has(runtime) ? runtime : has(init) ? init : null;
}
