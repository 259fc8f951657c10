import { test } from "uvu";
import * as assert from "uvu/assert";
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { cleanEnv, cliPath, runSvc, startSvc, type CliResult, type RunningSvc } from "../helpers/cli.js";

// ---------------------------------------------------------------------------------------------
// Fixtures: a working directory with wrapper folders to deploy and a pipelines directory.

const FILES_WRAPPER = `import * as v from "valibot";
import { BasePipelineWrapper, uploadedFiles } from "svc";
export class PipelineWrapper extends BasePipelineWrapper {
  static inputSchema = v.object({ question: v.string(), n: v.optional(v.number(), 1), files: uploadedFiles() });
  runApi(input: { question: string; n: number; files: { filename: string; size: number }[] }) {
    return { question: input.question, n: input.n, files: input.files.map((f) => f.filename) };
  }
}
`;

const JSON_WRAPPER = `import * as v from "valibot";
import { BasePipelineWrapper, fileResponse } from "svc";
export class PipelineWrapper extends BasePipelineWrapper {
  static inputSchema = v.object({
    question: v.unknown(),
    n: v.optional(v.unknown(), 1),
    extra: v.optional(v.unknown()),
    as: v.optional(v.string(), "json"),
  });
  runApi(input: { question: unknown; n: unknown; extra?: unknown; as: string }) {
    if (input.as === "text") return \`\${input.question} x\${input.n}\`;
    if (input.as === "file") return fileResponse({ data: "%PDF", contentType: "application/pdf", filename: "report.pdf" });
    if (input.as === "fail") throw new Error("the model is asleep");
    return { question: input.question, n: input.n, extra: input.extra ?? null };
  }
}
`;

const STREAM_WRAPPER = `import { BasePipelineWrapper } from "svc";
export class PipelineWrapper extends BasePipelineWrapper {
  async *runApi(input: { pause?: number }) {
    yield "first ";
    await new Promise((r) => setTimeout(r, input.pause ?? 0));
    yield "second ";
    yield "third";
  }
}
`;

const SSE_WRAPPER = `import { BasePipelineWrapper, sse } from "svc";
export class PipelineWrapper extends BasePipelineWrapper {
  runApi() {
    return sse((async function* () {
      yield "alpha ";
      yield "beta";
    })());
  }
}
`;

function write(root: string, files: Record<string, string | Buffer>): void {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
}

const cwd = mkdtempSync(join(tmpdir(), "svc-pipeline-cli-"));
const pipelinesDir = join(cwd, "pipes");
write(cwd, {
  "wrappers/echo/pipeline_wrapper.ts": FILES_WRAPPER,
  "wrappers/echo/sub/notes.txt": "nested notes\n",
  "wrappers/echo/.secret": "never uploaded",
  "wrappers/echo/.git/config": "never uploaded",
  "wrappers/echo/node_modules/dep/index.js": "never uploaded",
  "wrappers/plain/pipeline_wrapper.ts": JSON_WRAPPER,
  "wrappers/stream/pipeline_wrapper.ts": STREAM_WRAPPER,
  "wrappers/sse/pipeline_wrapper.ts": SSE_WRAPPER,
  "wrappers/big/pipeline_wrapper.ts": FILES_WRAPPER,
  "wrappers/big/data.bin": Buffer.alloc(1536 * 1024, 7),
  "inputs/report.txt": "a report\n",
  "inputs/folder/a.txt": "a\n",
  "inputs/folder/deeper/b.txt": "b\n",
  "inputs/folder/.hidden": "skipped\n",
  "calc.yml": "components: {}\nconnections: []\ninputs:\n  value: add.value\noutputs:\n  result: add.result\n",
});
mkdirSync(join(cwd, "wrappers/empty/.only-hidden"), { recursive: true });
mkdirSync(pipelinesDir);

let svc: RunningSvc;
let env: Record<string, string>;

/** Runs `svc …` against the test server from the fixture directory. */
const cli = (args: string[], options: { cwd?: string; env?: Record<string, string> } = {}): Promise<CliResult> =>
  runSvc(args, { cwd: options.cwd ?? cwd, env: { ...env, ...options.env } });

