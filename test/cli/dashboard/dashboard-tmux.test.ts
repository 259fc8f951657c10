/**
 * `svc dashboard` in a real terminal (tmux) against a stand-in trace API on loopback: what the
 * screen shows, what each key does, how it ends, and the 401/403/unreachable screens.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { cleanEnv, cliPath, repoRoot } from "../../helpers/cli.js";
import { sleep } from "../../helpers/http.js";
import { tempDir } from "../../helpers/pipelines.js";
import { startTmux, type TmuxSession } from "../../helpers/tmux.js";
import type { TraceRecord } from "../../../cli/dashboard/snapshot.js";
import { sample, snapshotOf, spanOf, traceOf } from "./trace-fixtures.js";

interface FakeTraceApi {
  url: string;
  port: number;
  traces: TraceRecord[];
  requests: { url: string; headers: IncomingHttpHeaders }[];
  close(): Promise<void>;
}

/** GET /traces answering with `traces`; with `token`, 401 without a bearer token and 403 for a wrong one. */
async function fakeTraceApi(options: { token?: string; port?: number } = {}): Promise<FakeTraceApi> {
  const api = { traces: sample(), requests: [] as FakeTraceApi["requests"] };
  const server: Server = createServer((req, res) => {
    api.requests.push({ url: req.url!, headers: req.headers });
    const auth = req.headers.authorization;
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    if (!req.url!.startsWith("/traces")) return send(404, { error: { message: "Not Found" } });
    if (options.token && !auth) return send(401, { error: { message: "missing operator credential" } });
    if (options.token && auth !== `Bearer ${options.token}`) return send(403, { error: { message: "wrong operator credential" } });
    send(200, snapshotOf(api.traces, { hasMore: true }));
  });
  await new Promise<void>((r) => server.listen(options.port ?? 0, "127.0.0.1", r));
  const port = (server.address() as AddressInfo).port;
  return Object.assign(api, {
    url: `http://127.0.0.1:${port}`,
    port,
    close: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  });
}

/**
 * A cache dir of this file's own, empty: the viewer reads the operator credential file there for
 * loopback hosts, and one left in the run's shared cache by a server another test started would
 * turn the "no credential" screen into a 403.
 */
const cache = tempDir("svc-dashboard-cache-");

function dashboard(url: string, env: Record<string, string> = {}, size = { columns: 140, rows: 30 }): Promise<TmuxSession> {
  return startTmux([process.execPath, cliPath, "dashboard", "--url", url, "--interval", "0.2"], { env: cleanEnv({ XDG_CACHE_HOME: cache, ...env }), cwd: repoRoot, ...size });
}

async function using<T extends { close(): Promise<void> }>(resources: T[], fn: () => Promise<void>): Promise<void> {
  try {
    await fn();
  } finally {
    for (const r of resources.reverse()) await r.close();
  }
}

const row = (screen: string, id: string) => screen.split("\n").find((l) => l.includes(id)) ?? "";

