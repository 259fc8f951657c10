/**
 * @module A Redis connection string as the settings give it: one `redis://` / `rediss://` URL, or a
 * comma-separated list of node URLs meaning a cluster (node-redis has no cluster URL scheme).
 * Credentials stay inside; `display` is safe to log.
 */
import { KernelError } from "../errors.js";

export interface RedisTarget {
  /** Every node URL, credentials included. One entry: a single server; more: a cluster. */
  urls: string[];
  cluster: boolean;
  /** `rediss://`: TLS. */
  tls: boolean;
  username?: string;
  password?: string;
  /** `host:port[,host:port…]`, never credentials. */
  display: string;
}

export function parseRedisTarget(connection: string): RedisTarget {
  const urls = connection
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean);
  if (urls.length === 0) throw invalid("(empty)", "no URL given");
  const parsed = urls.map((url) => {
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      throw invalid("(unparsable URL)", "expected redis://[user:password@]host[:port][/db] or rediss://…");
    }
    if (u.protocol !== "redis:" && u.protocol !== "rediss:") throw invalid(hostOf(u), `unsupported scheme '${u.protocol}'; use redis:// or rediss://`);
    if (!u.hostname) throw invalid(url.replace(/\/\/[^@/]*@/, "//"), "the URL has no host");
    return u;
  });
  const first = parsed[0]!;
  const tlsSchemes = new Set(parsed.map((u) => u.protocol));
  if (tlsSchemes.size > 1) throw invalid(parsed.map(hostOf).join(","), "mixes redis:// and rediss:// nodes");
  return {
    urls,
    cluster: urls.length > 1,
    tls: first.protocol === "rediss:",
    username: first.username ? decodeURIComponent(first.username) : undefined,
    password: first.password ? decodeURIComponent(first.password) : undefined,
    display: parsed.map(hostOf).join(","),
  };
}

function hostOf(u: URL): string {
  return `${u.hostname}:${u.port || "6379"}`;
}

function invalid(target: string, reason: string): KernelError {
  return new KernelError("KERNEL_ERR_KV_CONNECT", `Invalid Redis URL ${target}: ${reason}`);
}
