/**
 * @module Which `Host` names a request may carry (`SERVICE_ALLOWED_HOSTS`). A DNS-rebinding page
 * reaches the server under its own name (`attacker.example` made to resolve to this machine), so
 * the browser sends that name as Host and as Origin, and both same-origin checks pass; refusing
 * unknown Host names stops it. Always allowed: loopback names (`localhost`, `*.localhost`,
 * `127.x`, `::1`) and, when bound beyond loopback, the machine's own addresses and host name.
 * The setting adds names: exact (`svc.example.com`), a whole domain (`.example.com` or
 * `*.example.com`: the domain and every subdomain), or `*` to allow any Host.
 */
import { hostname, networkInterfaces } from "node:os";
import { isIP } from "node:net";

export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, "").toLowerCase();
  if (h === "localhost" || h.endsWith(".localhost") || h === "::1") return true;
  return isIP(h) === 4 && h.startsWith("127.");
}

/** The host name of a Host header value (`name:port`, `[v6]:port`), lower case, without brackets. */
export function hostnameOf(hostHeader: string): string {
  const name = hostHeader.startsWith("[") ? hostHeader.slice(1, hostHeader.indexOf("]")) : hostHeader.split(":")[0]!;
  return name.toLowerCase().replace(/\.$/, "");
}

/** This machine's addresses (every interface) and its host name, as a Host header may name them. */
export function machineNames(): Set<string> {
  const names = new Set<string>([hostname().toLowerCase()]);
  for (const list of Object.values(networkInterfaces())) {
    for (const info of list ?? []) names.add(info.address.toLowerCase().replace(/%.*$/, ""));
  }
  return names;
}

/**
 * A predicate over Host header values; undefined when every Host is allowed (`*`). `bindsBeyondLoopback`:
 * the server is reachable on the machine's other addresses, which are then allowed too.
 */
export function allowedHostCheck(allowed: readonly string[], bindsBeyondLoopback: boolean): ((host: string) => boolean) | undefined {
  if (allowed.includes("*")) return undefined;
  const exact = bindsBeyondLoopback ? machineNames() : new Set<string>();
  const domains: string[] = [];
  for (const entry of allowed.map((e) => e.trim().toLowerCase()).filter(Boolean)) {
    if (entry.startsWith("*.")) domains.push(entry.slice(1));
    else if (entry.startsWith(".")) domains.push(entry);
    else exact.add(hostnameOf(entry));
  }
  return (host) => {
    const name = hostnameOf(host);
    return isLoopbackHost(name) || exact.has(name) || domains.some((d) => name.endsWith(d) || name === d.slice(1));
  };
}
