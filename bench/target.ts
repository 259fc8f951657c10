/**
 * @module A benchmark target process: started with `fork`, ready when it prints its port on a line
 * of its own. A target that exits, fails to start or stays silent makes the bench fail with what the
 * process printed, instead of waiting forever; so does one that dies while it is being measured.
 */
import { fork, type ChildProcess } from "node:child_process";

export interface Target {
  child: ChildProcess;
  port: number;
  /** The target's CPU time so far (µs); rejects if the target has died. */
  cpu(): Promise<number>;
  kill(): void;
}

const OUTPUT_KEPT = 8_000;

/** Starts `script` with `args`; rejects with its output if it is not listening within `timeoutMs`. */
export function startTarget(script: string, args: string[], timeoutMs = 60_000): Promise<Target> {
  const name = [script.split("/").pop(), ...args].join(" ");
  const child = fork(script, args, { stdio: ["ignore", "pipe", "pipe", "ipc"] });
  let output = "";
  let stdoutLine = "";
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-OUTPUT_KEPT);
  };
  child.stderr!.on("data", (chunk: Buffer) => {
    keep(chunk);
    process.stderr.write(chunk);
  });
  const failure = (why: string) => new Error(`bench target "${name}" ${why}${output ? `; its output:\n${output.trimEnd()}` : " with no output"}`);

  let exited: Error | undefined;
  const onExit = new Promise<never>((_, reject) => {
    child.once("exit", (code, signal) => {
      exited = failure(signal ? `was killed by ${signal}` : `exited with code ${code}`);
      reject(exited);
    });
    child.once("error", (error) => reject(failure(`could not run: ${error.message}`)));
  });
  onExit.catch(() => {}); // observed through the promises below

  const ready = new Promise<number>((resolve) => {
    child.stdout!.on("data", (chunk: Buffer) => {
      keep(chunk);
      stdoutLine += chunk.toString();
      const lines = stdoutLine.split("\n");
      stdoutLine = lines.pop()!;
      // Colour codes stripped: a number logged with FORCE_COLOR set (a test runner's) comes coloured.
      const port = lines.map((l) => l.replace(/\x1b\[[0-9;]*m/g, "").trim()).find((l) => /^\d+$/.test(l));
      if (port) resolve(Number(port));
    });
  });
  let timer: NodeJS.Timeout | undefined;
  const silent = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(failure(`printed no port within ${timeoutMs / 1000} s`)), timeoutMs);
  });

  const kill = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  };
  return Promise.race([ready, onExit, silent])
    .then((port): Target => ({
      child,
      port,
      kill,
      cpu: () =>
        exited
          ? Promise.reject(exited)
          : Promise.race([
              onExit,
              new Promise<number>((resolve) => {
                child.once("message", (u: NodeJS.CpuUsage) => resolve(u.user + u.system));
                child.send("cpu");
              }),
            ]),
    }))
    .catch((error: unknown) => {
      kill();
      throw error;
    })
    .finally(() => clearTimeout(timer));
}
