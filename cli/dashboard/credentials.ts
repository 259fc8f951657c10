/**
 * @module Which operator credential the viewer sends (SPEC §5.2). SERVICE_DASHBOARD_TOKEN wins;
 * otherwise the server's private credential file is read, but only when the URL's host is
 * literally `localhost`, `127.0.0.1` or `::1` — a name that merely resolves to this machine gets
 * nothing — and never on Windows, where explicit credentials are required.
 */
import type { CredentialSource } from "./view-state.js";

export const LOOPBACK_LITERALS: readonly string[] = ["localhost", "127.0.0.1", "::1"];

/** True only for the literal loopback hosts (`[::1]` as a URL host is `::1`). */
export function isLiteralLoopback(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname;
  } catch {
    return false;
  }
  if (host.startsWith("[") && host.endsWith("]")) host = host.slice(1, -1);
  return LOOPBACK_LITERALS.includes(host);
}

export interface Credential {
  readonly token?: string;
  readonly source: CredentialSource;
  /** The credential file, when discovery applies to this host (for messages). */
  readonly file?: string;
  /** Why the credential file was not used (not private to this user, say). */
  readonly refused?: string;
}

export interface CredentialOptions {
  /** SERVICE_DASHBOARD_TOKEN (from any settings source). */
  readonly explicit?: string;
  /** Where the server keeps its credential file. */
  readonly credentialFile: () => string;
  /** Reads the credential file: undefined when there is none; throws when it may not be trusted. */
  readonly readCredential: (file: string) => Promise<string | undefined>;
  readonly platform?: NodeJS.Platform;
}

export async function operatorCredential(url: string, options: CredentialOptions): Promise<Credential> {
  const discoverable = isLiteralLoopback(url) && (options.platform ?? process.platform) !== "win32";
  const file = discoverable ? options.credentialFile() : undefined;
  const explicit = options.explicit?.trim();
  if (explicit) return { token: explicit, source: "explicit", file };
  if (!file) return { source: "none" };
  try {
    const token = (await options.readCredential(file))?.trim();
    return token ? { token, source: "credential-file", file } : { source: "none", file };
  } catch (error) {
    return { source: "none", file, refused: (error as Error).message };
  }
}
