import { test } from "uvu";
import * as assert from "uvu/assert";
import { importOptional } from "../../../plugins/engine/components/optional-package.js";

test("a missing optional package is an error that says what to install", async () => {
  const pkg = "svc-test-package-that-is-not-installed";
  try {
    await importOptional(pkg, "SomeComponent");
    assert.unreachable("the import resolved");
  } catch (error) {
    const message = (error as Error).message;
    assert.match(message, "SomeComponent needs the optional package");
    assert.match(message, `npm install ${pkg}`);
  }
});

test("an installed optional package is imported", async () => {
  const valibot = await importOptional<typeof import("valibot")>("valibot", "SomeComponent");
  assert.type(valibot.object, "function");
});

test.run();
