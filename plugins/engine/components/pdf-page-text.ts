/**
 * @module A PDF page's text from PDF.js's text content, in pypdf's two extraction modes as
 * PyPDFToDocument uses them. `plain`: the text runs in content order, a newline where PDF.js sees a
 * line end. `layout`: pypdf's fixed-width rendering (pypdf/_text_extraction/_layout_mode): runs
 * grouped into lines by baseline, placed at columns of the page's average character width, and blank
 * lines for vertical gaps, so paragraphs come out separated by empty lines (what the
 * DocumentSplitter's `passage` mode splits on).
 */

/** The part of a PDF.js text item the extraction reads. */
export interface TextItem {
  str: string;
  hasEOL?: boolean;
  width: number;
  height?: number;
  transform: number[];
}

/** pypdf's layout-mode options, as PyPDFToDocument's init parameters name them. */
export interface LayoutOptions {
  layout_mode_space_vertically: boolean;
  layout_mode_scale_weight: number;
  layout_mode_strip_rotated: boolean;
  layout_mode_font_height_weight: number;
}

/** The page's text as PDF.js orders it. */
export function plainPageText(items: readonly TextItem[]): string {
  return items.map((item) => item.str + (item.hasEOL ? "\n" : "")).join("");
}

interface Run {
  text: string;
  /** A space PDF.js put in a gap between runs (no height): it separates, columns place. */
  gap?: boolean;
  x: number;
  /** Where the run ends horizontally (pypdf's `displaced_tx`). */
  end: number;
  y: number;
  fontHeight: number;
}

/** The page's text laid out on a fixed-width grid, as pypdf's `extraction_mode="layout"`. */
export function layoutPageText(items: readonly TextItem[], options: LayoutOptions): string {
  let runs: Run[] = [];
  for (const item of items) {
    if (!item.str) continue;
    const [a = 1, , c = 0, d = 1, e = 0, f = 0] = item.transform;
    // Layout mode cannot place rotated text; pypdf drops it unless told to keep it. Rotated is
    // pypdf's `orient` 90/270, or 180 with the x axis reversed too (a reversed y alone is not).
    const rotated = Math.abs(d) <= 1e-6 || (d < -1e-6 && a < -1e-6);
    if (options.layout_mode_strip_rotated && rotated) continue;
    runs.push({ text: item.str, x: e, end: e + item.width, y: f, fontHeight: Math.hypot(c, d), gap: !item.height && !item.str.trim() });
  }
  if (!runs.some((r) => !r.gap)) return "";
  // Text starts at the left margin: the leftmost run is column 0.
  const minX = Math.min(...runs.filter((r) => !r.gap).map((r) => r.x));
  runs = runs.map((r) => ({ ...r, x: r.x - minX, end: r.end - minX }));
  const charWidth = fixedCharWidth(runs, options.layout_mode_scale_weight);
  return fixedWidthPage(lineGroups(runs), charWidth, options.layout_mode_space_vertically, options.layout_mode_font_height_weight);
}

/** pypdf's `fixed_char_width`: the length-weighted average character width, scaled. */
function fixedCharWidth(runs: Run[], scaleWeight: number): number {
  let width = 0;
  let length = 0;
  for (const run of runs) {
    if (run.gap) continue; // PDF.js's stretched spaces would widen every column
    width += run.end - run.x;
    length += run.text.length * scaleWeight;
  }
  return width > 0 && length > 0 ? width / length : 1;
}

/**
 * pypdf's `y_coordinate_groups`: runs grouped by whole baseline from the top, each line left to
 * right; a line closer than a font height to the one above, with no run starting at the same
 * column, is merged into it (superscripts, baseline jitter).
 */
function lineGroups(runs: Run[]): Run[][] {
  const byY = new Map<number, Run[]>();
  for (const run of [...runs].sort((p, q) => q.y - p.y || p.x - q.x)) {
    const y = Math.trunc(run.y);
    const line = byY.get(y);
    if (line) line.push(run);
    else byY.set(y, [run]);
  }
  const lines: { y: number; runs: Run[] }[] = [];
  let last: { y: number; runs: Run[]; xs: Set<number> } | undefined;
  for (const [y, group] of byY) {
    group.sort((p, q) => p.x - q.x);
    const xs = new Set(group.filter((r) => r.text.trim()).map((r) => Math.trunc(r.x)));
    if (last) {
      const fontHeight = Math.min(group[0]!.fontHeight, last.runs[0]!.fontHeight);
      const overlap = [...xs].some((x) => last!.xs.has(x));
      if (!overlap && Math.abs(y - last.y) < fontHeight) {
        last.runs.push(...group);
        last.runs.sort((p, q) => p.x - q.x);
        for (const x of xs) last.xs.add(x);
        continue;
      }
    }
    last = { y, runs: group, xs };
    lines.push(last);
  }
  return lines.map((line) => Object.assign(line.runs, { y: line.y }));
}

/** pypdf's caps on what a stray coordinate can add to a page. */
const NEWLINE_LIMIT = 1_000;
const WHITESPACE_LIMIT = 10_000;

/** pypdf's `fixed_width_page`: each line's runs at their columns, blank lines for vertical gaps. */
function fixedWidthPage(groups: (Run[] & { y?: number })[], charWidth: number, spaceVertically: boolean, fontHeightWeight: number): string {
  const lines: string[] = [];
  let lastY = 0;
  for (const group of groups) {
    const y = group.y ?? 0;
    if (spaceVertically && lines.length > 0) {
      const fontHeight = group[0]!.fontHeight;
      const blank = fontHeight === 0 ? 0 : Math.min(NEWLINE_LIMIT, Math.trunc(Math.abs(y - lastY) / (fontHeight * fontHeightWeight)) - 1);
      for (let i = 0; i < blank; i++) lines.push("");
    }
    let line = "";
    let lastEnd = 0;
    let gap = false;
    for (const run of group) {
      if (run.gap) {
        gap = line !== "";
        continue;
      }
      const column = Math.trunc(run.x / charWidth);
      // Spaces only up to the run's column, and only where it does not touch the previous run.
      let spaces = Math.ceil(lastEnd) < Math.trunc(run.x) ? Math.min(WHITESPACE_LIMIT, Math.max(0, column - line.length)) : 0;
      if (gap && spaces === 0 && !line.endsWith(" ") && !run.text.startsWith(" ")) spaces = 1;
      line += " ".repeat(spaces) + run.text;
      lastEnd = run.end;
      gap = false;
    }
    if (line.trim() || lines.length > 0) lines.push(line.replace(/[\x0e-\x1f]/g, " "));
    lastY = y;
  }
  return lines
    .filter((line) => spaceVertically || line.trim())
    .map((line) => line.trimEnd())
    .join("\n");
}
