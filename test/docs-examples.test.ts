/**
 * Every example of the README and docs/*.md, run. A code block is marked on the line before its
 * fence: `<!-- example: id -->` is run here by the runner of that id (or by the test file named
 * in parentheses), `<!-- not-run: why -->` is output, a diagram or a fragment. An unmarked block,
 * a marked example without a runner and a runner without its example all fail.
 *
 * The examples run as a reader runs them: shell blocks in bash (with `localhost:1416` and the
 * `svc` command pointed at a real `svc run` started on port 0, curl failing on HTTP errors, and
 * `# → …` lines checked against the command's output, `…` matching anything), TypeScript blocks
 * as files executed with jiti from `test-output/` (so `svc`, `openai` and the MCP SDK resolve to
 * this checkout), wrappers deployed over HTTP. Models are the loopback OpenAI fixture.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { spawn, type ChildProcess } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { cleanEnv, cliPath, repoRoot, startCommand, startSvc, type RunningSvc } from "./helpers/cli.js";
import { codeBlocks, docPages, readDoc, type CodeBlock } from "./helpers/docs.js";
import { tempDir } from "./helpers/pipelines.js";
import { startOpenAIFixture, type OpenAIFixture } from "./fixtures/openai-server.js";

const blocks = docPages().flatMap(codeBlocks);
const examples = new Map(blocks.filter((b) => b.marker?.kind === "example").map((b) => [b.marker!.id, b]));
const code = (id: string): string => examples.get(id)!.code;

// ---------------------------------------------------------------------------------------------
// The world the examples run in: one `svc run` over a copy of the example pipelines, a home
// directory of its own (the operator credential lands in its ~/.cache), the OpenAI fixture.

const home = tempDir("svc-docs-home-");
const work = tempDir("svc-docs-work-");
/** Scripts and pipelines live inside the checkout, so their imports resolve to it (`ai`, `openai`, …). */
const scripts = join(repoRoot, "test-output", "docs-examples");
const pipelinesCopy = (): string => {
  const dir = mkdtempSync(join(scripts, "pipelines-"));
  cpSync(join(repoRoot, "pipelines"), dir, { recursive: true });
  return dir;
};
let model: OpenAIFixture;
let svc: RunningSvc;
const started: { stop(): Promise<unknown> }[] = [];

/** Environment of every process an example starts. */
const env = (): Record<string, string> => ({
  HOME: home,
  XDG_CACHE_HOME: join(home, ".cache"),
  OPENAI_BASE_URL: model.url,
  OPENAI_API_KEY: "test-key",
  SERVICE_HOST: "127.0.0.1",
  SERVICE_PORT: String(svc?.port ?? 0),
});

test.before(async () => {
  rmSync(scripts, { recursive: true, force: true });
  mkdirSync(scripts, { recursive: true });
  model = await startOpenAIFixture({ apiKey: "test-key" });
  svc = await startSvc(["run", "--host", "127.0.0.1", "--port", "0", "--pipelines-dir", pipelinesCopy()], { env: env() });
});

test.after(async () => {
  for (const s of started.reverse()) await s.stop();
  await svc?.stop();
  await model?.close();
  for (const dir of [home, work, scripts]) rmSync(dir, { recursive: true, force: true });
});

// ---------------------------------------------------------------------------------------------
// Running the three kinds of example.

/** The example's text as this test's world needs it: the server's real port, this checkout's svc. */
function localise(text: string, port = svc.port): string {
  return text
    .replaceAll("localhost:1416", `127.0.0.1:${port}`)
    .replaceAll("node dist/cli/index.js", `"${process.execPath}" "${cliPath}"`)
    .replaceAll("npx -p @svc-serve/svc svc", `"${process.execPath}" "${cliPath}"`)
    .replaceAll("npx svc", `"${process.execPath}" "${cliPath}"`);
}

interface Done {
  code: number | null;
  stdout: string;
  stderr: string;
}

function exec(command: string, args: string[], options: { cwd?: string; env?: Record<string, string>; ms?: number } = {}): Promise<Done> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd ?? work, env: cleanEnv({ ...env(), ...options.env }) });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c) => (stdout += c));
    child.stderr.on("data", (c) => (stderr += c));
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`${command} ${args.join(" ")} did not finish:\n${stdout}\n${stderr}`));
    }, options.ms ?? 60_000);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** `…` in an expected answer matches anything. */
