/**
 * @module Optional peer dependencies of the engine (the Anthropic SDK, PDF parsing, local embedding
 * models): large, rarely used, so the published package does not install them. They are imported
 * on first use; a missing one is an error that names the package to install, with the version
 * range svc declares for it, not a module-resolution stack.
 */
import { packageInfo } from "svc/plugin";

/** `pkg@<range>` as svc's package.json declares the peer, or `pkg` when it does not. */
export function installSpec(pkg: string): string {
  const range = packageInfo().peerDependencies[pkg];
  return range ? `${pkg}@${/[\s<>|]/.test(range) ? `"${range}"` : range}` : pkg;
}

/** Imports `pkg`, or throws "`who` needs the optional package `pkg` … npm install `pkg`". */
export async function importOptional<T>(pkg: string, who: string): Promise<T> {
  try {
    return (await import(pkg)) as T;
  } catch (error) {
    const { code, message } = error as { code?: string; message?: string };
    // Only the package itself missing; a broken install of it keeps its own error.
    if (code === "ERR_MODULE_NOT_FOUND" && message?.includes(`'${pkg}'`)) {
      throw new Error(`${who} needs the optional package ${pkg}, which is not installed: npm install ${installSpec(pkg)} (next to svc, or globally with it)`, { cause: error });
    }
    throw error;
  }
}
