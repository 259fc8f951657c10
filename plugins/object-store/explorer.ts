/**
 * @module The explorer: previews, searches and slices stored objects so that a model reads the
 * part of a large result it needs. Ids may be given bare (`obj_001`), as a reference (`@obj_001`)
 * or as a reference with a path (`@obj_001.items`), which is joined in front of `path`.
 */
import type { ObjectStore } from "svc/plugin";
import { PathSyntaxError, forbiddenSegment, joinPaths, navigate, parsePath } from "./paths.js";
import { parseReference } from "./reference.js";
import { render, sizeOf, typeName, type RenderLimits } from "./render.js";

export interface ExplorerOptions {
  /** Items shown per list or object; top-level objects show all keys (default 25). */
  maxItems?: number;
  /** Characters shown of a nested string (default 300). */
  maxStringLength?: number;
  /** Levels of nesting shown (default 4). */
  maxDepth?: number;
  /** Matches listed by `search` (default 10). */
  maxSearchMatches?: number;
  /** Characters of context on each side of a match (default 150). */
  searchContextLength?: number;
}

export const EXPLORER_DEFAULTS: Required<ExplorerOptions> = {
  maxItems: 25,
  maxStringLength: 300,
  maxDepth: 4,
  maxSearchMatches: 10,
  searchContextLength: 150,
};

/**
 * A readable failure: unknown or expired object, missing path, bad pattern. `path` is set when
 * the path is at fault: `invalid` (bad syntax, a forbidden `_` attribute) or `absent` (no value).
 */
export class ExplorerError extends Error {
  constructor(
    message: string,
    readonly path?: { text: string; problem: "invalid" | "absent" },
  ) {
    super(message);
  }
}

interface Target {
  /** `@obj_001`. */
  ref: string;
  path: string;
  value: unknown;
}

export class Explorer {
  readonly options: Required<ExplorerOptions>;

  constructor(
    readonly store: ObjectStore,
    options: ExplorerOptions = {},
  ) {
    const given = Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined));
    this.options = { ...EXPLORER_DEFAULTS, ...given };
  }

  /** Header `@obj_001.path → type (length: N)`, a blank line and the preview. */
  async explore(objId: string, path = ""): Promise<string> {
    const target = await this.resolve(objId, path);
    return `${header(target)}\n\n${this.preview(target.value)}`;
  }

  /** The preview body alone (strings in full, containers within the limits). */
  preview(value: unknown): string {
    if (typeof value === "string") return value;
    return render(value, this.limits(), 1, 0, true);
  }

  /**
   * Regular-expression search inside a string, or inside the JSON text of any other value.
   * Lists at most `maxSearchMatches` matches, each with context and the match in `[ ]`.
   */
  async search(objId: string, pattern: string, path = "", caseSensitive = false): Promise<string> {
    const target = await this.resolve(objId, path);
    let regex: RegExp;
    try {
      regex = new RegExp(pattern, caseSensitive ? "g" : "gi");
    } catch (error) {
      throw new ExplorerError(`Invalid regex pattern: ${(error as Error).message}`);
    }
    const text = typeof target.value === "string" ? target.value : JSON.stringify(target.value, null, 2);
    const matches = [...text.matchAll(regex)].filter((m) => m[0] !== "");
    if (matches.length === 0) return `No matches found for pattern '${pattern}'`;
    const { maxSearchMatches: max, searchContextLength: context } = this.options;
    const lines = [`Found ${matches.length} matches for pattern '${pattern}':`, ""];
    matches.slice(0, max).forEach((m, i) => {
      const start = m.index!;
      const end = start + m[0].length;
      const before = text.slice(Math.max(0, start - context), start);
      const after = text.slice(end, end + context);
      lines.push(`Match ${i + 1}: ...${before}[${m[0]}]${after}...`);
    });
    if (matches.length > max) lines.push(`… +${matches.length - max} more matches (showing the first ${max}; narrow the pattern or the path)`);
    return lines.join("\n");
  }

  /** Python-style slice of a string or list: negative indices count from the end, bounds clamp. */
  async slice(objId: string, start = 0, end?: number, path = ""): Promise<string> {
    const { value } = await this.resolve(objId, path);
    if (typeof value !== "string" && !Array.isArray(value)) {
      throw new ExplorerError(`Object of type ${typeName(value)} does not support slicing`);
    }
    const length = value.length;
    const clamp = (i: number) => Math.min(Math.max(i < 0 ? length + i : i, 0), length);
    const from = clamp(start);
    const to = end === undefined || end === null ? length : clamp(end);
    const label = `[${start}:${end ?? length}]`;
    if (typeof value === "string") {
      const part = value.slice(from, Math.max(from, to));
      return `String slice ${label} of length ${part.length}:\n\n${part}`;
    }
    const part = value.slice(from, Math.max(from, to));
    const body = render(part, { ...this.limits(), maxItems: Number.POSITIVE_INFINITY, compact: true, width: 120 });
    return `List slice ${label} (showing ${part.length} of ${length} items):\n\n${body}`;
  }

  /** Loads an object and follows the path; errors name the reference and the path. */
  async resolve(objId: string, path = ""): Promise<Target> {
    const parsed = parseReference(objId.trim());
    const ref = `@${parsed.objId}`;
    const fullPath = joinPaths(parsed.path, path.trim());
    const stored = await this.store.get(parsed.objId);
    if (stored === undefined) throw new ExplorerError(`Object ${ref} not found or expired.`);
    let segments;
    try {
      segments = parsePath(fullPath);
    } catch (error) {
      if (error instanceof PathSyntaxError) throw new ExplorerError(`Invalid path '${fullPath}': ${error.message}.`, { text: fullPath, problem: "invalid" });
      throw error;
    }
    // The original's rule, kept: attributes starting with `_` are never read.
    const forbidden = forbiddenSegment(segments);
    if (forbidden !== undefined) throw new ExplorerError(`Access to attribute '${forbidden}' is not permitted`, { text: fullPath, problem: "invalid" });
    const found = navigate(stored, segments);
    if (!found.found) throw new ExplorerError(`Object '${ref}' does not have a value at path '${fullPath}'.`, { text: fullPath, problem: "absent" });
    return { ref, path: fullPath, value: found.value };
  }

  private limits(): RenderLimits {
    const { maxItems, maxStringLength, maxDepth } = this.options;
    return { maxItems, maxStringLength, maxDepth };
  }
}

function header({ ref, path, value }: Target): string {
  const size = sizeOf(value);
  const where = path ? (path.startsWith("[") ? `${ref}${path}` : `${ref}.${path}`) : ref;
  return `${where} → ${typeName(value)}${size === undefined ? "" : ` (length: ${size})`}`;
}

