/**
 * @module One poll: `GET /traces?limit=N` with the operator credential as a bearer token, turned
 * into a snapshot or a Problem. Plain `node:http` without keep-alive, so quitting leaves nothing
 * open; no redirect is ever followed, so the credential goes only to the URL it was chosen for.
 */
import { request } from "node:http";
import { errorDetail } from "../client.js";
import type { Credential } from "./credentials.js";
import { parseSnapshot, type Snapshot } from "./snapshot.js";
import type { Problem } from "./view-state.js";

export type PollResult = { readonly snapshot: Snapshot } | { readonly problem: Problem };

export interface PollOptions {
  readonly url: string;
  /** `limit` query parameter; undefined leaves the server's default. */
  readonly limit?: number;
  readonly credential: Credential;
  readonly timeoutMs: number;
  /** Aborts the request (quitting mid-poll). */
  readonly signal?: AbortSignal;
}

export function tracesUrl(base: string, limit: number | undefined): URL {
  const url = new URL("traces", base.endsWith("/") ? base : `${base}/`);
  if (limit !== undefined) url.searchParams.set("limit", String(limit));
  return url;
}

export function pollTraces(options: PollOptions): Promise<PollResult> {
  const target = tracesUrl(options.url, options.limit);
  const headers: Record<string, string> = { accept: "application/json" };
  if (options.credential.token) headers.authorization = `Bearer ${options.credential.token}`;
  return new Promise((resolve) => {
    const req = request(target, { method: "GET", headers, agent: false, timeout: options.timeoutMs, signal: options.signal }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("error", (error) => resolve({ problem: { kind: "unreachable", detail: `The answer broke off: ${error.message}` } }));
      res.on("end", () => resolve(classify(res.statusCode ?? 0, Buffer.concat(chunks).toString("utf8"), options.credential)));
    });
    req.on("timeout", () => req.destroy(new Error(`no answer within ${Math.round(options.timeoutMs / 1000)}s`)));
    req.on("error", (error) => resolve({ problem: { kind: "unreachable", detail: describe(error) } }));
    req.end();
  });
}

function classify(status: number, text: string, credential: Credential): PollResult {
  const detail = status >= 400 ? errorDetail(text) : "";
  if (status === 401) return { problem: { kind: "unauthorized", detail, credential: credential.source } };
  if (status === 403) return { problem: { kind: "forbidden", detail, credential: credential.source } };
  if (status === 404) return { problem: { kind: "not-mounted", detail } };
  if (status < 200 || status >= 300) return { problem: { kind: "failed", detail: `HTTP ${status}: ${detail || "no detail"}` } };
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { problem: { kind: "failed", detail: `The answer is not JSON: ${text.slice(0, 120)}` } };
  }
  const parsed = parseSnapshot(body);
  return "snapshot" in parsed ? parsed : { problem: { kind: "failed", detail: `The answer is not a trace snapshot (${parsed.error}).` } };
}

function describe(error: unknown): string {
  const e = error as { code?: string; message?: string; errors?: { code?: string }[] };
  const code = e?.code ?? e?.errors?.find((x) => x?.code)?.code;
  if (code === "ECONNREFUSED") return "Connection refused: nothing listens there.";
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") return "The host name does not resolve.";
  if (code === "ECONNRESET") return "The connection was reset.";
  return e?.message || String(error);
}
