/**
 * @module MarkdownToDocument (haystack.components.converters.markdown): Markdown files →
 * Documents of plain text. Haystack parses with markdown-it-py (CommonMark; tables only with
 * `table_to_single_line`) and renders with mdit_plain's plain-text renderer; markdown-it here is
 * the JavaScript original of that parser, so the token stream is the same, and the renderer below
 * writes the same plain text: text and code as they are, a line break after every block, list
 * items and table rows, markup and images dropped. YAML front matter becomes meta on request.
 */
import type { MarkdownIt as Parser, Token } from "markdown-it";
import * as v from "valibot";
import { parseYamlText } from "svc/plugin";
import { warnerOf, type ComponentContext } from "../component.js";
import { convertSources, describe, SourcesConverter, type MetaInput, type Source } from "./converter-sources.js";
import { decodeStrict } from "./text-file-to-document.js";


const Init = v.object({
  table_to_single_line: v.optional(v.boolean(), false),
  /** Haystack's tqdm progress bar; accepted and not shown. */
  progress_bar: v.optional(v.boolean(), true),
  store_full_path: v.optional(v.boolean(), false),
  encoding: v.optional(v.string(), "utf-8"),
  extract_frontmatter: v.optional(v.boolean(), false),
});

/** Haystack's _FRONTMATTER_PATTERN. */
const FRONTMATTER = /^---[ \t]*\r?\n(?<frontmatter>[\s\S]*?)(?:\r?\n)---[ \t]*(?:\r?\n|$)/;

/** What each token type adds to the plain text (mdit_plain's rules); others add nothing. */
const RULES: Record<string, (tokens: Token[], i: number) => string> = {
  text: (t, i) => t[i]!.content,
  code_inline: (t, i) => t[i]!.content,
  code_block: (t, i) => `\n${t[i]!.content}\n`,
  fence: (t, i) => `\n${t[i]!.content}\n`,
  html_block: (t, i) => t[i]!.content,
  html_inline: (t, i) => t[i]!.content,
  softbreak: () => "\n",
  hardbreak: () => "\n",
  hr: () => "\n",
  heading_close: () => "\n",
  paragraph_close: (t, i) => (t[i]!.hidden ? "" : "\n"),
  list_item_close: () => "\n",
  bullet_list_close: (t, i) => (i + 1 === t.length || t[i + 1]!.type.includes("list") ? "" : "\n"),
  ordered_list_close: (t, i) => (i + 1 === t.length || t[i + 1]!.type.includes("list") ? "" : "\n"),
  // A table on one line: cells and rows separated by spaces.
  th_close: () => " ",
  td_close: () => " ",
  table_close: () => "\n",
};

function renderPlain(tokens: Token[]): string {
  let out = "";
  for (const [i, token] of tokens.entries()) {
    out += RULES[token.type]?.(tokens, i) ?? "";
    if (token.children) out += renderPlain(token.children);
  }
  return out.trim();
}

export class MarkdownToDocument extends SourcesConverter<v.InferOutput<typeof Init>> {
  static override readonly type = "haystack.components.converters.markdown.MarkdownToDocument";
  static override readonly aliases = ["MarkdownToDocument"];
  static override readonly initSchema = Init;

  private parser?: Parser;

  /** CommonMark as markdown-it-py's default; loaded on first use, as most servers never convert Markdown. */
  private async markdownParser(): Promise<Parser> {
    if (!this.parser) {
      const { default: MarkdownIt } = await import("markdown-it");
      const parser = new MarkdownIt("commonmark");
      if (this.initParameters.table_to_single_line) parser.enable("table");
      this.parser = parser;
    }
    return this.parser;
  }

  async run(inputs: { sources: Source[]; meta?: MetaInput }, ctx?: ComponentContext) {
    const { encoding, store_full_path } = this.initParameters;
    const parser = await this.markdownParser();
    return convertSources(inputs.sources, inputs.meta, ctx, store_full_path, (stream, source) => {
      const own = stream.meta.encoding;
      const text = decodeStrict(stream.data, typeof own === "string" && own ? own : encoding);
      const [body, frontmatter] = this.frontmatter(text, source, ctx);
      return { text: renderPlain(parser.parse(body, {})), meta: frontmatter };
    });
  }

  private frontmatter(text: string, source: Source, ctx?: ComponentContext): [string, Record<string, unknown>] {
    if (!this.initParameters.extract_frontmatter) return [text, {}];
    const match = FRONTMATTER.exec(text);
    if (!match) return [text, {}];
    const warn = warnerOf(ctx);
    let loaded: unknown;
    try {
      loaded = parseYamlText(match.groups!.frontmatter!, { schema: "core" }) ?? {};
    } catch (error) {
      warn(`Could not parse YAML frontmatter in ${describe(source)}. Keeping it as content. Error: ${(error as Error).message}`);
      return [text, {}];
    }
    let parsed: unknown;
    try {
      // JSON round trip as Haystack does (dates and other values become strings); a cyclic value cannot make it.
      parsed = JSON.parse(JSON.stringify(loaded)) ?? {};
    } catch (error) {
      warn(`Could not convert YAML frontmatter in ${describe(source)}. Keeping it as content. Error: ${(error as Error).message}`);
      return [text, {}];
    }
    if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) {
      warn(`Ignoring YAML frontmatter in ${describe(source)}: expected a mapping, got ${Array.isArray(parsed) ? "list" : typeof parsed}.`);
      return [text, {}];
    }
    return [text.slice(match[0].length), parsed as Record<string, unknown>];
  }
}
