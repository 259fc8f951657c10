/**
 * @module A raw HTTP client for what fetch cannot do: a foreign Host header, a body sent slowly,
 * a client that goes away mid-response.
 */
import { request, type IncomingHttpHeaders, type ClientRequest } from "node:http";

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

export function rawRequest(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: options.method ?? "GET", headers: options.headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString() }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(options.body);
  });
}

/** Starts a request and hands back the ClientRequest, to abort it or read the response slowly. */
export function openRequest(url: string, options: { method?: string; headers?: Record<string, string> } = {}): ClientRequest {
  return request(url, { method: options.method ?? "GET", headers: options.headers, agent: false });
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `check` until it returns true or `ms` pass. */
export async function until(check: () => boolean, ms = 5000, what = "condition"): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

/** Reads until `ok` holds for the value read or `ms` pass; returns the last value read (the caller asserts on it). */
export async function untilValue<T>(read: () => Promise<T>, ok: (value: T) => boolean, ms = 15_000): Promise<T> {
  const deadline = Date.now() + ms;
  let value = await read();
  while (!ok(value) && Date.now() < deadline) {
    await sleep(50);
    value = await read();
  }
  return value;
}
