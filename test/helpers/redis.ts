/**
 * @module Test helpers: a real `redis-server` on a free loopback port, in its own temp directory —
 * plain, with a password or an ACL user, over TLS (a certificate from `test-certificate.ts`), or
 * as a cluster node (`redis-cluster.ts`). Tests that need Redis call `redisSkipReason()` and skip
 * with that reason when the binary is missing (CI installs it through `.ci/run`).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { createConnection, createServer, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { connect as tlsConnect } from "node:tls";
import type { TestCertificate } from "./test-certificate.js";

export interface RedisServerOptions {
  /** Sets `requirepass`: clients must authenticate with this password (as `redis://:password@…`). */
  password?: string;
  /** Listen on this port (a restart of a server that was stopped); default: a free one. */
  port?: number;
  /** An ACL user with every permission; the default user is switched off (`redis://user:password@…`). */
  user?: { name: string; password: string };
  /** Serve TLS only (`rediss://…`) with this certificate; clients need not present one. */
  tls?: TestCertificate;
  /** More `redis-server` arguments (`--cluster-enabled yes` …). */
  args?: string[];
}

export interface TestRedis {
  /** Connection URL, with the password when one was set. */
  url: string;
  port: number;
  /** The redis-server process (to pause it with SIGSTOP and resume it with SIGCONT). */
  pid: number;
  /** Kills the server and removes its directory. Safe to call twice. */
  stop(): Promise<void>;
}

const READY_TIMEOUT_MS = 10_000;

/** The redis-server binary: /usr/bin/redis-server, else the first one on PATH; null when none. */
export function redisServerPath(): string | null {
  return binaryPath("redis-server");
}

/** `/usr/bin/<name>`, else the first one on PATH; null when none. */
export function binaryPath(name: string): string | null {
  const candidates = [`/usr/bin/${name}`, ...(process.env.PATH ?? "").split(delimiter).map((dir) => join(dir, name))];
  return candidates.find((path) => path && existsSync(path)) ?? null;
}

/** Why Redis tests cannot run here, or null when they can. */
export function redisSkipReason(): string | null {
  return redisServerPath() ? null : "redis-server is not installed (apt-get install redis-server); Redis tests skipped";
}

/** A port that was free a moment ago (`--port 0` disables TCP in redis-server instead of choosing one). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export async function startRedis(options: RedisServerOptions = {}): Promise<TestRedis> {
  const binary = redisServerPath();
  if (!binary) throw new Error(redisSkipReason() ?? "redis-server missing");
  const dir = await mkdtemp(join(tmpdir(), "svc-redis-"));
  const port = options.port ?? (await freePort());
  const args = ["--bind", "127.0.0.1", "--dir", dir, "--save", "", "--appendonly", "no", "--daemonize", "no"];
  if (options.tls) {
    const { certFile, keyFile } = options.tls;
    args.push("--port", "0", "--tls-port", String(port), "--tls-cert-file", certFile, "--tls-key-file", keyFile, "--tls-ca-cert-file", certFile, "--tls-auth-clients", "no");
  } else {
    args.push("--port", String(port));
  }
  if (options.password !== undefined) args.push("--requirepass", options.password);
  if (options.user) args.push("--user", "default", "off", "--user", options.user.name, "on", `>${options.user.password}`, "~*", "&*", "+@all");
  args.push(...(options.args ?? []));
  const child = spawn(binary, args, { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout?.on("data", (chunk) => (output += chunk));
  child.stderr?.on("data", (chunk) => (output += chunk));
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGCONT"); // a paused server cannot act on SIGTERM
    await killAndWait(child);
    await rm(dir, { recursive: true, force: true });
  };
  try {
    await waitUntilAnswering(port, child, () => output, Boolean(options.tls));
  } catch (error) {
    await stop();
    throw error;
  }
  const credentials = options.user ? `${encodeURIComponent(options.user.name)}:${encodeURIComponent(options.user.password)}` : options.password !== undefined ? `:${encodeURIComponent(options.password)}` : "";
  const scheme = options.tls ? "rediss" : "redis";
  return { url: `${scheme}://${credentials ? `${credentials}@` : ""}127.0.0.1:${port}`, port, pid: child.pid!, stop };
}

/** Polls with a raw PING until the server replies anything (even -NOAUTH means it is up). */
async function waitUntilAnswering(port: number, child: ChildProcess, output: () => string, tls: boolean): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`redis-server exited with ${child.exitCode}: ${output()}`);
    if (await pingOnce(port, tls)) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`redis-server did not answer on port ${port} within ${READY_TIMEOUT_MS} ms: ${output()}`);
}

function pingOnce(port: number, tls: boolean): Promise<boolean> {
  return new Promise((resolve) => {
    // Readiness only: the certificate is checked by the tests themselves.
    const socket: Socket = tls ? tlsConnect({ host: "127.0.0.1", port, rejectUnauthorized: false }) : createConnection({ host: "127.0.0.1", port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once("error", () => done(false));
    socket.once(tls ? "secureConnect" : "connect", () => socket.write("PING\r\n"));
    socket.once("data", () => done(true));
  });
}

function killAndWait(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill("SIGKILL"), 5000);
    child.once("exit", () => {
      clearTimeout(force);
      resolve();
    });
    child.kill("SIGTERM");
  });
}
