/**
 * @module Python `re` patterns as JavaScript RegExps. YAML written for Haystack carries Python
 * patterns (the BM25 tokenizer's `(?u)\b\w\w+\b`, AnswerBuilder's `Answer: (.*)`), and JS differs
 * where it matters: `\w`, `\d` and `\b` are ASCII-only in JS but Unicode-aware in Python, global
 * inline flags `(?i)` and `(?P<name>…)` groups do not exist, and the `u` flag (needed for `\p{…}`)
 * rejects escapes and lone braces that Python accepts. This converter rewrites exactly those.
 */

/** Python's Unicode `\w`: letters, numbers (str.isalnum) and underscore. */
const WORD = "\\p{L}\\p{N}_";
const IS_WORD = `[${WORD}]`;
const NOT_WORD = `[^${WORD}]`;
const BOUNDARY = `(?:(?<=${IS_WORD})(?!${IS_WORD})|(?<!${IS_WORD})(?=${IS_WORD}))`;
const NON_BOUNDARY = `(?:(?<=${IS_WORD})(?=${IS_WORD})|(?<!${IS_WORD})(?!${IS_WORD}))`;
/** Characters that keep their backslash under the `u` flag. */
const SYNTAX = "^$\\.*+?()[]{}|/";
/** Python escapes that mean the same in JS. */
const SAME_ESCAPES = "sSntrfv0123456789xucpPk";

/** Compiles a Python regular expression; throws a readable error when it cannot be expressed. */
export function pythonRegExp(pattern: string, extraFlags = ""): RegExp {
  const { source, flags } = convert(pattern);
  const all = [...new Set([...flags, ...extraFlags, "u"])].join("");
  try {
    return new RegExp(source, all);
  } catch (error) {
    throw new Error(`Invalid regular expression '${pattern}': ${(error as Error).message}`);
  }
}

/** The number of capture groups, as Python's `re.compile(p).groups`. */
export function groupCount(re: RegExp): number {
  return new RegExp(`${re.source}|`, re.flags.replace(/[gy]/g, "")).exec("")!.length - 1;
}

function convert(pattern: string): { source: string; flags: string } {
  let rest = pattern;
  const flags = new Set<string>();
  // Global inline flags at the start: (?aiLmsux)
  for (let m = /^\(\?([aiLmsux]+)\)/.exec(rest); m; m = /^\(\?([aiLmsux]+)\)/.exec(rest)) {
    for (const f of m[1]!) flags.add(f);
    rest = rest.slice(m[0].length);
  }
  const ascii = flags.has("a");
  if (flags.has("x")) rest = stripVerbose(rest);
  let out = "";
  let inClass = false;
  for (let i = 0; i < rest.length; i++) {
    const ch = rest[i]!;
    if (ch === "\\") {
      const next = rest[++i];
      if (next === undefined) throw new Error(`Invalid regular expression '${pattern}': trailing backslash`);
      out += escape(next, inClass, ascii, rest, i);
      if (next === "U") i += 8;
      continue;
    }
    if (inClass) {
      if (ch === "]") inClass = false;
      out += ch;
      continue;
    }
    if (ch === "[") {
      inClass = true;
      out += ch;
      if (rest[i + 1] === "^") out += rest[++i];
      // Python reads a ']' right after '[' or '[^' as a literal.
      if (rest[i + 1] === "]") (out += "\\]"), i++;
      continue;
    }
    if (ch === "(" && rest.startsWith("(?P<", i)) (out += "(?<"), (i += 3);
    else if (ch === "(" && (rest.startsWith("(?P=", i) || rest.startsWith("(?#", i))) {
      const end = rest.indexOf(")", i);
      if (end < 0) throw new Error(`Invalid regular expression '${pattern}': missing ), unterminated group`);
      // (?P=name) is a named backreference; (?#…) a comment.
      if (rest[i + 2] === "P") out += `\\k<${rest.slice(i + 4, end)}>`;
      i = end;
    }
    else if (ch === "{") {
      const q = /^\{(\d*)(,?)(\d*)\}/.exec(rest.slice(i));
      // Python treats a brace that is not a quantifier as a literal; JS (u) rejects it.
      if (q && (q[1] || q[3])) {
        out += `{${q[1] || "0"}${q[2]}${q[3]}}`;
        i += q[0].length - 1;
      } else out += "\\{";
    } else if (ch === "}") out += "\\}";
    else out += ch;
  }
  const jsFlags = [...flags].filter((f) => "ims".includes(f)).join("");
  return { source: out, flags: jsFlags };
}

function escape(next: string, inClass: boolean, ascii: boolean, rest: string, i: number): string {
  if (!ascii) {
    switch (next) {
      case "w":
        return inClass ? WORD : IS_WORD;
      case "W":
        return inClass ? "\\W" : NOT_WORD;
      case "d":
        return "\\p{Nd}";
      case "D":
        return inClass ? "\\D" : "\\P{Nd}";
      case "b":
        return inClass ? "\\b" : BOUNDARY;
      case "B":
        return NON_BOUNDARY;
    }
  }
  switch (next) {
    case "A":
      return "(?<![\\s\\S])";
    case "Z":
      return "(?![\\s\\S])";
    case "a":
      return "\\x07";
    case "U":
      return `\\u{${rest.slice(i + 1, i + 9).replace(/^0+(?=.)/, "")}}`;
  }
  if (/[A-Za-z0-9]/.test(next)) return SAME_ESCAPES.includes(next) || "wWdDbB".includes(next) ? `\\${next}` : next;
  if (SYNTAX.includes(next) || (inClass && next === "-")) return `\\${next}`;
  return next;
}

/** re.VERBOSE: whitespace outside classes is ignored and `#` starts a comment. */
function stripVerbose(pattern: string): string {
  let out = "";
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i]!;
    if (ch === "\\") {
      out += ch + (pattern[++i] ?? "");
      continue;
    }
    if (inClass) inClass = ch !== "]";
    else if (ch === "[") inClass = true;
    else if (/\s/.test(ch)) continue;
    else if (ch === "#") {
      while (i < pattern.length && pattern[i] !== "\n") i++;
      continue;
    }
    out += ch;
  }
  return out;
}
