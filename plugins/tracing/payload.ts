/**
 * @module The `svc.payload.values` tag: one `key=<text>` entry per top-level input key, sorted by
 * key. By default only shapes (`str(12)`, `int`, `list(3)`, `dict(2)`…); with
 * SERVICE_TRACING_INCLUDE_PAYLOAD_VALUES the values, with secrets redacted at any depth.
 *
 * A key is secret when its *name* says so: split into words (`snake_case`, `kebab-case`,
 * `camelCase`), it contains a word such as `token`, `password`, `secret`, `authorization`, `auth`,
 * `credential`, `cookie` or `apikey`, or a pair such as `api key`, `access key`, `private key`.
 * A bare `key` is not secret (`keyword`, `key_points`, `sort_key` stay visible), and neither is
 * `max_tokens`.
 */
import { boundedJson, REDACTED } from "./render.js";

const SECRET_WORDS = new Set([
  "token",
  "password",
  "passwd",
  "pwd",
  "passphrase",
  "secret",
  "secrets",
  "authorization",
  "auth",
  "credential",
  "credentials",
  "cookie",
  "cookies",
  "apikey",
  "apikeys",
  "bearer",
  "jwt",
  "privatekey",
]);
/** Words that make a following `key` secret. */
const KEY_QUALIFIERS = new Set(["api", "access", "private", "signing", "encryption", "session", "client", "master", "license"]);

const MAX_ENTRIES = 64;
const VALUE_LIMIT = 500;

function words(key: string): string[] {
  return key
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1_$2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

const verdicts = new Map<string, boolean>();

/** Whether a key's name marks its value as a secret. */
export function isSensitiveKey(key: string): boolean {
  let verdict = verdicts.get(key);
  if (verdict === undefined) {
    const w = words(key);
    verdict = w.some((word, i) => SECRET_WORDS.has(word) || (word === "key" && i > 0 && KEY_QUALIFIERS.has(w[i - 1]!)));
    if (verdicts.size > 4096) verdicts.clear();
    verdicts.set(key, verdict);
  }
  return verdict;
}

/** The shape of one value: `null`, `bool`, `str(n)`, `int`, `float`, `list(n)`, `dict(n)`, `<Type>(n)`. */
export function shapeOf(value: unknown): string {
  if (value === null || value === undefined) return "null";
  switch (typeof value) {
    case "boolean":
      return "bool";
    case "string":
      return `str(${value.length})`;
    case "number":
      return Number.isInteger(value) ? "int" : "float";
    case "bigint":
      return "int";
    case "function":
      return "function";
    case "symbol":
      return "symbol";
  }
  if (Array.isArray(value)) return `list(${value.length})`;
  if (value instanceof Set) return `list(${value.size})`;
  if (value instanceof Map) return `dict(${value.size})`;
  const proto = Object.getPrototypeOf(value);
  if (proto === Object.prototype || proto === null) return `dict(${Object.keys(value).length})`;
  const type = (value as object).constructor?.name ?? "object";
  const length = (value as { length?: unknown; size?: unknown; byteLength?: unknown }).length ?? (value as { size?: unknown }).size ?? (value as { byteLength?: unknown }).byteLength;
  return typeof length === "number" ? `${type}(${length})` : type;
}

function valueText(value: unknown): string {
  if (value === null || value === undefined) return "null";
  if (typeof value === "string") return value.length > VALUE_LIMIT ? value.slice(0, VALUE_LIMIT) : value;
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint") return String(value);
  return boundedJson(value, { limit: VALUE_LIMIT, redact: isSensitiveKey });
}

function isPlainObject(input: unknown): input is Record<string, unknown> {
  if (input === null || typeof input !== "object" || Array.isArray(input)) return false;
  const proto = Object.getPrototypeOf(input);
  return proto === Object.prototype || proto === null;
}

/** The entries of the payload tag, sorted by key (a non-object input is one `value` entry). */
export function payloadTag(input: unknown, includeValues: boolean): string[] {
  if (!isPlainObject(input)) return [`value=${includeValues ? valueText(input) : shapeOf(input)}`];
  const keys = Object.keys(input);
  if (keys.length > 1) keys.sort();
  const n = Math.min(keys.length, MAX_ENTRIES);
  const out = new Array<string>(n);
  for (let i = 0; i < n; i++) {
    const key = keys[i]!;
    const value = input[key];
    out[i] = `${key}=${!includeValues ? shapeOf(value) : isSensitiveKey(key) ? REDACTED : valueText(value)}`;
  }
  return out;
}

/**
 * A number per value standing for its shape, for the values whose shape says no more than this:
 * equal numbers, equal shapes (`str(n)` 4n, `list(n)` 4n+1, `null` -1, `bool` -2, `int` -3,
 * `float` -4). NaN, which equals nothing, for every other value.
 */
function shapeCode(value: unknown): number {
  if (value === null || value === undefined) return -1;
  switch (typeof value) {
    case "string":
      return value.length * 4;
    case "number":
      return Number.isInteger(value) ? -3 : -4;
    case "boolean":
      return -2;
    case "bigint":
      return -3;
  }
  return Array.isArray(value) ? value.length * 4 + 1 : NaN;
}

/**
 * The payload tags of one tracer's run spans. Shapes repeat from call to call, and a span stays in
 * the trace buffer long enough for the garbage collector to copy what it holds, so equal shape
 * lists are one shared frozen array; value lists are the span's own.
 *
 * Calls in a row mostly bring inputs of one shape (the same keys in the same order, values of the
 * same shapes): the last plain input's keys and shape codes are kept, and an input matching them
 * gets the last list without a string built.
 */
export function sharedPayloadTags(): (input: unknown, includeValues: boolean) => readonly string[] {
  const shared = new Map<string, readonly string[]>();
  let lastKeys: string[] = [];
  let lastCodes: number[] = [];
  let lastList: readonly string[] | undefined;
  const sameAsLast = (input: Record<string, unknown>): boolean => {
    let i = 0;
    for (const key in input) {
      if (i === lastKeys.length || key !== lastKeys[i] || shapeCode(input[key]) !== lastCodes[i]) return false;
      i++;
    }
    return i === lastKeys.length;
  };
  const remember = (input: Record<string, unknown>, list: readonly string[]): void => {
    const keys = Object.keys(input);
    const codes = keys.map((key) => shapeCode(input[key]));
    if (keys.length > MAX_ENTRIES || codes.some(Number.isNaN)) return;
    lastKeys = keys;
    lastCodes = codes;
    lastList = list;
  };
  return (input, includeValues) => {
    if (includeValues) return payloadTag(input, true);
    const plain = isPlainObject(input);
    if (plain && lastList !== undefined && sameAsLast(input)) return lastList;
    const entries = payloadTag(input, false);
    const key = entries.join("\n");
    const known = shared.get(key);
    // A key may hold a line break itself: the list must match, not just the joined text.
    let list: readonly string[];
    if (known !== undefined && known.length === entries.length && known.every((entry, i) => entry === entries[i])) list = known;
    else {
      if (shared.size >= 1024) shared.clear();
      shared.set(key, (list = Object.freeze(entries)));
    }
    if (plain) remember(input, list);
    return list;
  };
}
