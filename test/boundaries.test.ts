import { test } from "uvu";
import * as assert from "uvu/assert";
import { readFileSync, readdirSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { pathToFileURL } from "node:url";
import ts from "typescript";
import { repoRoot } from "./helpers/cli.js";

// The layout's rule: the kernel knows no plugin; plugins, the CLI and the host reach the kernel only
// through `svc/plugin` and another plugin only through its public entry `svc/<name>`, never through a
// relative path into kernel/ or into the other plugin's folder. The CLI and the host also use
// `svc/internal` (kernel/internal.ts: booting from a folder), which is not published. Wrappers
// (pipelines/) import only the wrapper entry `svc` and plugins' public entries. The wrapper entry
// stays at ≤ 60 names, the plugin entry at ≤ 168.
// Imports are read with TypeScript's own parser, so every form counts: static, `export … from`,
// `import type`, dynamic `import()`, `require()` and `import("…")` types.

const pkg = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")) as { exports: Record<string, unknown> };
/** Every entry the package exports, as imported from the sources: `svc`, `svc/plugin`, `svc/engine/testing`, … */
const entries = new Set(Object.keys(pkg.exports).filter((k) => k !== "./package.json").map((k) => (k === "." ? "svc" : `svc/${k.slice(2)}`)));
/** Entries that are a plugin's (`svc/engine`, `svc/engine/testing`, …): all but the three kernel-made ones. */
const pluginEntries = new Set([...entries].filter((e) => !["svc", "svc/plugin", "svc/host"].includes(e)));
/** The most names the wrapper entry `svc` (api/index.ts) may export. */
const MAX_WRAPPER_ENTRY_NAMES = 60;
/** The most names the plugin entry `svc/plugin` (kernel/index.ts) may export. */
const MAX_PLUGIN_ENTRY_NAMES = 168; // + the run hook's observer types (CallObserver, Observation, CallTimes)
/** The CLI's and the host's entry into the kernel: a path of tsconfig.json, not of package.json. */
const INTERNAL_ENTRY = "svc/internal";

function tsFiles(dir: string): string[] {
  return readdirSync(join(repoRoot, dir), { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".ts") && !f.split(sep).includes("static"))
    .map((f) => join(dir, f));
}

/** Every module specifier a file names, with its line. */
function importsOf(fileName: string, text: string): { spec: string; line: number }[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: { spec: string; line: number }[] = [];
  const add = (node: ts.Node | undefined) => {
    if (node && ts.isStringLiteralLike(node)) found.push({ spec: node.text, line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1 });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) add(node.moduleSpecifier);
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) add(node.moduleReference.expression);
    else if (ts.isCallExpression(node)) {
      const callee = node.expression;
      if (callee.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(callee) && callee.text === "require")) add(node.arguments[0]);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) add(node.argument.literal);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** `@svc-serve/svc…` is the published name of `svc…`: both name the same entries. */
const unscoped = (spec: string) => spec.replace(/^@svc-serve\/svc(?=\/|$)/, "svc");

/** Why `spec`, imported by `file` (relative to the repository), breaks the layout; undefined if it does not. */
function boundaryViolation(file: string, spec: string): string | undefined {
  const parts = file.split(/[\\/]/);
  const owner = parts[0] === "plugins" ? `plugins/${parts[1]}` : ["kernel", "cli", "host", "pipelines"].includes(parts[0]!) ? parts[0]! : undefined;
  if (!owner) return undefined;
  if (owner === "pipelines") return wrapperViolation(parts.slice(0, 2).join("/"), file, spec);
  spec = unscoped(spec);
  if (spec === "svc" || spec.startsWith("svc/")) {
    if (owner === "kernel") return `the kernel imports the entry ${spec}`;
    if (spec === INTERNAL_ENTRY) return owner === "cli" || owner === "host" ? undefined : `${spec} is the CLI's and the host's: use svc/plugin`;
    if (!entries.has(spec)) return `${spec} is not a public entry`;
    if (spec === "svc") return `svc is the wrapper entry: import kernel names from svc/plugin`;
    if (spec === "svc/host" && owner !== "cli") return `only the CLI imports svc/host`;
    const own = owner.startsWith("plugins/") && (spec === `svc/${parts[1]}` || spec.startsWith(`svc/${parts[1]}/`));
    return own ? `a plugin imports its own public entry ${spec}` : undefined;
  }
  if (!spec.startsWith(".")) return undefined;
  const target = relative(repoRoot, resolve(repoRoot, dirname(file), spec)).split(sep);
  const path = target.join("/");
  if (owner === "kernel") return target[0] === "kernel" ? undefined : `the kernel imports ${path} outside kernel/`;
  if (path.startsWith(`${owner}/`)) return undefined;
  if (target[0] === "kernel") return `imports the kernel's file ${path}: use svc/plugin`;
  if (target[0] === "plugins") {
    // The CLI and the host load plugins as `use: svc:<name>` does: a plugin's module, and its settings
    // table (read without loading the plugin, for the launcher's settings and `svc settings`).
    const loadable = target.length === 3 && ["index.js", "settings.js"].includes(target[2]!);
    if ((owner === "cli" || owner === "host") && loadable) return undefined;
    return `imports ${path}, another plugin's file: use svc/${target[1]}`;
  }
  // The host reuses the launcher's settings and plugin list.
  if (owner === "host" && target[0] === "cli") return undefined;
  return `imports ${path} outside ${owner}/`;
}

