/**
 * @module `search_docs`: searches documentation with the engine's BM25 and returns the best
 * passages with where they come from. The documentation is markdown: by default this package's
 * README, its docs/ pages and skill guides; `docsPaths` (of `configureMcpServer`) names other files or directories
 * (read recursively), e.g. a checkout of the platform's documentation. Files are split at their
 * headings, long sections into passages of about 1,500 characters; a search returns the top five
 * passages, those of one section joined, each group headed by its file and heading.
 */
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import * as v from "valibot";
import type { BaseTool } from "../tool-config.js";
import { packageDocsDir, packageReadme, skillsDir } from "./bundled-files.js";
import { rankByBm25 } from "./rank.js";

interface Passage {
  /** `<file> › <heading>`. */
  source: string;
  /** Order within the corpus, to print a section's passages in reading order. */
  position: number;
  text: string;
}

const PASSAGE_CHARS = 1500;
const TOP_K = 5;
const DOC_FILE = /\.(md|markdown|mdx|txt)$/i;

function files(path: string): string[] {
  const stat = statSync(path);
  if (!stat.isDirectory()) return [path];
  return readdirSync(path, { withFileTypes: true })
    .filter((e) => !e.name.startsWith(".") && e.name !== "node_modules")
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((e) => (e.isDirectory() ? files(join(path, e.name)) : DOC_FILE.test(e.name) ? [join(path, e.name)] : []));
}

/** Sections at headings (code fences kept whole), long ones cut at blank lines. */
function passages(file: string, label: string, start: number): Passage[] {
  const out: Passage[] = [];
  let heading = "";
  let lines: string[] = [];
  let fenced = false;
  const flush = () => {
    const body = lines.join("\n").trim();
    lines = [];
    if (!body) return;
    let chunk = "";
    for (const paragraph of body.split(/\n\s*\n/)) {
      if (chunk && chunk.length + paragraph.length > PASSAGE_CHARS) {
        out.push({ source: heading ? `${label} › ${heading}` : label, position: start + out.length, text: chunk });
        chunk = "";
      }
      chunk = chunk ? `${chunk}\n\n${paragraph}` : paragraph;
    }
    if (chunk) out.push({ source: heading ? `${label} › ${heading}` : label, position: start + out.length, text: chunk });
  };
  const content = readFileSync(file, "utf8").replace(/^---\r?\n[\s\S]*?\r?\n---\r?\n/, "");
  for (const line of content.split(/\r?\n/)) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const h = fenced ? null : /^#{1,6}\s+(.*)$/.exec(line);
    if (h) {
      flush();
      heading = h[1]!.trim();
    } else lines.push(line);
  }
  flush();
  return out;
}

const corpora = new Map<string, Passage[]>();

/** The passages of `paths` (default: the README, the docs pages and the skills), read once per set of paths. */
export function docsCorpus(paths?: readonly string[]): Passage[] {
  const roots = paths?.length ? [...paths] : [packageReadme(), packageDocsDir(), skillsDir()].filter((p): p is string => !!p);
  const key = roots.join("\0");
  let corpus = corpora.get(key);
  if (!corpus) {
    corpus = [];
    for (const root of roots) {
      for (const file of files(root)) {
        const label = relative(statSync(root).isDirectory() ? root : join(root, ".."), file) || file;
        corpus.push(...passages(file, label, corpus.length));
      }
    }
    corpora.set(key, corpus);
  }
  return corpus;
}

export const searchDocs: BaseTool = {
  name: "search_docs",
  description: `Searches the documentation for passages about a question (how to configure, deploy, debug or use something) and returns the best ones as text, each group headed by its file and section.
Ask with the words the documentation would use, e.g. "object store redis url" or "deploy pipeline version".`,
  parameters: { query: v.pipe(v.string(), v.minLength(1), v.description("What to look up.")) },
  async run(args) {
    const query = args.query as string;
    const ranked = await rankByBm25(docsCorpus(args.docs_paths as string[] | undefined), (p) => `${p.source}\n${p.text}`, query, TOP_K);
    if (ranked.length === 0) return `No documentation found for '${query}'.`;
    // Passages of one section form one group, in reading order; groups in the order of their best passage.
    const groups = new Map<string, Passage[]>();
    for (const { item } of ranked) groups.set(item.source, [...(groups.get(item.source) ?? []), item]);
    return [...groups]
      .map(([source, parts]) => `${source}\n${parts.sort((a, b) => a.position - b.position).map((p) => p.text).join("\n\n")}`)
      .join("\n----\n");
  },
};
