/**
 * @module Paths into stored JSON: dots (`a.b.0.c`), brackets (`a[0]`, `a["key.with.dots"]`,
 * `a['k']`), mixed, or a leading bracket (`[0].name`). Navigation only follows own properties of
 * plain data, so `__proto__` or `constructor` never reach the prototype; and, as in the library
 * svc ports, a key starting with `_` may not be named at all (`forbiddenSegment`).
 */

export type PathSegment = string | number;

export class PathSyntaxError extends Error {}

/** Parses a path into segments; a bracketed integer becomes a number, everything else a string. */
export function parsePath(path: string): PathSegment[] {
  const segments: PathSegment[] = [];
  let i = 0;
  let current = "";
  const flush = () => {
    if (current !== "") segments.push(current);
    current = "";
  };
  while (i < path.length) {
    const ch = path[i]!;
    if (ch === ".") {
      flush();
      i += 1;
    } else if (ch === "[") {
      flush();
      const close = path.indexOf("]", i);
      if (close < 0) throw new PathSyntaxError(`unclosed '[' at position ${i}`);
      const inner = path.slice(i + 1, close).trim();
      i = close + 1;
      if (inner === "") continue; // `[]` is the whole value
      const quoted = /^(["'])(.*)\1$/s.exec(inner);
      if (quoted) segments.push(quoted[2]!);
      else if (/^\d+$/.test(inner)) segments.push(Number(inner));
      else segments.push(inner);
    } else if (ch === "]") {
      throw new PathSyntaxError(`unexpected ']' at position ${i}`);
    } else {
      current += ch;
      i += 1;
    }
  }
  flush();
  return segments;
}

/** The first key starting with `_` (`_private`, `__proto__`), which paths may not name; else undefined. */
export function forbiddenSegment(segments: readonly PathSegment[]): string | undefined {
  return segments.find((segment): segment is string => typeof segment === "string" && segment.startsWith("_"));
}

export type Navigation = { found: true; value: unknown } | { found: false };

/** Follows `segments` into `value`; a digit string indexes an array (`items.0`). */
export function navigate(value: unknown, segments: readonly PathSegment[]): Navigation {
  let current = value;
  for (const segment of segments) {
    if (Array.isArray(current)) {
      const index = typeof segment === "number" ? segment : /^\d+$/.test(segment) ? Number(segment) : -1;
      if (index < 0 || index >= current.length) return { found: false };
      current = current[index];
    } else if (current !== null && typeof current === "object") {
      const key = String(segment);
      if (!Object.hasOwn(current, key)) return { found: false };
      current = (current as Record<string, unknown>)[key];
    } else {
      return { found: false };
    }
  }
  return { found: true, value: current };
}

/** Joins two paths (`a.b` + `c` → `a.b.c`; `a` + `[0]` → `a[0]`). */
export function joinPaths(a: string, b: string): string {
  if (!a) return b;
  if (!b) return a;
  return b.startsWith("[") ? `${a}${b}` : `${a}.${b}`;
}