function expectOk(result: CliResult, what: string): void {
  assert.is(result.code, 0, `${what} exited ${result.code}\nstdout: ${result.stdout}\nstderr: ${result.stderr}`);
}

/** A port nobody listens on. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

interface Captured {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** A stand-in server that records one request per call and answers `answer`. */
async function recordingServer(answer: (req: Captured) => { status?: number; body: unknown }): Promise<{ server: Server; port: number; requests: Captured[] }> {
  const requests: Captured[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const captured = { method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks) };
      requests.push(captured);
      const { status = 200, body } = answer(captured);
      res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, port: (server.address() as AddressInfo).port, requests };
}

async function formOf(captured: Captured): Promise<FormData> {
  return new Response(new Uint8Array(captured.body), { headers: { "content-type": captured.headers["content-type"]! } }).formData();
}

test.before(async () => {
  svc = await startSvc(["run", "--host", "127.0.0.1", "--port", "0", "--pipelines-dir", pipelinesDir], { cwd });
  // Plain output: uvu sets FORCE_COLOR=1 for itself, and children inherit it.
  env = { SERVICE_HOST: "127.0.0.1", SERVICE_PORT: String(svc.port), FORCE_COLOR: "0" };
});

test.after(async () => {
  await svc?.stop("SIGKILL");
  rmSync(cwd, { recursive: true, force: true });
});

// ---------------------------------------------------------------------------------------------

test("--help lists status and pipeline; pipeline --help explains every action and option", async () => {
  const help = await runSvc(["--help"]);
  expectOk(help, "svc --help");
  assert.match(help.stdout, /status\s+Show whether svc is running/);
  assert.match(help.stdout, /pipeline <action> \[\.\.\.args\]\s+Manage pipelines/);

  const pipeline = await runSvc(["pipeline", "--help"]);
  expectOk(pipeline, "svc pipeline --help");
  for (const action of ["deploy-files <path>", "deploy-yaml <file>", "undeploy <name>", "run <name>"]) {
    assert.ok(pipeline.stdout.includes(action), action);
  }
  for (const flag of ["--name", "--description", "--overwrite", "--skip-saving-files", "--skip-mcp", "--save-file", "--no-save-file", "--force", "--param", "--file", "--dir", "--stream"]) {
    assert.ok(pipeline.stdout.includes(flag), flag);
  }

  const run = await runSvc(["pipeline", "run", "--help"]);
  expectOk(run, "svc pipeline run --help");
  assert.match(run.stdout, /\$ svc pipeline run <name> \[options\]/);
  assert.match(run.stdout, /--param <key=value>/);
  assert.not.match(run.stdout, /--overwrite/);
  assert.is(run.stderr, "");

  const status = await runSvc(["status", "--help"]);
  expectOk(status, "svc status --help");
  assert.match(status.stdout, /\$ svc status/);
});

test("status: the server is up and no pipelines are deployed", async () => {
  const result = await cli(["status"]);
  expectOk(result, "status");
  assert.match(result.stdout, new RegExp(`✔ svc is up and running at http://127\\.0\\.0\\.1:${svc.port}`));
  assert.match(result.stdout, /! No pipelines currently deployed/);
});

test("deploy-files uploads the folder (nested files, no dotfiles or node_modules) with --description", async () => {
  const result = await cli(["pipeline", "deploy-files", "wrappers/echo", "--name", "echo", "--description", "Echoes questions"]);
  expectOk(result, "deploy-files");
  assert.match(result.stdout, /✔ Pipeline 'echo' successfully deployed/);
  assert.is(statSync(join(pipelinesDir, "echo/sub/notes.txt")).size, "nested notes\n".length);
  assert.ok(existsSync(join(pipelinesDir, "echo/pipeline_wrapper.ts")));
  assert.not.ok(existsSync(join(pipelinesDir, "echo/.secret")));
  assert.not.ok(existsSync(join(pipelinesDir, "echo/node_modules")));

  const status = await cli(["status"]);
  expectOk(status, "status");
  assert.match(status.stdout, /Pipelines:\n\s+№\s+Name\s+Status\n\s+━+\s+━+\s+━+\n\s+1\s+echo\s+Active/);
});

