/**
 * @module Where the UI's static files are. tsc compiles only `.ts`, so `static/` stays in the
 * source tree (shipped through package.json `files`): beside this module when it runs from source,
 * `<package root>/plugins/chat-ui/static` when it runs from `dist/`.
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const CANDIDATES = [new URL("./static/", import.meta.url), new URL("../../../plugins/chat-ui/static/", import.meta.url)];

/** The static folder; throws naming the places looked at when the package lacks it. */
export function staticDir(): string {
  for (const url of CANDIDATES) {
    const dir = fileURLToPath(url);
    if (existsSync(`${dir}app.js`)) return dir;
  }
  throw new Error(`The chat UI's static files are missing (looked in ${CANDIDATES.map((u) => fileURLToPath(u)).join(", ")})`);
}
