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

export async function startSvc(
  args: string[],
  options: { cwd?: string; env?: Record<string, string>; ms?: number } = {},
): Promise<RunningSvc> {
  const proc = spawn(process.execPath, [cliPath, ...args], { cwd: options.cwd ?? repoRoot, env: cleanEnv(options.env) });
  let out = "";
  const listeners = new Set<() => void>();
  const onData = (c: Buffer) => {
    out += c.toString();
    for (const l of listeners) l();
  };
  proc.stdout!.on("data", onData);
  proc.stderr!.on("data", onData);
  const exited = new Promise<number | null>((resolve) => proc.on("exit", (code) => resolve(code)));

  const waitFor = (pattern: RegExp, ms = 15_000, from = 0) =>
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

  const stop = async (signal: NodeJS.Signals = "SIGTERM") => {
    if (proc.exitCode === null && proc.signalCode === null) proc.kill(signal);
    return exited;
  };

  try {
    const match = await waitFor(LISTENING, options.ms);
    const port = Number(match[2]);
    return { proc, port, url: `http://127.0.0.1:${port}`, output: () => out, waitFor, stop, exited };
  } catch (error) {
    proc.kill("SIGKILL");
    throw error;
  }
}