const expectation = (text: string) => new RegExp(`^${text.split("…").map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("[\\s\\S]*")}$`);

/** Each command of a shell block (backslash continuations joined) with the `# → …` lines after it. */
function commands(block: string): { command: string; expect: string[] }[] {
  const out: { command: string; expect: string[] }[] = [];
  let pending = "";
  for (const line of block.split("\n")) {
    if (pending) {
      pending += "\n" + line;
      if (!line.endsWith("\\")) out.push({ command: pending, expect: [] }), (pending = "");
      continue;
    }
    const arrow = /^# → (.*)$/.exec(line);
    if (arrow) out.at(-1)!.expect.push(arrow[1]!);
    else if (!line.trim() || line.startsWith("#")) continue;
    else if (line.endsWith("\\")) pending = line;
    else out.push({ command: line, expect: [] });
  }
  return out;
}

/** Runs a shell block command by command; each must succeed and print what its `# →` lines say. */
async function runShell(block: string, options: { cwd?: string; port?: number } = {}): Promise<string[]> {
  const outputs: string[] = [];
  for (const { command, expect } of commands(localise(block, options.port))) {
    const script = `curl() { command curl -sS --fail-with-body "$@"; }\n${command}`;
    const done = await exec("bash", ["-c", script], { cwd: options.cwd });
    assert.is(done.code, 0, `${command}\nexited ${done.code}:\n${done.stdout}\n${done.stderr}`);
    for (const expected of expect) assert.match(done.stdout.trim(), expectation(expected), `${command}\nprinted:\n${done.stdout}`);
    outputs.push(done.stdout);
  }
  return outputs;
}

/** Writes a TypeScript example into test-output/ and runs it with jiti; resolves with its output. */
async function runScript(name: string, text: string): Promise<string> {
  const file = join(scripts, `${name}.ts`);
  writeFileSync(file, text);
  const done = await exec(process.execPath, [join(repoRoot, "node_modules/jiti/lib/jiti-cli.mjs"), file], { cwd: scripts });
  assert.is(done.code, 0, `${name} exited ${done.code}:\n${done.stdout}\n${done.stderr}`);
  return done.stdout;
}

/** Starts a TypeScript example that serves, and resolves once it printed `ready`. */
async function startScript(name: string, text: string, ready: RegExp): Promise<{ match: RegExpExecArray; stop(): Promise<void> }> {
  const file = join(scripts, `${name}.ts`);
  writeFileSync(file, text);
  const child: ChildProcess = spawn(process.execPath, [join(repoRoot, "node_modules/jiti/lib/jiti-cli.mjs"), file], { cwd: scripts, env: cleanEnv(env()) });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const stop = async () => {
    if (child.exitCode === null) child.kill("SIGTERM");
    await exited;
  };
  let out = "";
  const match = await new Promise<RegExpExecArray>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} never printed ${ready}:\n${out}`)), 60_000);
    const check = (chunk: Buffer) => {
      out += chunk;
      const m = ready.exec(out);
      if (m) clearTimeout(timer), resolve(m);
    };
    child.stdout!.on("data", check);
    child.stderr!.on("data", (c) => (out += c));
    child.once("exit", () => reject(new Error(`${name} exited:\n${out}`)));
  }).catch(async (error) => {
    await stop();
    throw error;
  });
  started.push({ stop });
  return { match, stop };
}

/** Deploys a wrapper example under a name, over HTTP. */
async function deployWrapper(name: string, wrapper: string): Promise<void> {
  // Saved into the pipelines directory (inside the checkout), where a wrapper's own imports resolve.
  const res = await fetch(`${svc.url}/deploy_files`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name, files: { "pipeline_wrapper.ts": wrapper }, overwrite: true }),
  });
  assert.is(res.status, 200, `deploy ${name}: ${await res.text()}`);
}

async function chat(model: string, content: string): Promise<string> {
  const res = await fetch(`${svc.url}/v1/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ model, messages: [{ role: "user", content }] }),
  });
  const body = (await res.json()) as any;
  assert.is(res.status, 200, JSON.stringify(body));
  return body.choices[0].message.content;
}

