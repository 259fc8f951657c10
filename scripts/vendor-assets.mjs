#!/usr/bin/env node
// `npm pack`'s step (prepack): copies ReDoc's standalone bundle (and its licences) next to the
// compiled openapi plugin, so the package serves /redoc without depending on `redoc`, whose
// library dependencies (React, styled-components, core-js, …; ~65 MB) the bundle does not need.
import { copyFileSync, mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const redoc = dirname(createRequire(import.meta.url).resolve("redoc/package.json"));
const target = join(root, "dist/plugins/openapi/vendor/redoc");
mkdirSync(target, { recursive: true });
for (const file of ["LICENSE", "package.json", "bundles/redoc.standalone.js", "bundles/redoc.standalone.js.LICENSE.txt"]) {
  mkdirSync(dirname(join(target, file)), { recursive: true });
  copyFileSync(join(redoc, file), join(target, file));
}
