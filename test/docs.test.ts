import { test } from "uvu";
import * as assert from "uvu/assert";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { knownSettings as settingFields } from "../cli/cli-settings.js";
import { repoRoot } from "./helpers/cli.js";

const read = (file: string) => readFileSync(join(repoRoot, file), "utf8");

test("docs/configuration.md's settings table lists every setting, between its markers", () => {
  const page = read("docs/configuration.md");
  const table = /<!-- settings:start -->\n([\s\S]*?)<!-- settings:end -->/.exec(page)?.[1];
  assert.ok(table, "the table sits between <!-- settings:start --> and <!-- settings:end -->");
  for (const [key, field] of Object.entries(settingFields)) {
    assert.ok(table.includes(`| \`${field.env}\``), `${field.env} missing from docs/configuration.md`);
    assert.ok(table.includes(`\`${key}\``), `config key ${key} missing from docs/configuration.md`);
  }
});

test("the README keeps the quick start and links the pages the team relies on", () => {
  const readme = read("README.md");
  for (const text of ["npm install", "npm start", "npm test", "(docs/writing-plugins.md)", "(docs/architecture.md)", "(docs/configuration.md)"]) {
    assert.ok(readme.includes(text), text);
  }
  const plugins = read("docs/writing-plugins.md");
  for (const text of ["## Writing a plugin", "## Embedding the kernel in a host app", "## Hook points", "## DI tokens"]) assert.ok(plugins.includes(text), text);
  assert.ok(read("docs/architecture.md").includes("## Layout"), "## Layout");
});

test.run();