test("lists the traces and sorts, filters, searches, expands, pauses, refreshes and clears by key", async () => {
  const api = await fakeTraceApi();
  const tty = await dashboard(api.url);
  await using([api, tty], async () => {
    let screen = await tty.waitFor(/aaaa1111/);
    assert.match(screen, /svc traces · http:\/\/127\.0\.0\.1:\d+ · sort newest · every 0\.2s · updated/);
    assert.match(screen, /5 shown of 5 \(server has older\) · ok 3 · failed 1 · running 1/);
    const order = (s: string) => ["aaaa1111", "bbbb2222", "cccc3333", "dddd4444", "eeee5555"].sort((a, b) => s.indexOf(a) - s.indexOf(b));
    assert.equal(order(screen), ["aaaa1111", "bbbb2222", "cccc3333", "dddd4444", "eeee5555"]);
    assert.match(row(screen, "cccc3333"), /failed\s+run\s+chat.*bad input/);
    assert.match(row(screen, "bbbb2222"), /slow: llm 2\.40s/);

    await tty.keys("s");
    screen = await tty.waitFor(/sort slowest/);
    assert.equal(order(screen), ["bbbb2222", "cccc3333", "eeee5555", "aaaa1111", "dddd4444"]);
    await tty.keys("s");
    await tty.waitFor(/sort newest/);

    await tty.keys("t", "t");
    screen = await tty.waitFor(/kind openai/);
    assert.match(screen, /1 shown of 5/);
    assert.ok(screen.includes("dddd4444") && !screen.includes("aaaa1111"));
    await tty.keys("Escape");
    screen = await tty.waitFor(/kind all/);
    await tty.keys("f", "f");
    screen = await tty.waitFor(/state failed/);
    assert.ok(screen.includes("cccc3333") && !screen.includes("bbbb2222"));
    await tty.keys("Escape");
    await tty.waitFor(/state all/);
    await tty.keys("e");
    screen = await tty.waitFor(/entrypoint chat/);
    assert.match(screen, /3 shown of 5/);
    await tty.keys("Escape");
    await tty.waitFor(/entrypoint all/);

    await tty.keys("/");
    await tty.waitFor(/Search \(tag or trace id\):/);
    await tty.type("component.name=llm");
    await tty.keys("Enter");
    screen = await tty.waitFor(/search "component\.name=llm"/);
    assert.match(screen, /1 shown of 5/);
    assert.ok(screen.includes("bbbb2222") && !screen.includes("aaaa1111"));

    await tty.keys("Enter");
    screen = await tty.waitFor(/haystack\.pipeline\.run/);
    assert.match(screen, /└─ haystack\.pipeline\.run\s+2\.90s/);
    assert.match(screen, /├─ haystack\.component\.run\s+400ms\s+haystack\.component\.name=retriever/);
    assert.match(screen, /└─ haystack\.component\.run\s+2\.40s\s+⚠ slowest component/);
    await tty.keys("Enter");
    await tty.waitForGone(/haystack\.pipeline\.run/);

    await tty.keys("Escape");
    await tty.waitFor(/search —/);
    await tty.keys("/");
    await tty.type("cccc3333");
    await tty.keys("Enter");
    screen = await tty.waitFor(/search "cccc3333"/);
    assert.ok(screen.includes("cccc3333") && !screen.includes("bbbb2222"));
    await tty.keys("Escape");
    await tty.waitFor(/eeee5555/);

    // Pause: the server's new trace stays off screen until a manual refresh.
    await tty.keys("p");
    await tty.waitFor(/PAUSED/);
    const seen = api.requests.length;
    api.traces = [traceOf({ id: "ffff6666", start: 1_700_000_009_000, entrypoint: "new" }), ...api.traces];
    await sleep(600);
    assert.not.match(await tty.capture(), /ffff6666/);
    assert.is(api.requests.length, seen, "no polling while paused");
    await tty.keys("r");
    screen = await tty.waitFor(/ffff6666/);
    assert.match(screen, /Refreshed once \(still paused\)/);
    await tty.keys("p");
    await tty.waitForGone(/PAUSED/);

    // c clears the local list only: the server still returns the traces, they stay hidden, new ones appear.
    await tty.keys("c");
    screen = await tty.waitFor(/Cleared 6 traces from this view \(the server keeps them\)/);
    assert.match(screen, /List cleared/);
    const afterClear = api.requests.length;
    await tty.waitFor(/updated/);
    while (api.requests.length < afterClear + 3) await sleep(50);
    screen = await tty.capture();
    assert.not.match(screen, /aaaa1111|ffff6666/);
    assert.match(screen, /0 shown of 0/);
    assert.is(api.traces.length, 6);
    api.traces = [traceOf({ id: "99998888", start: 1_700_000_010_000 }), ...api.traces];
    screen = await tty.waitFor(/99998888/);
    assert.match(screen, /1 shown of 1/);

    await tty.keys("q");
    screen = await tty.waitFor(/\[exited 0\]/);
    assert.not.match(screen, /svc traces/, "the alternate screen is gone");
    assert.is(await tty.display("#{alternate_on}"), "0");
    assert.is(await tty.display("#{cursor_flag}"), "1", "the cursor is visible again");
  });
});

test("resizing redraws to the new size; Ctrl-C quits and restores the terminal", async () => {
  const api = await fakeTraceApi();
  const tty = await dashboard(api.url, {}, { columns: 120, rows: 30 });
  await using([api, tty], async () => {
    await tty.waitFor(/aaaa1111/);
    await tty.resize(50, 12);
    let screen = await tty.waitFor(/^ svc traces · http:\/\/127\.0\.0\.1:\d+ · sort[^\n]*…$/m);
    let lines = screen.replace(/\n$/, "").split("\n");
    assert.is(lines.length, 12);
    assert.match(lines[4]!, /^▸ ok\s+run\s+chat\s+50ms/);
    assert.match(lines[11]!, /^↑↓ move/);
    await tty.resize(160, 40);
    screen = await tty.waitFor(/every 0\.2s · updated/);
    lines = screen.replace(/\n$/, "").split("\n");
    assert.is(lines.length, 40);
    assert.match(lines[39]!, /c clear {2}q quit/);
    await tty.keys("C-c");
    await tty.waitFor(/\[exited 0\]/);
    assert.is(await tty.display("#{alternate_on}"), "0");
  });
});

