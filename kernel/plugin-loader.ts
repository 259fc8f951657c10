/**
 * @module Turns plugin specs (built-in names, paths, package names, each with options) into plugin
 * objects. A spec that fails to load stops startup with a message naming it and the cause.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import type { PluginSpec } from "./config-sources.js";
import { kernelErrors } from "./errors.js";
import { createModuleLoader } from "./module-loader.js";
import type { KernelPlugin, PluginEntry } from "./plugin.js";

/** A plugin object, or a factory that makes one from the options. */
export type PluginModule = KernelPlugin | ((options?: unknown) => KernelPlugin | Promise<KernelPlugin>);

export interface LoadPluginsOptions {
  readonly cwd: string;
  /** Built-in plugins by name (`svc:openai`), loaded lazily. */
  readonly builtins?: Readonly<Record<string, () => Promise<PluginModule>>>;
}

/** The same spec given twice is loaded once, at its first place, with the last options given. */
function dedupe(specs: readonly PluginSpec[]): PluginSpec[] {
  const byUse = new Map<string, PluginSpec>();
  for (const spec of specs) {
    const earlier = byUse.get(spec.use);
    byUse.set(spec.use, earlier && spec.options === undefined ? earlier : spec);
  }
  return [...byUse.values()];
}

export async function loadPlugins(specs: readonly PluginSpec[], options: LoadPluginsOptions): Promise<PluginEntry[]> {
  const load = createModuleLoader({ cwd: options.cwd });
  const entries: PluginEntry[] = [];
  for (const spec of dedupe(specs)) {
    let module: unknown;
    try {
      const builtin = options.builtins?.[spec.use];
      module = builtin ? await builtin() : await load(locate(spec.use, options.cwd));
    } catch (error) {
      throw kernelErrors.pluginLoad(spec.use, withoutLoaderDetails(spec.use, error, options.cwd));
    }
    entries.push({ plugin: await instantiate(spec, module), options: spec.options });
  }
  return entries;
}

/**
 * A missing module as a user can act on it: the plugin's own package not installed, or a module
 * the plugin imports; never the loader's internal require stack (`__svc_loader__.js`).
 */
function withoutLoaderDetails(use: string, error: unknown, cwd: string): unknown {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code !== "MODULE_NOT_FOUND" && code !== "ERR_MODULE_NOT_FOUND") return error;
  const missing = /Cannot find (?:module|package) '([^']+)'/.exec((error as Error).message)?.[1];
  const own = !isPath(use) && (missing === use || missing?.startsWith(`${use}/`));
  const message = own
    ? `the package '${use}' is not installed where svc looks for it (${cwd}): run \`npm install ${use}\` there, or give the plugin's path`
    : `it imports '${missing ?? "a module"}', which is not installed: run \`npm install ${missing ?? "<package>"}\` where svc runs`;
  return Object.assign(new Error(message, { cause: error }), { code });
}

function isPath(use: string): boolean {
  return use.startsWith(".") || isAbsolute(use) || /^[A-Za-z]:[\\/]/.test(use);
}

/** A path spec becomes an absolute file; a folder is entered through its package.json or index. */
function locate(use: string, cwd: string): string {
  if (!isPath(use)) return use;
  const path = resolve(cwd, use);
  if (!existsSync(path)) throw new Error(`no such file or directory: ${path}`);
  if (!statSync(path).isDirectory()) return path;
  const manifest = join(path, "package.json");
  if (existsSync(manifest)) {
    const pkg = JSON.parse(readFileSync(manifest, "utf8")) as { exports?: unknown; main?: string };
    const entry = exportEntry(pkg.exports) ?? pkg.main;
    if (entry) return join(path, entry);
  }
  const index = ["index.ts", "index.mts", "index.js", "index.mjs"].map((f) => join(path, f)).find(existsSync);
  if (!index) throw new Error(`folder ${path} has no package.json entry and no index file`);
  return index;
}

function exportEntry(exports: unknown): string | undefined {
  if (typeof exports === "string") return exports;
  if (!exports || typeof exports !== "object") return undefined;
  const root = (exports as Record<string, unknown>)["."] ?? exports;
  if (typeof root === "string") return root;
  const conditions = root as Record<string, unknown>;
  const pick = conditions.import ?? conditions.default;
  return typeof pick === "string" ? pick : undefined;
}

async function instantiate(spec: PluginSpec, module: unknown): Promise<KernelPlugin> {
  const mod = module as { default?: unknown; plugin?: unknown } | undefined;
  let candidate: unknown = mod?.default ?? mod?.plugin ?? mod;
  if (typeof candidate === "function") {
    try {
      candidate = await (candidate as (o?: unknown) => unknown)(spec.options);
    } catch (error) {
      throw kernelErrors.pluginLoad(spec.use, error);
    }
  }
  const plugin = candidate as Partial<KernelPlugin> | undefined;
  if (!plugin || typeof plugin !== "object") throw kernelErrors.pluginInvalid(spec.use, "its module exports no plugin object or factory");
  if (typeof plugin.name !== "string" || !plugin.name) throw kernelErrors.pluginInvalid(spec.use, "it has no name");
  if (typeof plugin.setup !== "function") throw kernelErrors.pluginInvalid(spec.use, "it has no setup function");
  return plugin as KernelPlugin;
}