/** Why `spec`, imported by `file` of the wrapper folder `folder` (pipelines/<name>), is not a wrapper's import. */
function wrapperViolation(folder: string, file: string, spec: string): string | undefined {
  spec = unscoped(spec);
  if (spec === "svc" || pluginEntries.has(spec)) return undefined;
  if (spec.startsWith("svc/")) return `a wrapper imports ${spec}: only svc and plugins' entries (${[...pluginEntries].join(", ")})`;
  if (!spec.startsWith(".")) return undefined;
  const target = relative(repoRoot, resolve(repoRoot, dirname(file), spec)).split(sep).join("/");
  return target.startsWith(`${folder}/`) ? undefined : `a wrapper imports ${target} outside its folder ${folder}/`;
}

/**
 * The names a module's source exports, read from its export statements (values and types alike).
 * `export *` from another module is refused: its names are not in this file, so it is not counted.
 */
function exportedNames(fileName: string, text: string): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const names: string[] = [];
  for (const node of source.statements) {
    if (ts.isExportDeclaration(node)) {
      if (!node.exportClause) throw new Error(`${fileName}: \`${node.getText(source)}\` exports names this file does not list`);
      if (ts.isNamespaceExport(node.exportClause)) names.push(node.exportClause.name.text);
      else names.push(...node.exportClause.elements.map((e) => e.name.text));
    } else if (ts.isExportAssignment(node)) names.push("default");
    else if (ts.canHaveModifiers(node) && ts.getModifiers(node)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) {
      const isDefault = ts.getModifiers(node)!.some((m) => m.kind === ts.SyntaxKind.DefaultKeyword);
      if (isDefault) names.push("default");
      else if (ts.isVariableStatement(node)) names.push(...node.declarationList.declarations.map((d) => d.name.getText(source)));
      else if ("name" in node && node.name && ts.isIdentifier(node.name as ts.Node)) names.push((node.name as ts.Identifier).text);
    }
  }
  return names;
}

test("import parsing sees every form of import", () => {
  const text = [
    `import a from "./a.js";`,
    `import type { B } from "../b.js";`,
    `export { c } from "svc/engine";`,
    `export * from "./d.js";`,
    `const e = await import("./e.js");`,
    `const f = require("./f.js");`,
    `type G = import("./g.js").G;`,
    `import h = require("./h.js");`,
    `const not = "./string-only.js";`,
  ].join("\n");
  assert.equal(
    importsOf("x.ts", text).map((i) => i.spec),
    ["./a.js", "../b.js", "svc/engine", "./d.js", "./e.js", "./f.js", "./g.js", "./h.js"],
  );
});

