import { test } from "uvu";
import * as assert from "uvu/assert";
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { compileCacheDir, pruneCompileCache } from "../../../kernel/module-loader.js";
import enginePlugin from "../../../plugins/engine/index.js";
import { openRequest, until } from "../../helpers/http.js";
import { tempDir, withPipelineKernel, wrapper, type PipelineKernel } from "../../helpers/pipelines.js";

const ok = wrapper(`runApi(input: { question: string }) { return "v1:" + input.question; }`);
const YAML_OK = `components:
  double:
    type: svc.test.Missing
connections: []
`;

/** Every path under `dir` with its content: what "exactly as it was" means. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  if (!existsSync(dir)) return out;
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out[relative(dir, p)] = readFileSync(p, "utf8");
    }
    out[relative(dir, d) + "/"] = "";
  };
  walk(dir);
  return out;
}

const postYaml = (k: PipelineKernel, body: Record<string, unknown>) =>
  fetch(`${k.url}/deploy-yaml`, { method: "POST", body: JSON.stringify(body) }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));

test("failed deploys of every kind leave the pipelines directory exactly as it was", () =>
  withPipelineKernel(
    async (k) => {
      assert.is((await k.deploy({ name: "kept", files: { "pipeline_wrapper.ts": ok } })).status, 200);
      const before = snapshot(k.dir);
      const failures: [string, number, () => Promise<{ status: number; body: any }>][] = [
        ["yaml that does not parse", 422, () => postYaml(k, { name: "y1", source_code: "components: [" })],
        ["yaml with an unknown type", 422, () => postYaml(k, { name: "y2", source_code: YAML_OK })],
        ["yaml overwriting a folder", 422, () => postYaml(k, { name: "kept", source_code: YAML_OK, overwrite: true })],
        ["files that fail to load", 422, () => k.deploy({ name: "f1", files: { "pipeline_wrapper.ts": "export const x = ;" } })],
        ["files overwriting, failing", 422, () => k.deploy({ name: "kept", overwrite: true, files: { "pipeline_wrapper.ts": "export class PipelineWrapper {}" } })],
        ["unsaved files that fail", 422, () => k.deploy({ name: "f2", save_files: false, files: { "pipeline_wrapper.ts": "throw new Error('boom')" } })],
        ["a lone surrogate in a file name", 400, () => k.deploy({ name: "f3", files: { "pipeline_wrapper.ts": ok, "bad\ud800.txt": "x" } })],
      ];
      for (const [what, status, attempt] of failures) {
        const res = await attempt();
        assert.is(res.status, status, `${what}: ${JSON.stringify(res.body)}`);
        assert.equal(snapshot(k.dir), before, what);
      }
      assert.equal((await k.run("kept", { question: "q" })).body, { result: "v1:q" }, "the old version still serves");
    },
    { plugins: [enginePlugin()] },
  ));

test("a file name that is not valid Unicode is refused, never written under another name", () =>
  withPipelineKernel(async (k) => {
    for (const name of ["lone\ud800.ts", "\udc00x.ts", "dir\ud83d/a.ts"]) {
      const res = await k.deploy({ name: "uni", files: { "pipeline_wrapper.ts": ok, [name]: "x" } });
      assert.is(res.status, 400);
      assert.match(res.body.error.message, /not valid Unicode \(a lone surrogate\)/);
    }
    assert.is((await k.deploy({ name: "uni", files: { "pipeline_wrapper.ts": ok, "emoji-😀.txt": "x" } })).status, 200, "a real pair is fine");
    assert.ok(existsSync(join(k.dir, "uni", "emoji-😀.txt")));
  }));

test("a wrapper that fails to load: the client sees the cause, the log the server's paths", () =>
  withPipelineKernel(async (k) => {
    const files = { "pipeline_wrapper.ts": `import { helper } from "./lib/helper.js";\nimport "no-such-package-xyz";\nexport class PipelineWrapper { runApi() { return helper; } }` };
    const res = await k.deploy({ name: "missing", files });
    assert.is(res.status, 422);
    const message: string = res.body.error.message;
    assert.match(message, /^Failed to load pipeline module 'missing': /);
    assert.not.match(message, /Require stack/);
    assert.not.ok(message.includes(k.dir), `no server path in ${JSON.stringify(message)}`);
    assert.not.match(message, /\/tmp\//);
    assert.ok(k.logs.some((l) => l.includes("Deploy of 'missing' failed") && l.includes(k.dir)), "the log keeps the full text");
  }));

test("with SERVICE_SHOW_TRACEBACKS the client gets the whole cause", () =>
  withPipelineKernel(
    async (k) => {
      const res = await k.deploy({ name: "missing", files: { "pipeline_wrapper.ts": `import "no-such-package-xyz";\nexport class PipelineWrapper { runApi() { return 1; } }` } });
      assert.is(res.status, 422);
      assert.ok((res.body.error.message as string).includes(k.dir), "the full text, server paths included");
    },
    { settings: { showTracebacks: true } },
  ));

test("a client that leaves mid-body is a DEBUG line, not an error", () =>
  withPipelineKernel(async (k) => {
    const req = openRequest(`${k.url}/deploy_files`, { method: "POST", headers: { "content-type": "application/json", "content-length": "1000" } });
    req.on("error", () => undefined);
    req.write('{"name": "half');
    await new Promise((r) => setTimeout(r, 100));
    req.destroy();
    await until(() => k.logs.some((l) => l.includes("POST /deploy_files")), 5000, "the request's log line");
    await new Promise((r) => setTimeout(r, 100));
    assert.not.ok(k.logs.some((l) => / ERROR /.test(l)), k.logs.filter((l) => / ERROR /.test(l)).join("\n"));
  }));

test("compiled wrappers go to a private per-user cache, which stays bounded", () =>
  withPipelineKernel(async (k) => {
    const cache = compileCacheDir();
    assert.ok(cache, "a private cache is available");
    const tag = `cache-test-${process.pid}-${Date.now()}`;
    for (let i = 0; i < 3; i++) assert.is((await k.deploy({ name: "cached", overwrite: true, save_files: false, files: { "pipeline_wrapper.ts": ok + `\n// ${tag} ${i}` } })).status, 200);
    assert.is(statSync(cache as string).mode & 0o777, 0o700);
    const compiled = readdirSync(cache as string).filter((f) => readFileSync(join(cache as string, f), "utf8").includes(`// ${tag} `));
    assert.is(compiled.length, 3, "each version of the wrapper compiled into the private cache, by content");

    const many = tempDir("svc-cache-prune-");
    for (let i = 0; i < 50; i++) {
      writeFileSync(join(many, `f${i}.mjs`), "");
      utimesSync(join(many, `f${i}.mjs`), 1000 + i, 1000 + i);
    }
    pruneCompileCache(many, 40);
    const left = readdirSync(many).sort((a, b) => Number(a.slice(1, -4)) - Number(b.slice(1, -4)));
    assert.is(left.length, 30);
    assert.is(left[0], "f20.mjs", "the oldest went first");
  }));

test("a compile cache folder that is not private is not used", () => {
  const home = tempDir("svc-cache-home-");
  const env = { XDG_CACHE_HOME: home };
  const dir = join(home, "svc", "compiled");
  mkdirSync(dir, { recursive: true });
  chmodSync(dir, 0o777);
  assert.is(compileCacheDir(env), false, "world-writable: compiled in memory instead");
  chmodSync(dir, 0o700);
  assert.is(compileCacheDir(env), dir);
});

test.run();
