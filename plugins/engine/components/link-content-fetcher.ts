/**
 * @module LinkContentFetcher: fetches URLs into ByteStreams (meta `url` and `content_type`) with
 * Haystack's behaviour: browser-like headers, `retry_attempts` retries after the first attempt with
 * exponential back-off, each retry switching to the next user agent, text types decoded and
 * re-encoded as UTF-8, HTML and binary types kept as bytes, and `raise_on_failure`. Like Haystack's
 * httpx client, the component owns a connection pool (an undici Agent) that `warmUp` opens (a run
 * opens it when needed) and `close` releases. Only http(s) URLs are fetched, each attempt has its
 * own time-out, and bodies are capped in size (`max_content_bytes`), because URLs may come from users.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { Agent, fetch } from "undici";
import * as v from "valibot";
import { traceHeaders } from "svc/plugin";
import { Component, output, socket, type ComponentContext } from "../component.js";
import { ByteStream } from "../dataclasses/document.js";
import {
  DEFAULT_USER_AGENT,
  HTTPStatusError,
  REQUEST_HEADERS,
  RequestError,
  TooLargeError,
  backoffSeconds,
  causeOf,
  decodeText,
  handlerFor,
  mapLimited,
  mergeHeaders,
  readCapped,
} from "./link-content-http.js";

export { DEFAULT_USER_AGENT, HTTPStatusError, RequestError } from "./link-content-http.js";

const MAX_PARALLEL = 8;

/**
 * The httpx client options svc honours. Any other key is refused rather than ignored: a proxy,
 * certificate or auth setting that silently did nothing would be worse than an error.
 */
const ClientKwargs = v.strictObject(
  {
    /** Seconds any one wait may take, `null` for none; wins over `timeout`, as in Haystack. */
    timeout: v.optional(v.nullable(v.pipe(v.number(), v.gtValue(0)))),
    follow_redirects: v.optional(v.boolean()),
    /** The client's default headers, below every other header. */
    headers: v.optional(v.record(v.string(), v.string())),
    /** `false` accepts any TLS certificate. */
    verify: v.optional(v.boolean()),
    http2: v.optional(v.boolean()),
  },
  "client_kwargs accepts only timeout, follow_redirects, headers, verify and http2",
);

const Init = v.object({
  raise_on_failure: v.optional(v.boolean(), true),
  user_agents: v.optional(v.nullable(v.array(v.string())), null),
  retry_attempts: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0)), 2),
  /** Seconds any one wait (connecting, the answer, each chunk of the body) may take, as httpx's. */
  timeout: v.optional(v.pipe(v.number(), v.gtValue(0)), 3),
  /** Offer HTTP/2 over TLS (ALPN); plain http stays HTTP/1.1, as with httpx. */
  http2: v.optional(v.boolean(), false),
  client_kwargs: v.optional(v.nullable(ClientKwargs), null),
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

  /** The connection pool; none until `warmUp` or a run, none again after `close`. */
  private agent: Agent | null = null;

  /** Haystack's `user_agents or [DEFAULT_USER_AGENT]`. */
  get userAgents(): string[] {
    return this.initParameters.user_agents?.length ? this.initParameters.user_agents : [DEFAULT_USER_AGENT];
  }

  /** Whether the connection pool is open. */
  get warmedUp(): boolean {
    return this.agent !== null;
  }

  protected inputSpecs() {
    return { urls: socket(v.array(v.string())) };
  }

  protected outputSpecs() {
    return { streams: output(v.array(v.instance(ByteStream))) };
  }

  /** Opens the connection pool; idempotent. */
  warmUp(): void {
    if (this.agent) return;
    const kwargs = this.initParameters.client_kwargs ?? {};
    this.agent = new Agent({
      allowH2: kwargs.http2 ?? this.initParameters.http2,
      connect: { rejectUnauthorized: kwargs.verify ?? true },
    });
  }

  /** Closes the pool's connections; safe without `warmUp`; a later run opens a new pool. */
  async close(): Promise<void> {
    const agent = this.agent;
    this.agent = null;
    await agent?.close();
  }

  async run(inputs: { urls: string[] }, ctx: ComponentContext) {
    const urls = inputs.urls ?? [];
    if (urls.length === 0) return { streams: [] };
    this.warmUp();
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
    const agents = this.userAgents;
    // The first attempt and then `retry_attempts` retries; the user-agent cursor is this URL's own.
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.attempt(url, agents[(attempt - 1) % agents.length]!, signal, trace);
      } catch (error) {
        const retryable = error instanceof HTTPStatusError || error instanceof RequestError;
        if (signal.aborted || !retryable || attempt > this.initParameters.retry_attempts) throw error;
        await sleep(backoffSeconds(attempt) * this.initParameters.retry_backoff_factor * 1000, undefined, { signal });
      }
    }
  }

  private async attempt(url: string, userAgent: string, signal: AbortSignal, trace: Record<string, string> | undefined): Promise<ByteStream> {
    const { request_headers, max_content_bytes: cap } = this.initParameters;
    const kwargs = this.initParameters.client_kwargs ?? {};
    const timeout = kwargs.timeout === undefined ? this.initParameters.timeout : kwargs.timeout;
    // httpx's time-out bounds each wait (connecting, the answer, every chunk), not the whole download.
    const idle = new IdleTimer(timeout);
    const combined = AbortSignal.any([signal, idle.signal]);
    const failure = (error: unknown, what: string) => {
      if (signal.aborted) return signal.reason ?? error;
      return new RequestError(idle.signal.aborted ? `Timed out after ${timeout}s ${what} ${url}` : `${what} ${url} failed: ${causeOf(error)}`);
    };
    const headers = mergeHeaders(kwargs.headers, REQUEST_HEADERS, trace, request_headers ?? undefined, { "User-Agent": userAgent });
    this.warmUp(); // a close() during the run: a new pool
    let response: Awaited<ReturnType<typeof fetch>>;
    try {
      response = await fetch(url, { headers, signal: combined, redirect: kwargs.follow_redirects === false ? "manual" : "follow", dispatcher: this.agent! });
    } catch (error) {
      idle.stop();
      throw failure(error, "fetching");
    }
    if (!response.ok) {
      idle.stop();
      await response.body?.cancel().catch(() => undefined);
      throw new HTTPStatusError(response.status, url, response.statusText, response.headers.get("location"));
    }
    idle.restart();
    const header = response.headers.get("content-type") ?? "";
    // Haystack's meta and mime_type: the media type without parameters, "" when the header is missing.
    const contentType = header.split(";")[0]!;
    let body: Buffer;
    try {
      body = await readCapped(response as never, cap, url, () => idle.restart());
    } catch (error) {
      if (error instanceof TooLargeError) throw error;
      throw failure(error, "reading");
    } finally {
      idle.stop();
    }
    const data = handlerFor(contentType) === "text" ? Buffer.from(decodeText(body, header), "utf8") : body;
    return new ByteStream(data, { content_type: contentType, url }, contentType);
  }
}

/** An abort signal that fires once `seconds` pass without a `restart` (never for `null`). */
class IdleTimer {
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  readonly signal = this.controller.signal;

  constructor(private readonly seconds: number | null) {
    this.restart();
  }

  restart(): void {
    if (this.seconds === null || this.signal.aborted) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.controller.abort(new Error(`timed out after ${this.seconds}s`)), this.seconds * 1000);
  }

  stop(): void {
    clearTimeout(this.timer);
  }
}
