/**
 * @module HTMLToDocument: HTML files or ByteStreams → Documents of readable text. Haystack uses
 * trafilatura; here html-to-text renders the main content (`<main>`, else `<article>`, else the
 * body) without scripts, styles, navigation, forms and page chrome, one block per line as
 * trafilatura's text output has it. Only the paths the caller passes are read.
 */
import { readFile } from "node:fs/promises";
import { basename } from "node:path";
import { createRequire } from "node:module";
import type { HtmlToTextOptions, SelectorDefinition } from "html-to-text";
import * as v from "valibot";
import { Component, output, socket, type ComponentContext } from "../component.js";
import { ByteStream, Document } from "../dataclasses/document.js";
import { decodeStrict } from "./python-codecs.js";

const knownEncoding = (encoding: string) => {
  try {
    decodeStrict(Buffer.alloc(0), encoding);
    return true;
  } catch {
    return false;
  }
};

/** Never content: code, styling, embedded objects and interactive widgets. */
const ALWAYS_SKIPPED = ["script", "style", "noscript", "template", "iframe", "object", "embed", "svg", "canvas", "form", "button", "select", "input", "textarea", "dialog", "img", "picture", "video", "audio", "map"];
/** Navigation and page chrome, by element and by ARIA role. */
const BOILERPLATE = ["nav", "aside", "footer", "menu", '[role="navigation"]', '[role="banner"]', '[role="contentinfo"]', '[role="search"]', '[role="complementary"]', '[aria-hidden="true"]', "[hidden]"];

function textConverter(compile: typeof import("html-to-text").compile, base: string, skipped: string[]): (html: string) => string {
  const selectors: SelectorDefinition[] = [
    ...skipped.map((selector) => ({ selector, format: "skip" })),
    { selector: "a", options: { ignoreHref: true } },
    ...["h1", "h2", "h3", "h4", "h5", "h6"].map((selector) => ({ selector, options: { uppercase: false } })),
    { selector: "ul", options: { itemPrefix: "- " } },
    { selector: "blockquote", format: "block" },
    { selector: "table", format: "dataTable", options: { uppercaseHeaderCells: false } },
  ];
  const options: HtmlToTextOptions = { wordwrap: false, baseElements: { selectors: [base], returnDomByDefault: true }, selectors };
  return compile(options);
}

/**
 * Made on the first page converted: html-to-text and its HTML parser cost ~9 MB resident, which a
 * service that never converts HTML should not pay. Its CommonJS build, so this stays synchronous.
 */
let converters: { fromMain: (html: string) => string; fromArticle: (html: string) => string; fromBody: (html: string) => string } | undefined;
function htmlConverters(): NonNullable<typeof converters> {
  if (converters) return converters;
  const { compile } = createRequire(import.meta.url)("html-to-text") as typeof import("html-to-text");
  const converter = (base: string, skipped: string[]) => textConverter(compile, base, skipped);
  // Inside <main>/<article> a <header> is the article's own title; on a whole page it is site chrome.
  return (converters = {
    fromMain: converter("main", [...ALWAYS_SKIPPED, ...BOILERPLATE]),
    fromArticle: converter("article", [...ALWAYS_SKIPPED, ...BOILERPLATE]),
    fromBody: converter("body", [...ALWAYS_SKIPPED, ...BOILERPLATE, "header"]),
  });
}

/** The readable main text of an HTML page. */
export function extractText(html: string): string {
  const { fromMain, fromArticle, fromBody } = htmlConverters();
  const candidates = [/<main[\s>]/i.test(html) ? fromMain : null, /<article[\s>]/i.test(html) ? fromArticle : null, fromBody];
  for (const convert of candidates) {
    if (!convert) continue;
    const text = tidy(convert(html));
    if (text) return text;
  }
  return "";
}

/** trafilatura's text output: one line per block, no blank lines, no trailing spaces. */
function tidy(text: string): string {
  return text
    .split("\n")
    .map((line) => line.trimEnd())
    .filter((line) => line.trim() !== "")
    .join("\n");
}

const MetaSchema = v.record(v.string(), v.any());

const Init = v.object({
  /** trafilatura's options in Haystack; accepted for compatibility and not used. None is {}, as in Haystack. */
  extraction_kwargs: v.optional(v.pipe(v.nullable(MetaSchema), v.transform((kwargs) => kwargs ?? {})), {}),
  store_full_path: v.optional(v.boolean(), false),
  /** The default encoding; a ByteStream's `meta.encoding` overrides it. */
  encoding: v.optional(v.pipe(v.string(), v.check(knownEncoding, (i) => `unknown encoding: ${String(i.input)}`)), "utf-8"),
});

export class HTMLToDocument extends Component<v.InferOutput<typeof Init>> {
  static override readonly type = "haystack.components.converters.html.HTMLToDocument";
  static override readonly aliases = ["HTMLToDocument"];
  static override readonly initSchema = Init;

  protected inputSpecs() {
    return {
      sources: socket(v.array(v.union([v.string(), v.instance(ByteStream)]))),
      meta: socket(v.nullable(v.union([MetaSchema, v.array(MetaSchema)])), { default: null }),
      extraction_kwargs: socket(v.nullable(MetaSchema), { default: null }),
    };
  }

  protected outputSpecs() {
    return { documents: output(v.array(v.instance(Document))) };
  }

  async run(inputs: { sources: (string | ByteStream)[]; meta?: Record<string, unknown> | Record<string, unknown>[] | null }, ctx?: ComponentContext) {
    const metas = normalizeMetadata(inputs.meta, inputs.sources.length);
    const documents: Document[] = [];
    for (const [i, source] of inputs.sources.entries()) {
      let stream: ByteStream;
      try {
        stream = typeof source === "string" ? new ByteStream(await readFile(source, { signal: ctx?.signal }), { file_path: source }) : source;
      } catch (error) {
        if (ctx?.signal.aborted) throw error;
        ctx?.log?.warn(`Could not read ${String(source)}. Skipping it. Error: ${(error as Error).message}`);
        continue;
      }
      if (stream.data.length === 0) {
        ctx?.log?.warn(`Skipping ${describe(source)} because it is empty.`);
        continue;
      }
      let text: string;
      try {
        const encoding = typeof stream.meta.encoding === "string" ? stream.meta.encoding : this.initParameters.encoding;
        text = extractText(decodeStrict(stream.data, encoding));
      } catch (error) {
        ctx?.log?.warn(`Failed to extract text from ${describe(source)}. Skipping it. Error: ${(error as Error).message}`);
        continue;
      }
      const meta: Record<string, unknown> = { ...stream.meta, ...metas[i] };
      const filePath = stream.meta.file_path;
      if (!this.initParameters.store_full_path && typeof filePath === "string" && filePath) meta.file_path = basename(filePath);
      documents.push(new Document({ content: text, meta }));
    }
    return { documents };
  }
}

const describe = (source: string | ByteStream) => (typeof source === "string" ? source : typeof source.meta.file_path === "string" ? source.meta.file_path : "ByteStream");

/** One meta dict for every source, or a list with one per source (haystack.components.converters.utils). */
export function normalizeMetadata(meta: Record<string, unknown> | Record<string, unknown>[] | null | undefined, count: number): Record<string, unknown>[] {
  if (meta === null || meta === undefined) return Array.from({ length: count }, () => ({}));
  if (!Array.isArray(meta)) return Array.from({ length: count }, () => ({ ...meta }));
  if (meta.length !== count) throw new Error("The length of the metadata list must match the number of sources.");
  return meta;
}
