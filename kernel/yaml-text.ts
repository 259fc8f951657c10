/**
 * @module Parsing YAML that may come from a client in time linear in its size. The `yaml` library's
 * own duplicate-key check (`uniqueKeys`) compares each key with every earlier key of its map, so a
 * 0.5 MB map of 30,000 keys blocked the event loop for 11 s. Here the text is first lexed to count
 * its entries (map keys and list items; lexing stops as soon as the count is over the limit), then
 * parsed without that check, and duplicate keys are found with one set per map.
 */
import YAML, { LineCounter, Lexer, isMap, isScalar, type Tags } from "yaml";
import { HttpError } from "./errors.js";

export interface YamlTextOptions {
  /** Most map keys and list items the text may hold (413 beyond); default 10,000. */
  readonly maxEntries?: number;
  /** The setting that sets `maxEntries`, named in the 413 message. */
  readonly limitName?: string;
  readonly customTags?: Tags;
  /** Most alias expansions (billion-laughs guard); default 100. */
  readonly maxAliasCount?: number;
  /** The YAML schema (`core` by default, as the library's). */
  readonly schema?: "core" | "failsafe" | "json" | "yaml-1.1";
}

export const DEFAULT_MAX_YAML_ENTRIES = 10_000;

/** Tokens the lexer gives for each entry: a block map's `:`, a list's `-`, a flow collection's `,`. */
const ENTRY_TOKENS = new Set([":", "-", ","]);

/** Throws a 413 when `text` has more than `max` entries; stops lexing at the first one too many. */
export function checkYamlEntries(text: string, max: number, limitName = "SERVICE_MAX_YAML_ENTRIES"): void {
  let count = 0;
  for (const token of new Lexer().lex(text)) {
    if (ENTRY_TOKENS.has(token) && ++count > max) {
      throw new HttpError(413, `The YAML has more than ${max} keys and list items (${limitName}).`);
    }
  }
}

/**
 * The value of a YAML text. Syntax errors and repeated keys throw an Error starting `Invalid YAML:`
 * (with line and column); too many entries throw a 413 HttpError.
 */
export function parseYamlText(text: string, options: YamlTextOptions = {}): unknown {
  checkYamlEntries(text, options.maxEntries ?? DEFAULT_MAX_YAML_ENTRIES, options.limitName);
  const lineCounter = new LineCounter();
  const doc = YAML.parseDocument(text, {
    customTags: options.customTags,
    schema: options.schema,
    uniqueKeys: false,
    prettyErrors: true,
    lineCounter,
  });
  const problems = [...doc.errors, ...doc.warnings];
  if (problems.length) throw new Error(`Invalid YAML: ${problems.map((p) => p.message).join("; ")}`);
  const repeated = firstRepeatedKey(doc);
  if (repeated) {
    const at = repeated.offset === undefined ? "" : ` at line ${lineCounter.linePos(repeated.offset).line}, column ${lineCounter.linePos(repeated.offset).col}`;
    throw new Error(`Invalid YAML: map keys must be unique: '${repeated.key}' is repeated${at}`);
  }
  try {
    return doc.toJS({ maxAliasCount: options.maxAliasCount ?? 100 });
  } catch (error) {
    throw new Error(`Invalid YAML: ${(error as Error).message}`);
  }
}

/** The first key that appears twice in one map (scalar keys by value; others by their text). */
function firstRepeatedKey(doc: YAML.Document): { key: string; offset?: number } | undefined {
  let found: { key: string; offset?: number } | undefined;
  YAML.visit(doc, {
    Map(_, map) {
      if (!isMap(map)) return undefined;
      const seen = new Set<unknown>();
      for (const pair of map.items) {
        const key = isScalar(pair.key) ? pair.key.value : String(pair.key);
        if (seen.has(key)) {
          found = { key: String(key), offset: (pair.key as { range?: [number, number, number] } | null)?.range?.[0] };
          return YAML.visit.BREAK;
        }
        seen.add(key);
      }
      return undefined;
    },
  });
  return found;
}
