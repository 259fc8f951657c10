/**
 * @module The TypeScript/ESM → jiti module transform for user code, with sucrase instead of jiti's
 * Babel: Babel costs ~20–30 MB and ~5 ms per file, sucrase a fraction of both. The output is the
 * module format jiti evaluates (CommonJS in an async function whose `jitiImport` loads a module as
 * `import` does), so `svc` and other ES modules load natively and are shared with the kernel.
 *
 * Static imports become `await jitiImport(…)` in source order before the module body (as ESM
 * evaluates them), dynamic `import()` becomes `jitiImport()`, `import.meta` an object with the same
 * fields jiti's Babel plugins give. Decorators and value namespaces, which sucrase does not compile
 * (it passes the first through and drops the second), go to jiti's Babel transform; so does JSX.
 */
import { createHash } from "node:crypto";
import { readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Jiti, TransformOptions } from "jiti";

export interface TransformResult {
  code: string;
  error?: unknown;
}

interface Token {
  type: number;
  contextualKeyword: number;
  isType: boolean;
  start: number;
  end: number;
}

/** The parts of sucrase used here; its parser gives the tokens the import rewrite needs. */
interface Sucrase {
  transform(code: string, options: { transforms: string[]; disableESTransforms: boolean }): { code: string };
  parse(input: string, jsx: boolean, typescript: boolean, flow: boolean): { tokens: Token[] };
  tt: Record<string, number>;
  ck: Record<string, number>;
}

const requireCjs = createRequire(import.meta.url);
let sucrase: Sucrase | undefined;

/** Loaded on the first compile: a service whose wrappers are all plain JS never pays for it. */
function loadSucrase(): Sucrase {
  return (sucrase ??= {
    transform: requireCjs("sucrase").transform,
    parse: requireCjs("sucrase/dist/parser/index.js").parse,
    tt: requireCjs("sucrase/dist/parser/tokenizer/types.js").TokenType,
    ck: requireCjs("sucrase/dist/parser/tokenizer/keywords.js").ContextualKeyword,
  });
}

const IMPORT_META =
  'const __svcImportMeta = { url: require("node:url").pathToFileURL(__filename).href, filename: __filename, dirname: __dirname, env: process.env, resolve: jitiESMResolve };';

/** Why sucrase cannot compile these tokens as jiti's Babel would, or undefined when it can. */
function needsBabel(tokens: Token[], s: Sucrase): string | undefined {
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.type === s.tt.at) return "decorators";
    const keyword = t.contextualKeyword;
    const named = tokens[i + 1]?.type === s.tt.name || tokens[i + 1]?.type === s.tt.string;
    if ((keyword === s.ck._namespace || keyword === s.ck._module) && t.isType && named && tokens[i - 1]?.type !== s.tt._declare) return "namespace";
  }
  return undefined;
}

/** The string token naming the module of an `import … from` / `export … from` at `i`, if any. */
function moduleSpecifierAt(tokens: Token[], i: number, s: Sucrase): Token | undefined {
  const t = tokens[i]!;
  const next = tokens[i + 1];
  if (t.isType || !next) return undefined;
  if (t.type === s.tt._import) {
    if (next.type === s.tt.parenL || next.type === s.tt.dot || tokens[i + 2]?.type === s.tt.eq) return undefined;
    for (let j = i + 1; j < tokens.length; j++) if (tokens[j]!.type === s.tt.string) return tokens[j];
    return undefined;
  }
  if (t.type !== s.tt._export) return undefined;
  let j: number;
  if (next.type === s.tt.star) j = tokens[i + 2]?.type === s.tt._as ? i + 4 : i + 2;
  else if (next.type === s.tt.braceL) {
    j = i + 2;
    while (j < tokens.length && tokens[j]!.type !== s.tt.braceR) j++;
    j++;
  } else return undefined;
  return tokens[j]?.contextualKeyword === s.ck._from && tokens[j + 1]?.type === s.tt.string ? tokens[j + 1] : undefined;
}

/** sucrase reads `import.meta` as three tokens, a name `import`, a dot and a name `meta`. */
function isImportMeta(source: string, tokens: Token[], i: number, s: Sucrase): boolean {
  const [t, dot, meta] = [tokens[i]!, tokens[i + 1], tokens[i + 2]];
  return t.type === s.tt.name && source.slice(t.start, t.end) === "import" && dot?.type === s.tt.dot && !!meta && source.slice(meta.start, meta.end) === "meta";
}

