/**
 * `svc dashboard` end to end: a real `svc run` (tracing on, a private XDG cache dir for its
 * operator credential), pipelines run over HTTP, and the viewer in a tmux terminal reading them.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { lookup } from "node:dns/promises";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { cleanEnv, cliPath, repoRoot, startSvc, type RunningSvc } from "../../helpers/cli.js";
import { sleep } from "../../helpers/http.js";
import { startTmux, type TmuxSession } from "../../helpers/tmux.js";
import { CALC_YAML as CALC } from "../../fixtures/calc-yaml.js";


interface Setup {
  root: string;
  cache: string;
  svc: RunningSvc;
  token(): string;
  traces(): Promise<{ trace_id: string; entrypoint: string | null; duration_ms: number; kind: string }[]>;
  run(name: string, body: unknown): Promise<void>;
  close(): Promise<void>;
}

/** `svc run` on 127.0.0.1 with a calc YAML pipeline and the text_stats wrapper, its cache dir private to the test. */
async function startServer(sharedCache?: string): Promise<Setup> {
  const root = mkdtempSync(join(tmpdir(), "svc-dashboard-"));
  const cache = sharedCache ?? join(root, "cache");
  const pipelines = join(root, "pipelines");
  mkdirSync(pipelines);
  writeFileSync(join(pipelines, "calc.yml"), CALC);
  cpSync(join(repoRoot, "pipelines/text_stats"), join(pipelines, "text_stats"), { recursive: true });
  const svc = await startSvc(["run", "--host", "127.0.0.1", "--port", "0", "--pipelines-dir", pipelines], { env: { XDG_CACHE_HOME: cache } });
  const token = () => readFileSync(join(cache, "svc", "dashboard-token"), "utf8").trim();
  return {
    root,
    cache,
    svc,
    token,
    traces: async () => {
      const res = await fetch(`${svc.url}/traces?limit=100`, { headers: { authorization: `Bearer ${token()}` } });
      assert.is(res.status, 200);
      return ((await res.json()) as { traces: Awaited<ReturnType<Setup["traces"]>> }).traces;
    },
    run: async (name, body) => {
      const res = await fetch(`${svc.url}/${name}/run`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
      assert.is(res.status, 200, await res.text());
    },
    close: async () => {
      await svc.stop("SIGKILL");
      rmSync(root, { recursive: true, force: true });
    },
  };
}

function dashboard(args: string[], env: Record<string, string>, size = { columns: 160, rows: 32 }): Promise<TmuxSession> {
  return startTmux([process.execPath, cliPath, "dashboard", "--interval", "0.3", ...args], { env: cleanEnv(env), cwd: repoRoot, ...size });
}

async function using(resources: { close(): Promise<void> }[], fn: () => Promise<void>): Promise<void> {
  try {
    await fn();
  } finally {
    for (const r of [...resources].reverse()) await r.close();
  }
}

/** Trace ids in the order they appear on the screen. */
const onScreen = (screen: string, ids: readonly string[]) => ids.filter((id) => screen.includes(id)).sort((a, b) => screen.indexOf(a) - screen.indexOf(b));

test("traces of a real server: listed, sorted, filtered, searched, expanded; c clears only the local list", async () => {
  const s = await startServer();
  const resources: { close(): Promise<void> }[] = [s];
  await using(resources, async () => {
    await s.run("calc", { value: 1 });
    await s.run("calc", { value: 2 });
    await s.run("text_stats", { text: "the viewer reads traces" });
    const traces = await s.traces();
    assert.is(traces.length, 4, "startup deploy and three runs");
    const ids = traces.map((t) => t.trace_id);
    const deploy = traces.find((t) => t.kind === "deploy")!;
    const stats = traces.find((t) => t.entrypoint === "text_stats" && t.kind === "run")!;
    const calcs = traces.filter((t) => t.entrypoint === "calc" && t.kind === "run");

    // The viewer finds the operator credential in the same cache dir (the host is literally 127.0.0.1).
    const tty = await dashboard(["--url", s.svc.url], { XDG_CACHE_HOME: s.cache });
    resources.push(tty);
    let screen = await tty.waitFor(/4 shown of 4/);
    assert.equal(onScreen(screen, ids), ids, "newest first, like the server");
    assert.match(screen, new RegExp(`ok\\s+run\\s+text_stats\\s+\\S+\\s+1\\s+\\d\\d:\\d\\d:\\d\\d ${stats.trace_id}`));
    assert.match(screen, new RegExp(`ok\\s+deploy\\s+calc\\s+.*${deploy.trace_id}`));

    await tty.keys("s");
    screen = await tty.waitFor(/sort slowest/);
    const slowest = [...traces].sort((a, b) => b.duration_ms - a.duration_ms || traces.indexOf(a) - traces.indexOf(b)).map((t) => t.trace_id);
    assert.equal(onScreen(screen, ids), slowest);
    await tty.keys("s");
    await tty.waitFor(/sort newest/);

    await tty.keys("t");
    screen = await tty.waitFor(/kind run/);
    assert.match(screen, /3 shown of 4/);
    assert.not.ok(screen.includes(deploy.trace_id));
    await tty.keys("e");
    screen = await tty.waitFor(/entrypoint calc/);
    assert.match(screen, /2 shown of 4/);
    assert.equal(onScreen(screen, ids), calcs.map((t) => t.trace_id));
    await tty.keys("Escape");
    await tty.waitFor(/4 shown of 4/);

    // Tag search covers every span: the startup deploy deployed text_stats too.
    await tty.keys("/");
    await tty.type("svc.pipeline.name=text_stats");
    await tty.keys("Enter");
    screen = await tty.waitFor(/search "svc\.pipeline\.name=text_stats"/);
    assert.equal(onScreen(screen, ids), [stats.trace_id, deploy.trace_id]);
    await tty.keys("Escape");
    await tty.waitFor(/4 shown of 4/);

    // Trace-id search, then the span tree of that run: the engine's pipeline and component spans.
    await tty.keys("/");
    await tty.type(calcs[0]!.trace_id);
    await tty.keys("Enter");
    screen = await tty.waitFor(/1 shown of 4/);
    assert.equal(onScreen(screen, ids), [calcs[0]!.trace_id]);
    await tty.keys("Enter");
    screen = await tty.waitFor(/haystack\.component\.run/);
    assert.match(screen, /▾ ok\s+run\s+calc/);
    assert.match(screen, /haystack\.pipeline\.run/);
    assert.match(screen, /haystack\.component\.run\s+\S+\s+.*haystack\.component\.name=first_addition/);
    assert.match(screen, /└─ haystack\.component\.run\s+\S+\s+.*haystack\.component\.name=double/);
    await tty.keys("Escape");
    await tty.waitFor(/4 shown of 4/);

    // c: the list empties here, the server keeps every trace, and a new run shows up.
    await tty.keys("c");
    screen = await tty.waitFor(/Cleared 4 traces from this view \(the server keeps them\)/);
    assert.match(screen, /0 shown of 0/);
    await sleep(700);
    assert.match(await tty.capture(), /0 shown of 0/, "later polls do not bring them back");
    assert.equal((await s.traces()).map((t) => t.trace_id), ids, "the server still has them");
    await s.run("calc", { value: 5 });
    const fresh = (await s.traces())[0]!;
    screen = await tty.waitFor(/1 shown of 1/);
    assert.equal(onScreen(screen, [...ids, fresh.trace_id]), [fresh.trace_id]);

    await tty.keys("q");
    screen = await tty.waitFor(/\[exited 0\]/);
    assert.not.match(screen, /svc traces/);
    assert.is(await tty.display("#{alternate_on}"), "0");
    assert.is(await tty.display("#{cursor_flag}"), "1");
  });
});

test("401 without the credential, 403 with a wrong SERVICE_DASHBOARD_TOKEN, then an unreachable server", async () => {
  const s = await startServer();
  const resources: { close(): Promise<void> }[] = [s];
  await using(resources, async () => {
    // Another cache dir: no credential file there.
    const elsewhere = join(s.root, "other-cache");
    const missing = await dashboard(["--url", s.svc.url], { XDG_CACHE_HOME: elsewhere });
    resources.push(missing);
    let screen = await missing.waitFor(/401 {2}Not authorized[\s\S]*Retrying every/);
    assert.match(screen, /401 {2}Not authorized: GET \/traces at http:\/\/127\.0\.0\.1:\d+ needs an operator credential\./);
    assert.match(screen.replace(/\n\s*/g, " "), new RegExp(`No credential found in ${elsewhere.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}/svc/dashboard-token`));
    await missing.keys("q");
    await missing.waitFor(/\[exited 0\]/);

    // SERVICE_HOST/SERVICE_PORT pick the server when --url is not given; the explicit token wins over the file.
    const wrong = await dashboard([], { XDG_CACHE_HOME: s.cache, SERVICE_HOST: "127.0.0.1", SERVICE_PORT: String(s.svc.port), SERVICE_DASHBOARD_TOKEN: "not-the-token" });
    resources.push(wrong);
    screen = await wrong.waitFor(/403 {2}Forbidden[\s\S]*Retrying every/);
    assert.match(screen, new RegExp(`403 {2}Forbidden: http://127\\.0\\.0\\.1:${s.svc.port} refused the operator credential\\.`));
    assert.match(screen, /SERVICE_DASHBOARD_TOKEN does not match the server's SERVICE_OPERATOR_TOKEN\./);
    await wrong.keys("q");
    await wrong.waitFor(/\[exited 0\]/);

    const right = await dashboard(["--url", s.svc.url], { XDG_CACHE_HOME: s.cache, SERVICE_DASHBOARD_TOKEN: s.token() });
    resources.push(right);
    await right.waitFor(/1 shown of 1/);
    await s.svc.stop("SIGKILL");
    // A poll in flight when the server died may first see the connection reset; the next polls
    // find nothing listening.
    screen = await right.waitFor(/Connection refused: nothing listens there\./);
    assert.match(screen, new RegExp(`Cannot reach svc at http://127\\.0\\.0\\.1:${s.svc.port}\\.`));
    assert.match(screen, /Retrying every 0\.3s/);
    await right.keys("C-c");
    await right.waitFor(/\[exited 0\]/);
  });
});

/** A loopback HTTP server that records the Authorization header of every request and answers 401. */
async function recorder(host: string): Promise<{ port: number; auth: (string | undefined)[]; close(): Promise<void> }> {
  const auth: (string | undefined)[] = [];
  const server: Server = createServer((req, res) => {
    auth.push((req.headers as IncomingHttpHeaders).authorization);
    res.writeHead(401, { "content-type": "application/json" });
    res.end(JSON.stringify({ error: { message: "missing operator credential" } }));
  });
  await new Promise<void>((resolve, reject) => server.once("error", reject).listen(0, host, resolve));
  return {
    port: (server.address() as AddressInfo).port,
    auth,
    close: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

test("the credential file goes only to the literal loopback hosts, not to a name or address that merely is this machine", async () => {
  const root = mkdtempSync(join(tmpdir(), "svc-dashboard-"));
  const cache = join(root, "cache");
  const resources: { close(): Promise<void> }[] = [{ close: async () => rmSync(root, { recursive: true, force: true }) }];
  await using(resources, async () => {
    // The credential file as a loopback server creates it.
    const { ensureDashboardToken, dashboardTokenPath } = await import("svc/internal");
    const token = await ensureDashboardToken(dashboardTokenPath({ XDG_CACHE_HOME: cache }));

    // Control: for the literal 127.0.0.1 the file is read and sent.
    const literal = await recorder("127.0.0.1");
    resources.push(literal);
    const control = await dashboard(["--url", `http://127.0.0.1:${literal.port}`], { XDG_CACHE_HOME: cache });
    resources.push(control);
    await control.waitFor(/401 {2}Not authorized[\s\S]*Retrying every/);
    assert.is(literal.auth[0], `Bearer ${token}`);
    await control.keys("q");
    await control.waitFor(/\[exited 0\]/);

    // The machine's host name (when it resolves to loopback here) and another loopback address.
    const targets = [{ bind: "127.0.0.2", name: "127.0.0.2" }];
    const own = await lookup(hostname(), { family: 4 }).catch(() => undefined);
    if (own?.address.startsWith("127.") && hostname() !== "localhost") targets.push({ bind: own.address, name: hostname() });
    for (const { bind, name } of targets) {
      const server = await recorder(bind);
      resources.push(server);
      const tty = await dashboard(["--url", `http://${name}:${server.port}`], { XDG_CACHE_HOME: cache });
      resources.push(tty);
      const screen = await tty.waitFor(/401 {2}Not authorized[\s\S]*Retrying every/);
      assert.match(screen.replace(/\n\s*/g, " "), /read only for the hosts localhost, 127\.0\.0\.1 and ::1, never sent elsewhere/);
      while (server.auth.length < 3) await sleep(50);
      assert.equal(server.auth, server.auth.map(() => undefined), `no Authorization header to ${name}`);
      await tty.keys("q");
      await tty.waitFor(/\[exited 0\]/);
    }
  });
});

test("--url repeated follows several instances: their traces merged, newest first, each marked with its instance", async () => {
  const a = await startServer();
  const resources: { close(): Promise<void> }[] = [a];
  await using(resources, async () => {
    const b = await startServer(a.cache);
    resources.push(b);
    await a.run("calc", { value: 1 });
    await b.run("calc", { value: 2 });
    const runOf = async (s: Setup) => (await s.traces()).find((t) => t.kind === "run")!.trace_id;
    const [onA, onB] = [await runOf(a), await runOf(b)];
    const tty = await dashboard(["--url", a.svc.url, "--url", b.svc.url], { XDG_CACHE_HOME: a.cache });
    resources.push(tty);
    const screen = await tty.waitFor(/4 shown of 4/);
    assert.equal(onScreen(screen, [onA, onB]), [onB, onA], "newest first across instances");
    assert.match(screen, new RegExp(`127\\.0\\.0\\.1:${a.svc.port} ${onA}`));
    assert.match(screen, new RegExp(`127\\.0\\.0\\.1:${b.svc.port} ${onB}`));
    await b.svc.stop("SIGKILL");
    const partial = await tty.waitFor(/Not answering: 127\.0\.0\.1/);
    assert.ok(partial.includes(onA), "the instance that answers is still shown");
  });
});

test.run();
