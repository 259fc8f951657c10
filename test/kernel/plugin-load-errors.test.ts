import { test } from "uvu";
import * as assert from "uvu/assert";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadPlugins } from "svc/internal";
import { rejects } from "../helpers/rejects.js";
import { tempDir } from "../helpers/pipelines.js";

test("a plugin package that is not installed: a message saying what to install, no loader require stack", async () => {
  const cwd = tempDir();
  const error = await rejects(() => loadPlugins([{ use: "svc-plugin-not-installed-xyz", from: "the test" }], { cwd }), /failed to load/);
  assert.is(
    error.message,
    `Plugin 'svc-plugin-not-installed-xyz' failed to load: the package 'svc-plugin-not-installed-xyz' is not installed where svc looks for it (${cwd}): run \`npm install svc-plugin-not-installed-xyz\` there, or give the plugin's path`,
  );
  assert.not.match(error.message, /Require stack|__svc_loader__/);
});

test("a plugin file importing a missing package names that package", async () => {
  const cwd = tempDir();
  writeFileSync(join(cwd, "plugin.ts"), 'import "no-such-dep-xyz";\nexport default { name: "p", setup() {} };\n');
  const error = await rejects(() => loadPlugins([{ use: "./plugin.ts", from: "the test" }], { cwd }), /failed to load/);
  assert.match(error.message, /it imports 'no-such-dep-xyz', which is not installed: run `npm install no-such-dep-xyz` where svc runs/);
  assert.not.match(error.message, /Require stack|__svc_loader__/);
});

test.run();
