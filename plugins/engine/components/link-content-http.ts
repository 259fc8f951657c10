/**
 * @module The HTTP side of LinkContentFetcher: its errors (named and worded as httpx's, which
 * Haystack raises), content-type handlers, header precedence, the capped body read and the
 * back-off between attempts.
 */

/** A non-2xx answer (httpx's `HTTPStatusError`, raised by `raise_for_status`); retried. */
export class HTTPStatusError extends Error {
  override name = "HTTPStatusError";
  constructor(
    readonly status: number,
    readonly url: string,
    statusText: string,
    location: string | null,
  ) {
    // httpx's wording, so that logs read the same as Haystack's.
    const kind = status >= 500 ? "Server error" : status >= 400 ? "Client error" : status >= 300 ? "Redirect response" : "Informational response";
    const redirect = status >= 300 && status < 400 && location !== null ? `\nRedirect location: '${location}'` : "";
    super(`${kind} '${status}${statusText ? ` ${statusText}` : ""}' for url '${url}'${redirect}\nFor more information check: https://developer.mozilla.org/en-US/docs/Web/HTTP/Status/${status}`);
  }
}

/** No answer: a network failure or a time-out (httpx's `RequestError`); retried. */
export class RequestError extends Error {
  override name = "RequestError";
}

/** The body is over `max_content_bytes` (svc's cap; not retried). */
export class TooLargeError extends Error {
  override name = "TooLargeError";
}

export const DEFAULT_USER_AGENT = "svc/LinkContentFetcher";

/** Haystack's REQUEST_HEADERS. */
export const REQUEST_HEADERS: Readonly<Record<string, string>> = {
  accept: "*/*",
  "User-Agent": DEFAULT_USER_AGENT,
  "Accept-Language": "en-US,en;q=0.9,it;q=0.8,es;q=0.7",
  referer: "https://www.google.com/",
};

/**
 * Haystack's `_get_headers` precedence: client headers → REQUEST_HEADERS → `request_headers` → the
 * rotating user agent. Names merge case-insensitively, the last spelling's value winning.
 */
export function mergeHeaders(...layers: (Record<string, string> | undefined)[]): Headers {
  const headers = new Headers();
  for (const layer of layers) for (const [name, value] of Object.entries(layer ?? {})) headers.set(name, value);
  return headers;
}

/** Haystack's handlers, in its order: a direct match first, then the first matching wildcard, else text. */
const HANDLERS: readonly (readonly [string, "text" | "binary"])[] = [
  ["text/*", "text"],
  ["text/html", "binary"],
  ["application/json", "text"],
  ["application/*", "binary"],
  ["image/*", "binary"],
  ["audio/*", "binary"],
  ["video/*", "binary"],
];

export function handlerFor(contentType: string): "text" | "binary" {
  const direct = HANDLERS.find(([pattern]) => pattern === contentType);
  if (direct) return direct[1];
  const wildcard = HANDLERS.find(([pattern]) => pattern.endsWith("/*") && contentType.startsWith(pattern.slice(0, -1)));
  return wildcard ? wildcard[1] : "text";
}

/** httpx's `response.text`: the declared charset, else UTF-8 (an unknown charset falls back to UTF-8). */
export function decodeText(body: Buffer, contentTypeHeader: string): string {
  const charset = /charset=([^;]+)/i.exec(contentTypeHeader)?.[1];
  try {
    return new TextDecoder(charset?.trim().replace(/^["']|["']$/g, "") || "utf-8").decode(body);
  } catch {
    return new TextDecoder("utf-8").decode(body);
  }
}

/**
 * Reads the body, refusing more than `cap` bytes (by Content-Length up front, then while
 * streaming); `onChunk` is told of every chunk (it restarts the idle time-out).
 */
export async function readCapped(response: { headers: { get(name: string): string | null }; body: ReadableStream<Uint8Array> | null }, cap: number, url: string, onChunk: () => void = () => undefined): Promise<Buffer> {
  const tooLarge = () => new TooLargeError(`The response from ${url} is larger than the limit of ${cap} bytes.`);
  if (Number(response.headers.get("content-length") ?? 0) > cap) {
    await response.body?.cancel().catch(() => undefined);
    throw tooLarge();
  }
  if (!response.body) return Buffer.alloc(0);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    onChunk();
    total += value.byteLength;
    if (total > cap) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/** tenacity's wait_exponential(multiplier=1, min=2, max=10) after the given (1-based) failed attempt. */
export function backoffSeconds(attempt: number): number {
  return Math.max(2, Math.min(2 ** (attempt - 1), 10));
}

export function causeOf(error: unknown): string {
  const e = error as { message?: string; cause?: { message?: string; code?: string } };
  return e.cause?.code ?? e.cause?.message ?? e.message ?? String(error);
}

/** Maps with at most `limit` calls in flight, keeping the input order. */
export async function mapLimited<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
