/**
 * @module Errors of the platform client. API errors carry the status and read
 * `<message> (Status Code: <status>)`; a time-out names the call and the limit.
 */

export class PlatformApiError extends Error {
  override name = "PlatformApiError";
  constructor(
    readonly statusCode: number,
    readonly apiMessage: string,
    readonly detail?: unknown,
  ) {
    super(`${apiMessage} (Status Code: ${statusCode})`);
  }
}

/** 400. */
export class BadRequestError extends PlatformApiError {
  override name = "BadRequestError";
}

/** 404. */
export class ResourceNotFoundError extends PlatformApiError {
  override name = "ResourceNotFoundError";
}

/** Any other status of 400 or more (401, 403, 409, 5xx …). */
export class UnexpectedApiError extends PlatformApiError {
  override name = "UnexpectedApiError";
}

export class RequestTimeoutError extends Error {
  override name = "RequestTimeoutError";
  constructor(
    readonly method: string,
    readonly url: string,
    readonly timeoutMs: number,
    readonly durationMs: number,
  ) {
    const search = /search/.test(url)
      ? " Search operations can take longer with large document collections or complex pipelines."
      : "";
    super(`Request timed out after ${(durationMs / 1000).toFixed(2)}s (limit: ${timeoutMs / 1000}s): ${method} ${url}.${search}`);
  }
}

/** The platform could not be reached at all (refused, DNS, TLS). */
export class PlatformConnectionError extends Error {
  override name = "PlatformConnectionError";
}

/** Maps a failed response to its typed error; the message comes from the body's `message`, else its text. */
export function apiErrorFor(status: number, text: string, json: unknown): PlatformApiError {
  let message: string | undefined;
  let detail: unknown;
  if (json && typeof json === "object" && !Array.isArray(json)) {
    const body = json as Record<string, unknown>;
    const m = body.message ?? (body.error as { message?: unknown } | undefined)?.message;
    message = typeof m === "string" ? m : undefined;
    detail = body.details ?? body.detail;
  }
  message ??= text.trim() || undefined;
  if (status === 400) return new BadRequestError(status, message ?? "Bad request", detail);
  if (status === 404) return new ResourceNotFoundError(status, message ?? "Resource not found", detail);
  return new UnexpectedApiError(status, message ?? "Unexpected API error", detail);
}
