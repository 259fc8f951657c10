/**
 * @module Which URLs may receive webhooks: the operator lists them in `SERVICE_WEBHOOK_ALLOWED_URLS`
 * (origins or URL prefixes). Nothing listed means no webhooks at all: a caller-chosen URL is a
 * request svc makes from inside the network (SSRF), so every receiver must be named. Shared with
 * other plugins that call back (A2A push notifications) through `svc/runs`.
 */
import { HttpError } from "svc/plugin";

const MAX_URL_LENGTH = 2048;

interface Entry {
  readonly origin: string;
  /** `/` (the whole origin), a prefix ending in `/`, or an exact path (which also covers `<path>/…`). */
  readonly path: string;
}

export class WebhookAllowList {
  private readonly entries: readonly Entry[];

  /** Throws naming the bad entry (a setting error at boot) when one is not an http(s) URL. */
  constructor(allowed: readonly string[], private readonly setting = "SERVICE_WEBHOOK_ALLOWED_URLS") {
    this.entries = allowed.map((raw) => {
      const url = URL.canParse(raw) ? new URL(raw) : undefined;
      if (!url || (url.protocol !== "http:" && url.protocol !== "https:") || url.username || url.password || url.search || url.hash) {
        throw new Error(`${setting}: '${raw}' is not an http(s) origin or URL prefix (no credentials, query or fragment)`);
      }
      return { origin: url.origin, path: url.pathname };
    });
  }

  /** True when at least one receiver is listed (else every webhook URL is refused). */
  get enabled(): boolean {
    return this.entries.length > 0;
  }

  /** Why `url` may not receive webhooks, or undefined when it may. */
  refusal(url: string): string | undefined {
    if (!this.enabled) return `webhooks are disabled on this server (${this.setting} is empty)`;
    if (url.length > MAX_URL_LENGTH) return `the URL is longer than ${MAX_URL_LENGTH} characters`;
    const parsed = URL.canParse(url) ? new URL(url) : undefined;
    if (!parsed || (parsed.protocol !== "http:" && parsed.protocol !== "https:")) return "not an absolute http(s) URL";
    if (parsed.username || parsed.password) return "the URL must not carry credentials";
    const allowed = this.entries.some((entry) => parsed.origin === entry.origin && pathMatches(parsed.pathname, entry.path));
    return allowed ? undefined : `the URL is not in ${this.setting}`;
  }

  /** The URL when allowed; otherwise a 400 naming the field and the reason. */
  check(url: unknown, field = "webhook_url"): string {
    if (typeof url !== "string") throw new HttpError(400, `Invalid request body: ${field}: expected a URL string`);
    const refusal = this.refusal(url);
    if (refusal) throw new HttpError(400, `Invalid request body: ${field}: ${refusal}`);
    return url;
  }
}

function pathMatches(path: string, prefix: string): boolean {
  if (prefix.endsWith("/")) return path.startsWith(prefix);
  return path === prefix || path.startsWith(`${prefix}/`);
}
