import { test } from "uvu";
import * as assert from "uvu/assert";
import { readFileSync, readdirSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import ts from "typescript";
import { repoRoot } from "./helpers/cli.js";

// The layout's rule: the kernel knows no plugin, and a plugin reaches another plugin only through
// its public entry `svc/<name>`, never through a relative path into the other plugin's folder.
// Imports are read with TypeScript's own parser, so every form counts: static, `export … from`,
// `import type`, dynamic `import()`, `require()` and `import("…")` types.

const pkg = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")) as { exports: Record<string, unknown> };
/** `svc/<name>` entries the package exports, e.g. `engine` → `plugins/engine`. */
const publicPlugins = new Set(Object.keys(pkg.exports).map((k) => /^\.\/([a-z-]+)$/.exec(k)?.[1]).filter((n): n is string => !!n && n !== "package.json"));

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

/** Why `spec`, imported by `file` (relative to the repository), breaks the layout; undefined if it does not. */
function boundaryViolation(file: string, spec: string): string | undefined {
  const parts = file.split(/[\\/]/);
  const owner = parts[0] === "plugins" ? parts[1] : parts[0] === "kernel" ? "kernel" : undefined;
  if (!owner) return undefined;
  const bare = /^svc\/([^/]+)(\/.*)?$/.exec(spec);
  if (bare) {
    const [, name, rest] = bare;
    if (owner === "kernel") return `the kernel imports the plugin entry ${spec}`;
    if (rest || !publicPlugins.has(name!)) return `${spec} is not a public entry`;
    return name === owner ? `a plugin imports its own public entry ${spec}` : undefined;
  }
  if (!spec.startsWith(".")) return undefined;
  const target = relative(repoRoot, resolve(repoRoot, dirname(file), spec)).split(sep);
  if (owner === "kernel") return target[0] === "kernel" ? undefined : `the kernel imports ${target.join("/")} outside kernel/`;
  if (target[0] === "plugins" && target[1] !== owner) return `imports ${target.join("/")}, another plugin's file: use svc/${target[1]}`;
  if (target[0] === "kernel") return `imports the kernel's file ${target.join("/")}: use svc`;
  return undefined;
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
  assert.is(boundaryViolation("plugins/openai/x.ts", "svc"), undefined);
  assert.is(boundaryViolation("plugins/openai/sub/x.ts", "../y.js"), undefined);
  assert.is(boundaryViolation("kernel/http/x.ts", "../settings.js"), undefined);
  assert.ok(boundaryViolation("plugins/openai/x.ts", "../engine/dataclasses/chat-message.js"));
  assert.ok(boundaryViolation("plugins/openai/x.ts", "../engine/index.js"), "a relative path into another plugin, even its index");
  assert.ok(boundaryViolation("plugins/openai/x.ts", "svc/engine/dataclasses/chat-message.js"));
  assert.ok(boundaryViolation("plugins/openai/x.ts", "svc/chat-ui"), "not an exported entry");
  assert.ok(boundaryViolation("plugins/openai/x.ts", "../../kernel/hooks.js"));
  assert.ok(boundaryViolation("kernel/x.ts", "../plugins/engine/index.js"));
  assert.ok(boundaryViolation("kernel/x.ts", "svc/engine"));
});

test("the kernel imports no plugin, and plugins import each other only through svc/<name>", () => {
  const problems: string[] = [];
  for (const file of [...tsFiles("kernel"), ...tsFiles("plugins")]) {
    for (const { spec, line } of importsOf(file, readFileSync(join(repoRoot, file), "utf8"))) {
      const why = boundaryViolation(file, spec);
      if (why) problems.push(`${file}:${line} "${spec}": ${why}`);
    }
  }
  assert.equal(problems, []);
});

test.run();
