/**
 * @module A Redis connection string as the settings give it: one `redis://` / `rediss://` URL, or
 * a comma-separated list of nodes meaning a cluster (node-redis has no cluster URL scheme). In a
 * list, the nodes after the first may be bare `host[:port]` and then share the first URL's scheme
 * and credentials (`redis://user:pw@h1:6379,h2:6379,h3:6379`). Credentials stay inside;
 * `display` is safe to log, and every error names the setting the string came from.
 */
import { KernelError } from "../errors.js";

export interface RedisTarget {
  /** Every node as a full URL, credentials included. One entry: a single server; more: a cluster. */
  urls: string[];
  /** Every node without scheme or credentials. */
  nodes: { host: string; port: number }[];
  cluster: boolean;
  /** `rediss://`: TLS. */
  tls: boolean;
  username?: string;
  password?: string;
  /** Database number of a single server (`/2`); a cluster only has 0. */
  database?: number;
  /** `host:port[,host:port…]`, never credentials. */
  display: string;
  /** Where the string came from (`OBJECT_STORE_REDIS_URL`), for messages; absent when not given. */
  setting?: string;
}

const DEFAULT_PORT = 6379;
const FORMS = "redis://[user:password@]host[:port][/db], rediss://… for TLS, or comma-separated nodes (redis://host1:6379,host2:6379,…) for a cluster";

/**
 * Parses a Redis connection string; throws `KERNEL_ERR_KV_CONNECT` with a message naming `setting`
 * (the environment variable or option the string came from) when it is not one of the forms above.
 */
export function parseRedisTarget(connection: string, setting?: string): RedisTarget {
  const invalid = (what: string, reason: string) =>
    new KernelError("KERNEL_ERR_KV_CONNECT", `Invalid Redis URL${setting ? ` in ${setting}` : ""} ${what}: ${reason}; expected ${FORMS}.`);
  const parts = connection.split(",").map((part) => part.trim());
  if (parts.every((part) => part === "")) throw invalid("(empty)", "no URL given");
  if (parts.includes("")) throw invalid(`'${redact(connection)}'`, "the list has an empty entry (a stray comma?)");
  const first = parseUrl(parts[0]!, invalid);
  const nodes = parts.map((part, index) => (index === 0 ? first : parseNode(part, first, invalid)));
  const cluster = nodes.length > 1;
  const database = databaseOf(first, invalid);
  if (cluster && database) throw invalid(hostOf(first), `a cluster has only database 0, not /${database}`);
  const username = first.username ? decodeURIComponent(first.username) : undefined;
  const password = first.password ? decodeURIComponent(first.password) : undefined;
  return {
    urls: nodes.map((u) => u.href),
    nodes: nodes.map((u) => ({ host: u.hostname.replace(/^\[(.*)\]$/, "$1"), port: Number(u.port || DEFAULT_PORT) })),
    cluster,
    tls: first.protocol === "rediss:",
    ...(username ? { username } : {}),
    ...(password ? { password } : {}),
    ...(database ? { database } : {}),
    display: nodes.map(hostOf).join(","),
    ...(setting ? { setting } : {}),
  };
}

type Invalid = (what: string, reason: string) => KernelError;

function parseUrl(text: string, invalid: Invalid): URL {
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(text)?.[1];
  if (!scheme) throw invalid(`'${redact(text)}'`, "the first node must be a URL with its scheme");
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw invalid(`'${redact(text)}'`, "not a valid URL (a bad port, or an unescaped '@', ':' or '/' in the password?)");
  }
  if (url.protocol !== "redis:" && url.protocol !== "rediss:") throw invalid(hostOf(url), `unsupported scheme '${scheme}://'`);
  if (!url.hostname) throw invalid(`'${redact(text)}'`, "the URL has no host");
  return url;
}

/** A later node of a list: a full URL, or `host[:port]` taking the first node's scheme and credentials. */
function parseNode(text: string, first: URL, invalid: Invalid): URL {
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) {
    const credentials = first.username || first.password ? `${first.username}${first.password ? `:${first.password}` : ""}@` : "";
    if (/[@/]/.test(text)) throw invalid(`'${redact(text)}'`, "a bare cluster node is host[:port] only");
    return parseUrl(`${first.protocol}//${credentials}${text}`, invalid);
  }
  const url = parseUrl(text, invalid);
  if (url.protocol !== first.protocol) throw invalid(`${hostOf(first)},${hostOf(url)}`, "mixes redis:// and rediss:// nodes");
  if ((url.username || url.password) && (url.username !== first.username || url.password !== first.password)) {
    throw invalid(`${hostOf(first)},${hostOf(url)}`, "the cluster nodes give different credentials (give them once, on the first node)");
  }
  if (!url.username && !url.password) {
    url.username = first.username;
    url.password = first.password;
  }
  return url;
}

function databaseOf(url: URL, invalid: Invalid): number | undefined {
  const path = url.pathname.replace(/^\/+|\/+$/g, "");
  if (path === "") return undefined;
  if (!/^\d+$/.test(path)) throw invalid(hostOf(url), `the path '/${path}' is not a database number`);
  return Number(path) || undefined;
}

function hostOf(u: URL): string {
  return `${u.hostname}:${u.port || DEFAULT_PORT}`;
}

/** The text with any `user:password@` removed, for messages. */
function redact(text: string): string {
  return text.replace(/\/\/[^@/]*@/g, "//").replace(/^[^/@]*@/, "");
}
