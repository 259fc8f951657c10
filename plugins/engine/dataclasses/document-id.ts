/**
 * @module A Document's generated id, computed as Haystack 3's `Document._create_id` computes it:
 * the SHA-256 of `f"{text}{dataframe}{blob!r}{mime_type}{meta}{embedding}{sparse_embedding}"`,
 * where `text` is the content or `None` (an empty content counts as missing), `dataframe` is
 * always `None`, `blob!r` is Python's bytes repr, `meta` is `json.dumps(meta, sort_keys=True,
 * default=str)` (or `{}` when empty), `embedding` is Python's list repr (or `None`) and
 * `sparse_embedding` is the repr of `{'indices': [...], 'values': [...]}` or the empty string.
 *
 * JavaScript has one number type, so integers and floats are told apart by where they stand:
 * embedding and sparse values are floats (`1.0`), as every embedder returns; numbers in meta are
 * written as integers when they are whole (`"page": 1`), which is what Python holds for them
 * after JSON or YAML parsing of `1`.
 */
import { createHash } from "node:crypto";

export interface IdFields {
  content: string | null;
  blob: { data: Buffer; mimeType: string | null } | null;
  meta: Record<string, unknown>;
  embedding: number[] | null;
  sparse_embedding: { indices: number[]; values: number[] } | null;
}

export function createDocumentId(doc: IdFields): string {
  const text = doc.content ? doc.content : "None";
  const blob = doc.blob ? pyBytesRepr(doc.blob.data) : "None";
  const mime = doc.blob?.mimeType ?? "None";
  const meta = Object.keys(doc.meta).length > 0 ? pyJsonDumps(doc.meta) : "{}";
  const embedding = doc.embedding ? pyFloatList(doc.embedding) : "None";
  const sparse = doc.sparse_embedding
    ? `{'indices': [${doc.sparse_embedding.indices.map((i) => String(Math.trunc(i))).join(", ")}], 'values': ${pyFloatList(doc.sparse_embedding.values)}}`
    : "";
  const data = `${text}None${blob}${mime}${meta}${embedding}${sparse}`;
  return createHash("sha256").update(data, "utf8").digest("hex");
}

function pyFloatList(values: readonly number[]): string {
  return `[${values.map(pyFloatRepr).join(", ")}]`;
}

/** Python's `repr(float)`: the shortest round-trip digits, scientific below 1e-4 and from 1e16. */
export function pyFloatRepr(n: number): string {
  if (Number.isNaN(n)) return "nan";
  if (!Number.isFinite(n)) return n > 0 ? "inf" : "-inf";
  if (n === 0) return Object.is(n, -0) ? "-0.0" : "0.0";
  const [mantissa, exp] = n.toExponential().split("e") as [string, string];
  const negative = mantissa.startsWith("-");
  const digits = mantissa.replace(/[-.]/g, "");
  const decpt = Number(exp) + 1; // where the decimal point sits relative to the digits
  let body: string;
  if (decpt > -4 && decpt <= 16) {
    if (decpt <= 0) body = `0.${"0".repeat(-decpt)}${digits}`;
    else if (decpt >= digits.length) body = `${digits}${"0".repeat(decpt - digits.length)}.0`;
    else body = `${digits.slice(0, decpt)}.${digits.slice(decpt)}`;
  } else {
    const e = decpt - 1;
    const m = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    body = `${m}e${e < 0 ? "-" : "+"}${String(Math.abs(e)).padStart(2, "0")}`;
  }
  return negative ? `-${body}` : body;
}

/** Python's `repr(bytes)`: `b'…'`, double quotes when only a single quote occurs. */
export function pyBytesRepr(data: Buffer): string {
  const quote = data.includes(0x27) && !data.includes(0x22) ? '"' : "'";
  let out = "b" + quote;
  for (const byte of data) {
    const ch = String.fromCharCode(byte);
    if (ch === quote || ch === "\\") out += "\\" + ch;
    else if (ch === "\t") out += "\\t";
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (byte < 0x20 || byte >= 0x7f) out += "\\x" + byte.toString(16).padStart(2, "0");
    else out += ch;
  }
  return out + quote;
}

/** Python's `json.dumps(value, sort_keys=True, default=str)` with its default separators and ASCII escaping. */
export function pyJsonDumps(value: unknown): string {
  if (value === null || value === undefined) return "null";
  if (value === true) return "true";
  if (value === false) return "false";
  if (typeof value === "number") {
    if (Number.isNaN(value)) return "NaN";
    if (!Number.isFinite(value)) return value > 0 ? "Infinity" : "-Infinity";
    return Number.isInteger(value) && !Object.is(value, -0) ? String(value) : pyFloatRepr(value);
  }
  if (typeof value === "bigint") return value.toString();
  if (typeof value === "string") return jsonString(value);
  if (Array.isArray(value)) return `[${value.map(pyJsonDumps).join(", ")}]`;
  if (isPlainObject(value)) {
    const keys = Object.keys(value).sort(compareCodePoints);
    return `{${keys.map((k) => `${jsonString(k)}: ${pyJsonDumps(value[k])}`).join(", ")}}`;
  }
  // default=str: anything else is written as its string form.
  return jsonString(value instanceof Date ? value.toISOString() : String(value));
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** Python sorts str keys by code point; JavaScript's default sort uses UTF-16 units. */
function compareCodePoints(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = x[i]!.codePointAt(0)! - y[i]!.codePointAt(0)!;
    if (d !== 0) return d;
  }
  return x.length - y.length;
}

const SHORT_ESCAPES: Record<string, string> = { '"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b", "\f": "\\f" };

/** `ensure_ascii=True`: everything outside printable ASCII becomes `\uXXXX` (UTF-16 units). */
function jsonString(s: string): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const ch = s[i]!;
    const code = s.charCodeAt(i);
    if (SHORT_ESCAPES[ch]) out += SHORT_ESCAPES[ch];
    else if (code < 0x20 || code > 0x7e) out += "\\u" + code.toString(16).padStart(4, "0");
    else out += ch;
  }
  return out + '"';
}
