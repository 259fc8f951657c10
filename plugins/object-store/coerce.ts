/**
 * @module Fitting a string argument to the parameter's real type. Models often send `"10"` for
 * a number, `"true"` for a boolean or a JSON text for an object; a string that no reading turns
 * into a valid value is rejected with a message that points at references.
 */
import * as v from "valibot";
import type { ParameterSchema } from "./tool-definition.js";

const TRUE = ["true", "yes", "1"];
const FALSE = ["false", "no", "0"];

/** Readings of a string, in the order they are tried. */
function readings(text: string): unknown[] {
  const out: unknown[] = [];
  try {
    out.push(JSON.parse(text));
  } catch {
    // not JSON
  }
  const word = text.trim().toLowerCase();
  if (TRUE.includes(word)) out.push(true);
  if (FALSE.includes(word)) out.push(false);
  if (word !== "" && !Number.isNaN(Number(word))) out.push(Number(word));
  return out;
}

export type Fitted = { ok: true; value: unknown } | { ok: false };

/** The parsed value when `value`, or one reading of it if it is a string, passes `schema`. */
export function fit(schema: ParameterSchema, value: unknown): Fitted {
  const direct = v.safeParse(schema, value);
  if (direct.success) return { ok: true, value: direct.output };
  if (typeof value !== "string") return { ok: false };
  for (const candidate of readings(value)) {
    const parsed = v.safeParse(schema, candidate);
    if (parsed.success) return { ok: true, value: parsed.output };
  }
  return { ok: false };
}

/** True when the schema takes arbitrary strings (so a string argument is never coerced). */
export function acceptsString(schema: ParameterSchema): boolean {
  return v.safeParse(schema, "\u0000probe").success;
}

/** What a schema expects, in words: `object`, `number`, `one of 'info', 'error'`. */
export function expectedType(schema: ParameterSchema): string {
  const s = schema as { type: string; wrapped?: ParameterSchema; options?: unknown[]; literal?: unknown };
  switch (s.type) {
    case "optional":
    case "nullish":
    case "nullable":
    case "exact_optional":
      return expectedType(s.wrapped!);
    case "picklist":
      return `one of ${(s.options as unknown[]).map((o) => JSON.stringify(o)).join(", ")}`;
    case "literal":
      return JSON.stringify(s.literal);
    case "union":
    case "variant":
      return (s.options as ParameterSchema[]).map(expectedType).join(" or ");
    case "record":
    case "loose_object":
    case "strict_object":
    case "object_with_rest":
      return "object";
    case "tuple":
      return "array";
    default:
      return s.type;
  }
}

/** A value quoted for an error message, cut to 80 characters. */
export function quoteValue(text: string): string {
  return text.length > 80 ? `'${text.slice(0, 80)}…'` : `'${text}'`;
}
