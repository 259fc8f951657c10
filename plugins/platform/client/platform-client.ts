/**
 * @module The platform API client: Bearer key, base URL, a time-out per call (searches get a
 * longer one), JSON in and out, typed errors mapped from the status. It speaks plain
 * `node:http(s)` because the component-schema endpoint wants a JSON body on a GET, which
 * `fetch` refuses to send. A client made for a traced call (`span`) sends the W3C `traceparent`
 * (and `tracestate`) of that span with every request.
 */
import { performance } from "node:perf_hooks";
import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import { traceHeaders, type Span } from "svc/plugin";
import { PlatformConnectionError, RequestTimeoutError, apiErrorFor } from "./errors.js";

export const DEFAULT_PLATFORM_API_URL = "https://api.cloud.deepset.ai/api";
export const DEFAULT_TIMEOUT_MS = 30_000;
export const SEARCH_TIMEOUT_MS = 180_000;

export interface PlatformClientOptions {
  apiKey: string;
  /** Default: the platform's public API (`PLATFORM_API_URL` overrides it in the service). */
  baseUrl?: string;
  /** Per-call time-out in milliseconds (default 30 s). */
  timeoutMs?: number;
  userAgent?: string;
  /** The span the client's requests are made under (a tool call's): its trace context is sent. */
  span?: Span;
}

export type Query = Record<string, string | number | boolean | undefined | null>;

export interface RequestOptions {
  method?: string;
  query?: Query;
  /** Sent as JSON (also on a GET). */
  body?: unknown;
  timeoutMs?: number;
  signal?: AbortSignal;
  headers?: Record<string, string>;
}

export interface PlatformResponse {
  status: number;
  text: string;
  /** The parsed body, or `undefined` when it is not JSON. */
  json: unknown;
  ok: boolean;
}

export class PlatformClient {
  readonly baseUrl: string;
  readonly timeoutMs: number;
  private readonly apiKey: string;
  private readonly userAgent: string;
  private readonly traceHeaders: Record<string, string> | undefined;

  constructor(options: PlatformClientOptions) {
    if (!options.apiKey) throw new Error("A platform API key is required.");
    this.apiKey = options.apiKey;
    this.baseUrl = (options.baseUrl || DEFAULT_PLATFORM_API_URL).replace(/\/+$/, "");
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.userAgent = options.userAgent ?? "svc-platform-tools";
    this.traceHeaders = traceHeaders(options.span);
  }

  /** `path` is relative to the base URL (`v1/workspaces/x/pipelines`). Never throws for a status. */
  request(path: string, options: RequestOptions = {}): Promise<PlatformResponse> {
    const method = (options.method ?? "GET").toUpperCase();
    const url = new URL(`${this.baseUrl}/${path.replace(/^\/+/, "")}`);
    for (const [k, v] of Object.entries(options.query ?? {})) if (v !== undefined && v !== null) url.searchParams.set(k, String(v));
    const body = options.body === undefined ? undefined : JSON.stringify(options.body);
    const headers: Record<string, string> = {
      authorization: `Bearer ${this.apiKey}`,
      accept: "application/json,text/plain,*/*",
      "user-agent": this.userAgent,
      ...this.traceHeaders,
      ...(body === undefined ? {} : { "content-type": "application/json", "content-length": String(Buffer.byteLength(body)) }),
      ...options.headers,
    };
    const timeoutMs = options.timeoutMs ?? this.timeoutMs;
    const started = performance.now();
    const send = url.protocol === "https:" ? httpsRequest : httpRequest;
    return new Promise<PlatformResponse>((resolve, reject) => {
      let settled = false;
      const finish = (fn: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        options.signal?.removeEventListener("abort", onAbort);
        fn();
      };
      const req = send(url, { method, headers }, (res: IncomingMessage) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("error", (e) => finish(() => reject(new PlatformConnectionError(`Connection to the platform failed: ${e.message}`))));
        res.on("end", () =>
          finish(() => {
            const text = Buffer.concat(chunks).toString("utf8");
            const status = res.statusCode ?? 0;
            resolve({ status, text, json: parseJson(text), ok: status < 400 });
          }),
        );
      });
      const timer = setTimeout(() => {
        finish(() => reject(new RequestTimeoutError(method, url.toString(), timeoutMs, performance.now() - started)));
        req.destroy();
      }, timeoutMs);
      const onAbort = () => {
        finish(() => reject(options.signal!.reason ?? new Error("The call was cancelled")));
        req.destroy();
      };
      if (options.signal?.aborted) return onAbort();
      options.signal?.addEventListener("abort", onAbort, { once: true });
      req.on("error", (e) => finish(() => reject(new PlatformConnectionError(`Could not reach the platform at ${url.origin}: ${e.message}`))));
      req.end(body);
    });
  }

  /** Like `request`, but a status of 400 or more throws its typed error; returns the JSON body. */
  async requestJson<T = any>(path: string, options: RequestOptions = {}): Promise<T> {
    const res = await this.request(path, options);
    if (!res.ok) throw apiErrorFor(res.status, res.text, res.json);
    return res.json as T;
  }

  get<T = any>(path: string, query?: Query, options: RequestOptions = {}): Promise<T> {
    return this.requestJson<T>(path, { ...options, query });
  }

  post<T = any>(path: string, body?: unknown, options: RequestOptions = {}): Promise<T> {
    return this.requestJson<T>(path, { ...options, method: "POST", body });
  }
}

function parseJson(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A workspace or resource name as one path segment. */
export function seg(name: string): string {
  return encodeURIComponent(name);
}
