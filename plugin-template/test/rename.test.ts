import { test } from "uvu";
import * as assert from "uvu/assert";
import { execFile } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { packageName, templateRoot } from "./template-files.js";

const run = promisify(execFile);

/** A copy of the files the rename script edits, so the real template stays as it is. */
function copyOfTemplate(): string {
  const dir = mkdtempSync(join(tmpdir(), "svc-plugin-rename-"));
  for (const file of ["package.json", "index.ts", "README.md", "scripts"]) cpSync(join(templateRoot, file), join(dir, file), { recursive: true });
  return dir;
}

const rename = (dir: string, name: string) => run(process.execPath, [join(dir, "scripts", "rename.mjs"), name]);

test("npm run rename gives package.json, the plugin and the README the new name", async () => {
  const dir = copyOfTemplate();
  try {
    const { stdout } = await rename(dir, "@rename-test/first-name");
    assert.match(stdout, `renamed ${packageName} → @rename-test/first-name`);
    assert.is(JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).name, "@rename-test/first-name");
    const index = readFileSync(join(dir, "index.ts"), "utf8");
    assert.match(index, `name: "@rename-test/first-name"`);
    const readme = readFileSync(join(dir, "README.md"), "utf8");
    assert.match(readme, /^# @rename-test\/first-name$/m);
    assert.match(readme, "| @rename-test/first-name |", "the settings table's owner");
    for (const text of [index, readme]) assert.not.ok(text.includes(packageName), "nothing keeps the old name");
    // Renaming again works from the new name.
    await rename(dir, "second-name");
    assert.is(JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).name, "second-name");
    assert.match(readFileSync(join(dir, "index.ts"), "utf8"), `name: "second-name"`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a name npm would refuse is refused, and nothing changes", async () => {
  const dir = copyOfTemplate();
  try {
    for (const bad of ["", "Has Capitals", "@scope", "../escape"]) {
      const error = await rename(dir, bad).then(() => undefined, (e: { code: number; stderr: string }) => e);
      assert.is(error?.code, 2, bad);
      assert.match(error!.stderr, /usage: npm run rename -- <package-name>/);
    }
    assert.is(JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).name, packageName);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