test("the rule tells allowed imports from crossings", () => {
  assert.is(boundaryViolation("plugins/openai/x.ts", "svc/engine"), undefined);
  assert.is(boundaryViolation("plugins/openai/x.ts", "svc/plugin"), undefined);
  assert.is(boundaryViolation("plugins/openai/x.ts", "@svc-serve/svc/plugin"), undefined);
  assert.is(boundaryViolation("plugins/openai/sub/x.ts", "../y.js"), undefined);
  assert.is(boundaryViolation("kernel/http/x.ts", "../settings.js"), undefined);
  assert.is(boundaryViolation("cli/x.ts", "../plugins/mcp/index.js"), undefined, "the CLI loads a plugin's module");
  assert.is(boundaryViolation("cli/x.ts", "../plugins/mcp/settings.js"), undefined, "and its settings table");
  assert.is(boundaryViolation("cli/x.ts", "svc/host"), undefined);
  assert.is(boundaryViolation("host/index.ts", "../cli/default-plugins.js"), undefined);
  assert.is(boundaryViolation("cli/x.ts", "svc/internal"), undefined, "the CLI boots through the internal entry");
  assert.is(boundaryViolation("host/index.ts", "svc/internal"), undefined);
  assert.ok(boundaryViolation("plugins/openai/x.ts", "svc/internal"), "plugins do not");
  assert.ok(boundaryViolation("pipelines/chat/pipeline_wrapper.ts", "svc/internal"), "nor wrappers");
  assert.ok(boundaryViolation("plugins/openai/x.ts", "@svc-serve/svc/internal"), "it is not published under any name");
  assert.ok(boundaryViolation("plugins/openai/x.ts", "svc"), "the wrapper entry is not for plugins");
  assert.ok(boundaryViolation("plugins/openai/x.ts", "@svc-serve/svc"));
  assert.ok(boundaryViolation("cli/x.ts", "svc"));
  assert.ok(boundaryViolation("host/index.ts", "svc"));
  assert.ok(boundaryViolation("plugins/openai/x.ts", "svc/host"), "the host entry loads every plugin");
  assert.ok(boundaryViolation("plugins/openai/x.ts", "../engine/dataclasses/chat-message.js"));
  assert.ok(boundaryViolation("plugins/openai/x.ts", "../engine/index.js"), "a relative path into another plugin, even its index");
  assert.ok(boundaryViolation("plugins/openai/x.ts", "svc/engine/dataclasses/chat-message.js"));
  assert.ok(boundaryViolation("plugins/openai/x.ts", "svc/chat-ui"), "not an exported entry");
  assert.ok(boundaryViolation("plugins/openai/x.ts", "svc/openai"), "its own entry");
  assert.ok(boundaryViolation("plugins/openai/x.ts", "../../kernel/hooks.js"));
  assert.ok(boundaryViolation("plugins/openai/x.ts", "../../cli/client.js"));
  assert.ok(boundaryViolation("cli/x.ts", "../kernel/settings.js"), "the CLI reaches the kernel through svc/plugin");
  assert.ok(boundaryViolation("cli/x.ts", "../plugins/mcp/tool-server.js"), "a plugin's inner file");
  assert.ok(boundaryViolation("host/index.ts", "../kernel/kernel.js"));
  assert.ok(boundaryViolation("kernel/x.ts", "../plugins/engine/index.js"));
  assert.ok(boundaryViolation("kernel/x.ts", "svc/engine"));
  assert.ok(boundaryViolation("kernel/x.ts", "svc/plugin"));
});

test("the rule keeps wrappers to the wrapper entry and plugins' entries", () => {
  assert.is(boundaryViolation("pipelines/chat/pipeline_wrapper.ts", "svc"), undefined);
  assert.is(boundaryViolation("pipelines/chat/pipeline_wrapper.ts", "@svc-serve/svc"), undefined);
  assert.is(boundaryViolation("pipelines/chat/pipeline_wrapper.ts", "svc/engine"), undefined);
  assert.is(boundaryViolation("pipelines/chat/pipeline_wrapper.ts", "valibot"), undefined);
  assert.is(boundaryViolation("pipelines/chat/pipeline_wrapper.ts", "./prompt.js"), undefined);
  assert.ok(boundaryViolation("pipelines/chat/pipeline_wrapper.ts", "svc/plugin"));
  assert.ok(boundaryViolation("pipelines/chat/pipeline_wrapper.ts", "@svc-serve/svc/host"));
  assert.ok(boundaryViolation("pipelines/chat/pipeline_wrapper.ts", "svc/engine/components/x.js"));
  assert.ok(boundaryViolation("pipelines/chat/pipeline_wrapper.ts", "../../kernel/index.js"));
  assert.ok(boundaryViolation("pipelines/chat/pipeline_wrapper.ts", "../other/pipeline_wrapper.js"));
});

test("export counting sees every form and refuses export *", () => {
  const text = [
    `export { a, type B, c as d } from "./x.js";`,
    `export type { E } from "./y.js";`,
    `export * as ns from "./z.js";`,
    `export const f = 1, g = 2;`,
    `export function h() {}`,
    `export class I {}`,
    `export interface J {}`,
    `export type K = string;`,
    `export enum L { M }`,
    `export default 1;`,
    `const notExported = 1;`,
  ].join("\n");
  assert.equal(exportedNames("x.ts", text), ["a", "B", "d", "E", "ns", "f", "g", "h", "I", "J", "K", "L", "default"]);
  assert.throws(() => exportedNames("x.ts", `export * from "./kernel.js";`), /exports names this file does not list/);
});

