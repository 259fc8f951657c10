/**
 * @module The documentation as tests read it: the README and `docs/*.md`, their fenced code blocks
 * with the marker comment on the line before each (`<!-- example: id -->` for a block a test runs,
 * `<!-- not-run: why -->` for output, diagrams and fragments), their links and their anchors.
 */
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { repoRoot } from "./cli.js";

/** README.md and every page of docs/, as paths relative to the repository. */
export function docPages(): string[] {
  const docs = readdirSync(join(repoRoot, "docs")).filter((f) => f.endsWith(".md")).sort();
  return ["README.md", ...docs.map((f) => `docs/${f}`)];
}

export const readDoc = (page: string): string => readFileSync(join(repoRoot, page), "utf8");

export interface CodeBlock {
  readonly page: string;
  /** 1-based line of the opening fence. */
  readonly line: number;
  readonly lang: string;
  readonly code: string;
  /** The marker on the line before the fence, if any. */
  readonly marker?: { kind: "example" | "not-run"; id: string; elsewhere?: string };
}

const MARKER = /^<!-- (example|not-run): ?(.*?) -->$/;

/** The fenced code blocks of a page, in order. */
export function codeBlocks(page: string): CodeBlock[] {
  const lines = readDoc(page).split("\n");
  const blocks: CodeBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(`{3,})(\S*)/.exec(lines[i]!);
    if (!open) continue;
    const end = lines.findIndex((l, j) => j > i && l.startsWith(open[1]!) && l.trim() === open[1]);
    if (end < 0) throw new Error(`${page}:${i + 1}: a code block that is never closed`);
    const m = MARKER.exec(lines[i - 1] ?? "");
    let marker: CodeBlock["marker"];
    if (m) {
      // `example: id (test/other.test.ts)`: run by another test file.
      const [, id, elsewhere] = /^(\S+)(?: \((\S+)\))?/.exec(m[2]!) ?? [];
      marker = m[1] === "example" ? { kind: "example", id: id!, elsewhere } : { kind: "not-run", id: m[2]! };
    }
    blocks.push({ page, line: i + 1, lang: open[2]!, code: lines.slice(i + 1, end).join("\n") + "\n", marker });
    i = end;
  }
  return blocks;
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as dashes. */
export function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}_\- ]/gu, "")
    .replace(/ /g, "-");
}

/** The link targets of a page: its headings' anchors (a repeated heading gets `-1`, `-2`, …) and explicit HTML anchors. */
export function anchors(page: string): Set<string> {
  const out = new Set<string>();
  let fence = false;
  for (const line of readDoc(page).split("\n")) {
    if (line.startsWith("```")) fence = !fence;
    // An explicit HTML anchor (`<a id="name"></a>`) is a link target too, as on GitHub.
    if (!fence) for (const a of line.matchAll(/<a id="([^"]+)"><\/a>/g)) out.add(a[1]!);
    const h = fence ? null : /^#{1,6} (.*)$/.exec(line);
    if (!h) continue;
    const base = slug(h[1]!);
    let name = base;
    for (let n = 1; out.has(name); n++) name = `${base}-${n}`;
    out.add(name);
  }
  return out;
}

/** The relative Markdown link targets of a page (outside code), with their line. */
export function relativeLinks(page: string): { target: string; line: number }[] {
  const out: { target: string; line: number }[] = [];
  let fence = false;
  readDoc(page)
    .split("\n")
    .forEach((text, i) => {
      if (text.startsWith("```")) fence = !fence;
      if (fence) return;
      // Inline code may hold brackets that are not links.
      const prose = text.replace(/`[^`]*`/g, "");
      for (const m of prose.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (!/^[a-z][a-z+.-]*:/i.test(m[1]!)) out.push({ target: m[1]!, line: i + 1 });
      }
    });
  return out;
}
