/**
 * @module Valibot schemas for setting values. Every value may arrive as a string (environment,
 * `.env`, CLI) or as a typed value (config file); each schema accepts both and says in words what
 * it accepts, for the error that names a bad variable.
 */
import * as v from "valibot";
import { LOG_LEVELS, type LogLevel } from "./logger.js";

export interface FieldSchema<T> {
  readonly schema: v.GenericSchema<unknown, T>;
  /** What the setting accepts, in words: completes "expected …". */
  readonly accepts: string;
}

const integerText = v.pipe(v.string(), v.trim(), v.regex(/^-?\d+$/), v.transform(Number));
const numberText = v.pipe(v.string(), v.trim(), v.regex(/^-?\d+(\.\d+)?$/), v.transform(Number));

export function integer(min: number, max = Number.MAX_SAFE_INTEGER): FieldSchema<number> {
  return {
    schema: v.pipe(v.union([v.number(), integerText]), v.integer(), v.minValue(min), v.maxValue(max)),
    accepts: max === Number.MAX_SAFE_INTEGER ? `an integer of at least ${min}` : `an integer from ${min} to ${max}`,
  };
}

export function decimal(min: number, max: number): FieldSchema<number> {
  return {
    schema: v.pipe(v.union([v.number(), numberText]), v.minValue(min), v.maxValue(max)),
    accepts: `a number from ${min} to ${max}`,
  };
}

const TRUE = ["true", "1", "yes", "on"];
const FALSE = ["false", "0", "no", "off"];

export function boolean(): FieldSchema<boolean> {
  return {
    schema: v.union([
      v.boolean(),
      v.pipe(v.string(), v.trim(), v.toLowerCase(), v.picklist([...TRUE, ...FALSE]), v.transform((s) => TRUE.includes(s))),
    ]),
    accepts: "true or false (also 1/0, yes/no, on/off)",
  };
}

export function text(): FieldSchema<string> {
  return { schema: v.pipe(v.union([v.string(), v.number()]), v.transform(String)), accepts: "a string" };
}

/** An optional string: absent or empty means unset. */
export function optionalText(): FieldSchema<string | undefined> {
  return {
    schema: v.pipe(
      v.union([v.string(), v.number(), v.undefined()]),
      v.transform((s) => (s === undefined || String(s).trim() === "" ? undefined : String(s))),
    ),
    accepts: "a string",
  };
}

/** A list: an array, a JSON array of strings, or comma-separated text. */
export function list(): FieldSchema<string[]> {
  const fromText = v.pipe(
    v.string(),
    v.rawTransform(({ dataset, addIssue, NEVER }) => {
      const raw = dataset.value.trim();
      if (raw === "") return [];
      if (!raw.startsWith("[")) return raw.split(",").map((s) => s.trim()).filter(Boolean);
      try {
        const parsed: unknown = JSON.parse(raw);
        if (Array.isArray(parsed) && parsed.every((x) => typeof x === "string")) return parsed as string[];
      } catch {
        // reported below
      }
      addIssue({ message: "not a JSON array of strings" });
      return NEVER;
    }),
  );
  return {
    schema: v.union([v.array(v.string()), fromText]),
    accepts: 'a JSON array of strings (["a","b"]) or comma-separated text',
  };
}

export function logLevel(): FieldSchema<LogLevel> {
  return {
    schema: v.pipe(
      v.string(),
      v.trim(),
      v.toUpperCase(),
      v.transform((s) => (s === "WARN" ? "WARNING" : s)),
      v.picklist(LOG_LEVELS),
    ),
    accepts: "one of DEBUG, INFO, WARNING, ERROR",
  };
}

/** One of a fixed set of words (case-insensitive). */
export function choice<const T extends string>(values: readonly T[]): FieldSchema<T> {
  return {
    schema: v.pipe(v.string(), v.trim(), v.toLowerCase(), v.picklist(values)) as v.GenericSchema<unknown, T>,
    accepts: `one of ${values.join(", ")}`,
  };
}

/** A URL path prefix: empty or `/`-led without a trailing slash (`/` itself means none). */
export function pathPrefix(): FieldSchema<string> {
  return {
    schema: v.pipe(
      v.string(),
      v.trim(),
      v.transform((s) => s.replace(/\/+$/, "")),
      v.check((s) => s === "" || /^\/[A-Za-z0-9._~\-/]*$/.test(s)),
    ),
    accepts: "a URL path starting with / (or empty)",
  };
}
