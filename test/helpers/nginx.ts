/**
 * @module Debian's nginx for tests: a configuration taken from the docs, made runnable by an
 * unprivileged process on a free port (pid, logs and temp files in a folder of its own).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { groupGone } from "./cli.js";
import { sleep } from "./http.js";

export const NGINX = "/usr/sbin/nginx";

export const nginxSkipReason = (): string | null => (existsSync(NGINX) ? null : "nginx is not installed (apt-get install nginx)");

/** `config` with its pid, error log and temp paths in `dir`, and no access log. */
export function unprivileged(config: string, dir: string): string {
  const paths = ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"].map((p) => `  ${p}_temp_path ${join(dir, p)};`).join("\n");
  return `pid ${join(dir, "nginx.pid")};\nerror_log ${join(dir, "error.log")};\n${config.replace(/http \{\n/, `http {\n  access_log off;\n${paths}\n`)}`;
}

/** Starts nginx with `config` (already unprivileged); resolves once `ready()` says it answers. */
export async function startNginx(config: string, dir: string, ready: () => Promise<boolean>): Promise<ChildProcess> {
  const file = join(dir, "nginx.conf");
  writeFileSync(file, config);
  // Its own process group, so that stopping it takes its workers too (a SIGKILL to the master alone
  // leaves them running, orphaned).
  const nginx = spawn(NGINX, ["-p", dir, "-e", join(dir, "error.log"), "-c", file, "-g", "daemon off;"], { stdio: "ignore", detached: true });
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    if (nginx.exitCode !== null) {
      await stopNginx(nginx);
      throw new Error(`nginx exited: ${readFileSync(join(dir, "error.log"), "utf8")}`);
    }
    if (await ready().catch(() => false)) return nginx;
    await sleep(100);
  }
  await stopNginx(nginx);
  throw new Error("nginx did not start");
}

/** Stops nginx and its workers: a fast shutdown (SIGTERM to the group), then SIGKILL if it lingers. */
export async function stopNginx(nginx: ChildProcess | undefined): Promise<void> {
  if (!nginx?.pid) return;
  try {
    process.kill(-nginx.pid, "SIGTERM");
  } catch {
    return; // the group is gone already
  }
  await groupGone(nginx.pid, 5_000);
}
