import { test } from "uvu";
import * as assert from "uvu/assert";
import { spawn } from "node:child_process";
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { cleanEnv, groupGone, repoRoot, startCommand } from "./helpers/cli.js";
import { tempDir } from "./helpers/pipelines.js";

// The README's quick start (the block marked <!-- example: quick-start -->) as a user types it after `npm install`: its run command serves without
// building anything, also right after a first try that was interrupted with Ctrl-C.

const readme = readFileSync(join(repoRoot, "README.md"), "utf8");
const quickStart = /## Quick start\n+(?:<!--[^\n]*-->\n)?```sh\n([\s\S]*?)```/.exec(readme)![1]!;
/** The quick start's line that serves, without its comment. */
const runCommand = quickStart
  .split("\n")
  .find((line) => /serves on/.test(line))!
  .split("#")[0]!
  .trim();
// npm's own cache (and its npx cache) is a fresh one, as on a fresh machine, and not the user's.
const env = { SERVICE_HOST: "127.0.0.1", SERVICE_PORT: "0", npm_config_cache: join(tempDir(), "npm-cache") };
const builtAt = () => statSync(join(repoRoot, "dist/cli/index.js")).mtimeMs;

test("the README's quick start has install, run and test commands", () => {
  assert.match(quickStart, /^npm install\b/m);
  assert.ok(runCommand, "a line that serves");
  assert.match(quickStart, /^npm test\b/m);
});

test("the quick start's run command serves, also after a Ctrl-C in its first second, and builds nothing", async () => {
  const before = builtAt();

  // A first try, interrupted in its first second the way Ctrl-C does it: SIGINT to the whole
  // process group (the shell, npm and whatever npm started).
  const first = spawn(runCommand, { shell: true, detached: true, cwd: repoRoot, env: cleanEnv(env), stdio: "ignore" });
  await sleep(500);
  process.kill(-first.pid!, "SIGINT");
  assert.ok(await groupGone(first.pid!), "Ctrl-C stops the first try and everything it started");

  const svc = await startCommand(runCommand, { env, ms: 60_000 });
  try {
    const status = (await (await fetch(`${svc.url}/status`)).json()) as { status: string; pipelines: string[] };
    assert.is(status.status, "Up!");
    assert.ok(status.pipelines.includes("text_stats"), "the example pipelines are deployed");
  } finally {
    await svc.stop("SIGINT"); // throws if Ctrl-C leaves anything running
  }
  assert.is(builtAt(), before, "dist/ was not rebuilt");
});

test.run();
