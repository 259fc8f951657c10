/**
 * @module Files and folders only the current user may touch: the operator credential and the
 * compiled-wrapper cache live in such places. A path that is not private (another owner, a wider
 * mode, a symbolic link) is refused rather than trusted, since whoever can write there can put
 * code or credentials into the service.
 */
import type { Stats } from "node:fs";
import { chmodSync, lstatSync, mkdirSync } from "node:fs";

const currentUid = (): number | undefined => process.getuid?.();

/** Why `stat` does not describe a private `kind` with exactly `mode`; undefined when it does. */
export function privacyProblem(path: string, stat: Stats, kind: "file" | "directory", mode: number): string | undefined {
  if (kind === "file" ? !stat.isFile() : !stat.isDirectory()) {
    return `it is not a regular ${kind}${stat.isSymbolicLink() ? " (a symbolic link)" : ""}.`;
  }
  const uid = currentUid();
  if (uid !== undefined && stat.uid !== uid) return `it is owned by uid ${stat.uid}, not by the current user (uid ${uid}).`;
  const actual = stat.mode & 0o777;
  if (actual !== mode) return `its mode is ${actual.toString(8)}, expected ${mode.toString(8)} (chmod ${mode.toString(8)} ${path}).`;
  return undefined;
}

/**
 * Creates `dir` (mode 0700) when missing and checks that it is private; returns why it is not,
 * or undefined when it is ready to use.
 */
export function ensurePrivateDirSync(dir: string): string | undefined {
  try {
    // mkdir's mode applies to every directory it creates; a strict umask could remove bits we need.
    if (mkdirSync(dir, { recursive: true, mode: 0o700 })) chmodSync(dir, 0o700);
    return privacyProblem(dir, lstatSync(dir), "directory", 0o700);
  } catch (error) {
    return (error as Error).message;
  }
}
