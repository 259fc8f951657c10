/**
 * @module Runs a program in a real terminal: a detached tmux session of a fixed size on a private
 * tmux server (its own socket), so tests can type keys and read the screen with `capture-pane`.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { sleep } from "./http.js";

const run = promisify(execFile);

export interface TmuxSession {
  /** The screen as plain text, one string per row. */
  capture(): Promise<string>;
  /** Types keys (tmux key names such as `Enter`, `Down`, `C-c`, or literal text). */
  keys(...keys: string[]): Promise<void>;
  /** A tmux format about the pane, e.g. `#{alternate_on}` or `#{cursor_flag}`. */
  display(format: string): Promise<string>;
  /** Types literal text. */
  type(text: string): Promise<void>;
  resize(columns: number, rows: number): Promise<void>;
  /** Resolves with the screen once `pattern` is on it. */
  waitFor(pattern: RegExp, ms?: number): Promise<string>;
  /** Resolves with the screen once `pattern` is no longer on it. */
  waitForGone(pattern: RegExp, ms?: number): Promise<string>;
  close(): Promise<void>;
}

let counter = 0;

/**
 * Starts `argv` in a new session; `env` is the program's whole environment. When the program
 * exits, the pane prints `[exited <code>]` and stays open so the test can read it.
 */
export async function startTmux(argv: readonly string[], options: { env: NodeJS.ProcessEnv; cwd: string; columns?: number; rows?: number }): Promise<TmuxSession> {
  const dir = mkdtempSync(join(tmpdir(), "svc-tmux-"));
  const socket = join(dir, "socket");
  const script = join(dir, "run.sh");
  const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  const exports = Object.entries(options.env)
    .filter(([k, v]) => v !== undefined && k !== "TERM" && k !== "TMUX" && /^[A-Za-z_][A-Za-z0-9_]*$/.test(k))
    .map(([k, v]) => `export ${k}=${quote(v!)}`);
  writeFileSync(script, ["#!/bin/sh", ...exports, `cd ${quote(options.cwd)}`, `${argv.map(quote).join(" ")}`, 'echo "[exited $?]"', "exec sleep 3600", ""].join("\n"), { mode: 0o700 });
  const tmux = (...args: string[]) => run("tmux", ["-S", socket, "-f", "/dev/null", ...args], { env: { ...process.env, TMUX: "" } });
  const name = `svc${process.pid}-${counter++}`;
  await tmux("new-session", "-d", "-s", name, "-x", String(options.columns ?? 120), "-y", String(options.rows ?? 30), script);
  await tmux("set-option", "-t", name, "status", "off");

  const capture = async () => (await tmux("capture-pane", "-p", "-t", name)).stdout;
  const poll = async (test: (screen: string) => boolean, what: string, ms: number) => {
    const deadline = Date.now() + ms;
    let screen = "";
    while (Date.now() < deadline) {
      screen = await capture();
      if (test(screen)) return screen;
      await sleep(50);
    }
    throw new Error(`timed out waiting for ${what}; screen:\n${screen}`);
  };
  return {
    capture,
    keys: async (...keys) => void (await tmux("send-keys", "-t", name, ...keys)),
    display: async (format) => (await tmux("display-message", "-p", "-t", name, format)).stdout.trim(),
    type: async (text) => void (await tmux("send-keys", "-t", name, "-l", text)),
    resize: async (columns, rows) => void (await tmux("resize-window", "-t", name, "-x", String(columns), "-y", String(rows))),
    waitFor: (pattern, ms = 10_000) => poll((s) => pattern.test(s), String(pattern), ms),
    waitForGone: (pattern, ms = 10_000) => poll((s) => !pattern.test(s), `${pattern} to go`, ms),
    close: async () => {
      await tmux("kill-server").catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