test(`the wrapper entry svc exports at most ${MAX_WRAPPER_ENTRY_NAMES} names, and all of them`, async () => {
  const names = exportedNames("api/index.ts", readFileSync(join(repoRoot, "api/index.ts"), "utf8"));
  assert.ok(names.length <= MAX_WRAPPER_ENTRY_NAMES, `svc exports ${names.length} names: ${names.join(", ")}`);
  assert.is(new Set(names).size, names.length, "a name exported twice");
  // What the compiled entry really exports at run time is among them (types vanish, nothing is added).
  const runtime = Object.keys(await import(pathToFileURL(join(repoRoot, "dist/api/index.js")).href));
  assert.equal(runtime.filter((n) => !names.includes(n)), []);
  assert.ok(runtime.includes("BasePipelineWrapper"));
});

test(`the plugin entry svc/plugin exports at most ${MAX_PLUGIN_ENTRY_NAMES} names, none of the internal entry's`, async () => {
  const names = exportedNames("kernel/index.ts", readFileSync(join(repoRoot, "kernel/index.ts"), "utf8"));
  assert.ok(names.length <= MAX_PLUGIN_ENTRY_NAMES, `svc/plugin exports ${names.length} names: ${names.join(", ")}`);
  assert.is(new Set(names).size, names.length, "a name exported twice");
  const runtime = Object.keys(await import(pathToFileURL(join(repoRoot, "dist/kernel/index.js")).href));
  assert.equal(runtime.filter((n) => !names.includes(n)), []);
  assert.ok(runtime.includes("definePlugin"));
  // What boots a kernel from a folder stays out of the plugin entry, in the compiled module too.
  const internal = exportedNames("kernel/internal.ts", readFileSync(join(repoRoot, "kernel/internal.ts"), "utf8"));
  assert.equal(internal.filter((n) => names.includes(n) || runtime.includes(n)), []);
  assert.ok(!runtime.includes("loadSettings") && !runtime.includes("PipelinesWatcher"));
  // Nor is the internal entry published: only tsconfig.json's paths name it.
  assert.not.ok(Object.keys(pkg.exports).includes("./internal"));
});

test("docs/entries.md lists every name of the svc, svc/plugin and svc/host entries", () => {
  const page = readFileSync(join(repoRoot, "docs/entries.md"), "utf8");
  for (const file of ["api/index.ts", "kernel/index.ts", "host/index.ts"]) {
    const missing = exportedNames(file, readFileSync(join(repoRoot, file), "utf8")).filter((n) => !page.includes(`\`${n}\``));
    assert.equal(missing, [], `${file}'s names missing from docs/entries.md`);
  }
});

test("the kernel imports no plugin; plugins, the CLI and the host use only public entries; wrappers only svc", () => {
  const problems: string[] = [];
  for (const file of ["kernel", "plugins", "cli", "host", "pipelines"].flatMap(tsFiles)) {
    for (const { spec, line } of importsOf(file, readFileSync(join(repoRoot, file), "utf8"))) {
      const why = boundaryViolation(file, spec);
      if (why) problems.push(`${file}:${line} "${spec}": ${why}`);
    }
  }
  assert.equal(problems, []);
});

/**
 * Whether `text` reads the global `performance` (`performance.now()`, …) without importing it from
 * `node:perf_hooks`. In Node the global is a lazy accessor: every read calls a getter (~300
 * instructions with its inline-cache miss), and server code reads the clock several times per run.
 */
function readsGlobalPerformance(fileName: string, text: string): number | undefined {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  let imported = false;
  let firstRead: number | undefined;
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier) && node.moduleSpecifier.text === "node:perf_hooks") {
      const named = node.importClause?.namedBindings;
      if (named && ts.isNamedImports(named) && named.elements.some((e) => e.name.text === "performance")) imported = true;
    } else if (ts.isPropertyAccessExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === "performance") {
      firstRead ??= source.getLineAndCharacterOfPosition(node.getStart()).line + 1;
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return imported ? undefined : firstRead;
}

test("server code reads the clock through node:perf_hooks' performance, not the global accessor", () => {
  assert.is(readsGlobalPerformance("a.ts", "const t = performance.now();"), 1);
  assert.is(readsGlobalPerformance("b.ts", 'import { performance } from "node:perf_hooks";\nconst t = performance.now();'), undefined);
  assert.is(readsGlobalPerformance("c.ts", "// performance.now() in a comment\nconst t = Date.now();"), undefined);
  const problems: string[] = [];
  for (const file of ["kernel", "plugins", "cli", "host"].flatMap(tsFiles)) {
    const line = readsGlobalPerformance(file, readFileSync(join(repoRoot, file), "utf8"));
    if (line !== undefined) problems.push(`${file}:${line}`);
  }
  assert.equal(problems, []);
});

test.run();
