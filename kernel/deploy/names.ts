/**
 * @module Pipeline names and deploy file paths, checked before anything touches the disk.
 */
import { posix } from "node:path";
import { deployErrors } from "./deploy-errors.js";

const NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

/**
 * Windows device names: a file or folder called so (in any case, with any extension: `con`,
 * `Nul.txt`, `com1.tar.gz`) cannot be created there, so a pipelines folder holding one cannot be
 * copied to or restored on Windows.
 */
const DEVICE_NAME = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³]|conin\$|conout\$)(\.|$)/i;

/** Folders the startup deploy skips (pipelines-dir entries that are never pipelines). */
const SKIPPED_FOLDERS = new Set(["node_modules"]);

/** Why `segment` (one file or folder name) cannot survive a restart or a copy to another OS. */
function unportable(segment: string): string | undefined {
  if (DEVICE_NAME.test(segment)) return "it is a device name on Windows (CON, PRN, AUX, NUL, COM1–9, LPT1–9, with any extension)";
  if (/[. ]$/.test(segment)) return "a name ending in '.' or a space cannot be stored on Windows";
  return undefined;
}

/**
 * The words pipeline names may not take: the first segment of every route registered (lower case;
 * `/openapi.json` reserves `openapi` too), so a pipeline never shadows a route of a loaded plugin.
 */
export function routeWords(paths: Iterable<string>): Set<string> {
  const words = new Set<string>();
  for (const path of paths) {
    const first = path.split("/").find(Boolean)?.toLowerCase();
    if (!first || first.startsWith(":") || first.startsWith("*")) continue;
    words.add(first).add(first.split(".")[0]!);
  }
  return words;
}

/** A valid pipeline name, not one of the `reserved` route words (see `routeWords`). */
export function checkPipelineName(name: unknown, reserved: ReadonlySet<string> = new Set()): string {
  if (typeof name !== "string" || name === "") throw deployErrors.invalidName(String(name ?? ""), "a name is required");
  if (!NAME.test(name)) {
    throw deployErrors.invalidName(name, "use 1–64 letters, digits, '_' or '-', starting with a letter or digit");
  }
  if (reserved.has(name.toLowerCase())) throw deployErrors.invalidName(name, "it is a reserved route word");
  if (SKIPPED_FOLDERS.has(name.toLowerCase())) throw deployErrors.invalidName(name, "the startup deploy skips a folder of that name, so it would vanish on restart");
  const why = unportable(name);
  if (why) throw deployErrors.invalidName(name, why);
  return name;
}

const MAX_PATH = 255;

/** A relative POSIX path inside the pipeline folder: never absolute, never `..`, no odd characters. */
export function checkRelativePath(path: unknown): string {
  const p = String(path ?? "");
  if (p === "") throw deployErrors.invalidPath(p, "empty");
  if (p.length > MAX_PATH) throw deployErrors.invalidPath(p.slice(0, 40) + "…", `longer than ${MAX_PATH} characters`);
  // A lone surrogate is no character: the file system would store U+FFFD, another name.
  if (/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(p)) throw deployErrors.invalidPath(p, "not valid Unicode (a lone surrogate)");
  if (/[\u0000-\u001f\\:*?"<>|]/.test(p)) throw deployErrors.invalidPath(p, "contains a control character or one of \\ : * ? \" < > |");
  if (p.startsWith("/") || /^[A-Za-z]:/.test(p)) throw deployErrors.invalidPath(p, "absolute paths are not allowed");
  if (p.split("/").includes("..")) throw deployErrors.invalidPath(p, "'..' is not allowed");
  const normal = posix.normalize(p).replace(/^(\.\/)+/, "");
  if (normal === "." || normal.endsWith("/")) throw deployErrors.invalidPath(p, "not a file path");
  for (const segment of normal.split("/")) {
    const why = unportable(segment);
    if (why) throw deployErrors.invalidPath(p, `'${segment}': ${why}`);
  }
  return normal;
}
