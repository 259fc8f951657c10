/**
 * @module The store protocol's metadata methods on the `meta` JSONB column, as Haystack's
 * pgvector store answers them: distinct counts per field under filters, the fields and their types
 * (boolean, integer, real, text — inferred from the stored JSON values), a field's min/max
 * (numeric for numbers, byte order for text) and its unique values, paged. Field names are
 * parameters, checked as Haystack does (letters, digits, `_`, `-`; `meta.` prefix optional).
 */
import type { QueryResultRow } from "pg";
import type { Filters } from "svc/engine";
import { validateFilters } from "./sql-filters.js";

interface MetadataTarget {
  readonly table: string;
  query<R extends QueryResultRow>(sql: string, params: unknown[], what: string): Promise<{ rows: R[] }>;
  where(filters: Filters | null | undefined, first?: number): { where: string; params: unknown[] };
}

export function fieldName(field: string): string {
  const name = field.startsWith("meta.") ? field.slice(5) : field;
  if (!/^[\p{L}\p{N}_-]+$/u.test(name)) {
    throw new Error(`Invalid metadata field name: '${name}'. Field names can only contain alphanumeric characters, underscores, and hyphens.`);
  }
  return name;
}

export class MetadataQueries {
  constructor(private readonly store: MetadataTarget) {}

  async countUnique(filters: Filters, fields: string[]): Promise<Record<string, number>> {
    validateFilters(filters);
    if (!Array.isArray(fields) || fields.length === 0) throw new Error("metadata_fields must be a non-empty list");
    const names = fields.map(fieldName);
    const { where, params } = this.store.where(filters, names.length + 1);
    const counts = names.map((_, i) => `COUNT(DISTINCT meta->>$${i + 1}::text) AS c${i}`).join(", ");
    const { rows } = await this.store.query<Record<string, string>>(`SELECT ${counts} FROM ${this.store.table}${where}`, [...names, ...params], "Could not count unique metadata values");
    return Object.fromEntries(names.map((name, i) => [name, Number(rows[0]?.[`c${i}`] ?? 0)]));
  }

  async fieldsInfo(): Promise<Record<string, { type: string }>> {
    // One row per key: the type of a non-null value when there is one.
    const sql =
      `SELECT DISTINCT ON (key) key, jsonb_typeof(value) AS kind, value::text AS text FROM ${this.store.table}, jsonb_each(meta) ` +
      `WHERE jsonb_typeof(meta) = 'object' ORDER BY key, (jsonb_typeof(value) = 'null')`;
    const { rows } = await this.store.query<{ key: string; kind: string; text: string }>(sql, [], "Could not retrieve metadata fields info");
    return Object.fromEntries(rows.map((r) => [r.key, { type: typeOf(r.kind, r.text) }]));
  }

  async minMax(field: string): Promise<{ min: unknown; max: unknown }> {
    const name = fieldName(field);
    const info = await this.fieldsInfo();
    const type = info[name]?.type;
    if (!type) return { min: null, max: null };
    const numeric = type === "integer" || type === "real";
    const value = numeric ? "(meta->>$1::text)::numeric" : type === "boolean" ? "(meta->>$1::text)::boolean::int" : `(meta->>$1::text) COLLATE "C"`;
    const sql = `SELECT MIN(${value}) AS min, MAX(${value}) AS max FROM ${this.store.table} WHERE meta->>$1::text IS NOT NULL`;
    const { rows } = await this.store.query<{ min: unknown; max: unknown }>(sql, [name], `Could not get min/max for metadata field '${field}'`);
    const row = rows[0];
    if (!row || (row.min == null && row.max == null)) return { min: null, max: null };
    const cast = (x: unknown) => (numeric ? Number(x) : type === "boolean" ? Number(x) === 1 : x);
    return { min: cast(row.min), max: cast(row.max) };
  }

  async uniqueValues(field: string, searchTerm: string | null, from: number, size: number, filters: Filters | null): Promise<[unknown[], number]> {
    const name = fieldName(field);
    if (!Number.isInteger(from) || from < 0 || !Number.isInteger(size) || size < 1) throw new Error("from_ must be a non-negative integer and size a positive integer");
    const params: unknown[] = [name];
    let where = ` WHERE meta->>$1::text IS NOT NULL`;
    if (searchTerm) {
      params.push(`%${searchTerm.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
      where += ` AND meta->>$1::text ILIKE $2`;
    }
    const filtered = this.store.where(filters, params.length + 1);
    if (filtered.where) {
      where += ` AND ${filtered.where.slice(" WHERE ".length)}`;
      params.push(...filtered.params);
    }
    const total = await this.store.query<{ n: string }>(`SELECT COUNT(DISTINCT meta->$1::text) AS n FROM ${this.store.table}${where}`, params, "Could not count unique metadata values");
    const page = await this.store.query<{ value: unknown }>(
      `SELECT DISTINCT meta->$1::text AS value FROM ${this.store.table}${where} ORDER BY value LIMIT ${size} OFFSET ${from}`,
      params,
      "Could not get unique metadata values",
    );
    return [page.rows.map((r) => r.value), Number(total.rows[0]?.n ?? 0)];
  }
}

function typeOf(kind: string, text: string): string {
  if (kind === "boolean") return "boolean";
  if (kind === "number") return /[.eE]/.test(text) ? "real" : "integer";
  return "text";
}
