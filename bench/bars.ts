/**
 * @module The bars of issue 15 point 4: each bench records its figure with the bar it must meet and
 * the noise it measured; at the end one table shows them all, and the bench exits non-zero when a
 * figure misses its bar by more than its noise (one noisy round on a shared machine is no failure,
 * a clear miss is).
 */

export interface Figure {
  name: string;
  value: number;
  bar: number;
  /** How much the figure moved within this run (half the spread of its rounds, see `fromRounds`). */
  noise: number;
  /** "at least" for ratios and rates; "at most" for memory and time. */
  direction: "at least" | "at most";
  unit: string;
}

const figures: Figure[] = [];

/** Adds a figure to the run's summary. */
export function record(figure: Figure): void {
  figures.push(figure);
}

/** The figures recorded so far in this process. */
export function recorded(): readonly Figure[] {
  return figures;
}

/**
 * The median of `samples` as the value and half their spread as the noise. From four rounds on, the
 * outer quarter on each side is left out of the spread (the interquartile range): one stalled round
 * on a shared machine must not make the noise so wide that any value passes.
 */
export function fromRounds(samples: number[]): { value: number; noise: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const value = sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  const cut = sorted.length >> 2;
  return { value, noise: (sorted[sorted.length - 1 - cut]! - sorted[cut]!) / 2 };
}

/** A ratio measured in alternating rounds: `top[i] / bottom[i]` per round, then `fromRounds`. */
export function ratioOfRounds(top: number[], bottom: number[]): { value: number; noise: number } {
  return fromRounds(top.map((t, i) => t / bottom[i]!));
}

export function passes(f: Figure): boolean {
  return f.direction === "at least" ? f.value >= f.bar - f.noise : f.value <= f.bar + f.noise;
}

/** The summary table's lines, and the figures that miss their bar by more than their noise. */
export function summary(all: readonly Figure[]): { lines: string[]; failed: Figure[] } {
  const digits = (f: Figure, x: number) => x.toFixed(f.unit === "×" ? 2 : 1);
  const header = ["figure", "value", "bar", "noise (±)", "result"];
  const rows = all.map((f) => [
    f.name,
    `${digits(f, f.value)} ${f.unit}`,
    `${f.direction === "at least" ? "≥" : "≤"} ${digits(f, f.bar)} ${f.unit}`,
    digits(f, f.noise),
    passes(f) ? "PASS" : "FAIL",
  ]);
  const widths = header.map((_, i) => Math.max(...[header, ...rows].map((row) => row[i]!.length)));
  return {
    lines: [
      "issue 15 point 4: each figure against its bar (FAIL = misses it by more than its noise)",
      ...[header, ...rows].map((row) => row.map((cell, i) => cell.padEnd(widths[i]!)).join("  ").trimEnd()),
    ],
    failed: all.filter((f) => !passes(f)),
  };
}
