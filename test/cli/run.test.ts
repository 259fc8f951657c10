import { test } from "uvu";
import * as assert from "uvu/assert";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cliPath, repoRoot, runSvc, startSvc, type RunningSvc } from "../helpers/cli.js";
import { rawRequest, until } from "../helpers/http.js";

const slowPlugin = join(repoRoot, "test/fixtures/plugins/slow.ts");
const base = ["run", "--host", "127.0.0.1", "--port", "0"];

async function using(svc: RunningSvc, fn: (svc: RunningSvc) => Promise<void>) {
  try {
    await fn(svc);
  } finally {
    await svc.stop("SIGKILL");
  }
}

test("--version prints the package version; --help lists commands and options", async () => {
  const version = await runSvc(["--version"]);
  assert.is(version.code, 0);
  const { version: expected } = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")) as { version: string };
  assert.ok(version.stdout.startsWith(`svc/${expected} `), version.stdout);
  const help = await runSvc(["--help"]);
  assert.is(help.code, 0);
  assert.match(help.stdout, /run\s+Serve the pipelines directory/);
  const runHelp = await runSvc(["run", "--help"]);
  for (const flag of ["--host", "--port", "--workers", "--pipelines-dir", "--additional-module-path", "--additional-python-path", "--root-path", "--reload", "--without-tracing", "--without-monitoring", "--with-chat-ui", "--plugin"]) {
    assert.ok(runHelp.stdout.includes(flag), flag);
  }
});

test("unknown commands and options exit non-zero with help", async () => {
  const command = await runSvc(["frobnicate"]);
  assert.is(command.code, 1);
  assert.match(command.stderr, /unknown command 'frobnicate'/);
  assert.match(command.stdout, /Usage:/);
  const option = await runSvc(["run", "--frobnicate"]);
  assert.is(option.code, 1);
  assert.match(option.stderr, /Unknown option `--frobnicate`/);
  assert.match(option.stdout, /Usage:/);
});

test("an invalid setting stops startup naming the variable", async () => {
  const env = await runSvc(base, { env: { SERVICE_GRACEFUL_SHUTDOWN_TIMEOUT: "soon" } });
  assert.is(env.code, 1);
  assert.match(env.stderr, /Invalid setting SERVICE_GRACEFUL_SHUTDOWN_TIMEOUT \(from the environment\): got "soon"; expected a number from 0 to 300/);
  const flag = await runSvc(["run", "--port", "high"]);
  assert.is(flag.code, 1);
  assert.match(flag.stderr, /Invalid setting --port \(from the command line\)/);
});

test("a plugin that fails to load or set up stops startup; the server never listens", async () => {
  const missing = await runSvc([...base, "--plugin", "./no-such-plugin.ts"]);
  assert.is(missing.code, 1);
  assert.match(missing.stderr, /Plugin '.\/no-such-plugin.ts' failed to load: no such file or directory/);
  assert.not.match(missing.stderr, /listening/);
  const broken = await runSvc([...base, "--plugin", slowPlugin, "--plugin", "./test/fixtures/plugins/broken-setup.ts"]);
  assert.is(broken.code, 1);
  assert.match(broken.stderr, /Plugin 'fixture-broken' failed during setup: database unreachable/);
  assert.not.match(broken.stderr, /listening/);
});

test("svc run --plugin ./plugin-template/index.ts (the source) serves the template's route", async () => {
  await using(await startSvc([...base, "--plugin", "./plugin-template/index.ts"]), async ({ url }) => {
    assert.equal(await (await fetch(`${url}/template/hello?name=svc`)).json(), { message: "Hello, svc!" });
    const missing = await fetch(`${url}/nope`);
    assert.is(missing.status, 404);
    assert.equal(await missing.json(), { error: { message: "Not found: GET /nope", type: "invalid_request_error", code: 404 } });
    const malformed = await fetch(`${url}/template/echo`, { method: "POST", body: "{oops" });
    assert.is(malformed.status, 400);
    const big = await fetch(`${url}/template/echo`, { method: "POST", body: JSON.stringify({ text: "x".repeat(5 * 1024 * 1024) }) });
    assert.is(big.status, 413);
    assert.is(((await big.json()) as { error: { code: number } }).error.code, 413);
    const foreign = await rawRequest(`${url}/template/hello`, { headers: { host: "rebind.attacker.example" } });
    assert.is(foreign.status, 403);
    assert.is(JSON.parse(foreign.body).error.type, "permission_error");
  });
});