test("deploy-files of a taken name fails with the server's 409; -o overwrites", async () => {
  const again = await cli(["pipeline", "deploy-files", "wrappers/echo", "-n", "echo"]);
  assert.is(again.code, 1);
  assert.match(again.stderr, /✘ Server error \(409\): Pipeline 'echo' already exists/);
  assert.is(again.stdout, "");

  const overwrite = await cli(["pipeline", "deploy-files", "wrappers/echo", "-n", "echo", "-o"]);
  expectOk(overwrite, "deploy-files -o");
  assert.match(overwrite.stdout, /✔ Pipeline 'echo' successfully deployed/);
});

test("deploy-files --skip-saving-files deploys without keeping files", async () => {
  const result = await cli(["pipeline", "deploy-files", "wrappers/plain", "-n", "plain", "--skip-saving-files"]);
  expectOk(result, "deploy-files --skip-saving-files");
  assert.not.ok(existsSync(join(pipelinesDir, "plain")));
});

test("deploy-files: a missing folder, a folder without files, a missing --name", async () => {
  const missing = await cli(["pipeline", "deploy-files", "wrappers/nope", "-n", "nope"]);
  assert.is(missing.code, 1);
  assert.match(missing.stderr, /✘ Directory does not exist: wrappers\/nope/);

  const empty = await cli(["pipeline", "deploy-files", "wrappers/empty", "-n", "empty"]);
  assert.is(empty.code, 1);
  assert.match(empty.stderr, /✘ No files found in wrappers\/empty/);

  const notDir = await cli(["pipeline", "deploy-files", "calc.yml", "-n", "calc"]);
  assert.is(notDir.code, 1);
  assert.match(notDir.stderr, /✘ Not a directory: calc\.yml/);

  const noName = await cli(["pipeline", "deploy-files", "wrappers/echo"]);
  assert.is(noName.code, 1);
  assert.match(noName.stderr, /missing required option `-n, --name <name>`/);
  assert.match(noName.stdout, /\$ svc pipeline deploy-files <path>/);
});

test("deploy-files sends name, description, flags and one `files` part per relative path", async () => {
  const fake = await recordingServer(({ url }) => ({ body: { status: "success", message: `Deployed at ${url}`, name: "x" } }));
  try {
    const fakeEnv = { SERVICE_PORT: String(fake.port) };
    const result = await cli(["pipeline", "deploy-files", "wrappers/echo", "-n", "x", "--description", "Desc", "-o", "--skip-saving-files", "--skip-mcp"], { env: fakeEnv });
    expectOk(result, "deploy-files (fake server)");
    assert.match(result.stdout, /✔ Deployed at \/deploy-files/);
    const [request] = fake.requests;
    assert.is(request!.method, "POST");
    assert.match(String(request!.headers["content-type"]), /^multipart\/form-data; boundary=/);
    const form = await formOf(request!);
    assert.is(form.get("name"), "x");
    assert.is(form.get("description"), "Desc");
    assert.is(form.get("overwrite"), "true");
    assert.is(form.get("save_files"), "false");
    assert.is(form.get("skip_mcp"), "true");
    const files = form.getAll("files") as File[];
    assert.equal(files.map((f) => f.name), ["pipeline_wrapper.ts", "sub/notes.txt"]);
    assert.is(await files[1]!.text(), "nested notes\n");

    // Values stay as typed (no number parsing: "007" is not 7).
    const defaults = await cli(["pipeline", "deploy-files", "wrappers/echo", "--name=007"], { env: fakeEnv });
    expectOk(defaults, "deploy-files defaults (fake server)");
    const second = await formOf(fake.requests[1]!);
    assert.is(second.get("name"), "007");
    assert.is(second.get("description"), "007");
    assert.is(second.get("overwrite"), "false");
    assert.is(second.get("save_files"), "true");
    assert.is(second.get("skip_mcp"), null, "without --skip-mcp the wrapper's own skipMcp decides");
  } finally {
    fake.server.close();
  }
});

