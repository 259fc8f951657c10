#!/usr/bin/env node
// `npm install`'s build of dist/. npm also runs `prepare` when `npx svc` is typed inside this
// checkout: npx links the checkout into its own cache first, and a rebuild there would keep the
// command silent for a minute (a Ctrl-C in that minute leaves npx's cache broken). dist/ is built
// by then, so that run does nothing.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
if (process.env.npm_command === "exec" && existsSync(new URL("../dist/cli/index.js", import.meta.url))) process.exit(0);

// tsc, then the rewrite of `svc` imports into relative paths (scripts/resolve-self-imports.mjs),
// so compiled files load under the published name too.
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
for (const args of [[tsc, "-p", "tsconfig.json"], [fileURLToPath(new URL("resolve-self-imports.mjs", import.meta.url))]]) {
  const { status, signal } = spawnSync(process.execPath, args, { cwd: root, stdio: "inherit" });
  if (signal) process.kill(process.pid, signal);
  if (status !== 0) process.exit(status ?? 1);
}