test("at 80×24 a failed trace shows its error, and the detail line the selected trace's and span's", async () => {
  const api = await fakeTraceApi();
  const error = "db.internal:5432 refused the connection";
  api.traces.unshift(
    traceOf({
      id: "ffff6666ffff6666ffff6666ffff6666",
      start: 1_700_000_009_000,
      entrypoint: "rag",
      tags: { "svc.success": "false" },
      children: [spanOf("f-c1", "haystack.component.run", { duration: 12, tags: { "haystack.component.name": "retriever", "haystack.error.type": "ConnectionError", "haystack.error.message": error } })],
    }),
  );
  const tty = await dashboard(api.url, {}, { columns: 80, rows: 24 });
  await using([api, tty], async () => {
    let screen = await tty.waitFor(/▶ trace failed/);
    let lines = screen.replace(/\n$/, "").split("\n");
    assert.is(lines.length, 24);
    assert.match(lines[4]!, /^▸ failed\s+run\s+rag .* db\.internal:5432/, "the error column is on the row");
    assert.match(lines[22]!, new RegExp(`^▶ trace failed: ${error} · `), "the detail line has the whole error");
    assert.match(lines[23]!, /^↑↓ move/);
    await tty.keys("Right", "Down", "Down");
    screen = await tty.waitFor(/▶ span failed/);
    lines = screen.replace(/\n$/, "").split("\n");
    assert.match(lines[22]!, /^▶ span failed: ConnectionError: db\.internal:5432 refused the connection · /);
    await tty.keys("q");
    await tty.waitFor(/\[exited 0\]/);
  });
});

test("401 and 403 screens: no credential, then a wrong one; the right one shows the list", async () => {
  const api = await fakeTraceApi({ token: "s3cret" });
  const missing = await dashboard(api.url);
  await using([api, missing], async () => {
    const screen = await missing.waitFor(/401 {2}Not authorized[\s\S]*Retrying every/);
    assert.match(screen, /401 {2}Not authorized: GET \/traces at http:\/\/127\.0\.0\.1:\d+ needs an operator credential/);
    assert.match(screen, /Server said: missing operator credential/);
    assert.match(screen, /Retrying every 0\.2s/);
    assert.not.match(screen, /aaaa1111/);
    assert.ok(api.requests.every((r) => r.headers.authorization === undefined));
    await missing.keys("q");
    await missing.waitFor(/\[exited 0\]/);

    const wrong = await dashboard(api.url, { SERVICE_DASHBOARD_TOKEN: "guess" });
    await using([wrong], async () => {
      const s = await wrong.waitFor(/403 {2}Forbidden[\s\S]*Retrying every/);
      assert.match(s, /403 {2}Forbidden: http:\/\/127\.0\.0\.1:\d+ refused the operator credential/);
      assert.match(s, /SERVICE_DASHBOARD_TOKEN does not match the server's SERVICE_OPERATOR_TOKEN/);
    });
    const right = await dashboard(api.url, { SERVICE_DASHBOARD_TOKEN: "s3cret" });
    await using([right], async () => {
      await right.waitFor(/aaaa1111/);
      assert.is(api.requests.at(-1)!.headers.authorization, "Bearer s3cret");
    });
  });
});

test("an unreachable server gets its own screen, and the list comes back when the server does", async () => {
  const probe = await fakeTraceApi();
  const port = probe.port;
  await probe.close();
  const tty = await dashboard(`http://127.0.0.1:${port}`);
  const resources: { close(): Promise<void> }[] = [tty];
  await using(resources, async () => {
    const screen = await tty.waitFor(/Cannot reach/);
    assert.match(screen, /Cannot reach svc at http:\/\/127\.0\.0\.1:\d+\./);
    assert.match(screen, /Connection refused: nothing listens there\./);
    assert.match(screen, /Start it with `svc run`/);
    resources.push(await fakeTraceApi({ port }));
    await tty.waitFor(/aaaa1111/);
    await tty.keys("q");
    await tty.waitFor(/\[exited 0\]/);
  });
});

test("bad flags and a missing terminal are refused with a clear message", async () => {
  const { runSvc } = await import("../../helpers/cli.js");
  const traces = await runSvc(["dashboard", "--traces", "500"]);
  assert.is(traces.code, 1);
  assert.match(traces.stderr, /--traces must be an integer from 1 to 100, got '500'/);
  const interval = await runSvc(["dashboard", "--interval", "soon"]);
  assert.match(interval.stderr, /--interval must be a number of seconds/);
  const url = await runSvc(["dashboard", "--url", "http://user:pw@localhost:1416"]);
  assert.match(url.stderr, /--url must be an http\(s\) URL without credentials/);
  const noTty = await runSvc(["dashboard"]);
  assert.is(noTty.code, 1);
  assert.match(noTty.stderr, /svc dashboard needs an interactive terminal/);
  const help = await runSvc(["dashboard", "--help"]);
  for (const flag of ["--traces", "--interval", "--url"]) assert.ok(help.stdout.includes(flag), flag);
});

test.run();