test("deploy-files of more than 1 MiB reports upload progress on stderr", async () => {
  const result = await cli(["pipeline", "deploy-files", "wrappers/big", "-n", "big"]);
  expectOk(result, "deploy-files big");
  assert.match(result.stderr, /Uploading 2 files \(1\.5 MiB\)/);
  assert.match(result.stderr, /Uploading 2 files: [\d.]+ (KiB|MiB) \/ 1\.5 MiB \(\d+%\)/);
  assert.match(result.stderr, /Uploading 2 files: sent 1\.5 MiB in [\d.]+s/);
  assert.is(statSync(join(pipelinesDir, "big/data.bin")).size, 1536 * 1024);
  expectOk(await cli(["pipeline", "undeploy", "big"]), "undeploy big");
});

test("deploy-yaml sends the file as JSON and shows the server's answer", async () => {
  const fake = await recordingServer(() => ({ body: { status: "success", message: "Pipeline 'calc' successfully deployed", name: "calc" } }));
  try {
    const result = await cli(["pipeline", "deploy-yaml", "calc.yml", "--no-save-file", "--skip-mcp"], { env: { SERVICE_PORT: String(fake.port) } });
    expectOk(result, "deploy-yaml (fake server)");
    assert.match(result.stdout, /✔ Pipeline 'calc' successfully deployed/);
    assert.is(fake.requests[0]!.url, "/deploy-yaml");
    assert.equal(JSON.parse(fake.requests[0]!.body.toString()), {
      name: "calc",
      source_code: "components: {}\nconnections: []\ninputs:\n  value: add.value\noutputs:\n  result: add.result\n",
      description: "calc",
      overwrite: false,
      skip_mcp: true,
      save_file: false,
    });
    const named = await cli(["pipeline", "deploy-yaml", "calc.yml", "-n", "calculator", "--description", "Adds", "-o"], { env: { SERVICE_PORT: String(fake.port) } });
    expectOk(named, "deploy-yaml -n (fake server)");
    const body = JSON.parse(fake.requests[1]!.body.toString());
    assert.equal([body.name, body.description, body.overwrite, body.save_file], ["calculator", "Adds", true, true]);
  } finally {
    fake.server.close();
  }

  // The real server answers whatever its YAML support says (501 without an engine plugin).
  const real = await cli(["pipeline", "deploy-yaml", "calc.yml"]);
  if (real.code === 0) assert.match(real.stdout, /✔ Pipeline 'calc' successfully deployed/);
  else {
    assert.is(real.code, 1);
    assert.match(real.stderr, /✘ Server error \(\d{3}\): \S/);
  }

  const missing = await cli(["pipeline", "deploy-yaml", "nope.yml"]);
  assert.is(missing.code, 1);
  assert.match(missing.stderr, /✘ Pipeline file does not exist: nope\.yml/);
});

test("undeploy removes a pipeline; an unknown name fails; --force makes it a warning", async () => {
  expectOk(await cli(["pipeline", "deploy-files", "wrappers/plain", "-n", "gone"]), "deploy gone");
  const result = await cli(["pipeline", "undeploy", "gone"]);
  expectOk(result, "undeploy");
  assert.match(result.stdout, /✔ Pipeline 'gone' successfully undeployed/);
  assert.not.ok(existsSync(join(pipelinesDir, "gone")));
  assert.not.match((await cli(["status"])).stdout, /gone/);

  const unknown = await cli(["pipeline", "undeploy", "gone"]);
  assert.is(unknown.code, 1);
  assert.match(unknown.stderr, /✘ Server error \(404\): Pipeline 'gone' not found/);

  const forced = await cli(["pipeline", "undeploy", "gone", "--force"]);
  expectOk(forced, "undeploy --force");
  assert.match(forced.stderr, /! Nothing to undeploy: Pipeline 'gone' not found/);
});

test("run: --param values are JSON when they parse, raw strings otherwise", async () => {
  const result = await cli(["pipeline", "run", "plain", "--param", 'question="Hi"', "-p", "n=3", "-p", 'extra={"tags":["a","b"],"ok":true}']);
  expectOk(result, "run");
  assert.match(result.stdout, /^✔ Pipeline 'plain' executed successfully\n/);
  const json = JSON.parse(result.stdout.slice(result.stdout.indexOf("\n") + 1));
  assert.equal(json, { question: "Hi", n: 3, extra: { tags: ["a", "b"], ok: true } });

  const raw = await cli(["pipeline", "run", "plain", "-p", "question=hello world", "-p", "n=a=b", "-p", "extra=[1,"]);
  expectOk(raw, "run raw");
  assert.equal(JSON.parse(raw.stdout.slice(raw.stdout.indexOf("\n") + 1)), { question: "hello world", n: "a=b", extra: "[1," });

  const text = await cli(["pipeline", "run", "plain", "-p", "question=Hi", "-p", "n=2", "-p", "as=text"]);
  expectOk(text, "run text result");
  assert.is(text.stdout, "✔ Pipeline 'plain' executed successfully\nHi x2\n");
});

