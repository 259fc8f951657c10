#!/usr/bin/env node
// `npm run rename -- <new-name>`: gives the template your package name. The name is the plugin's
// `name` too (it names your logs, taps and errors), so it changes together in package.json,
// index.ts and README.md; the tests read it from package.json and follow. Route prefix, setting
// and environment variable names are yours to change by hand.
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const to = process.argv[2];
// npm's rules for a package name: lowercase, URL-safe, optionally scoped, at most 214 characters.
if (!to || to.length > 214 || !/^(@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*$/.test(to)) {
  console.error(`usage: npm run rename -- <package-name>   (lowercase, optionally @scope/name; got ${JSON.stringify(to ?? "")})`);
  process.exit(2);
}
const pkg = JSON.parse(readFileSync(`${root}package.json`, "utf8"));
const from = pkg.name;
if (from === to) {
  console.log(`already named ${to}`);
  process.exit(0);
}
const quoted = (s) => new RegExp(`(["'\`])${s.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}\\1`, "g");
const edits = {
  "package.json": (text) => text.replace(`"name": ${JSON.stringify(from)}`, `"name": ${JSON.stringify(to)}`),
  // Only the quoted name: the plugin's `name: "…"`.
  "index.ts": (text) => text.replace(quoted(from), `$1${to}$1`),
  // Title, error examples and the generated settings table's "Declared by" column.
  "README.md": (text) => text.split(from).join(to),
};
for (const [file, edit] of Object.entries(edits)) {
  const before = readFileSync(`${root}${file}`, "utf8");
  const after = edit(before);
  if (after === before) {
    console.error(`${file} does not name ${from}: rename it there by hand`);
    process.exitCode = 1;
  }
  writeFileSync(`${root}${file}`, after);
}
console.log(`renamed ${from} → ${to}`);
