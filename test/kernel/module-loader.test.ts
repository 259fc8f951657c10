import { test } from "uvu";
import * as assert from "uvu/assert";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import * as svc from "svc/plugin";
import * as valibot from "valibot";
import { createModuleLoader } from "../../kernel/module-loader.js";
import { tempDir } from "../helpers/pipelines.js";

/** Writes `files` into a fresh folder and loads `entry` from it as a wrapper is loaded. */
async function load(files: Record<string, string>, entry: string): Promise<Record<string, any>> {
  const dir = tempDir("svc-loader-");
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, ".."), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return (await createModuleLoader({ cwd: dir, fresh: true })(join(dir, entry))) as Record<string, any>;
}

const unique = () => `// ${process.pid}-${Math.random()}\n`; // a source never compiled before

test("valibot by name, as a namespace and through require() is the kernel's own module", async () => {
  const m = await load(
    { "w.ts": unique() + 'import { object, string } from "valibot";\nimport * as v from "valibot";\nexport const named = { object, string };\nexport const all = v;\n' },
    "w.ts",
  );
  assert.is(m.named.object, valibot.object);
  assert.is(m.named.string, valibot.string);
  assert.is(m.all.object, valibot.object);
  const c = await load({ "c.cjs": unique() + 'const v = require("valibot");\nexports.object = v.object;\nexports.parsed = v.parse(v.object({ a: v.number() }), { a: 1 });\n' }, "c.cjs");
  assert.is(c.object, valibot.object);
  assert.equal(c.parsed, { a: 1 });
});

test("TypeScript: types, enums, parameter properties, class fields, imports of svc and valibot, relative and .mjs files", async () => {
  const m = await load(
    {
      "lib/helper.ts": unique() + 'export enum Mode { A = "a", B = "b" }\nexport const double = (n: number): number => n * 2;\nexport default function greet(name: string) { return `hi ${name}`; }\n',
      "lib/plain.mjs": 'export const plain = "mjs";\n',
      "main.ts": [
        unique(),
        'import greet, { double, Mode } from "./lib/helper";',
        'import type { Nothing } from "./missing-types-only";',
        'import * as v from "valibot";',
        'import { BasePipelineWrapper, type RunContext } from "svc";',
        'import { plain } from "./lib/plain.mjs";',
        'export { double as twice } from "./lib/helper";',
        'export * from "./lib/plain.mjs";',
        'export * as helper from "./lib/helper";',
        "class Base { constructor(protected readonly n: number) {} }",
        "export class Thing extends Base { declare d: number; f!: string; static s = 1 satisfies number; get value() { return this.n; } }",
        "export const Base_ = BasePipelineWrapper; export const v_ = v;",
        "export const info = { greet: greet(\"x\"), doubled: double(2), mode: Mode.B, plain, n: (null as unknown as number) ?? 1 };",
        'export const later = () => import("./lib/plain.mjs").then((m) => m.plain);',
        "export const meta = { url: import.meta.url, dirname: import.meta.dirname, filename: import.meta.filename };",
      ].join("\n"),
    },
    "main.ts",
  );
  assert.equal(m.info, { greet: "hi x", doubled: 4, mode: "b", plain: "mjs", n: 1 });
  assert.is(m.Base_, svc.BasePipelineWrapper, "svc is the running kernel's own module");
  assert.is(m.v_.object, valibot.object, "so is valibot");
  assert.is(m.twice(4), 8);
  assert.is(m.plain, "mjs");
  assert.is(m.helper.double(3), 6);
  assert.is(await m.later(), "mjs");
  const thing = new m.Thing(3);
  assert.is(thing.value, 3);
  assert.equal(Object.keys(thing), ["n", "f"], "class fields are defined, `declare` ones are not");
  assert.is(m.meta.url, pathToFileURL(m.meta.filename).href);
  assert.ok(m.meta.filename.endsWith("main.ts") && m.meta.dirname === join(m.meta.filename, ".."));
});

test("decorators and namespaces, which sucrase does not compile, still work (Babel)", async () => {
  const m = await load(
    {
      "main.ts": unique() + [
        "function tagged(target: any) { target.tagged = true; }",
        "@tagged export class D {}",
        "namespace Space { export const x = 1; }",
        "export const result = { tagged: (D as any).tagged, x: Space.x };",
      ].join("\n"),
    },
    "main.ts",
  );
  assert.equal(m.result, { tagged: true, x: 1 });
});

test("plain JavaScript, ESM and CommonJS", async () => {
  assert.is((await load({ "a.js": unique() + "export const a = 1;" }, "a.js")).a, 1);
  assert.is((await load({ "b.cjs": unique() + "module.exports = { b: 2 };" }, "b.cjs")).b, 2);
});

test("a syntax error names the file, line and column", async () => {
  const error = await load({ "bad.ts": "export class PipelineWrapper {\n  runApi( { }\n" }, "bad.ts").then(
    () => undefined,
    (e: Error) => e,
  );
  assert.ok(error, "loading fails");
  assert.match(error!.message, /bad\.ts:3:\d+/);
});

test("the same source in many folders compiles to the same working module each time", async () => {
  const source = unique() + 'import { BasePipelineWrapper } from "svc";\nexport class PipelineWrapper extends BasePipelineWrapper { runApi(input: object) { return { input, file: import.meta.filename }; } }\n';
  const loaded = await Promise.all([1, 2, 3].map(() => load({ "pipeline_wrapper.ts": source }, "pipeline_wrapper.ts")));
  const files = loaded.map((m) => new m.PipelineWrapper().runApi({}).file as string);
  assert.is(new Set(files).size, 3, "import.meta is each file's own");
});

test.run();