test("run: a param without '=' fails; a failing pipeline shows the server's message", async () => {
  const bad = await cli(["pipeline", "run", "plain", "--param", "oops"]);
  assert.is(bad.code, 1);
  assert.match(bad.stderr, /✘ Invalid parameter format: 'oops'\. Use key=<JSON value>/);

  const failing = await cli(["pipeline", "run", "plain", "-p", "question=x", "-p", "as=fail"]);
  assert.is(failing.code, 1);
  assert.match(failing.stderr, /✘ Server error \(500\): Pipeline execution failed: the model is asleep/);

  const missing = await cli(["pipeline", "run", "ghost"]);
  assert.is(missing.code, 1);
  assert.match(missing.stderr, /✘ Server error \(404\): Pipeline 'ghost' not found/);
});

test("run: a file answer is described, not printed", async () => {
  const result = await cli(["pipeline", "run", "plain", "-p", "question=x", "-p", "as=file"]);
  expectOk(result, "run file answer");
  assert.match(result.stdout, /! The pipeline answered a file 'report\.pdf' \(application\/pdf, 4 B\)/);
});

test("run --file and --dir upload files (base names, nested files included) with params as form fields", async () => {
  const result = await cli(["pipeline", "run", "echo", "--file", "inputs/report.txt", "--dir", "inputs/folder", "-p", "question=files?", "-p", "n=2", "--stream"]);
  expectOk(result, "run with files");
  assert.match(result.stderr, /! Streaming is not supported with file uploads\. Running without streaming\./);
  const json = JSON.parse(result.stdout.slice(result.stdout.indexOf("\n") + 1));
  assert.equal(json, { question: "files?", n: 2, files: ["report.txt", "a.txt", "b.txt"] });

  // A pipeline that takes files also runs without any (its endpoint takes only multipart).
  const none = await cli(["pipeline", "run", "echo", "-p", "question=none"]);
  expectOk(none, "run without files");
  assert.equal(JSON.parse(none.stdout.slice(none.stdout.indexOf("\n") + 1)), { question: "none", n: 1, files: [] });

  const missing = await cli(["pipeline", "run", "echo", "--file", "inputs/nope.txt"]);
  assert.is(missing.code, 1);
  assert.match(missing.stderr, /✘ File does not exist: inputs\/nope\.txt/);
  const missingDir = await cli(["pipeline", "run", "echo", "--dir", "inputs/nope"]);
  assert.is(missingDir.code, 1);
  assert.match(missingDir.stderr, /✘ Directory does not exist: inputs\/nope/);
});

test("run sends multipart fields: objects and arrays as JSON, the rest as text", async () => {
  const fake = await recordingServer(() => ({ body: { result: "ok" } }));
  try {
    const result = await cli(["pipeline", "run", "x", "-f", "inputs/report.txt", "-p", 'obj={"a":1}', "-p", "list=[1,2]", "-p", "n=5", "-p", "flag=true", "-p", "s=plain"], {
      env: { SERVICE_PORT: String(fake.port) },
    });
    expectOk(result, "run (fake server)");
    assert.is(result.stdout, "✔ Pipeline 'x' executed successfully\nok\n");
    assert.is(fake.requests[0]!.url, "/x/run");
    const form = await formOf(fake.requests[0]!);
    assert.equal([form.get("obj"), form.get("list"), form.get("n"), form.get("flag"), form.get("s")], ['{"a":1}', "[1,2]", "5", "true", "plain"]);
    const file = form.get("files") as File;
    assert.equal([file.name, file.type, await file.text()], ["report.txt", "text/plain", "a report\n"]);
  } finally {
    fake.server.close();
  }
});

