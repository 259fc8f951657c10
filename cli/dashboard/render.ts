/**
 * @module The whole screen as a pure function of the state and the terminal size: a header, the
 * filters, statistics of the shown sample, the list (traces and expanded span trees) scrolled to
 * the selection, a detail line for the selected row, and a footer with the keys. Every line fits
 * the width; the lines fill the height. A row's error comes before its trace id, so an 80-column
 * terminal still shows where the error starts; the detail line gives the selected row's in full.
 */
import { formatClock, formatDuration } from "./format.js";
import { problemLines, type ScreenContext } from "./problem-screen.js";
import { listRows, scrollFor, selectedIndex, type Row } from "./rows.js";
import type { SpanNode, Tag } from "./snapshot.js";
import { sampleStats } from "./stats.js";
import { cell, clean, fit, line, piece, type Line, type Piece, type Style } from "./styled-line.js";
import { errorMessage, slowComponent, tagValue, traceKind, traceState, type TraceState } from "./trace-facts.js";
import { shownTraces, type ViewState } from "./view-state.js";

export interface Size {
  readonly columns: number;
  readonly rows: number;
}

export interface Rendered {
  readonly lines: Line[];
  /** The scroll position used; the caller keeps it in the state. */
  readonly scroll: number;
}

const HEAD_ROWS = 4;
const FOOT_ROWS = 1;
/** The detail line of the selected row, above the footer. */
const DETAIL_ROWS = 1;
const KEYS = "↑↓ move  ⏎/→← tree  s sort  e entry  t kind  f state  / search  Esc reset  p pause  r refresh  c clear  q quit";

/** Rows of the list on a screen of `size` (page moves use it). */
export function listHeight(size: Size): number {
  return Math.max(1, size.rows - HEAD_ROWS - DETAIL_ROWS - FOOT_ROWS);
}

const STATE_STYLE: Record<TraceState, Style> = { ok: "green", failed: "red", running: "yellow" };

export function render(state: ViewState, size: Size, ctx: ScreenContext): Rendered {
  const width = Math.max(1, size.columns);
  const height = Math.max(1, size.rows);
  if (width < 20 || height < HEAD_ROWS + DETAIL_ROWS + FOOT_ROWS + 1) {
    return { lines: pad([line(piece("Terminal too small", "bold")), line("q quits")], height, width), scroll: state.scroll };
  }
  const head = header(state, ctx);
  if (state.problem) {
    const body = problemLines(state.problem, ctx, width);
    const foot = line(piece(`Retrying every ${ctx.intervalSec}s.  r retry now  q quit`, "dim"));
    return { lines: pad([head, line(), ...body.slice(0, height - 3)], height - 1, width).concat(fit(foot, width)), scroll: state.scroll };
  }
  const shown = shownTraces(state);
  const rows = listRows(state);
  const page = listHeight(size);
  const scroll = scrollFor(state, rows, page);
  const at = selectedIndex(state, rows);
  const columns = columnsFor(width);
  const body = rows.slice(scroll, scroll + page).map((row, i) => {
    const l = row.type === "trace" ? traceLine(row, state, columns) : spanLine(row, state);
    return scroll + i === at ? { ...l, inverse: true } : l;
  });
  if (rows.length === 0) body.push(line(piece(emptyMessage(state), "dim")));
  const lines = [head, filterLine(state), statsLine(state, shown.length), columnsLine(columns), ...body];
  const detail = at >= 0 ? detailLine(rows[at]!) : line();
  return { lines: pad(lines, height - DETAIL_ROWS - FOOT_ROWS, width).concat(fit(detail, width), fit(footer(state), width)), scroll };
}

function pad(lines: Line[], height: number, width: number): Line[] {
  const out = lines.slice(0, height).map((l) => fit(l, width));
  while (out.length < height) out.push(line());
  return out;
}

function header(state: ViewState, ctx: ScreenContext): Line {
  const parts = [
    piece(" svc traces ", "bold"),
    piece(`· ${clean(ctx.url)} · sort ${state.sort} · every ${ctx.intervalSec}s`),
    piece(state.fetchedAt !== undefined ? ` · updated ${formatClock(state.fetchedAt)}` : " · waiting for the first snapshot"),
  ];
  if (state.paused) parts.push(piece(" · PAUSED", "bold"));
  return { pieces: parts, inverse: true };
}

function filterLine(state: ViewState): Line {
  const value = (v: string | undefined) => piece(v === undefined || v === "" ? "all" : clean(v), v === undefined || v === "" ? "dim" : "cyan");
  return line(
    piece("Filter ", "bold"),
    "entrypoint ",
    value(state.entrypoint),
    "  kind ",
    value(state.kind),
    "  state ",
    value(state.state),
    "  search ",
    state.search ? piece(`"${clean(state.search)}"`, "cyan") : piece("—", "dim"),
  );
}

function statsLine(state: ViewState, shown: number): Line {
  const s = sampleStats(shownTraces(state), state.slowComponentMs);
  const of = `${shown} shown of ${state.traces.length}${state.hasMore ? " (server has older)" : ""}`;
  const pieces: Piece[] = [piece("Sample ", "bold"), piece(of), piece(" · ok "), piece(String(s.ok), "green"), piece(" · failed ")];
  pieces.push(piece(String(s.failed), s.failed ? "red" : undefined), piece(" · running "), piece(String(s.running), s.running ? "yellow" : undefined));
  pieces.push(piece(` · streaming ${s.streaming} · p50 ${formatDuration(s.p50)} · p95 ${formatDuration(s.p95)} · max ${formatDuration(s.max)}`));
  if (s.slow) pieces.push(piece(` · slow components ${s.slow}`, "yellow"));
  return line(...pieces);
}

