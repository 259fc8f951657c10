/**
 * @module Reading cac's parsed flags: cac (through mri) turns numeric-looking values into numbers
 * and repeated flags into arrays, so strings, lists and booleans are normalized here.
 */

/** The last value given for a string option, as a string; undefined when absent. */
export function stringFlag(flags: Record<string, unknown>, key: string): string | undefined {
  const raw = flags[key];
  const value = Array.isArray(raw) ? raw.at(-1) : raw;
  if (value === undefined || value === null || typeof value === "boolean") return undefined;
  return String(value);
}

/** Every value given for a repeatable option, as strings. */
export function listFlag(flags: Record<string, unknown>, key: string): string[] {
  const raw = flags[key];
  if (raw === undefined || raw === null) return [];
  return (Array.isArray(raw) ? raw : [raw]).filter((v) => typeof v !== "boolean").map(String);
}

/** A boolean flag; a repeated flag counts by its last value. */
export function booleanFlag(flags: Record<string, unknown>, key: string, fallback = false): boolean {
  const raw = flags[key];
  const value = Array.isArray(raw) ? raw.at(-1) : raw;
  if (value === undefined || value === null) return fallback;
  if (typeof value === "string") return !["false", "0", "no", "off"].includes(value.toLowerCase());
  return Boolean(value);
}
