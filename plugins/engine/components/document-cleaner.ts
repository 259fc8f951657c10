/**
 * @module DocumentCleaner (haystack.components.preprocessors.document_cleaner): cleans document
 * text in Haystack's order — Unicode normalization, ASCII only, extra whitespace, empty lines,
 * substrings, `remove_regex`, `replace_regexes`, repeated headers/footers across "\f"-separated
 * pages, strip. Patterns are Python regexes. Cleaned documents get new ids unless `keep_id`.
 */
import * as v from "valibot";
import { Component, output, socket, type ComponentContext } from "../component.js";
import { Document } from "../dataclasses/document.js";
import { pythonRegExp } from "./python-regex.js";

const Init = v.object({
  remove_empty_lines: v.optional(v.boolean(), true),
  remove_extra_whitespaces: v.optional(v.boolean(), true),
  remove_repeated_substrings: v.optional(v.boolean(), false),
  keep_id: v.optional(v.boolean(), false),
  remove_substrings: v.optional(v.nullable(v.array(v.string())), null),
  remove_regex: v.optional(v.nullable(v.string()), null),
  unicode_normalization: v.optional(v.nullable(v.picklist(["NFC", "NFKC", "NFD", "NFKD"], "unicode_normalization must be one of 'NFC', 'NFKC', 'NFD', 'NFKD'.")), null),
  ascii_only: v.optional(v.boolean(), false),
  strip_whitespaces: v.optional(v.boolean(), false),
  replace_regexes: v.optional(v.nullable(v.record(v.string(), v.string())), null),
});

const EXTRA_WHITESPACE = pythonRegExp("\\s\\s+", "g");
/** Python's str.split() whitespace, for str.strip(). */
const strip = (s: string) => s.replace(/^[\s\x1c-\x1f\x85]+|[\s\x1c-\x1f\x85]+$/gu, "");
const perPage = (text: string, fn: (page: string) => string) => text.split("\f").map(fn).join("\f");

/** Python's re.sub replacement template (`\1`, `\g<name>`, `\n`) as a JS replacer. */
export function pythonReplacement(template: string): (match: string, ...rest: unknown[]) => string {
  return (match, ...rest) => {
    const last = rest.at(-1);
    const groups = (typeof last === "object" && last !== null ? last : {}) as Record<string, string | undefined>;
    const numbered = rest.slice(0, typeof last === "object" && last !== null ? -3 : -2) as (string | undefined)[];
    const group = (ref: string) => (ref === "0" ? match : /^\d+$/.test(ref) ? (numbered[Number(ref) - 1] ?? "") : (groups[ref] ?? ""));
    const escapes: Record<string, string> = { n: "\n", t: "\t", r: "\r", f: "\f", v: "\v", a: "\x07", b: "\b", "\\": "\\" };
    return template.replace(/\\(?:g<(\w+)>|(\d{1,2})|(.))/gs, (whole, name: string | undefined, num: string | undefined, ch: string | undefined) =>
      name !== undefined ? group(name) : num !== undefined ? group(num) : (escapes[ch!] ?? whole),
    );
  };
}

export class DocumentCleaner extends Component<v.InferOutput<typeof Init>> {
  static override readonly type = "haystack.components.preprocessors.document_cleaner.DocumentCleaner";
  static override readonly aliases = ["DocumentCleaner"];
  static override readonly initSchema = Init;

  private readonly removeRegex: RegExp | null;
  private readonly replacements: [RegExp, ReturnType<typeof pythonReplacement>][];

  constructor(init: unknown = {}) {
    super(init);
    const p = this.initParameters;
    this.removeRegex = p.remove_regex ? pythonRegExp(p.remove_regex, "g") : null;
    this.replacements = Object.entries(p.replace_regexes ?? {}).map(([pattern, replacement]) => [pythonRegExp(pattern, "g"), pythonReplacement(replacement)]);
  }

  protected inputSpecs() {
    return { documents: socket(v.array(v.instance(Document))) };
  }

  protected outputSpecs() {
    return { documents: output(v.array(v.instance(Document))) };
  }

