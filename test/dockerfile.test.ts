/**
 * The Dockerfile's build stage compiles only the source folders the package ships: every `dist/<dir>`
 * in package.json `files` must be copied in and listed in the image's tsconfig, or the image build
 * fails on a missing module (as it did when `api/` became the main entry).
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { readFileSync } from "node:fs";
import { repoRoot } from "./helpers/cli.js";

const dockerfile = readFileSync(`${repoRoot}/Dockerfile`, "utf8");
const pkg = JSON.parse(readFileSync(`${repoRoot}/package.json`, "utf8")) as { files: string[] };
const shipped = pkg.files.map((f) => /^dist\/([\w-]+)$/.exec(f)?.[1]).filter((d): d is string => !!d);
const copied = [...dockerfile.matchAll(/^COPY (\S+) \1$/gm)].map((m) => m[1]);
const included = JSON.parse(/"include":(\[[^\]]*\])/.exec(dockerfile)?.[1] ?? "[]") as string[];

test("every compiled folder the package ships is copied into the build stage and compiled", () => {
  assert.ok(shipped.length >= 4, `package.json files lists dist folders: ${shipped}`);
  for (const dir of shipped) {
    assert.ok(copied.includes(dir), `Dockerfile does not COPY ${dir}`);
    assert.ok(included.includes(dir), `tsconfig.image.json does not include ${dir}`);
  }
});

test.run();
