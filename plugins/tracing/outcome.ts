/**
 * @module The outcome tags every span gets when it ends: `svc.success`, and for a failure the
 * error's type and message, the HTTP status of an HTTP error (every HTTP error is a failure, 4xx
 * included), and the stack only when SERVICE_SHOW_TRACEBACKS is on.
 */
import { HttpError, messageOf, type Tags } from "svc/plugin";

const SUCCESS: Tags = Object.freeze({ "svc.success": true }) as Tags;

function errorType(error: unknown): string {
  if (error instanceof Error) return error.constructor?.name && error.constructor.name !== "Error" ? error.constructor.name : error.name;
  return error === null ? "null" : typeof error;
}

function statusOf(error: unknown): number | undefined {
  if (error instanceof HttpError) return error.status;
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === "number" && Number.isInteger(status) && status >= 400 && status < 600 ? status : undefined;
}

export function outcomeTags(error: unknown, showTracebacks: boolean): Tags {
  if (error === undefined) return SUCCESS;
  const tags: Tags = {
    "svc.success": false,
    "svc.error.type": errorType(error),
    "svc.error.message": messageOf(error),
  };
  const status = statusOf(error);
  if (status !== undefined) tags["svc.http.status_code"] = status;
  if (showTracebacks && error instanceof Error && error.stack) tags["svc.error.stack"] = error.stack;
  return tags;
}
