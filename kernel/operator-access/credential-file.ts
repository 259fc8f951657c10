/**
 * @module The local operator credential: `<cache dir>/svc/dashboard-token`, where the cache dir is
 * `$XDG_CACHE_HOME` when set (absolute) and `~/.cache` otherwise. The directory is 0700 and the
 * file 0600, both owned by the current user; anything else is refused rather than trusted. The
 * file is created atomically (written under a temporary name, then hard-linked into place, which
 * fails when it exists), so concurrent workers end up sharing the one token that won.
 *
 * The server writes it for loopback binds; the terminal viewer reads it for loopback hosts only.
 */
import { randomBytes } from "node:crypto";
import { constants, type Stats } from "node:fs";
import { link, lstat, open, unlink } from "node:fs/promises";
import { homedir } from "node:os";
import { dirname, isAbsolute, join } from "node:path";
import { ensurePrivateDirSync, privacyProblem } from "../private-dir.js";
import { randomHex } from "../ids.js";

/** The directory name under the cache dir. */
export const SERVICE_DIR_NAME = "svc";
export const DASHBOARD_TOKEN_FILE = "dashboard-token";

/** Raised when the credential file or its directory is not private to the current user. */
export class InsecureCredentialError extends Error {
  constructor(
    readonly path: string,
    reason: string,
  ) {
    super(`Refusing the operator credential ${path}: ${reason}`);
    this.name = "InsecureCredentialError";
  }
}

/** The cache directory: `$XDG_CACHE_HOME` when it is set to an absolute path, else `~/.cache`. */
export function cacheDir(env: NodeJS.ProcessEnv = process.env): string {
  const xdg = env.XDG_CACHE_HOME;
  return xdg && isAbsolute(xdg) ? xdg : join(homedir(), ".cache");
}

/** Where the operator credential lives: `<cache dir>/svc/dashboard-token`. */
export function dashboardTokenPath(env: NodeJS.ProcessEnv = process.env): string {
  return join(cacheDir(env), SERVICE_DIR_NAME, DASHBOARD_TOKEN_FILE);
}

/** Checks that a stat describes a `kind` owned by the current user with exactly `mode`. */
function checkPrivate(path: string, stat: Stats, kind: "file" | "directory", mode: number): void {
  const problem = privacyProblem(path, stat, kind, mode);
  if (problem) throw new InsecureCredentialError(path, problem);
}

const checkDirectory = async (dir: string) => checkPrivate(dir, await lstat(dir), "directory", 0o700);

async function readChecked(path: string): Promise<string> {
  await checkDirectory(dirname(path));
  // O_NOFOLLOW, and the checks run on the opened file: it cannot be swapped after the check.
  let handle;
  try {
    handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ELOOP") throw new InsecureCredentialError(path, "it is not a regular file (a symbolic link).");
    throw error;
  }
  try {
    checkPrivate(path, await handle.stat(), "file", 0o600);
    const token = (await handle.readFile("utf8")).trim();
    if (!token) throw new InsecureCredentialError(path, "it is empty.");
    return token;
  } finally {
    await handle.close();
  }
}

/**
 * Reads the credential, checking the directory and file are private; undefined when there is no
 * file. Throws `InsecureCredentialError` for a file or directory that is not private.
 */
export async function readDashboardToken(path: string = dashboardTokenPath()): Promise<string | undefined> {
  try {
    return await readChecked(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

/**
 * Returns the credential, creating it when there is none. Safe to call from several processes at
 * once: exactly one file wins and every caller returns its token.
 */
export async function ensureDashboardToken(path: string = dashboardTokenPath()): Promise<string> {
  const existing = await readDashboardToken(path);
  if (existing) return existing;
  const problem = ensurePrivateDirSync(dirname(path));
  if (problem) throw new InsecureCredentialError(dirname(path), problem);
  const temp = `${path}.${process.pid}.${randomHex(6)}.tmp`;
  const handle = await open(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600);
  try {
    await handle.chmod(0o600);
    await handle.writeFile(`${randomBytes(32).toString("base64url")}\n`);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    // A hard link never replaces an existing file: the first process to link wins.
    await link(temp, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  } finally {
    await unlink(temp).catch(() => undefined);
  }
  return readChecked(path);
}
