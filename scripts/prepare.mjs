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

// tsc, then tsc-alias: compiled files import the package as `svc` (tsconfig paths); tsc-alias
// turns those into relative paths, so they load under the published name too.
const require = createRequire(import.meta.url);
for (const bin of ["typescript/bin/tsc", "tsc-alias/dist/bin/index.js"]) {
  const { status, signal } = spawnSync(process.execPath, [require.resolve(bin), "-p", "tsconfig.json"], { cwd: root, stdio: "inherit" });
  if (signal) process.kill(process.pid, signal);
  if (status !== 0) process.exit(status ?? 1);
}
