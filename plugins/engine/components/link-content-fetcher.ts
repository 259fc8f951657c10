/**
 * @module LinkContentFetcher: fetches URLs into ByteStreams (meta `url` and `content_type`) with
 * Haystack's behaviour: browser-like headers, retries with exponential back-off that rotate the
 * user agent, text types decoded and re-encoded as UTF-8, HTML and binary types kept as bytes, and
 * `raise_on_failure`. Only http(s) URLs are fetched, each attempt has its own time-out, and bodies
 * are capped in size (`max_content_bytes`), because URLs may come from users.
 */
import { setTimeout as sleep } from "node:timers/promises";
import * as v from "valibot";
import { traceHeaders } from "svc/plugin";
import { Component, output, socket, type ComponentContext } from "../component.js";
import { ByteStream } from "../dataclasses/document.js";

export const DEFAULT_USER_AGENT = "svc/LinkContentFetcher";
const REQUEST_HEADERS: Record<string, string> = {
  accept: "*/*",
  "User-Agent": DEFAULT_USER_AGENT,
  "Accept-Language": "en-US,en;q=0.9,it;q=0.8,es;q=0.7",
  referer: "https://www.google.com/",
};
/** Haystack's handlers, in its order: a direct match first, then the first matching wildcard, else text. */
const HANDLERS: [string, "text" | "binary"][] = [
  ["text/*", "text"],
  ["text/html", "binary"],
  ["application/json", "text"],
  ["application/*", "binary"],
  ["image/*", "binary"],
  ["audio/*", "binary"],
  ["video/*", "binary"],
];
const MAX_PARALLEL = 8;

/** A failure worth another attempt: network errors, time-outs and HTTP error statuses. */
class RetryableError extends Error {}

const Init = v.object({
  raise_on_failure: v.optional(v.boolean(), true),
  user_agents: v.optional(v.nullable(v.array(v.string())), null),
  retry_attempts: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0)), 2),
  timeout: v.optional(v.pipe(v.number(), v.gtValue(0)), 3),
  /** Accepted for Haystack YAML; Node's fetch picks the protocol and has no client options. */
  http2: v.optional(v.boolean(), false),
  client_kwargs: v.optional(v.nullable(v.record(v.string(), v.any())), null),
  request_headers: v.optional(v.nullable(v.record(v.string(), v.string())), null),
  /** svc: the largest body accepted, in bytes (10 MiB). */
  max_content_bytes: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1)), 10 * 1024 * 1024),
  /** svc: scales Haystack's back-off between attempts (2 s, 2 s, 4 s, … at most 10 s). */
  retry_backoff_factor: v.optional(v.pipe(v.number(), v.minValue(0)), 1),
});

export class LinkContentFetcher extends Component<v.InferOutput<typeof Init>> {
  static override readonly type = "haystack.components.fetchers.link_content.LinkContentFetcher";
  static override readonly aliases = ["LinkContentFetcher"];
  static override readonly initSchema = Init;

  protected inputSpecs() {
    return { urls: socket(v.array(v.string())) };
  }

  protected outputSpecs() {
    return { streams: output(v.array(v.instance(ByteStream))) };
  }

  async run(inputs: { urls: string[] }, ctx: ComponentContext) {
    const urls = inputs.urls ?? [];
    const raise = this.initParameters.raise_on_failure;
    // One URL: a failure raises, or yields an empty stream. Several: a failure is skipped when raising is on.
    const trace = traceHeaders(ctx.span);
    const results = await mapLimited(urls, MAX_PARALLEL, async (url) => {
      try {
        return await this.fetchOne(url, ctx.signal, trace);
      } catch (error) {
        if (ctx.signal.aborted) throw ctx.signal.reason ?? error;
        if (raise && urls.length === 1) throw error;
        if (raise) {
          ctx.log?.warn(`Error fetching ${url}: ${(error as Error).message}`);
          return null;
        }
        ctx.log?.debug(`Couldn't retrieve content from ${url} because ${(error as Error).message}`);
        return new ByteStream(Buffer.alloc(0), { content_type: "text/html", url }, "text/html");
      }
    });
    return { streams: results.filter((s): s is ByteStream => s !== null) };
  }

