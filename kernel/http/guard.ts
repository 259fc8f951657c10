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

/** Returns why a request is refused, or undefined when it passes. */
export function rebindingGuard(bindHost: string, allowedOrigin: (origin: string) => boolean) {
  if (!isLoopbackHost(bindHost)) return () => undefined;
  return (req: IncomingMessage): string | undefined => {
    const host = req.headers.host;
    if (host !== undefined && !isLoopbackHost(hostnameOf(host))) return `Host '${host}' is not allowed for a loopback server.`;
    const origin = req.headers.origin;
    if (origin === undefined || allowedOrigin(origin)) return undefined;
    let hostname: string | undefined;
    try {
      hostname = new URL(origin).hostname;
    } catch {
      hostname = undefined;
    }
    return hostname !== undefined && isLoopbackHost(hostname) ? undefined : `Origin '${origin}' is not allowed for a loopback server.`;
  };
}
