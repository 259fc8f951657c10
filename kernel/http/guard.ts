/**
 * @module The DNS-rebinding guard: a server bound to a loopback address answers only requests whose
 * Host (and Origin, when sent) name a loopback host, unless the origin is allowed by CORS.
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
