import { test } from "uvu";
import * as assert from "uvu/assert";
import { existsSync, readdirSync } from "node:fs";
import { checkPipelineName, checkRelativePath } from "svc/internal";
import { withPipelineKernel, wrapper } from "../helpers/pipelines.js";

test("names that cannot survive a restart or a copy to Windows are refused; others pass", () => {
  for (const name of ["node_modules", "NODE_MODULES", "con", "CON", "Nul", "aux", "prn", "com1", "COM9", "lpt1", "Lpt3"]) {
    assert.throws(() => checkPipelineName(name), /Invalid pipeline name/, name);
  }
  for (const name of ["console", "comet", "com10", "nullable", "auxiliary", "node-modules", "lpt"]) assert.is(checkPipelineName(name), name);
  for (const path of ["con.ts", "lib/NUL.txt", "Aux.tar.gz", "com1/x.ts", "lib/notes.", "lib/trailing "]) {
    assert.throws(() => checkRelativePath(path), /Invalid file path/, path);
  }
  assert.is(checkRelativePath("lib/console.ts"), "lib/console.ts");
  assert.is(checkRelativePath("lib/.env.example"), "lib/.env.example");
});

test("deploying node_modules or con answers 400 and writes nothing", () =>
  withPipelineKernel(async (k) => {
    for (const name of ["node_modules", "con", "COM1"]) {
      const res = await k.deploy({ name, files: { "pipeline_wrapper.ts": wrapper("runApi() { return 1; }") } });
      assert.is(res.status, 400, name);
      assert.match(res.body.error.message, new RegExp(`Invalid pipeline name '${name}'`));
    }
    const file = await k.deploy({ name: "ok", files: { "pipeline_wrapper.ts": wrapper("runApi() { return 1; }"), "nul.txt": "x" } });
    assert.is(file.status, 400);
    assert.match(file.body.error.message, /Invalid file path 'nul.txt': 'nul.txt': it is a device name on Windows/);
    assert.ok(!existsSync(k.dir) || readdirSync(k.dir).length === 0, "nothing written");
  }));

test.run();
