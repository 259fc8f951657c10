// Rewrites the configuration table of the settings doc from the merged settings table
// (run after a build: it reads dist/). `--check` exits 1 when the committed table differs.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(fileURLToPath(import.meta.url), "..", "..");
const { knownSettingTables, SETTINGS_DOC_FILE } = await import(join(root, "dist/cli/cli-settings.js"));
const { mergeSettings, withSettingsTable } = await import(join(root, "dist/kernel/index.js"));
const file = join(root, SETTINGS_DOC_FILE);
const doc = readFileSync(file, "utf8");
const next = withSettingsTable(doc, mergeSettings(knownSettingTables));
if (process.argv.includes("--check")) {
  if (next !== doc) {
    console.error(`${SETTINGS_DOC_FILE}: the settings table is out of date; run npm run docs:settings`);
    process.exit(1);
  }
} else if (next !== doc) {
  writeFileSync(file, next);
  console.log(`${SETTINGS_DOC_FILE}: settings table rewritten`);
}
