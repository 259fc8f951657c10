/**
 * @module The template's own files (package.json, README.md, scripts/), from its compiled tests:
 * built on its own they sit two folders up (`dist/test/`); inside the svc repository, whose build
 * puts them in `dist/plugin-template/test/`, in `plugin-template/`.
 */
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const roots = ["../../", "../../../plugin-template/"].map((up) => new URL(up, import.meta.url));

/** The template's source folder (the one holding its package.json). */
export const templateRoot: string = fileURLToPath(roots.find((root) => existsSync(new URL("package.json", root))) ?? roots[0]!);

/** The package name, which is also the plugin's name: the tests follow a rename. */
export const packageName: string = (JSON.parse(readFileSync(`${templateRoot}package.json`, "utf8")) as { name: string }).name;

/** `text` as a literal pattern inside a RegExp. */
export const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
