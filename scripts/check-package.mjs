#!/usr/bin/env node
// CI check of the published package (run once per CI run by .ci/run): `npm pack` this checkout,
// `npm install -g` the tarball into a temporary prefix, and from there run the quick start on a
// pipelines folder outside the repository: `svc run` answers /readyz and a /run of a wrapper that
// imports the package by its name and of one that imports `svc`; `svc --version`; `svc mcp run
// --transport stdio` lists the tool. Then the plugin template as a user gets it: a copy, renamed,
// with the same tarball installed into it, built and tested, and served by the installed
// `svc run --plugin <copy>`. Prints the installed size and ends with `N passed, N failed`.
import { execFileSync, spawn } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const work = mkdtempSync(join(tmpdir(), "svc-package-"));
const prefix = join(work, "prefix");
const results = [];
const children = [];

async function check(name, fn) {
  try {
    await fn();
    results.push(true);
    console.log(`  ok   ${name}`);
  } catch (error) {
    results.push(false);
    console.log(`  FAIL ${name}: ${error?.stack ?? error}`);
  }
}
const run = (cmd, args, options = {}) => execFileSync(cmd, args, { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"], ...options });
const svcBin = join(prefix, "bin", "svc");
const env = { ...process.env, XDG_CACHE_HOME: join(work, "cache"), NO_COLOR: "1" };
let tarball;

/** Starts the installed `svc run --port 0 …args`; resolves with the child and its base URL. */
async function svcRun(args) {
  const child = spawn(svcBin, ["run", "--port", "0", ...args], { cwd: work, env, stdio: ["ignore", "pipe", "pipe"] });
  children.push(child);
  let log = "";
  const base = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no listening line within 120 s:\n${log}`)), 120_000);
    const read = (chunk) => {
      log += chunk;
      const m = /listening on (http:\/\/\S+?)\/?(\s|$)/.exec(log);
      if (m) { clearTimeout(timer); resolve(m[1]); }
    };
    child.stdout.on("data", read);
    child.stderr.on("data", read);
    child.on("exit", (code) => reject(new Error(`svc run exited (${code}):\n${log}`)));
  });
  return { child, base };
}

const wrapper = (from) => `import * as v from "valibot";
import { BasePipelineWrapper } from "${from}";
export class PipelineWrapper extends BasePipelineWrapper {
  static description = "Greets someone.";
  static inputSchema = v.object({ name: v.string() });
  runApi({ name }: { name: string }) { return \`Hello, \${name}!\`; }
}
`;

try {
  const pipelines = join(work, "my pipelines");
  for (const [dir, from] of [["greeter", "@svc-serve/svc"], ["legacy_greeter", "svc"]]) {
    mkdirSync(join(pipelines, dir), { recursive: true });
    writeFileSync(join(pipelines, dir, "pipeline_wrapper.ts"), wrapper(from));
  }

  await check("npm pack and npm install -g into a temporary prefix", () => {
    // dist/ is the build the test runs just made: skip `prepare` (a second full compile), run
    // `prepack`'s step directly.
    run(process.execPath, [join(root, "scripts/vendor-assets.mjs")]);
    run("npm", ["pack", "--ignore-scripts", "--loglevel=error", "--pack-destination", work], { cwd: root, stdio: ["ignore", "ignore", "inherit"] });
    tarball = join(work, readdirSync(work).find((f) => f.endsWith(".tgz")));
    run("npm", ["install", "-g", "--loglevel=error", "--prefix", prefix, "--no-audit", "--no-fund", tarball], { stdio: ["ignore", "ignore", "inherit"] });
    console.log(`  installed size with dependencies: ${run("du", ["-sh", prefix]).split("\t")[0]}`);
    const mb = Number(run("du", ["-sm", prefix]).split("\t")[0]);
    if (mb > 150) throw new Error(`the install takes ${mb} MB (limit 150)`);
  });

  await check("svc --version", () => {
    if (!/\d+\.\d+\.\d+/.test(run(svcBin, ["--version"], { env }))) throw new Error("no version printed");
  });

  await check("svc run serves a pipelines folder outside the repository", async () => {
    const { child, base } = await svcRun(["--pipelines-dir", pipelines]);
    const ready = await fetch(`${base}/readyz`);
    if (ready.status !== 200) throw new Error(`/readyz answered ${ready.status}`);
    for (const name of ["greeter", "legacy_greeter"]) {
      const res = await fetch(`${base}/${name}/run`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ name: "Ada" }) });
      const body = await res.json();
      if (res.status !== 200 || body.result !== "Hello, Ada!") throw new Error(`/${name}/run answered ${res.status} ${JSON.stringify(body)}`);
    }
    child.kill("SIGTERM");
  });

  await check("svc mcp run --transport stdio lists the pipelines as tools", async () => {
    const child = spawn(svcBin, ["mcp", "run", "--transport", "stdio", "--pipelines-dir", pipelines], { cwd: work, env, stdio: ["pipe", "pipe", "pipe"] });
    children.push(child);
    const send = (msg) => child.stdin.write(`${JSON.stringify(msg)}\n`);
    let out = "";
    const tools = await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no tools/list answer within 120 s:\n${out}`)), 120_000);
      child.stdout.on("data", (chunk) => {
        out += chunk;
        const lines = out.split("\n");
        out = lines.pop();
        for (const line of lines) {
          const msg = line.trim() && JSON.parse(line);
          if (msg?.id === 1) { send({ jsonrpc: "2.0", method: "notifications/initialized" }); send({ jsonrpc: "2.0", id: 2, method: "tools/list" }); }
          if (msg?.id === 2) { clearTimeout(timer); resolve(msg.result.tools.map((t) => t.name)); }
        }
      });
      send({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "ci", version: "1" } } });
    });
    if (!tools.includes("greeter")) throw new Error(`tools: ${tools.join(", ")}`);
    child.stdin.end();
    child.kill("SIGTERM");
  });

  const plugin = join(work, "my plugin");
  await check("the plugin template, renamed, builds and passes its tests against the tarball", () => {
    if (!tarball) throw new Error("no tarball (the pack step failed)");
    cpSync(join(root, "plugin-template"), plugin, { recursive: true, filter: (src) => !/[\\/](node_modules|dist)$/.test(src) });
    run(process.execPath, [join(plugin, "scripts", "rename.mjs"), "@acme/svc-plugin-greeter"]);
    // The same tarball for @svc-serve/svc (npm's cache already holds its dependencies); the rest
    // of the template's declared dependencies from the registry.
    run("npm", ["install", "--loglevel=error", "--no-audit", "--no-fund", "--save-dev", tarball], { cwd: plugin, env, stdio: ["ignore", "ignore", "inherit"] });
    const installed = JSON.parse(readFileSync(join(plugin, "node_modules", "@svc-serve", "svc", "package.json"), "utf8"));
    const ours = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
    if (installed.version !== ours.version) throw new Error(`the template got @svc-serve/svc ${installed.version}, not the tarball's ${ours.version}`);
    let out;
    try {
      out = run("npm", ["test", "--loglevel=error"], { cwd: plugin, env, stdio: ["ignore", "pipe", "pipe"] });
    } catch (error) {
      throw new Error(`the template's npm test failed:\n${error.stdout}\n${error.stderr}`);
    }
    const passed = /Passed:\s+(\d+)/.exec(out.replace(/\x1b\[[0-9;]*m/g, ""));
    if (!passed || Number(passed[1]) === 0) throw new Error(`no passing tests in the template's output:\n${out}`);
  });

  await check("the installed svc run --plugin <folder> serves the built, renamed template", async () => {
    const { child, base } = await svcRun(["--pipelines-dir", pipelines, "--plugin", plugin]);
    const res = await fetch(`${base}/template/hello?name=Ada`);
    const body = await res.json();
    if (res.status !== 200 || body.message !== "Hello, Ada!") throw new Error(`/template/hello answered ${res.status} ${JSON.stringify(body)}`);
    child.kill("SIGTERM");
    // The plugin carries its new name: bad options (from a config file) name it.
    const cwd = join(work, "bad-options");
    mkdirSync(cwd);
    writeFileSync(join(cwd, "svc.config.yaml"), `plugins:\n  - use: ${JSON.stringify(plugin)}\n    options:\n      prefix: no-slash\n`);
    const bad = spawn(svcBin, ["run", "--port", "0", "--pipelines-dir", pipelines], { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    children.push(bad);
    let text = "";
    bad.stdout.on("data", (c) => (text += c));
    bad.stderr.on("data", (c) => (text += c));
    const code = await new Promise((resolve) => bad.on("exit", resolve));
    if (code === 0 || !text.includes("Plugin '@acme/svc-plugin-greeter' has invalid options: prefix")) throw new Error(`bad options should stop startup naming the renamed plugin (exit ${code}):\n${text}`);
  });
} finally {
  for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
  await new Promise((r) => setTimeout(r, 500));
  rmSync(work, { recursive: true, force: true });
}
const passed = results.filter(Boolean).length;
console.log(`${passed} passed, ${results.length - passed} failed`);
process.exit(passed === results.length ? 0 : 1);