/** Rewrites `import()`, `import.meta` and (async only) static specifiers, then compiles. */
function compileWithSucrase(source: string, ts: boolean, async: boolean): string | undefined {
  const s = loadSucrase();
  const { tokens } = s.parse(source, false, ts, false);
  if (needsBabel(tokens, s)) return undefined;
  // Static imports are renamed to markers that sucrase turns into `require('<marker>')`, each then
  // replaced by the module its import loaded; a source already holding a marker goes to Babel.
  const marker = "__svc_import_";
  if (async && source.includes(marker)) return undefined;
  const specifiers: string[] = [];
  const edits: { start: number; end: number; text: string }[] = [];
  let usesMeta = false;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.type === s.tt._import && !t.isType && tokens[i + 1]?.type === s.tt.parenL) edits.push({ start: t.start, end: t.end, text: "jitiImport" });
    else if (isImportMeta(source, tokens, i, s)) {
      edits.push({ start: t.start, end: tokens[i + 2]!.end, text: "__svcImportMeta" });
      usesMeta = true;
    } else if (async) {
      const specifier = moduleSpecifierAt(tokens, i, s);
      if (specifier) {
        edits.push({ start: specifier.start, end: specifier.end, text: `"${marker}${specifiers.length}"` });
        specifiers.push(source.slice(specifier.start, specifier.end));
      }
    }
  }
  let edited = source;
  for (const edit of edits.sort((a, b) => b.start - a.start)) edited = edited.slice(0, edit.start) + edit.text + edited.slice(edit.end);

  let code = s.transform(edited, { transforms: ts ? ["typescript", "imports"] : ["imports"], disableESTransforms: true }).code;
  const loads = new Map<number, string>();
  code = code.replace(new RegExp(`require\\('${marker}(\\d+)'\\)`, "g"), (_, n: string) => {
    loads.set(Number(n), `const __svcImport${n} = await jitiImport(${specifiers[Number(n)]});`);
    return `__svcImport${n}`;
  });
  // On the first line, so line numbers in stack traces stay those of the source; in source order.
  const prelude = (usesMeta ? IMPORT_META : "") + [...loads.keys()].sort((a, b) => a - b).map((n) => loads.get(n)).join("");
  const strict = '"use strict";';
  return code.startsWith(strict) ? strict + prelude + code.slice(strict.length) : prelude + code;
}

/** jiti's way of reporting a syntax error: a module whose evaluation throws it with file:line:column. */
function syntaxErrorModule(error: { message?: string; loc?: { line: number; column: number } }, filename: string | undefined): string {
  const message = String(error.message ?? error).replace(/\s*\(\d+:\d+\)\s*$/, "");
  return `exports.__JITI_ERROR__ = ${JSON.stringify({ filename, line: error.loc?.line ?? 0, column: error.loc?.column ?? 0, code: "ParseError", message })}`;
}

/** Compiled sources kept in memory; a redeploy of a changed file adds one, so the map is bounded. */
const MEMO_LIMIT = 256;
/** Part of every cache key: sucrase's version and this file's own text, so no change to how sources
 * are compiled reuses old output. */
let compilerId: string | undefined;
function compilerVersion(): string {
  const ownText = () => createHash("sha256").update(readFileSync(fileURLToPath(import.meta.url))).digest("base64url");
  return (compilerId ??= `${requireCjs("sucrase/package.json").version}/${ownText()}`);
}

export interface ModuleTransformOptions {
  /** jiti with its Babel transform, for what sucrase does not compile. */
  readonly babel: () => Jiti;
  /** The private folder compiled sources are kept in across restarts, or false for none. */
  readonly cacheDir: () => string | false;
  /** Called after a compiled source was written to `cacheDir`. */
  readonly onWrite?: (dir: string) => void;
}

/**
 * A jiti `transform` option. Compiled output does not depend on the file's path, so it is cached by
 * the source's hash: in memory (1,000 copies of one wrapper compile once) and in `cacheDir`, where a
 * restart finds it without loading a compiler.
 */
export function createModuleTransform(options: ModuleTransformOptions): (transform: TransformOptions) => TransformResult {
  const memo = new Map<string, string>();
  const remember = (key: string, code: string) => {
    if (memo.size >= MEMO_LIMIT) memo.delete(memo.keys().next().value!);
    memo.set(key, code);
    return code;
  };
  return (transform) => {
    if (transform.jsx || /x$/.test(transform.filename ?? "")) return { code: options.babel().transform(transform) };
    const ts = transform.ts === true;
    const async = transform.async === true;
    const key = createHash("sha256").update(`${compilerVersion()}:${ts}:${async}:`).update(transform.source).digest("base64url");
    const known = memo.get(key);
    if (known !== undefined) return { code: known };
    const dir = options.cacheDir();
    const file = dir ? join(dir, `${key}.cjs`) : undefined;
    const cached = file ? readCached(file) : undefined;
    if (cached !== undefined) return { code: remember(key, cached) };
    let code: string;
    try {
      code = compileWithSucrase(transform.source, ts, async) ?? options.babel().transform(transform);
    } catch (error) {
      return { code: syntaxErrorModule(error as { message?: string }, transform.filename), error };
    }
    if (dir && file && !code.includes("__JITI_ERROR__")) {
      writeCached(file, code);
      options.onWrite?.(dir);
    }
    return { code: remember(key, code) };
  };
}

function readCached(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
}

/** Written whole under a temporary name, then renamed: another process never reads half a file. */
function writeCached(file: string, code: string): void {
  const temp = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(temp, code, { mode: 0o600 });
    renameSync(temp, file);
  } catch {
    rmSync(temp, { force: true });
  }
}
