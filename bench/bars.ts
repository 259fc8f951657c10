/**
 * @module The bars of issues 15 and 28: each bench records its figure with the bar it must meet and
 * the noise it measured; at the end one table shows them all, each value with its noise beside it,
 * and the bench exits non-zero when a figure misses its bar. The verdict is strict: a figure passes
 * only when its median meets the bar. A miss smaller than the noise is still a miss (marked "within
 * noise" so a reader knows a rerun may differ); noise is reported, never counted in the figure's
 * favour.
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

/** The median meets the bar; the noise does not count. */
export function passes(f: Figure): boolean {
  return f.direction === "at least" ? f.value >= f.bar : f.value <= f.bar;
}

/** A miss smaller than the figure's noise: still a FAIL, but one a rerun may turn. */
export function withinNoise(f: Figure): boolean {
  return !passes(f) && Math.abs(f.value - f.bar) <= f.noise;
}

/** The summary table's lines, and the figures that miss their bar. */
export function summary(all: readonly Figure[]): { lines: string[]; failed: Figure[] } {
  const digits = (f: Figure, x: number) => x.toFixed(f.unit === "×" ? 2 : 1);
  const header = ["figure", "median ± noise", "bar", "result"];
  const rows = all.map((f) => [
    f.name,
    `${digits(f, f.value)} ± ${digits(f, f.noise)} ${f.unit}`,
    `${f.direction === "at least" ? "≥" : "≤"} ${digits(f, f.bar)} ${f.unit}`,
    passes(f) ? "PASS" : withinNoise(f) ? "FAIL (within noise)" : "FAIL",
  ]);
  const widths = header.map((_, i) => Math.max(...[header, ...rows].map((row) => row[i]!.length)));
  return {
    lines: [
      "each figure's median against its bar (noise = half the spread of its rounds; PASS only when the median meets the bar)",
      ...[header, ...rows].map((row) => row.map((cell, i) => cell.padEnd(widths[i]!)).join("  ").trimEnd()),
    ],
    failed: all.filter((f) => !passes(f)),
  };
}