test("run --stream prints chunks as they arrive", async () => {
  expectOk(await cli(["pipeline", "deploy-files", "wrappers/stream", "-n", "stream"]), "deploy stream");
  // The first chunk is on stdout while the pipeline still pauses before the second.
  const child = spawn(process.execPath, [cliPath, "pipeline", "run", "stream", "--stream", "-p", "pause=1500"], { cwd, env: cleanEnv(env) });
  let out = "";
  let firstAlone = false;
  child.stdout.on("data", (c) => {
    out += c;
    if (out.includes("first") && !out.includes("second")) firstAlone = true;
  });
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  assert.is(code, 0);
  assert.ok(firstAlone, "the first chunk arrived before the rest");
  assert.is(out, "first second third\n✔ Pipeline 'stream' executed successfully\n");

  const plain = await cli(["pipeline", "run", "stream"]);
  expectOk(plain, "run stream without --stream");
  assert.match(plain.stderr, /! This pipeline streams its answer\. Use --stream to see it as it arrives\./);
  assert.is(plain.stdout, "✔ Pipeline 'stream' executed successfully\nfirst second third\n");
});

test("run --stream prints the data of an SSE answer", async () => {
  expectOk(await cli(["pipeline", "deploy-files", "wrappers/sse", "-n", "events"]), "deploy events");
  const result = await cli(["pipeline", "run", "events", "--stream"]);
  expectOk(result, "run events --stream");
  assert.is(result.stdout, "alpha beta\n✔ Pipeline 'events' executed successfully\n");
});

test("the server URL comes from .env and the config file; a bind-all host means 127.0.0.1", async () => {
  const dir = mkdtempSync(join(tmpdir(), "svc-client-cwd-"));
  try {
    writeFileSync(join(dir, ".env"), `SERVICE_HOST=0.0.0.0\nSERVICE_PORT=${svc.port}\n`);
    const fromDotEnv = await runSvc(["status"], { cwd: dir, env: { FORCE_COLOR: "0" } });
    expectOk(fromDotEnv, "status with .env");
    assert.match(fromDotEnv.stdout, new RegExp(`✔ svc is up and running at http://127\\.0\\.0\\.1:${svc.port}\n`));
    rmSync(join(dir, ".env"));
    writeFileSync(join(dir, "svc.config.yaml"), `settings:\n  host: 127.0.0.1\n  port: ${svc.port}\n`);
    const fromConfig = await runSvc(["status"], { cwd: dir, env: { FORCE_COLOR: "0" } });
    expectOk(fromConfig, "status with svc.config.yaml");
    assert.match(fromConfig.stdout, /1\s+echo\s+Active/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a server that is not running: the not-responding message and exit 1", async () => {
  const port = String(await freePort());
  for (const args of [["status"], ["pipeline", "run", "plain"], ["pipeline", "undeploy", "plain", "--force"], ["pipeline", "deploy-files", "wrappers/echo", "-n", "echo"]]) {
    const result = await cli(args, { env: { SERVICE_PORT: port } });
    assert.is(result.code, 1, args.join(" "));
    assert.match(result.stderr, new RegExp(`✘ svc is not responding at http://127\\.0\\.0\\.1:${port}\\. Start it with \`svc run\`\\.`));
    assert.is(result.stdout, "");
  }
});

test("an unknown pipeline action or an option of another action exits 1 with help", async () => {
  const unknown = await cli(["pipeline", "deploy", "wrappers/echo"]);
  assert.is(unknown.code, 1);
  assert.match(unknown.stderr, /Error: unknown pipeline action 'deploy' \(expected one of: deploy-files, deploy-yaml, undeploy, run\)/);
  assert.match(unknown.stdout, /Actions:/);

  const none = await cli(["pipeline"]);
  assert.is(none.code, 1);
  assert.match(none.stderr, /missing required args/);

  const foreign = await cli(["pipeline", "undeploy", "echo", "--stream"]);
  assert.is(foreign.code, 1);
  assert.match(foreign.stderr, /option `--stream` does not apply to `svc pipeline undeploy`/);

  const extra = await cli(["pipeline", "undeploy", "echo", "plain"]);
  assert.is(extra.code, 1);
  assert.match(extra.stderr, /unexpected argument: plain/);
});

test.run();
