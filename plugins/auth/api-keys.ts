/**
 * @module API keys as svc stores them: a key is shown to its owner once, and only its SHA-256 hash
 * is kept (`sha256:<hex>`). A presented key is hashed and compared with every stored hash in
 * constant time, so neither a key's content nor how much of it matched leaks through timing.
 */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { bearerToken } from "svc/plugin";

/** What a key may do: run pipelines, deploy and undeploy (admin), read traces and metrics. */
export const KEY_SCOPES = ["run", "admin", "traces"] as const;
export type KeyScope = (typeof KEY_SCOPES)[number];

export interface ApiKey {
  readonly name: string;
  /** `sha256:` and the hex digest of the key. */
  readonly hash: string;
  readonly scopes: readonly KeyScope[];
  /** Pipelines a `run` key may run; every pipeline when absent. */
  readonly pipelines?: readonly string[];
}

const PREFIX = "sha256:";

export function hashKey(key: string): string {
  return PREFIX + createHash("sha256").update(key, "utf8").digest("hex");
}

/** A new key: 32 random bytes, recognisable by its prefix in logs and secret scanners. */
export function newKey(): string {
  return `svc_${randomBytes(32).toString("base64url")}`;
}

/** The key a request presents: `Authorization: Bearer …` (what the OpenAI SDKs send) or `x-api-key`. */
export function presentedKey(req: Pick<IncomingMessage, "headers">): string | undefined {
  const header = req.headers["x-api-key"];
  if (typeof header === "string" && header.trim() !== "") return header.trim();
  return bearerToken(req);
}

/** The stored key matching `presented`, checking every entry so the time does not tell which. */
export function findKey(keys: readonly ApiKey[], presented: string): ApiKey | undefined {
  const digest = Buffer.from(hashKey(presented).slice(PREFIX.length), "hex");
  let found: ApiKey | undefined;
  for (const key of keys) {
    const stored = Buffer.from(key.hash.slice(PREFIX.length), "hex");
    if (stored.length === digest.length && timingSafeEqual(stored, digest) && !found) found = key;
  }
  return found;
}