/** Writes a block whose first line is a comment naming its file (`// my_pipelines/x/file.ts`). */
function writeNamedBlock(id: string, root = work): string {
  const text = code(id);
  const path = /^\/\/ (\S+)/.exec(text)?.[1];
  assert.ok(path, `${id}: the first line names the file`);
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
  return path;
}

// ---------------------------------------------------------------------------------------------
// One runner per example id.

const runners: Record<string, () => Promise<void>> = {
  "greeter-wrapper": async () => {
    writeNamedBlock("greeter-wrapper");
    await deployWrapper("greeter_check", code("greeter-wrapper"));
    const res = await fetch(`${svc.url}/greeter_check/run`, { method: "POST", body: JSON.stringify({ name: "Ada", excited: true }) });
    assert.equal(await res.json(), { result: "Hello, Ada!" });
    await fetch(`${svc.url}/undeploy/greeter_check`, { method: "POST" });
  },

  "greeter-cli": async () => {
    writeNamedBlock("greeter-wrapper");
    const [deploy, run, status, undeploy] = await runShell(code("greeter-cli"));
    assert.match(deploy!, /greeter/);
    assert.match(run!, /Hello, Ada!/);
    assert.match(status!, /greeter/);
    assert.match(undeploy!, /greeter/);
  },

  "greeter-curl": async () => {
    writeNamedBlock("greeter-wrapper");
    await runShell(code("greeter-curl"));
  },

  "examples-curl": async () => {
    writeFileSync(join(work, "README.md"), readDoc("README.md"));
    const [stats, countdown, summary, chatStream] = await runShell(code("examples-curl"));
    assert.match(stats!, /^\{"result":/);
    assert.match(countdown!, /3[\s\S]*2[\s\S]*1/);
    assert.match(summary!, /README\.md/);
    assert.match(chatStream!, /^data: \{[\s\S]*"event":\{"type":"status"[\s\S]*data: \[DONE\]\s*$/);
  },

  "assistant-wrapper": async () => {
    await deployWrapper("assistant", code("assistant-wrapper"));
    assert.is(await chat("assistant", "hi"), "You said: hi ");
  },

  "assistant-client": async () => {
    await deployWrapper("assistant", code("assistant-wrapper"));
    assert.is(await runScript("assistant-client", localise(code("assistant-client"))), "You said: hi ");
  },

  "files-in-chat": async () => {
    writeFileSync(join(scripts, "notes.txt"), "The launch is on 3 March.\n");
    const before = model.requests.length;
    const reply = await runScript("files-in-chat", localise(code("files-in-chat")));
    assert.ok(reply.trim().length > 0, "the model answered");
    const sent = JSON.stringify(model.requests.slice(before).map((r) => r.body));
    assert.ok(sent.includes("The launch is on 3 March."), "the file's text reached the model");
  },

  "ai-sdk-wrapper": async () => {
    await deployWrapper("ai_sdk_docs", code("ai-sdk-wrapper"));
    assert.match(await chat("ai_sdk_docs", "What is the weather in Paris?"), /weather in Paris/);
  },

  "engine-pipeline": async () => {
    // `await x; // → value` prints x, to compare with the value the comment gives.
    const expected: unknown[] = [];
    const script = code("engine-pipeline").replace(/^await (.+);\s*\/\/ → (.+)$/gm, (_, call: string, value: string) => {
      expected.push(new Function(`return (${value})`)());
      return `console.log(JSON.stringify(await ${call}));`;
    });
    assert.ok(expected.length > 0, "the example states its result");
    const printed = (await runScript("engine-pipeline", script)).trim().split("\n").map((l) => JSON.parse(l));
    assert.equal(printed, expected);
  },

  "mcp-claude-desktop": async () => {
    const { command, args } = JSON.parse(code("mcp-claude-desktop")).mcpServers.svc as { command: string; args: string[] };
    // npx runs the `svc` command of our package (a bare `npx svc` would fetch npm's unrelated `svc`).
    assert.equal([command, ...args.slice(0, 4)], ["npx", "-y", "-p", "@svc-serve/svc", "svc"]);
    const argv = args.slice(4).map((a) => (a === "/path/to/pipelines" ? pipelinesCopy() : a));
    const client = new Client({ name: "docs", version: "1.0.0" });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [cliPath, ...argv], env: cleanEnv(env()) as Record<string, string>, stderr: "ignore" }));
    try {
      const tools = (await client.listTools()).tools.map((t) => t.name);
      assert.ok(tools.includes("text_stats"), tools.join(", "));
    } finally {
      await client.close();
    }
  },

  "mcp-remote-client": async () => {
    const mcp = await startSvc(["mcp", "run", "--host", "127.0.0.1", "--port", "0", "--pipelines-dir", pipelinesCopy()], { env: env() });
    started.push(mcp);
    const out = await runScript("mcp-remote-client", code("mcp-remote-client").replace("http://localhost:1417", mcp.url));
    assert.match(out, /'text_stats'/);
    assert.match(out, /content: \[/);
    assert.not.match(out, /isError: true/);
  },

  "tool-server": async () => {
    const server = await startScript("tool-server", code("tool-server").replace("port: 8000", "port: 0"), /tools at (\S+)/);
    const client = new Client({ name: "docs", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.match[1]!)));
    try {
      const result = (await client.callTool({ name: "get_weather", arguments: { city: "Paris" } })) as { content: { text: string }[] };
      assert.is(result.content[0]!.text, "Sunny in Paris");
    } finally {
      await client.close();
      await server.stop();
    }
  },

  "traces-curl": async () => {
    await runShell(code("traces-curl"));
  },

  "hello-plugin": async () => {
    const dir = tempDir("svc-docs-plugin-");
    try {
      writeFileSync(join(dir, "my-plugin.ts"), code("hello-plugin"));
      const server = await startSvc(["run", "--host", "127.0.0.1", "--port", "0", "--pipelines-dir", join(dir, "p"), "--plugin", "./my-plugin.ts"], { cwd: dir, env: env() });
      try {
        assert.equal(await (await fetch(`${server.url}/hello?name=Ada`)).json(), { message: "Hello, Ada!" });
      } finally {
        await server.stop();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },

  "config-file": async () => {
    const dir = tempDir("svc-docs-config-");
    try {
      writeFileSync(join(dir, "svc.config.yaml"), code("config-file"));
      writeFileSync(join(dir, "my-plugin.ts"), code("hello-plugin"));
      // The template as an installed package: its own package.json points at a dist/ that only its
      // own build makes, so the package here re-exports the repository build of its source.
      const installed = join(dir, "node_modules", "svc-plugin-template");
      mkdirSync(installed, { recursive: true });
      writeFileSync(join(installed, "package.json"), JSON.stringify({ name: "svc-plugin-template", type: "module", exports: "./index.js" }));
      const built = pathToFileURL(join(repoRoot, "dist", "plugin-template", "index.js")).href;
      writeFileSync(join(installed, "index.js"), `export * from ${JSON.stringify(built)};\nexport { default } from ${JSON.stringify(built)};\n`);
      // The config file's port is 1500; the environment's 0 wins over it, as the precedence says.
      const server = await startSvc(["run", "--host", "127.0.0.1", "--pipelines-dir", join(dir, "p")], { cwd: dir, env: { ...env(), SERVICE_PORT: "0" } });
      try {
        assert.equal(await (await fetch(`${server.url}/hello?name=Ada`)).json(), { message: "Hello, Ada!" });
        assert.equal(await (await fetch(`${server.url}/template/hello?name=Ada`)).json(), { message: "Howdy, Ada!" });
      } finally {
        await server.stop();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },

  "host-app": async () => {
    const host = await startScript(
      "host-app",
      code("host-app").replace(".listen(8080);", '.listen(0, "127.0.0.1", function () { console.log(`host on ${this.address().port}`); });'),
      /host on (\d+)/,
    );
    try {
      const url = `http://127.0.0.1:${host.match[1]}`;
      assert.is(await (await fetch(`${url}/healthz`)).text(), "ok");
      const notFound = await fetch(`${url}/anything`);
      assert.is(notFound.status, 404);
      assert.is(((await notFound.json()) as any).error.code, 404, "svc answers what the host does not");
    } finally {
      await host.stop();
    }
  },

  "host-node-http": async () => {
    const text = code("host-node-http")
      .replace('"./pipelines"', JSON.stringify(pipelinesCopy()))
      .replace(".listen(8080);", '.listen(0, "127.0.0.1", function () { console.log(`host on ${this.address().port}`); });');
    const host = await startScript("host-node-http", text, /host on (\d+)/);
    try {
      const url = `http://127.0.0.1:${host.match[1]}`;
      assert.is(await (await fetch(`${url}/host-health`)).text(), "ok");
      // resolved only once the folder is deployed: the pipeline answers at once
      const res = await fetch(`${url}/text_stats/run`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ text: "one two" }) });
      assert.is(res.status, 200, await res.clone().text());
      assert.ok(((await res.json()) as { result: unknown }).result);
    } finally {
      await host.stop();
    }
  },

  "host-fastify": async () => {
    const text = code("host-fastify")
      .replace('"./pipelines"', JSON.stringify(pipelinesCopy()))
      .replace("await app.listen({ port: 8080 });", 'console.log(`host on ${new URL(await app.listen({ port: 0, host: "127.0.0.1" })).port}`);');
    const host = await startScript("host-fastify", text, /host on (\d+)/);
    try {
      const url = `http://127.0.0.1:${host.match[1]}`;
      assert.equal(await (await fetch(`${url}/`)).json(), { app: "the host" });
      const res = await fetch(`${url}/ai/text_stats/run`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ text: "one two" }) });
      assert.is(res.status, 200, await res.clone().text());
      assert.ok(((await res.json()) as { result: unknown }).result);
      const bad = await fetch(`${url}/ai/text_stats/run`, { method: "POST", headers: { "content-type": "application/json" }, body: "{" });
      assert.is(bad.status, 400, "svc reads the body itself and answers bad JSON");
      const doc = (await (await fetch(`${url}/ai/openapi.json`)).json()) as { servers?: { url: string }[] };
      assert.ok(JSON.stringify(doc.servers ?? []).includes("/ai"), "the OpenAPI document names the prefix");
    } finally {
      await host.stop();
    }
  },

  "auth-keys": async () => {
    const dir = tempDir("svc-docs-auth-");
    try {
      const lines = commands(code("auth-keys"));
      assert.is(lines.length, 3);
      const [ciBot, ops] = await runShell(`${lines[0]!.command}\n${lines[1]!.command}\n`, { cwd: dir });
      assert.match(readFileSync(join(dir, "keys.yaml"), "utf8"), /sha256:/);
      const server = await startCommand(localise(lines[2]!.command), { cwd: dir, env: { ...env(), SERVICE_PORT: "0" } });
      started.push(server);
      const undeploy = (key?: string) =>
        fetch(`${server.url}/undeploy/nothing_here`, { method: "POST", headers: key ? { authorization: `Bearer ${key}` } : {} }).then((r) => r.status);
      assert.is(await undeploy(), 401, "no key");
      // `add-key` prints a line saying so, then the key alone.
      const keyOf = (out: string) => out.trim().split("\n").at(-1)!;
      assert.is(await undeploy(keyOf(ciBot!)), 403, "a run key may not undeploy");
      assert.is(await undeploy(keyOf(ops!)), 404, "an admin key may: the name is unknown");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
};

// ---------------------------------------------------------------------------------------------

test("every code block of the README and docs/ is marked as an example or as not run", () => {
  const unmarked = blocks.filter((b) => !b.marker).map((b) => `${b.page}:${b.line}`);
  assert.equal(unmarked, [], "mark each block with <!-- example: id --> or <!-- not-run: why -->");
  const ids = blocks.filter((b) => b.marker?.kind === "example").map((b) => b.marker!.id);
  assert.equal(ids.length, new Set(ids).size, "example ids are unique");
});

test("every example has a runner, and every runner its example", () => {
  for (const [id, block] of examples) {
    if (block.marker!.elsewhere) {
      const other = join(repoRoot, block.marker!.elsewhere);
      assert.ok(existsSync(other), `${id}: ${block.marker!.elsewhere} exists`);
      assert.ok(readFileSync(other, "utf8").includes(id), `${block.marker!.elsewhere} runs the example '${id}'`);
    } else assert.ok(runners[id], `${block.page}:${block.line}: no runner for example '${id}'`);
  }
  for (const id of Object.keys(runners)) assert.ok(examples.has(id), `runner '${id}' has no example in the docs`);
});

const where = (b: CodeBlock) => `${b.page}:${b.line}`;
for (const [id, run] of Object.entries(runners)) {
  const block = examples.get(id);
  if (block) test(`example '${id}' (${where(block)}) runs`, run);
}

test.run();
