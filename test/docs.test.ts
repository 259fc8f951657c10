import { test } from "uvu";
import * as assert from "uvu/assert";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { knownSettings as settingFields } from "../cli/cli-settings.js";
import { repoRoot } from "./helpers/cli.js";

const readme = readFileSync(join(repoRoot, "README.md"), "utf8");

test("the README's configuration table lists every setting", () => {
  for (const [key, field] of Object.entries(settingFields)) {
    assert.ok(readme.includes(`| \`${field.env}\``), `${field.env} missing from README`);
    assert.ok(readme.includes(`\`${key}\``), `config key ${key} missing from README`);
  }
});

test("the README keeps the quick start and the sections the team relies on", () => {
  for (const text of ["npm install", "npm start", "npm test", "## Writing a plugin", "## Embedding the kernel in a host app", "## Layout"]) {
    assert.ok(readme.includes(text), text);
  }
});

test.run();
