/**
 * The runs commands against a real `svc run`: `svc pipeline run --background [--watch]` and
 * `svc runs list|get|watch|cancel`, their exit codes, bad input, and `watch` resuming with
 * Last-Event-ID through a proxy that drops the connection mid-stream.
 */
import { spawn } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { Socket as NetSocket, createServer, type Server, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { cleanEnv, cliPath, runSvc, startSvc, type CliResult, type RunningSvc } from "../helpers/cli.js";
import { until } from "../helpers/http.js";
import { tempDir, wrapper } from "../helpers/pipelines.js";

const cwd = tempDir("svc-runs-cli-");
const pipelinesDir = join(cwd, "pipelines");
let svc: RunningSvc;
let env: Record<string, string>;

const PIPELINES: Record<string, string> = {
  echo: wrapper(`runApi(input: { text: string }) { return { echo: input.text }; }`, `static inputSchema = v.object({ text: v.string() });`),
  // Pauses (ms) between its parts; waits on a file-free promise so a test can cut the connection in between.
  parts: wrapper(`async *runApi(input: { pause?: number }) {
    yield "first ";
    await new Promise((r) => setTimeout(r, input.pause ?? 0));
    yield "second ";
    yield "third";
  }`),
  broken: wrapper(`runApi() { throw new Error("the model is asleep"); }`),
  hang: wrapper(`runApi(_input: unknown, ctx: { signal: AbortSignal }) {
    return new Promise((_r, reject) => ctx.signal.addEventListener("abort", () => reject(new Error("aborted")), { once: true }));
  }`),
};

const svcCli = (args: string[]): Promise<CliResult> => runSvc(args, { cwd, env });

/** The id a `--background` start printed on its last line. */
function startedId(result: CliResult): string {
  assert.is(result.code, 0, result.stderr);
  const id = result.stdout.trim().split("\n").at(-1)!;
  assert.match(id, /^run_[0-9a-f]{28}$/);
  return id;
}

async function statusOf(id: string): Promise<string> {
  const res = await fetch(`${svc.url}/runs/${id}`);
  return ((await res.json()) as { status: string }).status;
}

/** Polls the run until it has `status` (generous: the machine is shared). */
async function untilStatus(id: string, status: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  let seen = "";
  while ((seen = await statusOf(id)) !== status) {
    if (Date.now() > deadline) assert.unreachable(`run ${id} is ${seen}, not ${status}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

test.before(async () => {
  for (const [name, source] of Object.entries(PIPELINES)) {
    mkdirSync(join(pipelinesDir, name), { recursive: true });
    writeFileSync(join(pipelinesDir, name, "pipeline_wrapper.ts"), source);
  }
  svc = await startSvc(["run", "--host", "127.0.0.1", "--port", "0", "--pipelines-dir", pipelinesDir], { cwd });
  // Plain output: uvu sets FORCE_COLOR=1 for itself, and children inherit it.
  env = { SERVICE_HOST: "127.0.0.1", SERVICE_PORT: String(svc.port), FORCE_COLOR: "0" };
});

test.after(async () => {
  await svc?.stop("SIGKILL");
  rmSync(cwd, { recursive: true, force: true });
});

test("pipeline run --background prints the run's id; runs get shows it, as text and --json", async () => {
  const started = await svcCli(["pipeline", "run", "echo", "-p", "text=hello", "--background"]);
  const id = startedId(started);
  assert.match(started.stdout, /✔ Background run of 'echo' started \((queued|in_progress)\); follow it with `svc runs watch run_/);
  await untilStatus(id, "completed");
  const got = await svcCli(["runs", "get", id]);
  assert.is(got.code, 0, got.stderr);
  assert.match(got.stdout, new RegExp(`ID:\\s+${id}`));
  assert.match(got.stdout, /Pipeline:\s+echo/);
  assert.match(got.stdout, /Status:\s+completed/);
  assert.match(got.stdout, /Result:\n\{\n {2}"echo": "hello"\n\}/);
  const json = await svcCli(["runs", "get", id, "--json"]);
  assert.is(json.code, 0);
  const run = JSON.parse(json.stdout);
  assert.equal([run.id, run.status, run.result, run.input], [id, "completed", { echo: "hello" }, { text: "hello" }]);
});

test("pipeline run --background --watch prints the streamed output and exits 0 once completed", async () => {
  const watched = await svcCli(["pipeline", "run", "parts", "--background", "--watch"]);
  assert.is(watched.code, 0, watched.stderr);
  assert.match(watched.stdout, /first second third\n✔ Run run_[0-9a-f]{28} completed\n$/);
});

test("runs watch: a failed run exits 1 with its error, a cancelled one 2; runs cancel stops it", async () => {
  const failed = startedId(await svcCli(["pipeline", "run", "broken", "--background"]));
  const watchFailed = await svcCli(["runs", "watch", failed]);
  assert.is(watchFailed.code, 1);
  assert.match(watchFailed.stderr, new RegExp(`✘ Run ${failed} failed: .*the model is asleep`));

  const hanging = startedId(await svcCli(["pipeline", "run", "hang", "--background"]));
  await untilStatus(hanging, "in_progress");
  const watching = svcCli(["runs", "watch", hanging]);
  const cancelled = await svcCli(["runs", "cancel", hanging]);
  assert.is(cancelled.code, 0, cancelled.stderr);
  assert.match(cancelled.stdout, new RegExp(`✔ Run ${hanging} cancelled`));
  const watchCancelled = await watching;
  assert.is(watchCancelled.code, 2, watchCancelled.stderr);
  assert.match(watchCancelled.stderr, new RegExp(`✘ Run ${hanging} was cancelled`));

  const again = await svcCli(["runs", "cancel", hanging]);
  assert.is(again.code, 1);
  assert.match(again.stderr, /✘ Server error \(409\): Run 'run_[0-9a-f]+' already ended \(cancelled\)/);
});

test("runs list: a table newest first, filters, --limit with the next page's cursor, --json", async () => {
  const first = startedId(await svcCli(["pipeline", "run", "echo", "-p", "text=a", "--background"]));
  const second = startedId(await svcCli(["pipeline", "run", "echo", "-p", "text=b", "--background"]));
  await untilStatus(first, "completed");
  await untilStatus(second, "completed");

  const listed = await svcCli(["runs", "list", "--pipeline", "echo", "--limit", "1"]);
  assert.is(listed.code, 0, listed.stderr);
  const lines = listed.stdout.trimEnd().split("\n");
  assert.match(lines[0]!, /ID\s+Pipeline\s+Status\s+Created\s+Ended/);
  assert.match(lines[2]!, new RegExp(`${second}\\s+echo\\s+completed\\s+\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d`));
  assert.is(lines.length, 4, "one run, then the next page's hint");
  const cursor = /More runs: add --cursor (run_\w+)/.exec(lines[3]!)?.[1];
  assert.is(cursor, second);
  const next = await svcCli(["runs", "list", "--pipeline", "echo", "--limit", "1", "--cursor", cursor!]);
  assert.match(next.stdout, new RegExp(first));

  const json = JSON.parse((await svcCli(["runs", "list", "--status", "failed", "--json"])).stdout);
  assert.ok(json.runs.length >= 1 && json.runs.every((r: { status: string; pipeline: string }) => r.status === "failed" && r.pipeline === "broken"));
  assert.type(json.has_more, "boolean");

  const none = await svcCli(["runs", "list", "--pipeline", "never_deployed"]);
  assert.is(none.code, 0);
  assert.match(none.stdout, /! No runs/);
});

test("bad input: unknown ids, bad options and actions are one clear line and exit 1", async () => {
  const cases: [string[], RegExp][] = [
    [["runs", "get", "run_00000000000000000000000000ff"], /✘ Server error \(404\): Run 'run_0+ff' not found/],
    [["runs", "get", "nonsense"], /✘ Server error \(404\): Run 'nonsense' not found/],
    [["runs", "watch", "run_00000000000000000000000000ff"], /✘ Server error \(404\): Run 'run_0+ff' not found/],
    [["runs", "cancel", "run_00000000000000000000000000ff"], /✘ Server error \(404\)/],
    [["runs", "list", "--status", "sleeping"], /✘ Server error \(400\): Invalid query parameters: status: must be one of queued/],
    [["runs", "list", "--limit", "0"], /Error: --limit must be a positive whole number, not '0'/],
    [["runs", "list", "--cursor", "page2"], /✘ Server error \(400\): .*cursor/],
    [["runs", "get"], /Error: missing <id> for `svc runs get <id>`/],
    [["runs", "get", "x", "--status", "failed"], /Error: option `--status` does not apply to `svc runs get`/],
    [["runs", "frobnicate"], /Error: unknown runs action 'frobnicate' \(expected one of: list, get, watch, cancel\)/],
    [["pipeline", "run", "nowhere", "--background"], /✘ Server error \(404\)/],
    [["pipeline", "run", "echo", "--background", "--file", "a.txt"], /Error: --background takes a JSON body only/],
    [["pipeline", "run", "echo", "--watch"], /Error: --watch follows a background run: add --background/],
    [["pipeline", "run", "echo", "--background", "-p", "text=1", "-p", "extra=2"], /✘ Server error \(400\)/],
  ];
  for (const [args, expected] of cases) {
    const result = await svcCli(args);
    assert.is(result.code, 1, `${args.join(" ")}: ${result.stdout}${result.stderr}`);
    assert.match(result.stderr, expected, args.join(" "));
  }
  const down = await runSvc(["runs", "list", "--url", "http://127.0.0.1:9"], { cwd, env: { FORCE_COLOR: "0" } });
  assert.is(down.code, 1);
  assert.match(down.stderr, /✘ svc is not responding at http:\/\/127\.0\.0\.1:9/);
});

/** A TCP proxy to svc that records what it forwards and can drop every open connection. */
async function droppingProxy(target: number): Promise<{ port: number; requests: string[]; drop(): void; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const requests: string[] = [];
  const server: Server = createServer((client) => {
    const upstream = new NetSocket();
    upstream.connect(target, "127.0.0.1");
    sockets.add(client).add(upstream);
    client.on("data", (d: Buffer) => requests.push(d.toString("latin1")));
    client.pipe(upstream).pipe(client);
    const gone = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on("error", gone).on("close", gone);
    upstream.on("error", gone).on("close", gone);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as AddressInfo).port,
    requests,
    drop: () => sockets.forEach((s) => s.destroy()),
    close: () => {
      sockets.forEach((s) => s.destroy());
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

test("runs watch resumes after a dropped connection with Last-Event-ID: every part once, in order", async () => {
  const proxy = await droppingProxy(svc.port);
  try {
    const id = startedId(await svcCli(["pipeline", "run", "parts", "-p", "pause=3000", "--background"]));
    const child = spawn(process.execPath, [cliPath, "runs", "watch", id, "--url", `http://127.0.0.1:${proxy.port}`], { cwd, env: cleanEnv(env) });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c) => (stdout += c));
    child.stderr.on("data", (c) => (stderr += c));
    const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
    await until(() => stdout.includes("first "), 20_000, "the first part");
    proxy.drop();
    const code = await exited;
    assert.is(code, 0, stderr);
    assert.match(stdout, /^first \nsecond third\n✔ Run run_\w+ completed\n$/, "the cut line ends, then the rest once");
    assert.match(stderr, /! Connection lost \(.*\); resuming after event \d+/);
    const resumed = proxy.requests.find((r) => /^last-event-id: \d+\r$/im.test(r));
    assert.ok(resumed, `a request with Last-Event-ID (${proxy.requests.length} requests)`);
    assert.match(resumed!, new RegExp(`^GET /runs/${id}/events HTTP/1\\.1`));
  } finally {
    await proxy.close();
  }
});

test.run();
