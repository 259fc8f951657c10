/**
 * @module Loads user modules (plugins, and later pipeline wrappers) written in TypeScript or
 * JavaScript at run time with jiti. `svc` and its subpath exports resolve to this very package from
 * any directory, so user code shares the kernel's module instances; so does `valibot`, which
 * wrappers use for their schemas.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { createJiti } from "jiti";

export interface ModuleLoaderOptions {
  /** Resolve bare specifiers relative to this directory. */
  readonly cwd?: string;
  /** Bypass the module cache, so a changed file is read again (redeploys). */
  readonly fresh?: boolean;
  /** Extra resolution roots: `import "x"` finds `<root>/x` (a file or folder) in each. */
  readonly roots?: readonly string[];
}

export type ModuleLoader = (specifier: string) => Promise<unknown>;

const packageRoot = fileURLToPath(new URL("../../", import.meta.url));

/** `svc` → dist/kernel/index.js, `svc/<sub>` → its export, from our package.json. */
function svcAliases(): Record<string, string> {
  const pkg = JSON.parse(readFileSync(join(packageRoot, "package.json"), "utf8")) as {
    name: string;
    exports: Record<string, string | { import?: string }>;
  };
  const aliases: Record<string, string> = {};
  for (const [key, target] of Object.entries(pkg.exports)) {
    const file = typeof target === "string" ? target : target.import;
    if (!file || !file.endsWith(".js")) continue;
    aliases[key === "." ? pkg.name : `${pkg.name}/${key.slice(2)}`] = join(packageRoot, file);
  }
  return aliases;
}

/** Every top-level entry of a root becomes an alias, the way NODE_PATH resolves first segments. */
function rootAliases(roots: readonly string[]): Record<string, string> {
  const aliases: Record<string, string> = {};
  for (const root of roots) {
    if (!existsSync(root)) continue;
    for (const entry of readdirSync(root)) {
      if (entry.startsWith(".") || entry === "node_modules") continue;
      const name = entry.replace(/\.(m?ts|m?js|cjs|cts|json)$/, "");
      aliases[name] ??= join(root, entry);
    }
  }
  return aliases;
}

/** Packages user code may import without installing them: the ones wrappers need for schemas. */
const SHARED_PACKAGES = ["valibot"];

let packageAliases: Record<string, string> | undefined;

/** Aliases for `svc`, its subpaths and the shared packages; computed once per process. */
function fixedAliases(): Record<string, string> {
  return (packageAliases ??= {
    ...Object.fromEntries(SHARED_PACKAGES.map((name) => [name, fileURLToPath(import.meta.resolve(name))])),
    ...svcAliases(),
  });
}

export function createModuleLoader(options: ModuleLoaderOptions = {}): ModuleLoader {
  const base = pathToFileURL(join(options.cwd ?? process.cwd(), "__svc_loader__.js")).href;
  const alias = { ...rootAliases(options.roots ?? []), ...fixedAliases() };
  const jiti = createJiti(base, { alias, moduleCache: !options.fresh, interopDefault: true });
  return (specifier) => jiti.import(specifier);
}
