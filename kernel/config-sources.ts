/**
 * @module Reads the working directory's configuration: `svc.config.yaml` (or `.yml`, `.json`)
 * with plugins and settings, and `.env`.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseEnv } from "node:util";
import * as v from "valibot";
import YAML from "yaml";
import { kernelErrors, messageOf } from "./errors.js";
import { formatIssues } from "./validation.js";

export const CONFIG_FILE_NAMES = ["svc.config.yaml", "svc.config.yml", "svc.config.json"] as const;

/** A plugin to load: a path, a package name, or a built-in plugin name; with its options. */
export interface PluginSpec {
  readonly use: string;
  readonly options?: unknown;
  /** Where the spec came from, for error messages. */
  readonly from: string;
}

const ConfigFileSchema = v.strictObject({
  settings: v.optional(v.record(v.string(), v.unknown())),
  plugins: v.optional(
    v.array(v.union([v.pipe(v.string(), v.minLength(1)), v.strictObject({ use: v.pipe(v.string(), v.minLength(1)), options: v.optional(v.unknown()) })])),
  ),
});

export interface ConfigFile {
  readonly file: string;
  readonly settings: Record<string, unknown>;
  readonly plugins: PluginSpec[];
}

export function readConfigFile(cwd: string): ConfigFile | undefined {
  const found = CONFIG_FILE_NAMES.map((n) => join(cwd, n)).filter((p) => existsSync(p));
  if (found.length === 0) return undefined;
  const file = found[0]!;
  if (found.length > 1) throw kernelErrors.configFile(file, `found more than one config file (${found.join(", ")}); keep one.`);
  let data: unknown;
  try {
    const text = readFileSync(file, "utf8");
    data = file.endsWith(".json") ? JSON.parse(text) : YAML.parse(text, { maxAliasCount: 100 });
  } catch (error) {
    throw kernelErrors.configFile(file, messageOf(error), error);
  }
  const result = v.safeParse(ConfigFileSchema, data ?? {});
  if (!result.success) throw kernelErrors.configFile(file, formatIssues(result.issues));
  return {
    file,
    settings: result.output.settings ?? {},
    plugins: (result.output.plugins ?? []).map((p) =>
      typeof p === "string" ? { use: p, from: file } : { use: p.use, options: p.options, from: file },
    ),
  };
}

export function readDotEnv(cwd: string): Record<string, string> | undefined {
  const file = join(cwd, ".env");
  if (!existsSync(file)) return undefined;
  return parseEnv(readFileSync(file, "utf8")) as Record<string, string>;
}
