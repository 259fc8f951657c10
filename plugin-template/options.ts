/**
 * @module The template's options: a valibot schema, so bad options stop startup with the field named.
 */
import * as v from "valibot";

export const TemplateOptionsSchema = v.strictObject({
  /** Greeting used by `GET <prefix>/hello`. */
  greeting: v.optional(v.pipe(v.string(), v.minLength(1)), "Hello"),
  /** Where the routes live. */
  prefix: v.optional(v.pipe(v.string(), v.regex(/^\/[A-Za-z0-9_\-/]*[^/]$/, "must start with / and not end with /")), "/template"),
});

export type TemplateOptions = v.InferOutput<typeof TemplateOptionsSchema>;
