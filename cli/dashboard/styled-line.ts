/**
 * @module Screen lines as styled pieces of text, cut to the terminal's width by display columns
 * (wide characters count two) and turned into ANSI only at the end. Text from the server passes
 * through `clean` first, so a tag value can never carry escape sequences to the terminal.
 */

export type Style = "bold" | "dim" | "red" | "green" | "yellow" | "cyan" | "magenta";

export interface Piece {
  readonly text: string;
  readonly style?: Style;
}

export interface Line {
  readonly pieces: readonly Piece[];
  /** Drawn in reverse video across the whole width (the selected row, the header). */
  readonly inverse?: boolean;
}

export const piece = (text: string, style?: Style): Piece => ({ text, style });
export const line = (...pieces: (Piece | string)[]): Line => ({ pieces: pieces.map((p) => (typeof p === "string" ? { text: p } : p)) });

/** Control characters (escape, newlines, tabs…) become visible-safe spaces or `?`. */
export function clean(text: string): string {
  return text.replace(/[\t\n\r]+/g, " ").replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, "?");
}

function isWide(cp: number): boolean {
  return (
    (cp >= 0x1100 && cp <= 0x115f) ||
    (cp >= 0x2e80 && cp <= 0xa4cf && cp !== 0x303f) ||
    (cp >= 0xac00 && cp <= 0xd7a3) ||
    (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0xfe30 && cp <= 0xfe4f) ||
    (cp >= 0xff00 && cp <= 0xff60) ||
    (cp >= 0xffe0 && cp <= 0xffe6) ||
    (cp >= 0x1f300 && cp <= 0x1faff) ||
    (cp >= 0x20000 && cp <= 0x3fffd)
  );
}

function isZeroWidth(cp: number): boolean {
  return (cp >= 0x0300 && cp <= 0x036f) || (cp >= 0x200b && cp <= 0x200f) || (cp >= 0xfe00 && cp <= 0xfe0f);
}

export function charWidth(ch: string): number {
  const cp = ch.codePointAt(0)!;
  return isZeroWidth(cp) ? 0 : isWide(cp) ? 2 : 1;
}

export function textWidth(text: string): number {
  let w = 0;
  for (const ch of text) w += charWidth(ch);
  return w;
}

/** `text` cut to `width` columns, ending in `…` when cut. */
export function truncate(text: string, width: number): string {
  if (width <= 0) return "";
  if (textWidth(text) <= width) return text;
  let out = "";
  let w = 0;
  for (const ch of text) {
    const cw = charWidth(ch);
    if (w + cw > width - 1) break;
    out += ch;
    w += cw;
  }
  return out + "…";
}

/** Words of `text` on lines of at most `width` columns; a longer word is cut into pieces. */
export function wrap(text: string, width: number): string[] {
  const out: string[] = [];
  let current = "";
  const push = (word: string) => {
    while (textWidth(word) > width) {
      if (current) out.push(current), (current = "");
      let head = "";
      for (const ch of word) {
        if (textWidth(head + ch) > width) break;
        head += ch;
      }
      out.push(head);
      word = word.slice(head.length);
    }
    if (!current) current = word;
    else if (textWidth(`${current} ${word}`) <= width) current += ` ${word}`;
    else out.push(current), (current = word);
  };
  for (const word of text.split(/\s+/).filter(Boolean)) push(word);
  if (current) out.push(current);
  return out;
}

/** Pads or cuts `text` to exactly `width` columns. */
export function cell(text: string, width: number, align: "left" | "right" = "left"): string {
  const cut = truncate(text, width);
  const pad = " ".repeat(Math.max(0, width - textWidth(cut)));
  return align === "left" ? cut + pad : pad + cut;
}

/** The line's pieces cut to `width` columns (the last piece that does not fit ends in `…`). */
export function fit(l: Line, width: number): Line {
  const pieces: Piece[] = [];
  let left = width;
  const total = l.pieces.reduce((n, p) => n + textWidth(p.text), 0);
  for (const p of l.pieces) {
    if (left <= 0) break;
    const w = textWidth(p.text);
    if (w <= left && !(total > width && w === left)) {
      pieces.push(p);
      left -= w;
    } else {
      pieces.push({ ...p, text: truncate(p.text, left) });
      left = 0;
    }
  }
  return { ...l, pieces };
}

/** The plain text of a line (what a test or a screen reader sees). */
export function plain(l: Line): string {
  return l.pieces.map((p) => p.text).join("");
}

const SGR: Record<Style, [string, string]> = {
  bold: ["1", "22"],
  dim: ["2", "22"],
  red: ["31", "39"],
  green: ["32", "39"],
  yellow: ["33", "39"],
  cyan: ["36", "39"],
  magenta: ["35", "39"],
};

/** ANSI text for a line fitted to `width`: padded so reverse video spans the width. */
export function toAnsi(l: Line, width: number, color: boolean): string {
  const fitted = fit(l, width);
  let out = fitted.inverse ? "\x1b[7m" : "";
  let used = 0;
  for (const p of fitted.pieces) {
    used += textWidth(p.text);
    const sgr = p.style && (color || p.style === "bold" || p.style === "dim") ? SGR[p.style] : undefined;
    out += sgr ? `\x1b[${sgr[0]}m${p.text}\x1b[${sgr[1]}m` : p.text;
  }
  if (fitted.inverse) out += " ".repeat(Math.max(0, width - used)) + "\x1b[27m";
  return out;
}
