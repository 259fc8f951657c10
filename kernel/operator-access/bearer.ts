/**
 * @module Bearer credentials: reading `Authorization: Bearer <token>` and comparing tokens in
 * constant time (both sides are hashed first, so neither their content nor their length leaks).
 */
import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";

/** The token of an `Authorization: Bearer …` header; undefined when there is none. */
export function bearerToken(req: Pick<IncomingMessage, "headers">): string | undefined {
  const header = req.headers?.authorization;
  if (typeof header !== "string") return undefined;
  const match = /^\s*bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

const digest = (value: string): Buffer => createHash("sha256").update(value, "utf8").digest();

/** Whether `presented` equals `expected`, in time independent of where they differ. */
export function tokensEqual(presented: string, expected: string): boolean {
  return timingSafeEqual(digest(presented), digest(expected));
}