  run(inputs: { documents: Document[] }, ctx?: ComponentContext) {
    if (!Array.isArray(inputs.documents) || (inputs.documents.length && !(inputs.documents[0] instanceof Document))) {
      throw new TypeError("DocumentCleaner expects a List of Documents as input.");
    }
    const documents = inputs.documents.map((doc) => {
      if (doc.content === null) {
        const message = `DocumentCleaner only cleans text documents but document.content for document ID ${doc.id} is None.`;
        if (ctx?.log) ctx.log.warn(message);
        else console.warn(message);
        return doc;
      }
      return new Document({
        id: this.initParameters.keep_id ? doc.id : undefined,
        content: this.clean(doc.content),
        blob: doc.blob,
        meta: structuredClone(doc.meta),
        score: doc.score,
        embedding: doc.embedding,
        sparse_embedding: doc.sparse_embedding,
      });
    });
    return { documents };
  }

  /** One document's text through every enabled step, in Haystack's order. */
  clean(input: string): string {
    const p = this.initParameters;
    let text = input;
    if (p.unicode_normalization) text = text.normalize(p.unicode_normalization);
    // NFKD splits letters from their accents; then everything outside ASCII goes.
    if (p.ascii_only) text = text.normalize("NFKD").replace(/[^\x00-\x7f]/g, "");
    if (p.remove_extra_whitespaces) text = perPage(text, (page) => strip(page.replace(EXTRA_WHITESPACE, " ")));
    if (p.remove_empty_lines) text = perPage(text, (page) => page.split("\n").filter((line) => strip(line) !== "").join("\n"));
    for (const substring of p.remove_substrings ?? []) if (substring) text = text.split(substring).join("");
    const removeRegex = this.removeRegex;
    if (removeRegex) text = perPage(text, (page) => strip(page.replace(removeRegex, "")));
    if (this.replacements.length) text = perPage(text, (page) => this.replacements.reduce((acc, [re, fn]) => acc.replace(re, fn), page));
    if (p.remove_repeated_substrings) text = removeHeaderFooter(text, 300, 1, 1);
    if (p.strip_whitespaces) text = strip(text);
    return text;
  }
}

/** Haystack's _find_and_remove_header_footer: the longest n-gram common to every inner page's start (end). */
function removeHeaderFooter(text: string, nChars: number, firstToIgnore: number, lastToIgnore: number): string {
  let pages = text.split("\f");
  const inner = () => pages.slice(firstToIgnore, pages.length - lastToIgnore);
  const header = longestCommonNgram(inner().map((p) => [...p].slice(0, nChars).join("")));
  if (header) pages = pages.map((p) => p.split(header).join(""));
  const footer = longestCommonNgram(inner().map((p) => [...p].slice(-nChars).join("")));
  if (footer) pages = pages.map((p) => p.split(footer).join(""));
  return pages.join("\f");
}

/** Every n-gram of n words split on spaces, keeping newlines and tabs as Haystack's _ngram does. */
function ngrams(seq: string, n: number): string[] {
  const words = seq.replace(/\n/g, " \n").replace(/\t/g, " \t").split(" ");
  const out: string[] = [];
  for (let i = 0; i + n <= words.length; i++) out.push(words.slice(i, i + n).join(" ").replace(/ \n/g, "\n").replace(/ \t/g, "\t"));
  return out;
}

function longestCommonNgram(sequences: string[], minNgram = 3, maxNgram = 30): string {
  const seqs = sequences.filter((s) => s);
  if (seqs.length < 2) return "";
  const all = (seq: string) => {
    const set = new Set<string>();
    for (let n = minNgram; n < maxNgram; n++) for (const g of ngrams(seq, n)) set.add(g);
    return set;
  };
  let common = all(seqs[0]!);
  for (const seq of seqs.slice(1)) {
    const next = all(seq);
    common = new Set([...common].filter((g) => next.has(g)));
  }
  // Python's max(set, key=len): among equally long n-grams the pick is arbitrary; here the first found.
  let longest = "";
  for (const g of common) if ([...g].length > [...longest].length) longest = g;
  return strip(longest) ? longest : "";
}
