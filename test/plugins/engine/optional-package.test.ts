import { test } from "uvu";
import * as assert from "uvu/assert";
import { readFileSync } from "node:fs";
import { packageInfo } from "svc/plugin";
import { importOptional, installSpec } from "../../../plugins/engine/components/optional-package.js";
import { repoRoot } from "../../helpers/cli.js";

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

test("the install hint names the range svc's package.json declares for the peer", () => {
  const pkg = JSON.parse(readFileSync(`${repoRoot}package.json`, "utf8")) as { name: string; version: string; peerDependencies: Record<string, string> };
  assert.is(packageInfo().name, pkg.name);
  assert.is(packageInfo().version, pkg.version);
  const peers = Object.entries(pkg.peerDependencies);
  assert.ok(peers.length > 0);
  for (const [name, range] of peers) {
    const spec = installSpec(name);
    assert.ok(spec === `${name}@${range}` || spec === `${name}@"${range}"`, spec);
    if (/[<>\s]/.test(range)) assert.is(spec, `${name}@"${range}"`, "a range the shell would misread is quoted");
  }
  assert.is(installSpec("svc-test-package-that-is-not-installed"), "svc-test-package-that-is-not-installed", "not a declared peer: the bare name");
});

test("an installed optional package is imported", async () => {
  const valibot = await importOptional<typeof import("valibot")>("valibot", "SomeComponent");
  assert.type(valibot.object, "function");
});

test.run();
