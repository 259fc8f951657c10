/**
 * @module Test helpers: Debian's PostgreSQL (no pgvector) in a temp directory on a free loopback
 * port, for what a real server adds over PGlite: password authentication, connection limits, a
 * missing `vector` extension, a restart. Postgres refuses to run as root (CI runs as root), so
 * initdb and the server run as the `postgres` user (or `nobody`) with a directory it owns.
 * Tests call `postgresSkipReason()` and skip when the binaries are missing.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { chownSync, existsSync, readdirSync, writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { freePort } from "./redis.js";

export interface TestPostgres {
  /** `postgresql://postgres:<password>@127.0.0.1:<port>/postgres` */
  url: string;
  port: number;
  password: string;
  /** Stops the server; the data directory stays until `remove()`. */
  stop(): Promise<void>;
  /** Starts the stopped server again on the same port with the same data. */
  start(): Promise<void>;
  /** Stops the server and removes its directory. Safe to call twice. */
  remove(): Promise<void>;
}

const READY_TIMEOUT_MS = 30_000;

/** The directory of `initdb` and `postgres`: Debian's newest /usr/lib/postgresql/<v>/bin, else PATH. */
export function postgresBinDir(): string | null {
  const root = "/usr/lib/postgresql";
  if (existsSync(root)) {
    const versions = readdirSync(root).filter((v) => existsSync(join(root, v, "bin", "initdb"))).sort((a, b) => Number(b) - Number(a));
    if (versions[0]) return join(root, versions[0], "bin");
  }
  for (const dir of (process.env.PATH ?? "").split(":")) if (dir && existsSync(join(dir, "initdb")) && existsSync(join(dir, "postgres"))) return dir;
  return null;
}

export function postgresSkipReason(): string | null {
  return postgresBinDir() ? null : "PostgreSQL is not installed (apt-get install postgresql); its tests skipped";
}

/** Root cannot run postgres: the `postgres` user when there is one, else `nobody`. */
function runAs(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  for (const name of ["postgres", "nobody"]) {
    try {
      const uid = Number(execFileSync("id", ["-u", name], { stdio: "pipe" }).toString().trim());
      const gid = Number(execFileSync("id", ["-g", name], { stdio: "pipe" }).toString().trim());
      return { uid, gid };
    } catch {
      continue; // no such user
    }
  }
  throw new Error("Running as root and neither the postgres nor the nobody user exists.");
}

export async function startPostgres(options: { password?: string; maxConnections?: number } = {}): Promise<TestPostgres> {
  const bin = postgresBinDir();
  if (!bin) throw new Error(postgresSkipReason()!);
  const user = runAs();
  const dir = await mkdtemp(join(tmpdir(), "svc-postgres-"));
  const data = join(dir, "data");
  const password = options.password ?? "svc-test-password";
  writeFileSync(join(dir, "pw"), password);
  if (user) chownSync(dir, user.uid, user.gid);
  if (user) chownSync(join(dir, "pw"), user.uid, user.gid);
  execFileSync(join(bin, "initdb"), ["-D", data, "-U", "postgres", "--auth=scram-sha-256", `--pwfile=${join(dir, "pw")}`, "--no-sync", "-E", "UTF8", "--locale=C"], { uid: user?.uid, gid: user?.gid, stdio: "pipe" });
  const port = await freePort();
  let child: ChildProcess | undefined;
  let output = "";
  const start = async () => {
    output = "";
    const args = ["-D", data, "-p", String(port), "-h", "127.0.0.1", "-k", dir, "-c", "fsync=off", "-c", `max_connections=${options.maxConnections ?? 20}`];
    child = spawn(join(bin, "postgres"), args, { uid: user?.uid, gid: user?.gid, stdio: ["ignore", "pipe", "pipe"] });
    child.stdout!.on("data", (c) => (output += c));
    child.stderr!.on("data", (c) => (output += c));
    await waitUntilReady(`postgresql://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`, child, () => output);
  };
  const stop = async () => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      const force = setTimeout(() => running.kill("SIGKILL"), 10_000);
      running.once("exit", () => {
        clearTimeout(force);
        resolve();
      });
      running.kill("SIGINT"); // fast shutdown: disconnects clients at once
    });
  };
  let removed = false;
  const remove = async () => {
    if (removed) return;
    removed = true;
    await stop();
    await rm(dir, { recursive: true, force: true });
  };
  try {
    await start();
  } catch (error) {
    await remove();
    throw error;
  }
  return { url: `postgresql://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`, port, password, stop, start, remove };
}

async function waitUntilReady(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`postgres exited with ${child.exitCode}: ${output()}`);
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1000 });
    try {
      await client.connect();
      await client.query("SELECT 1");
      await client.end();
      return;
    } catch {
      await client.end().catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  throw new Error(`postgres did not accept connections within ${READY_TIMEOUT_MS} ms: ${output()}`);
}
