#!/usr/bin/env node
// Part of the build, after tsc: the sources import the package as `svc` and `svc/<entry>` (tsconfig
// paths); compiled, those specifiers would only resolve while the package is named `svc`. This
// rewrites them into relative paths in dist/ (.js and .d.ts), so the published `@svc-serve/svc`
// loads itself. Only real module specifiers change (import/export declarations, `import()`,
// `import("…")` types), read with TypeScript's parser: a wrapper's source held in a string keeps
// its `from "svc"` (the module loader resolves that one at run time).
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const root = fileURLToPath(new URL("..", import.meta.url));
const dist = join(root, "dist");
const paths = ts.readConfigFile(join(root, "tsconfig.json"), ts.sys.readFile).config.compilerOptions.paths;
/** `svc/engine` → <dist>/plugins/engine/index.js (the compiled file of the path's source). */
const targets = new Map(Object.entries(paths).map(([spec, [source]]) => [spec, join(dist, source.replace(/^\.\//, "").replace(/\.ts$/, ".js"))]));

function specifiers(file, text) {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, file.endsWith(".d.ts") ? ts.ScriptKind.TS : ts.ScriptKind.JS);
  const found = [];
  const add = (node) => node && ts.isStringLiteralLike(node) && targets.has(node.text) && found.push({ start: node.getStart(source) + 1, text: node.text });
  const visit = (node) => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) add(node.moduleSpecifier);
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) add(node.arguments[0]);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) add(node.argument.literal);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

let changed = 0;
for (const name of readdirSync(dist, { recursive: true, encoding: "utf8" })) {
  if (!/\.(js|d\.ts)$/.test(name) || name.split(sep).includes("node_modules")) continue;
  const file = join(dist, name);
  const text = readFileSync(file, "utf8");
  if (!/["'](@svc-serve\/)?svc["'/]/.test(text)) continue;
  const nodes = specifiers(file, text);
  if (nodes.length === 0) continue;
  let out = text;
  // Back to front, so earlier positions stay valid.
  for (const { start, text: spec } of nodes.sort((a, b) => b.start - a.start)) {
    let rel = relative(dirname(file), targets.get(spec)).split(sep).join("/");
    if (!rel.startsWith(".")) rel = `./${rel}`;
    out = out.slice(0, start) + rel + out.slice(start + spec.length);
  }
  writeFileSync(file, out);
  changed++;
}
console.log(`resolve-self-imports: ${changed} files`);
