/**
 * @module The request guards. The DNS-rebinding guard: a server bound to a loopback address answers
 * only requests whose Host (and Origin, when sent) name a loopback host, unless the origin is
 * allowed by CORS. The cross-site guard, whatever the bind: a browser request that could change or
 * run something (any method but GET, HEAD and OPTIONS) from a page of another origin is refused
 * unless that origin is allowed by CORS. Browsers always say where such a request comes from
 * (`Origin`, or `Sec-Fetch-Site`), and a page cannot forge either; clients that are not browsers
 * (curl, the SDKs, the CLI) send neither and pass.
 */
import type { IncomingMessage } from "node:http";
import { isIP } from "node:net";

export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, "").toLowerCase();
  if (h === "localhost" || h.endsWith(".localhost") || h === "::1") return true;
  return isIP(h) === 4 && h.startsWith("127.");
}

/** The host name of a Host header value (`name:port`, `[v6]:port`). */
function hostnameOf(hostHeader: string): string {
  if (hostHeader.startsWith("[")) return hostHeader.slice(0, hostHeader.indexOf("]") + 1);
  return hostHeader.split(":")[0]!;
}

function originAllowed(origin: string, allowedOrigin: (origin: string) => boolean): boolean {
  if (allowedOrigin(origin)) return true;
  try {
    return isLoopbackHost(new URL(origin).hostname);
  } catch {
    return false;
  }
}

/** Verdicts by header value: nearly every request repeats the same Host and Origin. */
class VerdictCache {
  private readonly verdicts = new Map<string, boolean>();
  constructor(private readonly decide: (value: string) => boolean) {}
  allows(value: string): boolean {
    let verdict = this.verdicts.get(value);
    if (verdict === undefined) {
      verdict = this.decide(value);
      // Bounded: a client cycling through Host values cannot grow it without limit.
      if (this.verdicts.size >= 1024) this.verdicts.clear();
      this.verdicts.set(value, verdict);
    }
    return verdict;
  }
}

/** Returns why a request is refused, or undefined when it passes. */
export function rebindingGuard(bindHost: string, allowedOrigin: (origin: string) => boolean) {
  if (!isLoopbackHost(bindHost)) return () => undefined;
  const hosts = new VerdictCache((host) => isLoopbackHost(hostnameOf(host)));
  const origins = new VerdictCache((origin) => originAllowed(origin, allowedOrigin));
  return (req: IncomingMessage): string | undefined => {
    const { host, origin } = req.headers;
    if (host !== undefined && !hosts.allows(host)) return `Host '${host}' is not allowed for a loopback server.`;
    if (origin !== undefined && !origins.allows(origin)) return `Origin '${origin}' is not allowed for a loopback server.`;
    return undefined;
  };
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** `host[:port]` as a browser writes it in an Origin: lower case, the scheme's default port left out. */
function originHost(origin: string): string | undefined {
  try {
    const url = new URL(origin);
    return url.protocol === "http:" || url.protocol === "https:" ? url.host : undefined;
  } catch {
    return undefined;
  }
}

const withoutDefaultPort = (host: string) => host.toLowerCase().replace(/:(80|443)$/, "");

/**
 * True when `origin` is this service as the browser reached it: the request's Host, or the
 * X-Forwarded-Host a proxy in front set (a page cannot send that header without a CORS preflight,
 * which svc does not grant).
 */
function sameOrigin(origin: string, req: IncomingMessage): boolean {
  const host = originHost(origin);
  if (!host) return false;
  const own = [req.headers.host, ...String(req.headers["x-forwarded-host"] ?? "").split(",")];
  return own.some((h) => h !== undefined && h.trim() !== "" && withoutDefaultPort(h.trim()) === withoutDefaultPort(host));
}

/** Returns why a cross-site request is refused, or undefined when it passes. */
export function crossSiteGuard(allowedOrigin: (origin: string) => boolean) {
  return (req: IncomingMessage): string | undefined => {
    if (SAFE_METHODS.has(req.method ?? "GET")) return undefined;
    const origin = req.headers.origin;
    if (origin !== undefined) {
      if (sameOrigin(origin, req) || allowedOrigin(origin)) return undefined;
      return `Cross-site request refused: origin '${origin}' is neither this service nor allowed by SERVICE_CORS_ALLOW_ORIGINS.`;
    }
    const site = req.headers["sec-fetch-site"];
    if (site === "cross-site" || site === "same-site") return `Cross-site request refused: a page of another origin (${site}) may not call this service.`;
    return undefined;
  };
}
