/**
 * @module What a setting is: its environment name, CLI flag, schema, default and description.
 * The kernel declares its own; a plugin declares its own in `settings` (see `definePlugin`), and
 * the kernel merges them into one table at boot.
 */
import type * as v from "valibot";
import type { FieldSchema } from "./settings-schema.js";

export interface SettingField<T = unknown> extends FieldSchema<T> {
  readonly env: string;
  /** Older or alternative environment names, still accepted. */
  readonly aliases?: readonly string[];
  /** The flag that sets it, if any (errors name it). */
  readonly flag?: string;
  /** The command that has the flag, when it is not `svc run` (docs only). */
  readonly command?: string;
  readonly default: T;
  /** How the docs show the default, when the value alone does not say it (`host name:pid`). */
  readonly shownDefault?: string;
  readonly help: string;
  /** Every source adds to the list instead of replacing it. */
  readonly merge?: boolean;
}

/** Settings by key; the key is the config-file name (`settings.<key>`) and the typed property. */
export type SettingFields = Readonly<Record<string, SettingField<any>>>;

/** The parsed values of a table of fields. */
export type SettingValues<F extends SettingFields> = { readonly [K in keyof F]: v.InferOutput<F[K]["schema"]> };

/** Declares one setting: a value schema (`integer(1, 64)`, `boolean()`, …) and its names. */
export function setting<T>(schema: FieldSchema<T>, spec: Omit<SettingField<NoInfer<T>>, keyof FieldSchema<T>>): SettingField<T> {
  return { ...schema, ...spec };
}
