/**
 * @module Test helpers: a real Postgres with pgvector for tests — PGlite served over the wire
 * protocol (`pglite-server.ts`) in its own process on a free loopback port. The product connects
 * to it with `pg` exactly as to a production server. Several connections at once work (PGlite runs
 * one statement at a time; an open transaction holds the others until it ends).
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

export interface TestPglite {
  /** `postgresql://postgres:postgres@127.0.0.1:<port>/postgres` */
  url: string;
  port: number;
  /** Stops the server (its data is gone unless it has a data directory). Safe to call twice. */
  stop(): Promise<void>;
}

const READY_TIMEOUT_MS = 60_000;
const serverScript = fileURLToPath(new URL("./pglite-server.js", import.meta.url));

/** `dataDir` keeps the database on disk: a server started again on it (and on the same port) is a restart. */
export async function startPglite(options: { port?: number; maxConnections?: number; dataDir?: string } = {}): Promise<TestPglite> {
  const args = [serverScript, String(options.port ?? 0), String(options.maxConnections ?? 100), options.dataDir ?? ""];
  const child = spawn(process.execPath, args, { stdio: ["pipe", "pipe", "pipe"] });
  let output = "";
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`PGlite did not start within ${READY_TIMEOUT_MS} ms: ${output}`)), READY_TIMEOUT_MS);
    child.stdout!.on("data", (chunk) => {
      output += chunk;
      const match = /listening (\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    });
    child.stderr!.on("data", (chunk) => (output += chunk));
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`PGlite exited with ${code}: ${output}`));
    });
  });
  let stopped = false;
  const stop = async () => {
    if (stopped || child.exitCode !== null) return;
    stopped = true;
    await new Promise<void>((resolve) => {
      const force = setTimeout(() => child.kill("SIGKILL"), 5000);
      child.once("exit", () => {
        clearTimeout(force);
        resolve();
      });
      child.kill("SIGTERM");
    });
  };
  return { url: `postgresql://postgres:postgres@127.0.0.1:${port}/postgres`, port, stop };
}
