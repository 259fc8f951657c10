/**
 * @module svc's own package.json, read once: its name and version (server info, logs), its
 * `exports` (the module loader aliases them for user code) and its optional peer dependencies'
 * ranges (install hints name them).
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

export interface PackageInfo {
  /** The folder holding package.json (the checkout, or the installed package). */
  readonly root: string;
  readonly name: string;
  readonly version: string;
  readonly exports: Readonly<Record<string, string | { readonly import?: string }>>;
  readonly peerDependencies: Readonly<Record<string, string>>;
}

/** Names our package.json had: the published one and the repository's first. */
const OWN_NAMES = new Set(["@svc-serve/svc", "svc"]);

let info: PackageInfo | undefined;

/** Our package.json, found above this file (kernel/ in the sources, dist/kernel/ when built). */
export function packageInfo(): PackageInfo {
  if (info) return info;
  for (const up of ["../../", "../"]) {
    const root = fileURLToPath(new URL(up, import.meta.url));
    let pkg: Partial<PackageInfo>;
    try {
      pkg = JSON.parse(readFileSync(`${root}package.json`, "utf8")) as Partial<PackageInfo>;
    } catch {
      continue; // not at this level
    }
    // Our own package.json (by its name), not some other package's above ours.
    if (typeof pkg.name !== "string" || !OWN_NAMES.has(pkg.name)) continue;
    return (info = {
      root,
      name: pkg.name,
      version: typeof pkg.version === "string" ? pkg.version : "0.0.0",
      exports: pkg.exports ?? {},
      peerDependencies: pkg.peerDependencies ?? {},
    });
  }
  return (info = { root: fileURLToPath(new URL("../../", import.meta.url)), name: "@svc-serve/svc", version: "0.0.0", exports: {}, peerDependencies: {} });
}

/** svc's own version, for server info (OpenAPI, MCP) and logs. */
export function packageVersion(): string {
  return packageInfo().version;
}
