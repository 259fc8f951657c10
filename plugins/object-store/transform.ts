/**
 * @module Edits and queries of stored objects, each result stored as a new object (the original
 * stays as it is): `replace` runs a regular-expression substitution over a stored string (the sed
 * tool), `query` runs a jq filter over a stored value (the yq tool), JSON or YAML text included —
 * parsed first and the result written back in the same format. jq is the real jq, compiled to
 * WebAssembly (`jq-wasm`), loaded on first use.
 */
import { stringify as toYaml } from "yaml";
import { parseYamlText } from "svc/plugin";
import { ExplorerError, type Explorer } from "./explorer.js";
import { typeName } from "./render.js";

/**
 * The replacement text for one match. JavaScript's forms (`$1`, `$<name>`, `$&`, `$$`) and
 * Python's (`\1`, `\g<name>`, `\g<1>`) both name groups; anything else is literal.
 */
function expand(replacement: string, match: RegExpExecArray): string {
  return replacement.replace(/\$\$|\$&|\\\\|\$(\d{1,2})|\\(\d{1,2})|\$<([^>]+)>|\\g<([^>]+)>/g, (token, d1?: string, d2?: string, n1?: string, n2?: string) => {
    if (token === "$$") return "$";
    if (token === "$&") return match[0];
    if (token === "\\\\") return "\\";
    const number = d1 ?? d2 ?? (/^\d+$/.test(n1 ?? n2 ?? "") ? (n1 ?? n2) : undefined);
    if (number !== undefined) {
      if (Number(number) >= match.length) throw new ExplorerError(`Invalid replacement: the pattern has no group ${number}`);
      return match[Number(number)] ?? "";
    }
    const name = (n1 ?? n2)!;
    if (!match.groups || !(name in match.groups)) throw new ExplorerError(`Invalid replacement: the pattern has no group '${name}'`);
    return match.groups[name] ?? "";
  });
}

function preview(explorer: Explorer, text: string): string {
  const max = explorer.options.maxStringLength;
  return text.length > max ? `Preview (truncated):\n${text.slice(0, max)}` : `Preview:\n${text}`;
}

/** Replaces `count` matches (0: all) of `pattern` in a stored string; the result is a new object. */
export async function replaceInObject(explorer: Explorer, objId: string, pattern: string, replacement: string, path = "", count = 0, caseSensitive = false): Promise<string> {
  const { value, path: at } = await explorer.resolve(objId, path);
  if (typeof value !== "string") throw new ExplorerError(`Replace is only supported on string objects. Found ${typeName(value)} at path '${at}'.`);
  let regex: RegExp;
  try {
    regex = new RegExp(pattern, caseSensitive ? "g" : "gi");
  } catch (error) {
    throw new ExplorerError(`Invalid regex pattern: ${(error as Error).message}`);
  }
  let replaced = 0;
  let out = "";
  let last = 0;
  for (let m = regex.exec(value); m && (count <= 0 || replaced < count); m = regex.exec(value)) {
    if (m[0] === "") {
      regex.lastIndex++;
      continue;
    }
    out += value.slice(last, m.index) + expand(replacement, m);
    last = m.index + m[0].length;
    replaced++;
  }
  if (replaced === 0) return `No matches found for pattern '${pattern}'. Object unchanged.`;
  const result = out + value.slice(last);
  const id = await explorer.store.put(result);
  return `Replaced ${replaced} occurrence(s) of '${pattern}' → '${replacement}'.\nResult stored as @${id}.\n\n${preview(explorer, result)}`;
}

type Format = "json" | "yaml" | undefined;

/** A string holding JSON or YAML is queried as the data it holds. */
function parsed(value: unknown): { data: unknown; format: Format } {
  if (typeof value !== "string") return { data: value, format: undefined };
  try {
    const data = JSON.parse(value);
    if (data !== null && typeof data !== "string") return { data, format: "json" };
  } catch {
    // not JSON
  }
  try {
    const data = parseYamlText(value);
    if (data !== null && data !== undefined && typeof data !== "string") return { data, format: "yaml" };
  } catch {
    // not YAML either: the raw string
  }
  return { data: value, format: undefined };
}

/** Runs a jq filter; every output, in order. */
async function jq(data: unknown, filter: string): Promise<unknown[]> {
  const { raw } = await import("jq-wasm");
  let text: string;
  try {
    text = await raw(JSON.stringify(data ?? null), filter, ["-c"]);
  } catch (error) {
    const message = String((error as Error).message ?? error).replace(/^jq: error(?: \(at [^)]*\))?: /, "").trim();
    if (/compile error/.test(message)) throw new ExplorerError(`Invalid jq filter '${filter}': ${message.split("\n")[0]}`);
    throw new ExplorerError(`Error evaluating filter '${filter}': ${message}`);
  }
  return text.split("\n").filter((line) => line.trim() !== "").map((line) => JSON.parse(line));
}

/**
 * Runs a jq `filter` over a stored value (JSON or YAML text is parsed first). One output is the
 * result, several a list; object or array results of JSON/YAML text are written back as such text.
 * With `store`, the result becomes a new object and the answer names it.
 */
export async function queryObject(explorer: Explorer, objId: string, filter: string, path = "", store = true): Promise<string> {
  const { value } = await explorer.resolve(objId, path);
  const { data, format } = parsed(value);
  const outputs = await jq(data, filter);
  if (outputs.length === 0) return `No results for filter '${filter}'.`;
  let result: unknown = outputs.length === 1 ? outputs[0] : outputs;
  if (format && result !== null && typeof result === "object") result = format === "json" ? JSON.stringify(result, null, 2) : toYaml(result);
  const matched = `Filter '${filter}' matched ${outputs.length} value(s)`;
  if (!store) return `${matched}:\n\n${explorer.preview(result)}`;
  const id = await explorer.store.put(result);
  return `${matched}. Result stored as @${id}.\n\n${typeof result === "string" ? preview(explorer, result) : explorer.preview(result)}`;
}
