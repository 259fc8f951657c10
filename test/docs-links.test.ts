/**
 * Every relative link in README.md and docs/*.md points at a file that exists and, for a link
 * into a Markdown page, at one of its headings.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { existsSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";
import { repoRoot } from "./helpers/cli.js";
import { anchors, docPages, readDoc, relativeLinks } from "./helpers/docs.js";

test("every relative link of the README and the docs reaches a file and an anchor", () => {
  const broken: string[] = [];
  for (const page of docPages()) {
    for (const { target, line } of relativeLinks(page)) {
      const [path, anchor] = target.split("#") as [string, string | undefined];
      const file = path ? relative(repoRoot, normalize(join(repoRoot, dirname(page), path))) : page;
      if (!existsSync(join(repoRoot, file))) {
        broken.push(`${page}:${line}: ${target}: no file ${file}`);
        continue;
      }
      if (anchor && file.endsWith(".md") && !anchors(file).has(anchor)) broken.push(`${page}:${line}: ${target}: no heading #${anchor} in ${file}`);
    }
  }
  assert.equal(broken, []);
});

test("every file of the repository docs/architecture.md names exists", () => {
  const page = readDoc("docs/architecture.md");
  const paths = [...page.matchAll(/`((?:kernel|plugins|cli|test|bench|scripts)\/[\w./-]+)`/g)].map((m) => m[1]!);
  assert.ok(paths.length > 20, "the walk names its files");
  assert.equal(paths.filter((path) => !existsSync(join(repoRoot, path))), []);
});

test("the link check sees a broken link", () => {
  assert.ok(relativeLinks("README.md").length > 10, "the README links the docs");
  assert.ok(anchors("docs/wrappers.md").has("the-wrapper-contract"));
  assert.not.ok(anchors("docs/wrappers.md").has("no-such-heading"));
});

test.run();
