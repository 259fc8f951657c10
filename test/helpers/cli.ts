/**
 * @module Runs the real `svc` program (the compiled CLI) as a child process.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";

export const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));
export const cliPath = fileURLToPath(new URL("../../cli/index.js", import.meta.url));

/** Environment without the caller's SERVICE_* variables, so tests see defaults. */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith("SERVICE_") && k !== "LOG") env[k] = v;
  return { ...env, ...extra };
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runSvc(args: string[], options: { cwd?: string; env?: Record<string, string> } = {}): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cliPath, ...args], { cwd: options.cwd ?? repoRoot, env: cleanEnv(options.env) });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c) => (stdout += c));
    child.stderr.on("data", (c) => (stderr += c));
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

export interface RunningSvc {
  proc: ChildProcess;
  url: string;
  port: number;
  output(): string;
  /** Resolves when `pattern` appears in the output (after `from`). */
  waitFor(pattern: RegExp, ms?: number, from?: number): Promise<RegExpExecArray>;
  /** Sends a signal and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  exited: Promise<number | null>;
}

const LISTENING = /svc listening on http:\/\/([^:\s]+):(\d+)/;

type StartOptions = { cwd?: string; env?: Record<string, string>; ms?: number };

export function startSvc(args: string[], options: StartOptions = {}): Promise<RunningSvc> {
  return untilListening(spawn(process.execPath, [cliPath, ...args], { cwd: options.cwd ?? repoRoot, env: cleanEnv(options.env) }), options.ms);
}

/**
 * Runs a command line as a user types it in a shell (e.g. the README's `npm start`), in its own
 * process group: `stop` signals the whole group, as Ctrl-C in a terminal does.
 */
export function startCommand(command: string, options: StartOptions = {}): Promise<RunningSvc> {
  const proc = spawn(command, { shell: true, detached: true, cwd: options.cwd ?? repoRoot, env: cleanEnv(options.env) });
  return untilListening(proc, options.ms, true);
}

/** Resolves once no process of the group is left: true, or false if it took SIGKILL after `ms`. */
export async function groupGone(pgid: number, ms = 30_000): Promise<boolean> {
  const alive = () => {
    try {
      process.kill(-pgid, 0);
      return true;
    } catch {
      return false;
    }
  };
  for (const deadline = Date.now() + ms; alive(); await new Promise((r) => setTimeout(r, 100))) {
    if (Date.now() > deadline) {
      process.kill(-pgid, "SIGKILL");
      return false;
    }
  }
  return true;
}

async function untilListening(proc: ChildProcess, ms: number | undefined, group = false): Promise<RunningSvc> {
  let out = "";
  const listeners = new Set<() => void>();
  const onData = (c: Buffer) => {
    out += c.toString();
    for (const l of listeners) l();
  };
  proc.stdout!.on("data", onData);
  proc.stderr!.on("data", onData);
  const exited = new Promise<number | null>((resolve) => proc.on("exit", (code) => resolve(code)));

  // A deadline for a hung process, not a speed check: startup on a loaded machine (many test
  // processes, CI) can take tens of seconds.
  const waitFor = (pattern: RegExp, ms = 60_000, from = 0) =>
    new Promise<RegExpExecArray>((resolve, reject) => {
      const check = () => {
        const match = pattern.exec(out.slice(from));
        if (match) {
          done();
          resolve(match);
        }
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`timed out waiting for ${pattern}; output:\n${out}`));
      }, ms);
      const onExit = () => {
        check();
        done();
        reject(new Error(`svc exited before ${pattern}; output:\n${out}`));
      };
      const done = () => {
        clearTimeout(timer);
        listeners.delete(check);
        proc.off("exit", onExit);
      };
      listeners.add(check);
      proc.once("exit", onExit);
      check();
    });

  const kill = (signal: NodeJS.Signals) => {
    if (group) {
      try {
        process.kill(-proc.pid!, signal); // the group may outlive its shell
      } catch {
        // the whole group has exited
      }
    } else if (proc.exitCode === null && proc.signalCode === null) proc.kill(signal);
  };
  const stop = async (signal: NodeJS.Signals = "SIGTERM") => {
    kill(signal);
    const code = await exited;
    if (group && !(await groupGone(proc.pid!))) throw new Error(`${signal} left processes running; output:\n${out}`);
    return code;
  };

  try {
    const match = await waitFor(LISTENING, ms);
    const port = Number(match[2]);
    return { proc, port, url: `http://127.0.0.1:${port}`, output: () => out, waitFor, stop, exited };
  } catch (error) {
    kill("SIGKILL");
    throw error;
  }
}
