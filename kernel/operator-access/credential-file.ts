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
import { constants } from "node:fs";
import { chmod, link, lstat, mkdir, open, readFile, unlink } from "node:fs/promises";
import { homedir } from "node:os";
import { dirname, isAbsolute, join } from "node:path";

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

const currentUid = (): number | undefined => process.getuid?.();

/** Checks that `path` is a `kind` owned by the current user with no group or other permissions. */
async function checkPrivate(path: string, kind: "file" | "directory", mode: number): Promise<void> {
  const stat = await lstat(path);
  if (kind === "file" ? !stat.isFile() : !stat.isDirectory()) {
    throw new InsecureCredentialError(path, `it is not a regular ${kind}${stat.isSymbolicLink() ? " (a symbolic link)" : ""}.`);
  }
  const uid = currentUid();
  if (uid !== undefined && stat.uid !== uid) {
    throw new InsecureCredentialError(path, `it is owned by uid ${stat.uid}, not by the current user (uid ${uid}).`);
  }
  const actual = stat.mode & 0o777;
  if (actual !== mode) {
    throw new InsecureCredentialError(path, `its mode is ${actual.toString(8)}, expected ${mode.toString(8)} (chmod ${mode.toString(8)} ${path}).`);
  }
}

async function readChecked(path: string): Promise<string> {
  await checkPrivate(dirname(path), "directory", 0o700);
  await checkPrivate(path, "file", 0o600);
  const token = (await readFile(path, "utf8")).trim();
  if (!token) throw new InsecureCredentialError(path, "it is empty.");
  return token;
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
  // mkdir's mode applies to every directory it creates; a strict umask could remove bits we need.
  if (await mkdir(dirname(path), { recursive: true, mode: 0o700 })) await chmod(dirname(path), 0o700);
  await checkPrivate(dirname(path), "directory", 0o700);
  const temp = `${path}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
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
