/**
 * @module Loads user modules (plugins and pipeline wrappers) written in TypeScript or JavaScript at
 * run time with jiti, compiled by `module-transform` (sucrase). `svc` and its subpath exports
 * resolve to this very package from any directory, so user code shares the kernel's module
 * instances; so does `valibot`, which wrappers use for their schemas.
 *
 * Compiled modules are cached by content in `<cache dir>/svc/compiled`, a folder private to the
 * current user (0700, owned by them, checked): a cached file is run as the service's own code, so
 * no one else may write there (jiti's default, a shared folder under /tmp, lets any local user
 * plant one). When that folder cannot be made private, modules are compiled in memory. The cache
 * is kept to a bounded number of files, the least recently written going first (checked now and
 * then as files are written, not on every load).
 */
import { existsSync, readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Jiti } from "jiti";
import { createModuleTransform } from "./module-transform.js";
import { packageInfo } from "./package-info.js";
import { cacheDir, SERVICE_DIR_NAME } from "./operator-access/credential-file.js";
import { ensurePrivateDirSync } from "./private-dir.js";

export interface ModuleLoaderOptions {
  /** Resolve bare specifiers relative to this directory. */
  readonly cwd?: string;
  /** Bypass the module cache, so a changed file is read again (redeploys). */
  readonly fresh?: boolean;
  /** Extra resolution roots: `import "x"` finds `<root>/x` (a file or folder) in each. */
  readonly roots?: readonly string[];
}

export type ModuleLoader = (specifier: string) => Promise<unknown>;

/**
 * The package name we import as: `svc` is what wrappers written before the package was published
 * import (and what this repository's own code imports); it stays an alias of the published name.
 */
export const LEGACY_PACKAGE_NAME = "svc";

/**
 * `<name>` → dist/kernel/index.js, `<name>/<sub>` → its export, from our package.json, under both
 * the published name (`@svc-serve/svc`) and `svc`.
 */
function svcAliases(): Record<string, string> {
  const pkg = packageInfo();
  const aliases: Record<string, string> = {};
  for (const [key, target] of Object.entries(pkg.exports)) {
    const file = typeof target === "string" ? target : target.import;
    if (!file || !file.endsWith(".js")) continue;
    for (const name of new Set([pkg.name, LEGACY_PACKAGE_NAME])) aliases[key === "." ? name : `${name}/${key.slice(2)}`] = join(pkg.root, file);
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

/**
 * Packages user code may import without installing them (the ones wrappers need for schemas),
 * handed to jiti as the kernel's own module objects: an alias to the file would make jiti read and
 * scan the package's source (200 KB for valibot) again for every wrapper that imports it.
 */
let sharedModules: Promise<Record<string, unknown>> | undefined;

function loadSharedModules(): Promise<Record<string, unknown>> {
  return (sharedModules ??= import("valibot").then((valibot) => ({ valibot })));
}

let packageAliases: Record<string, string> | undefined;

/** Aliases for `svc` and its subpaths; computed once per process. */
function fixedAliases(): Record<string, string> {
  return (packageAliases ??= svcAliases());
}

/** Cached compiled files kept at most; beyond it the oldest quarter is removed. */
export const COMPILE_CACHE_LIMIT = 400;

/** The private compile cache, or false (compile in memory) when it cannot be made private. */
export function compileCacheDir(env: NodeJS.ProcessEnv = process.env): string | false {
  const dir = join(cacheDir(env), SERVICE_DIR_NAME, "compiled");
  return ensurePrivateDirSync(dir) === undefined ? dir : false;
}

/** Keeps the cache under its limit: redeploys from new folders each leave a file behind. */
export function pruneCompileCache(dir: string, limit = COMPILE_CACHE_LIMIT): void {
  try {
    const files = readdirSync(dir);
    if (files.length <= limit) return;
    const byAge = files
      .map((name) => ({ path: join(dir, name), mtime: statSync(join(dir, name), { throwIfNoEntry: false })?.mtimeMs ?? 0 }))
      .sort((a, b) => a.mtime - b.mtime);
    for (const file of byAge.slice(0, files.length - Math.floor(limit * 0.75))) rmSync(file.path, { force: true });
  } catch {
    // another process pruning at the same time, or the folder gone: nothing to do
  }
}

let jitiModule: typeof import("jiti") | undefined;
let babelJiti: Jiti | undefined;

/** jiti is imported on the first module loaded, so a service without user modules never pays for it. */
async function loadJiti(): Promise<typeof import("jiti")> {
  return (jitiModule ??= await import("jiti"));
}

let cacheDirChecked: string | false | undefined;
/** Prunes on the first write of a process and then every `PRUNE_EVERY` writes, not on every load. */
const PRUNE_EVERY = 100;
let writes = 0;

const transform = createModuleTransform({
  // jiti with its own Babel transform, for the sources sucrase cannot compile (see module-transform)
  babel: () => (babelJiti ??= jitiModule!.createJiti(import.meta.url, { fsCache: false })),
  cacheDir: () => (cacheDirChecked ??= compileCacheDir()),
  onWrite: (dir) => {
    if (writes++ % PRUNE_EVERY === 0) pruneCompileCache(dir);
  },
});

export function createModuleLoader(options: ModuleLoaderOptions = {}): ModuleLoader {
  const base = pathToFileURL(join(options.cwd ?? process.cwd(), "__svc_loader__.js")).href;
  const alias = { ...rootAliases(options.roots ?? []), ...fixedAliases() };
  let jiti: Jiti | undefined;
  return async (specifier) => {
    jiti ??= (await loadJiti()).createJiti(base, { alias, virtualModules: await loadSharedModules(), moduleCache: !options.fresh, interopDefault: true, fsCache: false, transform });
    return jiti.import(specifier);
  };
}