  /** `trace`: the W3C trace context headers of the component's span, when traced. */
  private async fetchOne(url: string, signal: AbortSignal, trace: Record<string, string> | undefined): Promise<ByteStream> {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new Error(`Invalid URL '${url}'`);
    }
    if (parsed.protocol !== "http:" && parsed.protocol !== "https:") throw new Error(`Unsupported URL scheme '${parsed.protocol.slice(0, -1)}' in '${url}': only http and https are fetched.`);
    const agents = this.initParameters.user_agents?.length ? this.initParameters.user_agents : [DEFAULT_USER_AGENT];
    const attempts = Math.max(1, this.initParameters.retry_attempts);
    for (let attempt = 1; ; attempt++) {
      try {
        // Each failed attempt switches to the next user agent.
        return await this.attempt(url, agents[(attempt - 1) % agents.length]!, signal, trace);
      } catch (error) {
        if (signal.aborted || !(error instanceof RetryableError) || attempt >= attempts) throw error;
        await sleep(backoffSeconds(attempt) * this.initParameters.retry_backoff_factor * 1000, undefined, { signal });
      }
    }
  }

  private async attempt(url: string, userAgent: string, signal: AbortSignal, trace: Record<string, string> | undefined): Promise<ByteStream> {
    const { timeout, request_headers, max_content_bytes: cap } = this.initParameters;
    const timer = AbortSignal.timeout(timeout * 1000);
    const combined = AbortSignal.any([signal, timer]);
    const failure = (error: unknown, what: string) => {
      if (signal.aborted) return signal.reason ?? error;
      return new RetryableError(timer.aborted ? `Timed out after ${timeout}s ${what} ${url}` : `${what} ${url} failed: ${causeOf(error)}`);
    };
    const headers = new Headers(REQUEST_HEADERS);
    for (const name in trace) headers.set(name, trace[name]!);
    for (const [name, value] of Object.entries(request_headers ?? {})) headers.set(name, value);
    headers.set("User-Agent", userAgent);
    let response: Response;
    try {
      response = await fetch(url, { headers, signal: combined, redirect: "follow" });
    } catch (error) {
      throw failure(error, "fetching");
    }
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      throw new RetryableError(`HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ""} for ${url}`);
    }
    const header = response.headers.get("content-type") ?? "";
    const contentType = header.split(";")[0]!;
    let body: Buffer;
    try {
      body = await readCapped(response, cap, url);
    } catch (error) {
      if (error instanceof TooLargeError) throw error;
      throw failure(error, "reading");
    }
    const data = handlerFor(contentType) === "text" ? Buffer.from(decodeText(body, /charset=([^;]+)/i.exec(header)?.[1]), "utf8") : body;
    return new ByteStream(data, { content_type: contentType, url }, contentType || null);
  }
}

class TooLargeError extends Error {}

/** Reads the body, refusing more than `cap` bytes (by Content-Length up front, then while streaming). */
async function readCapped(response: Response, cap: number, url: string): Promise<Buffer> {
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
    total += value.byteLength;
    if (total > cap) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/** tenacity's wait_exponential(multiplier=1, min=2, max=10) after the given attempt. */
function backoffSeconds(attempt: number): number {
  return Math.max(2, Math.min(2 ** (attempt - 1), 10));
}

function handlerFor(contentType: string): "text" | "binary" {
  const direct = HANDLERS.find(([pattern]) => pattern === contentType);
  if (direct) return direct[1];
  const wildcard = HANDLERS.find(([pattern]) => pattern.endsWith("/*") && contentType.startsWith(pattern.slice(0, -1)));
  return wildcard ? wildcard[1] : "text";
}

function decodeText(body: Buffer, charset: string | undefined): string {
  try {
    return new TextDecoder(charset?.trim().replace(/^["']|["']$/g, "") || "utf-8").decode(body);
  } catch {
    return new TextDecoder("utf-8").decode(body);
  }
}

function causeOf(error: unknown): string {
  const e = error as { message?: string; cause?: { message?: string; code?: string } };
  return e.cause?.code ?? e.cause?.message ?? e.message ?? String(error);
}

/** Maps with at most `limit` calls in flight, keeping the input order. */
async function mapLimited<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
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
