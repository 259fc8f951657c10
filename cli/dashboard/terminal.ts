/**
 * @module The terminal, with plain ANSI and `node:readline`: the alternate screen, a hidden
 * cursor, raw keys, redraws on resize, and a restore that runs exactly once however the viewer
 * ends (q, Ctrl-C, a signal, a crash).
 */
import { emitKeypressEvents } from "node:readline";
import type { KeyPress } from "./keys.js";

const ENTER = "\x1b[?1049h\x1b[?25l\x1b[H\x1b[2J";
const LEAVE = "\x1b[?25h\x1b[?1049l";
const ESCAPE_MS = 100;

export class Terminal {
  private active = false;
  private readonly cleanup: (() => void)[] = [];

  constructor(
    private readonly input: NodeJS.ReadStream = process.stdin,
    private readonly output: NodeJS.WriteStream = process.stdout,
  ) {}

  get size(): { columns: number; rows: number } {
    return { columns: this.output.columns || 80, rows: this.output.rows || 24 };
  }

  /** Enters the alternate screen and delivers keys and resizes until `restore`. */
  start(onKey: (key: KeyPress) => void, onResize: () => void): void {
    this.active = true;
    this.output.write(ENTER);
    // A lone Escape is told from the start of a key sequence by a pause (readline's default: 500 ms).
    emitKeypressEvents(this.input, { escapeCodeTimeout: ESCAPE_MS } as never);
    if (this.input.isTTY) this.input.setRawMode(true);
    this.input.resume();
    const key = (_: string | undefined, k: KeyPress | undefined) => onKey(k ?? { sequence: _ });
    this.input.on("keypress", key);
    this.output.on("resize", onResize);
    const exit = () => this.restore();
    process.on("exit", exit);
    this.cleanup.push(
      () => this.input.off("keypress", key),
      () => this.output.off("resize", onResize),
      () => process.off("exit", exit),
    );
  }

  /**
   * Replaces the screen with `lines` (one per row, fitted to the width) in one write. Each row is
   * erased before it is written, not after: after a full-width row the cursor sits on the last
   * column, and erasing there would eat that column's character.
   */
  draw(lines: readonly string[]): void {
    if (!this.active) return;
    this.output.write(`\x1b[H${lines.map((l) => `\x1b[2K${l}\x1b[0m`).join("\r\n")}`);
  }

  /** Gives the terminal back as it was. Safe to call more than once. */
  restore(): void {
    if (!this.active) return;
    this.active = false;
    for (const undo of this.cleanup.splice(0)) undo();
    if (this.input.isTTY) this.input.setRawMode(false);
    this.input.pause();
    this.output.write(LEAVE);
  }
}
