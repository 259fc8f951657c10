/**
 * @module svc's own package version, for server info (OpenAPI, MCP) and logs.
 */
import { readFileSync } from "node:fs";

/** Read from the package.json above this file (source or dist). */
export function packageVersion(): string {
  for (const up of ["../../package.json", "../package.json"]) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(up, import.meta.url), "utf8")) as { name?: unknown; version?: unknown };
      // Our own package.json (its name, not some other package's), under either name it had.
      if ((pkg.name === "@svc-serve/svc" || pkg.name === "svc") && typeof pkg.version === "string") return pkg.version;
    } catch {
      // not at this level
    }
  }
  return "0.0.0";
}
