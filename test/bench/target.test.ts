import { test } from "uvu";
import * as assert from "uvu/assert";
import { once } from "node:events";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { startTarget } from "../../bench/target.js";
import { tempDir } from "../helpers/pipelines.js";
import { rejects } from "../helpers/rejects.js";

// One script, four behaviours: die at startup, never say its port, start and answer `cpu`, or print its port in colour.
const script = join(tempDir(), "target.mjs");
writeFileSync(
  script,
  `process.on("message", () => process.send(process.cpuUsage()));
const mode = process.argv[2];
if (mode === "die") {
  console.log("loading plugins");
  console.error("Error: plugin 'x' failed to set up");
  process.exit(3);
}
if (mode === "silent") setInterval(() => {}, 1000);
if (mode === "ok") { console.log("a log line first"); console.log(4321); }
if (mode === "coloured") process.stdout.write("\\x1b[33m4322\\x1b[39m\\n");
`,
);

test("a target that dies at startup fails with its exit code and its output", async () => {
  const error = await rejects(() => startTarget(script, ["die"]), /exited with code 3/);
  assert.match(error.message, /plugin 'x' failed to set up/);
  assert.match(error.message, /loading plugins/);
});

test("a target that never prints its port fails and is stopped", async () => {
  await rejects(() => startTarget(script, ["silent"], 1_000), /printed no port/);
});

test("a started target answers cpu; once it dies, cpu fails instead of waiting", async () => {
  const target = await startTarget(script, ["ok"]);
  assert.is(target.port, 4321, "the port line, not the log line before it");
  assert.type(await target.cpu(), "number");
  const exited = once(target.child, "exit");
  target.kill();
  await exited;
  await rejects(() => target.cpu(), /killed by SIGKILL/);
});

test("a port printed in colour (a number logged with FORCE_COLOR set) is still read", async () => {
  const target = await startTarget(script, ["coloured"]);
  assert.is(target.port, 4322);
  const exited = once(target.child, "exit");
  target.kill();
  await exited;
});

test.run();
