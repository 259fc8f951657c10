import { test } from "uvu";
import * as assert from "uvu/assert";
import { existsSync, mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import openaiPlugin from "svc/openai";
import openapiPlugin from "../../../plugins/openapi/index.js";
import { startPipelineKernel, tempDir, withPipelineKernel, wrapper } from "../../helpers/pipelines.js";

const ok = wrapper(`runApi(input: { question: string }) { return "v1:" + input.question; }`);

const withKernel = withPipelineKernel;

/** The pipelines directory without the hidden copies served pipelines run from (`.svc-live.*`). */
const savedEntries = (dir: string) => readdirSync(dir).filter((e) => !e.startsWith(".svc-live."));
const liveCopies = (dir: string) => readdirSync(dir).filter((e) => e.startsWith(".svc-live."));

test("deploy, status, run, undeploy", () =>
  withKernel(async (k) => {
    const res = await k.deploy({ name: "qa", files: { "pipeline_wrapper.ts": ok } });
    assert.is(res.status, 200);
    assert.equal(res.body, { status: "success", message: "Pipeline 'qa' successfully deployed", name: "qa" });
    assert.ok(existsSync(join(k.dir, "qa", "pipeline_wrapper.ts")), "saved by default");
    const status = await (await fetch(`${k.url}/status`)).json();
    assert.equal({ status: status.status, pipelines: status.pipelines }, { status: "Up!", pipelines: ["qa"] });
    assert.equal({ mode: status.cluster.mode, connected: status.cluster.connected }, { mode: "single", connected: true });
    assert.equal(await (await fetch(`${k.url}/status/qa`)).json(), { status: "Up!", pipeline: "qa" });
    assert.equal((await k.run("qa", { question: "hi" })).body, { result: "v1:hi" });
    const un = await fetch(`${k.url}/undeploy/qa`, { method: "POST" });
    assert.equal(await un.json(), { status: "success", message: "Pipeline 'qa' successfully undeployed", name: "qa" });
    assert.not.ok(existsSync(join(k.dir, "qa")), "saved files removed");
    assert.is((await k.run("qa", { question: "hi" })).status, 404);
    const missing = await fetch(`${k.url}/status/qa`);
    assert.is(missing.status, 404);
    assert.equal(await missing.json(), { error: { message: "Pipeline 'qa' not found", type: "invalid_request_error", code: 404 } });
    const again = await fetch(`${k.url}/undeploy/qa`, { method: "POST" });
    assert.is(again.status, 404);
  }));

test("relative imports, `svc` from anywhere, and the additional module path", async () => {
  const shared = tempDir("svc-shared-");
  writeFileSync(join(shared, "shout.ts"), `export const shout = (s: string) => s.toUpperCase() + "!";\n`);
  await withKernel(
    async (k) => {
      const files = {
        "pipeline_wrapper.ts": `import { BasePipelineWrapper } from "svc";
import { prefix } from "./lib/prefix.js";
import { shout } from "shout";
export class PipelineWrapper extends BasePipelineWrapper {
  runApi(input: { text: string }) { return prefix + shout(input.text); }
}`,
        "lib/prefix.ts": `export const prefix = "> ";\n`,
      };
      assert.is((await k.deploy({ name: "imports", files })).status, 200);
      assert.equal((await k.run("imports", { text: "hey" })).body, { result: "> HEY!" });
    },
    { settings: { additionalModulePath: shared } },
  );
});

test("overwrite swaps atomically: in-flight calls finish on the old instance", () =>
  withKernel(async (k) => {
    const slow = (tag: string) =>
      wrapper(`async runApi(input: { wait?: boolean }) {
    if (input.wait) await new Promise((r) => ((globalThis as any).__release = r));
    return "${tag}";
  }`);
    await k.deploy({ name: "swap", files: { "pipeline_wrapper.ts": slow("old") } });
    const inflight = k.run("swap", { wait: true });
    while (!(globalThis as any).__release) await new Promise((r) => setTimeout(r, 5));
    const re = await k.deploy({ name: "swap", files: { "pipeline_wrapper.ts": slow("new"), "extra.txt": "x" }, overwrite: true });
    assert.is(re.status, 200);
    assert.equal((await k.run("swap")).body, { result: "new" });
    (globalThis as any).__release();
    assert.equal((await inflight).body, { result: "old" });
    delete (globalThis as any).__release;
    assert.ok(existsSync(join(k.dir, "swap", "extra.txt")));
  }));

test("a redeploy picks up changed files, helpers included", () =>
  withKernel(async (k) => {
    const files = (n: number) => ({
      "pipeline_wrapper.ts": `import { BasePipelineWrapper } from "svc";
import { value } from "./value.js";
export class PipelineWrapper extends BasePipelineWrapper { runApi() { return value; } }`,
      "value.ts": `export const value = ${n};\n`,
    });
    await k.deploy({ name: "changing", files: files(1) });
    assert.equal((await k.run("changing")).body, { result: 1 });
    await k.deploy({ name: "changing", files: files(2), overwrite: true });
    assert.equal((await k.run("changing")).body, { result: 2 });
  }));

test("duplicate name without overwrite: 409 and nothing is written", () =>
  withKernel(async (k) => {
    await k.deploy({ name: "dup", files: { "pipeline_wrapper.ts": ok } });
    const res = await k.deploy({ name: "dup", files: { "pipeline_wrapper.ts": ok, "new.txt": "new" } });
    assert.is(res.status, 409);
    assert.equal(res.body, { error: { message: "Pipeline 'dup' already exists", type: "invalid_request_error", code: 409 } });
    assert.equal(readdirSync(join(k.dir, "dup")), ["pipeline_wrapper.ts"]);
    assert.equal(savedEntries(k.dir), ["dup"], "no staging left behind");
  }));

const contract: [string, Record<string, string>, RegExp][] = [
  ["no wrapper file", { "other.ts": "export {}" }, /^Missing required file: pipeline_wrapper\.ts or /],
  ["no PipelineWrapper export", { "pipeline_wrapper.ts": "export class Wrapper {}" }, /does not export a 'PipelineWrapper' class/],
  ["a missing import", { "pipeline_wrapper.ts": `import { x } from "./nope.js";\nexport class PipelineWrapper { runApi() { return x; } }` }, /^Failed to load pipeline module 'bad': .*nope/],
  ["a missing package", { "pipeline_wrapper.ts": `import x from "no-such-package-svc";\nexport class PipelineWrapper { runApi() { return x; } }` }, /^Failed to load pipeline module 'bad': .*no-such-package-svc/],
  ["a syntax error", { "pipeline_wrapper.ts": "export class PipelineWrapper { runApi( { }" }, /^Failed to load pipeline module 'bad': /],
  ["setup() with parameters", { "pipeline_wrapper.ts": wrapper("runApi() { return 1; }", "  setup(config: unknown) {}") }, /setup\(\) must take no parameters/],
  ["setup() with a defaulted parameter", { "pipeline_wrapper.ts": wrapper("runApi() { return 1; }", "  setup(config = {}) {}") }, /setup\(\) must take no parameters/],
  ["no run method", { "pipeline_wrapper.ts": wrapper("setup() {}") }, /At least one of runApi, runChatCompletion or runResponse must be implemented/],
  ["an inputSchema that is not a valibot object", { "pipeline_wrapper.ts": wrapper("runApi() { return 1; }", "  static inputSchema = v.string() as any;") }, /inputSchema must be a valibot object schema .*got a 'string' schema/],
  ["a plain-object inputSchema", { "pipeline_wrapper.ts": wrapper("runApi() { return 1; }", `  static inputSchema = { question: "string" } as any;`) }, /inputSchema must be a valibot object schema .*got object/],
  ["setup() throwing", { "pipeline_wrapper.ts": wrapper("runApi() { return 1; }", `  setup() { throw new Error("Setup failed!"); }`) }, /^Failed to call setup\(\) on pipeline wrapper instance: Setup failed!/],
  ["a throwing constructor", { "pipeline_wrapper.ts": wrapper("runApi() { return 1; }", `  constructor() { super(); throw new Error("no"); }`) }, /^Failed to create pipeline wrapper instance: no/],
];

test("every contract failure is a 422 naming the cause (a missing wrapper file: 400), and leaves nothing behind", () =>
  withKernel(async (k) => {
    for (const [what, files, pattern] of contract) {
      const res = await k.deploy({ name: "bad", files });
      assert.is(res.status, what === "no wrapper file" ? 400 : 422, what);
      assert.match(res.body.error.message, pattern, what);
      assert.is(res.body.error.type, "invalid_request_error");
      assert.not.ok(existsSync(join(k.dir, "bad")), `${what}: no files left`);
    }
    assert.equal((await (await fetch(`${k.url}/status`)).json()).pipelines, []);
  }));

test("a failed overwrite leaves the old version serving and its files in place", () =>
  withKernel(async (k) => {
    await k.deploy({ name: "keep", files: { "pipeline_wrapper.ts": ok, "notes.txt": "v1" } });
    const res = await k.deploy({ name: "keep", files: { "pipeline_wrapper.ts": "syntax error (" }, overwrite: true });
    assert.is(res.status, 422);
    assert.equal((await k.run("keep", { question: "q" })).body, { result: "v1:q" });
    assert.is(readFileSync(join(k.dir, "keep", "notes.txt"), "utf8"), "v1");
    assert.is(readFileSync(join(k.dir, "keep", "pipeline_wrapper.ts"), "utf8"), ok);
    assert.equal(savedEntries(k.dir), ["keep"]);
  }));

test("names equal to a loaded plugin's first route segment are refused; a plugin not loaded reserves none", async () => {
  const words = ["v1", "V1", "chat", "files", "models", "responses", "openapi", "docs", "redoc", "docs-assets"];
  await withKernel(
    async (k) => {
      for (const name of words) {
        const res = await k.deploy({ name, files: { "pipeline_wrapper.ts": ok } });
        assert.is(res.status, 400, name);
        assert.is(res.body.error.message, `Invalid pipeline name '${name}': it is a reserved route word`);
      }
      assert.not.ok(existsSync(k.dir) && readdirSync(k.dir).length, "nothing written");
    },
    { plugins: [openaiPlugin(), openapiPlugin()] },
  );
  // Without svc:openai and svc:openapi (and tracing, MCP, metrics…), their words are free names.
  await withKernel(async (k) => {
    for (const name of ["v1", "files", "openapi", "docs", "traces", "mcp", "metrics", "executions"]) {
      assert.is((await k.deploy({ name, files: { "pipeline_wrapper.ts": ok } })).status, 200, name);
      assert.equal((await k.run(name, { question: "q" })).body, { result: "v1:q" });
    }
  });
});

test("bad names and paths are refused before anything is written", () =>
  withKernel(async (k) => {
    const names = ["..", "../x", "a/b", "", "status", "deploy-yaml", "Deploy_Files", "undeploy", "x".repeat(65), "has space", "ünï", "-lead", ".hidden"];
    for (const name of names) {
      const res = await k.deploy({ name, files: { "pipeline_wrapper.ts": ok } });
      assert.is(res.status, 400, name);
      assert.match(res.body.error.message, /^Invalid pipeline name/, name);
    }
    const paths = ["../evil.ts", "/etc/passwd", "a/../../b.ts", "a/../b.ts", "a\\b.ts", "C:/x.ts", "x\u0000.ts", "dir/"];
    for (const path of paths) {
      const res = await k.deploy({ name: "paths", files: { "pipeline_wrapper.ts": ok, [path]: "x" } });
      assert.is(res.status, 400, path);
      assert.match(res.body.error.message, /^Invalid file path/, path);
    }
    const twice = await k.deploy({ name: "paths", files: { "pipeline_wrapper.ts": ok, "./pipeline_wrapper.ts": ok } });
    assert.match(twice.body.error.message, /given twice/);
    const conflict = await k.deploy({ name: "paths", files: { "pipeline_wrapper.ts": ok, a: "file", "a/b.ts": "x" } });
    assert.match(conflict.body.error.message, /'a' is also a file/);
    assert.ok(!existsSync(k.dir) || readdirSync(k.dir).length === 0, "nothing written");
  }));

test("a symlink in place of the pipeline folder is refused and its target untouched", () =>
  withKernel(async (k) => {
    const outside = tempDir("svc-outside-");
    writeFileSync(join(outside, "precious.txt"), "keep me");
    mkdirSync(k.dir, { recursive: true });
    symlinkSync(outside, join(k.dir, "linked"));
    const res = await k.deploy({ name: "linked", files: { "pipeline_wrapper.ts": ok } });
    assert.is(res.status, 400);
    assert.match(res.body.error.message, /symlink/);
    assert.equal(readdirSync(outside), ["precious.txt"]);
  }));

test("save_files false keeps the pipelines directory clean", () =>
  withKernel(async (k) => {
    const res = await k.deploy({ name: "ephemeral", files: { "pipeline_wrapper.ts": ok }, save_files: false });
    assert.is(res.status, 200);
    assert.ok(!existsSync(join(k.dir, "ephemeral")));
    assert.equal((await k.run("ephemeral", { question: "q" })).body, { result: "v1:q" });
  }));

test("concurrent deploys of one name are serialized: one wins, the other gets 409", () =>
  withKernel(async (k) => {
    const results = await Promise.all([1, 2, 3].map(() => k.deploy({ name: "race", files: { "pipeline_wrapper.ts": ok } })));
    assert.equal(results.map((r) => r.status).sort(), [200, 409, 409]);
    const overwrites = await Promise.all(
      ["a", "b", "c"].map((tag) => k.deploy({ name: "race", overwrite: true, files: { "pipeline_wrapper.ts": wrapper(`runApi() { return "${tag}"; }`) } })),
    );
    assert.equal(overwrites.map((r) => r.status), [200, 200, 200]);
    assert.equal((await k.run("race")).body, { result: "c" });
    assert.equal(savedEntries(k.dir), ["race"]);
    assert.is(liveCopies(k.dir).length, 1, "replaced versions' live copies are removed");
  }));

test("malformed deploy bodies: 400 naming the field", () =>
  withKernel(async (k) => {
    const res = await k.deploy({ name: "x", files: { "pipeline_wrapper.ts": 1 } });
    assert.is(res.status, 400);
    assert.match(res.body.error.message, /^Invalid request body: files\.pipeline_wrapper\.ts: /);
    const noName = await k.deploy({ files: {} });
    assert.match(noName.body.error.message, /name: /);
  }));

test("multipart /deploy-files: relative paths, flags, and bad input", () =>
  withKernel(async (k) => {
    const form = new FormData();
    form.set("name", "multi");
    form.set("description", "from a form");
    form.set("save_files", "true");
    form.append("files", new Blob([wrapper(`runApi() { return "multi"; }`)]), "pipeline_wrapper.ts");
    form.append("files", new Blob(["nested"]), "data/nested.txt");
    const res = await fetch(`${k.url}/deploy-files`, { method: "POST", body: form });
    assert.equal(await res.json(), { status: "success", message: "Pipeline 'multi' successfully deployed", name: "multi" });
    assert.is(readFileSync(join(k.dir, "multi", "data", "nested.txt"), "utf8"), "nested");
    assert.equal((await k.run("multi")).body, { result: "multi" });

    const evil = new FormData();
    evil.set("name", "evil");
    evil.append("files", new Blob([ok]), "pipeline_wrapper.ts");
    evil.append("files", new Blob(["x"]), "../../escape.txt");
    const bad = await fetch(`${k.url}/deploy-files`, { method: "POST", body: evil });
    assert.is(bad.status, 400);
    assert.match(((await bad.json()) as any).error.message, /Invalid file path '..\/..\/escape.txt'/);

    const flag = new FormData();
    flag.set("name", "flag");
    flag.set("overwrite", "perhaps");
    flag.append("files", new Blob([ok]), "pipeline_wrapper.ts");
    const badFlag = await fetch(`${k.url}/deploy-files`, { method: "POST", body: flag });
    assert.is(badFlag.status, 400);
    assert.match(((await badFlag.json()) as any).error.message, /overwrite: expected true or false/);

    const json = await fetch(`${k.url}/deploy-files`, { method: "POST", body: JSON.stringify({ name: "x" }), headers: { "content-type": "application/json" } });
    assert.is(json.status, 415);
  }));

test("oversize multipart deploys get 413", () =>
  withKernel(
    async (k) => {
      const form = new FormData();
      form.set("name", "big");
      form.append("files", new Blob([ok]), "pipeline_wrapper.ts");
      form.append("files", new Blob(["x".repeat(5000)]), "big.bin");
      const res = await fetch(`${k.url}/deploy-files`, { method: "POST", body: form });
      assert.is(res.status, 413);
      assert.match(((await res.json()) as any).error.message, /The file 'big.bin' exceeds the limit of 1000 bytes/);
    },
    { settings: { maxUploadFileBytes: 1000 } },
  ));

test("YAML deploys need a plugin for the yaml kind: 501 until one is loaded", () =>
  withKernel(async (k) => {
    const res = await fetch(`${k.url}/deploy-yaml`, { method: "POST", body: JSON.stringify({ name: "y", source_code: "components: {}" }) });
    assert.is(res.status, 501);
    assert.match(((await res.json()) as any).error.message, /needs a plugin that handles them/);
  }));

test("startup deploys every folder and YAML file; broken ones are skipped with a warning", async () => {
  const dir = join(tempDir(), "pipelines");
  mkdirSync(join(dir, "good"), { recursive: true });
  writeFileSync(join(dir, "good", "pipeline_wrapper.ts"), ok);
  mkdirSync(join(dir, "broken"));
  writeFileSync(join(dir, "broken", "pipeline_wrapper.ts"), "export const nothing = 1;");
  mkdirSync(join(dir, "empty"));
  mkdirSync(join(dir, ".hidden"));
  writeFileSync(join(dir, "flow.yml"), "components: {}\n");
  writeFileSync(join(dir, "README.md"), "not a pipeline");
  const k = await startPipelineKernel({ dir });
  try {
    const result = await k.kernel.deployer.deployAll();
    assert.equal(result, { deployed: ["good"], total: 4 });
    // Each broken entry is logged once: by the deploy service when its code failed to load (with the
    // whole cause), else by startup, which names the path.
    const warned = (name: string, path: string, cause: RegExp) => {
      const lines = k.logs.filter((l) => l.includes("WARNING") && (l.includes(`Skipping pipeline '`) && l.includes(`${path}'`) || l.includes(`Deploy of '${name}' failed`)));
      assert.is(lines.length, 1, `one warning for ${path}:\n${k.logs.join("\n")}`);
      assert.match(lines[0]!, cause);
    };
    warned("broken", "broken", /does not export a 'PipelineWrapper'/);
    warned("empty", "empty", /Missing required file/);
    warned("flow", "flow.yml", /yaml/i);
    assert.ok(k.logs.some((l) => /deployed 1\/4 pipelines/.test(l)));
    assert.equal((await k.run("good", { question: "x" })).body, { result: "v1:x" });
  } finally {
    await k.close();
  }
  const fresh = join(tempDir(), "created", "pipelines");
  const k2 = await startPipelineKernel({ dir: fresh });
  try {
    assert.equal(await k2.kernel.deployer.deployAll(), { deployed: [], total: 0 });
    assert.ok(existsSync(fresh), "created if missing");
  } finally {
    await k2.close();
  }
});

test.run();