test("svc.config.yaml, .env and SERVICE_PLUGINS configure plugins and settings", async () => {
  const cwd = mkdtempSync(join(tmpdir(), "svc-cwd-"));
  writeFileSync(
    join(cwd, "svc.config.yaml"),
    `settings:\n  maxBodyBytes: 64\nplugins:\n  - use: ${join(repoRoot, "plugin-template", "index.ts")}\n    options:\n      greeting: Howdy\n      prefix: /t\n`,
  );
  writeFileSync(join(cwd, ".env"), "LOG=DEBUG\n");
  await using(await startSvc(base, { cwd, env: { SERVICE_PLUGINS: slowPlugin } }), async ({ url, output }) => {
    assert.equal(await (await fetch(`${url}/t/hello`)).json(), { message: "Howdy, world!" });
    assert.equal(await (await fetch(`${url}/slow?ms=1`)).json(), { slept: 1, aborted: false });
    const big = await fetch(`${url}/t/echo`, { method: "POST", body: JSON.stringify({ text: "x".repeat(100) }) });
    assert.is(big.status, 413);
    await until(() => / DEBUG .*GET \/t\/hello 200/.test(output()), 2000, "debug request log");
  });
});

test("SIGTERM during a slow request lets it finish within the grace period and exits 0", async () => {
  const svc = await startSvc([...base, "--plugin", slowPlugin], { env: { SERVICE_GRACEFUL_SHUTDOWN_TIMEOUT: "5" } });
  await using(svc, async () => {
    const pending = fetch(`${svc.url}/slow?ms=700`).then(async (r) => ({ status: r.status, body: await r.json() }));
    await new Promise((r) => setTimeout(r, 150));
    const code = await svc.stop("SIGTERM");
    assert.equal(await pending, { status: 200, body: { slept: 700, aborted: false } });
    assert.is(code, 0);
    assert.match(svc.output(), /SIGTERM received: shutting down/);
  });
});

test("SIGTERM aborts a request that outlives the grace period and still exits 0", async () => {
  const svc = await startSvc([...base, "--plugin", slowPlugin], { env: { SERVICE_GRACEFUL_SHUTDOWN_TIMEOUT: "0.3" } });
  await using(svc, async () => {
    // Outliving the grace period, it is answered 503 (see keep-alive-drain.test.ts).
    const pending = fetch(`${svc.url}/slow?ms=20000`).then(
      async (r) => ({ aborted: r.status === 503 }),
      () => ({ aborted: false }),
    );
    await new Promise((r) => setTimeout(r, 150));
    const started = Date.now();
    assert.is(await svc.stop("SIGTERM"), 0);
    // The request alone would take 20 s: exiting well before that means it was aborted.
    assert.ok(Date.now() - started < 15_000, `took ${Date.now() - started} ms`);
    assert.is((await pending).aborted, true);
  });
});

test("--workers 2 serves from two processes on one port", async () => {
  const svc = await startSvc([...base, "--workers", "2", "--plugin", slowPlugin]);
  await using(svc, async () => {
    await svc.waitFor(/svc listening[^\n]*\n(.|\n)*svc listening/);
    const pids = new Set<number>();
    for (let i = 0; i < 20 && pids.size < 2; i++) {
      pids.add(JSON.parse((await rawRequest(`${svc.url}/pid`)).body).pid);
    }
    assert.is(pids.size, 2);
    assert.ok(!pids.has(svc.proc.pid!), "the primary does not serve");
    assert.is(await svc.stop("SIGTERM"), 0);
  });
});

test("--reload restarts the server when its own code changes", async () => {
  const svc = await startSvc([...base, "--reload", "--plugin", slowPlugin]);
  const probe = join(repoRoot, "dist/cli/__reload_probe__.js");
  await using(svc, async () => {
    const first = JSON.parse((await rawRequest(`${svc.url}/pid`)).body).pid as number;
    const mark = svc.output().length;
    writeFileSync(probe, "// reload probe\n");
    const again = await svc.waitFor(/svc listening on http:\/\/[^:\s]+:(\d+) pid=(\d+)/, undefined, mark);
    assert.not.equal(Number(again[2]), first);
    assert.match(svc.output().slice(mark), /Change in dist\/cli\/__reload_probe__\.js: restarting/);
    assert.is(await svc.stop("SIGTERM"), 0);
  }).finally(() => rmSync(probe, { force: true }));
});

test("the bin entry is executable through node", () => {
  assert.ok(cliPath.endsWith("dist/cli/index.js"));
});

test.run();