type Columns = Record<"state" | "kind" | "entry" | "duration" | "spans" | "started", number>;
const WIDE: Columns = { state: 8, kind: 9, entry: 18, duration: 9, spans: 6, started: 9 };
/** Below 100 columns: the fixed columns shrink to their longest values, leaving the error room. */
const NARROW: Columns = { state: 7, kind: 8, entry: 14, duration: 8, spans: 5, started: 9 };
const columnsFor = (width: number) => (width < 100 ? NARROW : WIDE);

function columnsLine(c: Columns): Line {
  const text = `  ${cell("STATE", c.state)} ${cell("KIND", c.kind)} ${cell("ENTRYPOINT", c.entry)} ${cell("DURATION", c.duration, "right")} ${cell("SPANS", c.spans, "right")}  ${cell("STARTED", c.started)}ERROR · TRACE`;
  return line(piece(text, "dim"));
}

function traceLine(row: Extract<Row, { type: "trace" }>, state: ViewState, c: Columns): Line {
  const t = row.trace;
  const st = traceState(t);
  const pieces: Piece[] = [
    piece(row.expanded ? "▾ " : "▸ "),
    piece(cell(st, c.state), STATE_STYLE[st]),
    piece(` ${cell(traceKind(t), c.kind)} ${cell(clean(t.entrypoint ?? "—"), c.entry)} `),
    piece(`${cell(formatDuration(t.duration_ms), c.duration, "right")} ${cell(String(t.span_count), c.spans, "right")}  `),
    piece(`${cell(formatClock(t.start_time_ms), c.started)}`),
  ];
  const error = st === "failed" ? errorMessage(t) : undefined;
  if (error) pieces.push(piece(`${clean(error)}  `, "red"));
  const slow = slowComponent(t, state.slowComponentMs);
  if (slow) pieces.push(piece(`slow: ${clean(slow.name)} ${formatDuration(slow.duration_ms)}  `, "yellow"));
  if (t.instance) pieces.push(piece(`${clean(t.instance)} `, "cyan"));
  pieces.push(piece(t.trace_id, "dim"));
  return line(...pieces);
}

function spanLine(row: Extract<Row, { type: "span" }>, state: ViewState): Line {
  const s = row.span;
  const slow = s.slow === true || slowComponent(row.trace, state.slowComponentMs)?.span_id === s.span_id;
  const failed = tagValue(s.tags, "error.type") !== undefined || tagValue(s.tags, "success") === "false";
  const fold = s.children.length === 0 ? "" : row.collapsed ? `[+${countSpans(s) - 1}] ` : "";
  const pieces: Piece[] = [
    piece(row.guide, "dim"),
    piece(fold, "cyan"),
    piece(clean(s.name), failed ? "red" : slow ? "yellow" : "bold"),
    piece(`  ${s.running ? "running" : formatDuration(s.duration_ms)}`, s.running ? "yellow" : slow ? "yellow" : undefined),
  ];
  if (slow) pieces.push(piece("  ⚠ slowest component", "yellow"));
  const tags = tagText(s.tags);
  if (tags) pieces.push(piece(`  ${tags}`, "dim"));
  return line(...pieces);
}

/**
 * The selected row in one line, most telling first: a trace's state and error, then its id and
 * instance; a span's error, then its name, duration and tags.
 */
function detailLine(row: Row): Line {
  if (row.type === "trace") {
    const t = row.trace;
    const st = traceState(t);
    const error = st === "failed" ? errorMessage(t) : undefined;
    const pieces: Piece[] = [piece("▶ trace ", "bold"), piece(st, STATE_STYLE[st])];
    if (error) pieces.push(piece(": "), piece(clean(error), "red"));
    pieces.push(piece(` · ${formatDuration(t.duration_ms)} · id ${t.trace_id}`));
    if (t.instance) pieces.push(piece(` · instance ${clean(t.instance)}`, "cyan"));
    if (t.entrypoint) pieces.push(piece(` · ${clean(t.entrypoint)}`));
    return line(...pieces);
  }
  const s = row.span;
  const type = tagValue(s.tags, "error.type");
  const message = tagValue(s.tags, "error.message");
  const pieces: Piece[] = [piece("▶ span ", "bold")];
  if (type !== undefined || message !== undefined) pieces.push(piece(`failed: ${clean([type, message].filter((x) => x !== undefined).join(": "))}`, "red"), piece(" · "));
  pieces.push(piece(clean(s.name)), piece(` · ${s.running ? "running" : formatDuration(s.duration_ms)}`));
  const tags = tagText(s.tags.filter((t) => !/(^|\.)error\.(type|message)$/.test(t.key)));
  if (tags) pieces.push(piece(` · ${tags}`, "dim"));
  return line(...pieces);
}

function tagText(tags: readonly Tag[]): string {
  return tags.map((t) => `${clean(t.key)}=${clean(t.value)}`).join(" ");
}

function countSpans(span: SpanNode): number {
  return 1 + span.children.reduce((n, c) => n + countSpans(c), 0);
}

function emptyMessage(state: ViewState): string {
  if (state.fetchedAt === undefined) return "  Waiting for the first snapshot…";
  if (state.traces.length === 0) {
    return state.cleared.size > 0 ? "  List cleared. New traces appear here as they arrive." : "  No traces yet. Deploy or run a pipeline and they appear here.";
  }
  return "  No trace matches the filters and search (Esc resets them).";
}

function footer(state: ViewState): Line {
  if (state.input !== undefined) return line(piece("Search (tag or trace id): ", "bold"), piece(clean(state.input)), piece("▏"), piece("  ⏎ apply  Esc cancel", "dim"));
  if (state.notice) return line(piece(clean(state.notice), "cyan"));
  return line(piece(KEYS, "dim"));
}
