/**
 * @module How the client commands talk to the terminal: `✔` success lines on stdout, `✘` errors and
 * `!` warnings on stderr, plain tables and byte sizes. Colour only on a TTY, never with NO_COLOR.
 */

type Stream = NodeJS.WriteStream;

/** Colour on a TTY, never with NO_COLOR; FORCE_COLOR forces it either way. */
export function colorOn(stream: Stream): boolean {
  const force = process.env.FORCE_COLOR;
  if (process.env.NO_COLOR !== undefined && process.env.NO_COLOR !== "") return false;
  if (force !== undefined) return force !== "0" && force !== "false";
  return stream.isTTY === true;
}

const paint = (code: number) => (stream: Stream, text: string) => (colorOn(stream) ? `\x1b[${code}m${text}\x1b[39m` : text);
const green = paint(32);
const red = paint(31);
const yellow = paint(33);

export function bold(stream: Stream, text: string): string {
  return colorOn(stream) ? `\x1b[1m${text}\x1b[22m` : text;
}

/** `✔ message` on stdout. */
export function success(message: string): void {
  process.stdout.write(`${green(process.stdout, "✔")} ${message}\n`);
}

/** `! message` on stderr (or stdout, for a notice that is the command's answer). */
export function warn(message: string, stream: Stream = process.stderr): void {
  stream.write(`${yellow(stream, "!")} ${message}\n`);
}

/** `✘ message` on stderr. */
export function failure(message: string): void {
  process.stderr.write(`${red(process.stderr, "✘")} ${message}\n`);
}

/** Plain lines on stdout. */
export function print(text = ""): void {
  process.stdout.write(text.endsWith("\n") ? text : `${text}\n`);
}

/** A borderless table: a header row, a heavy rule, then the rows; columns padded to fit. */
export function table(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: readonly string[]) =>
    "  " +
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!)))
      .join("   ")
      .trimEnd();
  return [line(headers), line(widths.map((w) => "━".repeat(w))), ...rows.map(line)].join("\n") + "\n";
}

/** 1536 → "1.5 KiB". */
export function formatBytes(bytes: number): string {
  const units = ["B", "KiB", "MiB", "GiB"];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${bytes} B` : `${value.toFixed(1)} ${units[unit]}`;
}

/** A result as the user reads it: strings as they are, everything else as indented JSON. */
export function formatValue(value: unknown): string {
  if (typeof value === "string") return value;
  if (value === undefined) return "null";
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}
