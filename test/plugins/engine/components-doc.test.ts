import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { createRegistry } from "svc/engine";
import { repoRoot } from "../../helpers/cli.js";

test("docs/engine-components.md names every registered component type", () => {
  const doc = readFileSync(join(repoRoot, "docs", "engine-components.md"), "utf8");
  for (const type of createRegistry().components.canonicalTypes()) {
    const shown = type.startsWith("haystack.testing.sample_components.") ? type.split(".").pop()! : type;
    assert.ok(doc.includes(shown), `${type} is missing from docs/engine-components.md`);
  }
});

test.run();
