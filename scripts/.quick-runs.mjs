// transpile given .ts files into dist (same relative path), then run resolve-self-imports
import ts from "typescript";
import { readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
const root = process.cwd();
for (const f of process.argv.slice(2)) {
  const out = ts.transpileModule(readFileSync(f, "utf8"), { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, experimentalDecorators: true, emitDecoratorMetadata: true, verbatimModuleSyntax: false }, fileName: f });
  const dest = join(root, "dist", f.replace(/\.ts$/, ".js"));
  mkdirSync(dirname(dest), { recursive: true });
  writeFileSync(dest, out.outputText);
}
