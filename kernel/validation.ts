/**
 * @module Valibot at the edges: parse a value or raise a 400 that names the failing fields.
 */
import * as v from "valibot";
import { HttpError } from "./errors.js";

/** `a.b.0: message; c: message`, naming every failing field. */
export function formatIssues(issues: readonly v.BaseIssue<unknown>[]): string {
  return issues
    .map((issue) => {
      const path = v.getDotPath(issue);
      return path ? `${path}: ${issue.message}` : issue.message;
    })
    .join("; ");
}

/** Parses `value` with `schema`, or throws a 400 whose message starts with `what`. */
export function parseOr400<T>(schema: v.GenericSchema<unknown, T>, value: unknown, what = "Invalid request body"): T {
  const result = v.safeParse(schema, value);
  if (!result.success) throw new HttpError(400, `${what}: ${formatIssues(result.issues)}`);
  return result.output;
}
