/**
 * @module The request guards. The DNS-rebinding guard: a request whose Host is not an allowed name
 * (loopback names, the machine's own addresses when bound beyond loopback, SERVICE_ALLOWED_HOSTS)
 * is refused; on a loopback bind, so is one whose Origin names another host, unless CORS allows it. The cross-site guard, whatever the bind: a browser request that could change or
 * run something (any method but GET, HEAD and OPTIONS) from a page of another origin is refused
 * unless that origin is allowed by CORS. Browsers always say where such a request comes from
 * (`Origin`, or `Sec-Fetch-Site`), and a page cannot forge either; clients that are not browsers
 * (curl, the SDKs, the CLI) send neither and pass.
 */
import type { IncomingHttpHeaders, IncomingMessage } from "node:http";
import { allowedHostCheck, isLoopbackHost } from "./allowed-hosts.js";

export { isLoopbackHost } from "./allowed-hosts.js";

function originAllowed(origin: string, allowedOrigin: (origin: string) => boolean, allowedHost: (host: string) => boolean): boolean {
  if (allowedOrigin(origin)) return true;
  try {
    return allowedHost(new URL(origin).host);
  } catch {
    return false;
  }
}

/**
 * Verdicts by header value: nearly every request repeats the same Host and Origin. The last one is
 * compared first: a header value is a new string each request, and a map lookup hashes it.
 */
class VerdictCache {
  private readonly verdicts = new Map<string, boolean>();
  private lastValue: string | undefined = undefined;
  private lastVerdict = false;
  constructor(private readonly decide: (value: string) => boolean) {}
  allows(value: string): boolean {
    if (value === this.lastValue) return this.lastVerdict;
    let verdict = this.verdicts.get(value);
    if (verdict === undefined) {
      verdict = this.decide(value);
      // Bounded: a client cycling through Host values cannot grow it without limit.
      if (this.verdicts.size >= 1024) this.verdicts.clear();
      this.verdicts.set(value, verdict);
    }
    this.lastValue = value;
    this.lastVerdict = verdict;
    return verdict;
  }
}

/**
 * The DNS-rebinding guard, before any route: the Host must be an allowed name (allowed-hosts.ts;
 * `*` in `allowedHosts` turns the guard off); on a loopback bind the Origin too, when sent, must
 * name an allowed host or an origin allowed by CORS. Returns why a request is refused, or undefined.
 */
export function rebindingGuard(bindHost: string, allowedHosts: readonly string[], allowedOrigin: (origin: string) => boolean) {
  const loopback = isLoopbackHost(bindHost);
  const allowedHost = allowedHostCheck(allowedHosts, !loopback);
  if (!allowedHost) return () => undefined;
  const hosts = new VerdictCache(allowedHost);
  const origins = loopback ? new VerdictCache((origin) => originAllowed(origin, allowedOrigin, allowedHost)) : undefined;
  const known = loopback ? "a loopback name" : "a loopback name, this machine's address";
  return (headers: IncomingHttpHeaders): string | undefined => {
    const { host, origin } = headers;
    if (host !== undefined && !hosts.allows(host)) return `Host '${host}' is not allowed: it is not ${known} or a name in SERVICE_ALLOWED_HOSTS.`;
    if (origin !== undefined && origins && !origins.allows(origin)) return `Origin '${origin}' is not allowed for a loopback server (SERVICE_ALLOWED_HOSTS, SERVICE_CORS_ALLOW_ORIGINS).`;
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

/**
 * Returns why a cross-site request is refused, or undefined when it passes. `headers`: the
 * request's (read once by the caller: `req.headers` is a getter).
 */
export function crossSiteGuard(allowedOrigin: (origin: string) => boolean) {
  return (req: IncomingMessage, headers: IncomingHttpHeaders): string | undefined => {
    if (SAFE_METHODS.has(req.method ?? "GET")) return undefined;
    const origin = headers.origin;
    if (origin !== undefined) {
      if (sameOrigin(origin, req) || allowedOrigin(origin)) return undefined;
      return `Cross-site request refused: origin '${origin}' is neither this service nor allowed by SERVICE_CORS_ALLOW_ORIGINS.`;
    }
    const site = headers["sec-fetch-site"];
    if (site === "cross-site" || site === "same-site") return `Cross-site request refused: a page of another origin (${site}) may not call this service.`;
    return undefined;
  };
}
