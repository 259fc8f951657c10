/**
 * @module The database side of a PgvectorDocumentStore: the `pg` pool config from a connection
 * string (a URI or libpq's `key=value` form, as Haystack accepts), a name for the server that
 * never shows the password, and the errors a run turns into answers — an unreachable or
 * unusable database is a 503 naming the store, never a crash.
 */
import { HttpError, messageOf } from "svc/plugin";
import type { PoolConfig } from "pg";

/** The store cannot reach its database (down, refused, auth failed, pool exhausted, no pgvector). */
export class DocumentStoreUnavailableError extends HttpError {
  constructor(message: string, cause?: unknown) {
    super(503, message, { cause });
    this.name = "DocumentStoreUnavailableError";
  }
}

export interface PoolLimits {
  /** Connections per store. */
  max: number;
  /** How long a query waits for a connection (to be made, or freed by another query). */
  connectionTimeoutMillis: number;
}

/** libpq keyword → pg config field (the ones pg understands). */
const KEYWORDS: Record<string, keyof PoolConfig> = {
  host: "host",
  hostaddr: "host",
  port: "port",
  dbname: "database",
  user: "user",
  password: "password",
  application_name: "application_name",
  options: "options",
};

/** pg's config for a connection string: URIs as they are; `key=value …` parsed as libpq does. */
export function poolConfig(connectionString: string, limits: PoolLimits): PoolConfig {
  const base: PoolConfig = { max: limits.max, connectionTimeoutMillis: limits.connectionTimeoutMillis, idleTimeoutMillis: 30_000, allowExitOnIdle: true };
  const trimmed = connectionString.trim();
  if (/^postgres(ql)?:\/\//i.test(trimmed) || trimmed.startsWith("socket:")) return { ...base, connectionString: trimmed };
  const config: PoolConfig = { ...base };
  for (const [key, value] of parseKeywordValue(trimmed)) {
    if (key === "sslmode") {
      if (value !== "disable" && value !== "allow" && value !== "prefer") config.ssl = value === "require" ? { rejectUnauthorized: false } : true;
      continue;
    }
    if (key === "connect_timeout") {
      config.connectionTimeoutMillis = Number(value) * 1000;
      continue;
    }
    const field = KEYWORDS[key];
    if (!field) throw new Error(`Unsupported connection string keyword '${key}'. Use ${Object.keys(KEYWORDS).join(", ")}, sslmode or connect_timeout, or a postgresql:// URI.`);
    (config as Record<string, unknown>)[field] = field === "port" ? Number(value) : value;
  }
  return config;
}

/** libpq's `key=value` pairs: spaces separate, single quotes quote, backslash escapes. */
function parseKeywordValue(text: string): [string, string][] {
  const pairs: [string, string][] = [];
  const re = /\s*([A-Za-z_]+)\s*=\s*('((?:[^'\\]|\\.)*)'|((?:[^\s'\\]|\\.)*))/y;
  let at = 0;
  while (at < text.length) {
    if (/^\s*$/.test(text.slice(at))) break;
    re.lastIndex = at;
    const m = re.exec(text);
    if (!m) throw new Error("The connection string is neither a postgresql:// URI nor libpq's 'key=value' form.");
    pairs.push([m[1]!, (m[3] ?? m[4] ?? "").replace(/\\(.)/g, "$1")]);
    at = re.lastIndex;
  }
  return pairs;
}

/** `host:port/database` of a pool config, for messages and logs (never the password). */
export function serverName(config: PoolConfig): string {
  if (config.connectionString) {
    try {
      const url = new URL(config.connectionString);
      return `${url.hostname || "localhost"}:${url.port || 5432}${url.pathname || "/"}`;
    } catch {
      return "the configured server";
    }
  }
  return `${config.host ?? "localhost"}:${config.port ?? 5432}/${config.database ?? config.user ?? ""}`;
}

/** SQLSTATE classes and codes that mean "the database cannot serve now", not "this query is wrong". */
const UNAVAILABLE_CODES = new Set(["28000", "28P01", "3D000", "53300", "57P01", "57P02", "57P03", "08000", "08003", "08006", "08001", "08004"]);
const NETWORK_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ENOTFOUND", "EAI_AGAIN", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH", "EPIPE"]);

/** Whether a pg error means the database is unreachable or unusable (then a 503). */
export function isUnavailable(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown } | null;
  if (!e || typeof e !== "object") return false;
  if (typeof e.code === "string" && (UNAVAILABLE_CODES.has(e.code) || NETWORK_CODES.has(e.code))) return true;
  const message = typeof e.message === "string" ? e.message : "";
  // pg's own connection errors carry no SQLSTATE.
  return /timeout exceeded when trying to connect|Connection terminated|connection timeout|Cannot use a pool after calling end|Client has encountered a connection error/i.test(message);
}

/** The pgvector extension is missing on the server (create_extension, or the vector type). */
export function isMissingVector(error: unknown): boolean {
  const message = messageOf(error);
  return /extension "vector" is not available|could not open extension control file .*vector\.control|type "(vector|halfvec)" does not exist/i.test(message);
}

export function unavailable(store: string, error: unknown): DocumentStoreUnavailableError {
  const cause = messageOf(error);
  if (/timeout exceeded when trying to connect/i.test(cause)) {
    return new DocumentStoreUnavailableError(`${store} is unavailable: no database connection became free in time (the pool is exhausted or the server does not answer). Cause: ${cause}`, error);
  }
  return new DocumentStoreUnavailableError(`${store} cannot reach its database: ${cause}`, error);
}

export function missingVector(store: string, error: unknown): DocumentStoreUnavailableError {
  return new DocumentStoreUnavailableError(
    `${store}: the PostgreSQL server has no pgvector extension (the 'vector' type). Install pgvector on the server (https://github.com/pgvector/pgvector#installation), or have an administrator run CREATE EXTENSION vector. Cause: ${messageOf(error)}`,
    error,
  );
}
