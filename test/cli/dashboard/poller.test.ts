import { test } from "uvu";
import * as assert from "uvu/assert";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { pollTraces, tracesUrl } from "../../../cli/dashboard/poller.js";
import { sample, snapshotOf } from "./trace-fixtures.js";

interface Seen {
  url: string;
  headers: IncomingHttpHeaders;
}

async function withServer(answer: (url: string) => { status: number; body: string }, fn: (base: string, seen: Seen[]) => Promise<void>): Promise<void> {
  const seen: Seen[] = [];
  const server: Server = createServer((req, res) => {
    seen.push({ url: req.url!, headers: req.headers });
    const { status, body } = answer(req.url!);
    res.writeHead(status, { "content-type": "application/json" });
    res.end(body);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  try {
    await fn(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen);
  } finally {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }
}

const json = (status: number, body: unknown) => () => ({ status, body: JSON.stringify(body) });

test("a poll sends GET /traces?limit=N with the bearer token and returns the snapshot", async () => {
  await withServer(json(200, snapshotOf(sample(), { hasMore: true })), async (base, seen) => {
    const result = await pollTraces({ url: base, limit: 7, credential: { token: "tok", source: "explicit" }, timeoutMs: 5000 });
    assert.ok("snapshot" in result);
    if ("snapshot" in result) assert.is(result.snapshot.traces.length, 5);
    assert.is(seen[0]!.url, "/traces?limit=7");
    assert.is(seen[0]!.headers.authorization, "Bearer tok");
    await pollTraces({ url: base, credential: { source: "none" }, timeoutMs: 5000 });
    assert.is(seen[1]!.url, "/traces", "no limit leaves the server's default");
    assert.is(seen[1]!.headers.authorization, undefined, "no credential, no header");
  });
});

test("401, 403 and 404 become problems carrying the server's message and the credential's source", async () => {
  for (const [status, kind] of [
    [401, "unauthorized"],
    [403, "forbidden"],
    [404, "not-mounted"],
  ] as const) {
    await withServer(json(status, { error: { message: `said ${status}`, type: "x" } }), async (base) => {
      const result = await pollTraces({ url: base, credential: { token: "t", source: "credential-file" }, timeoutMs: 5000 });
      assert.ok("problem" in result);
      if (!("problem" in result)) return;
      assert.is(result.problem.kind, kind);
      assert.is(result.problem.detail, `said ${status}`);
      if (result.problem.kind === "unauthorized" || result.problem.kind === "forbidden") assert.is(result.problem.credential, "credential-file");
    });
  }
});

test("a server error, a non-JSON answer or a body that is not a snapshot are failures, not crashes", async () => {
  const answers = [json(500, { error: { message: "kaput" } }), () => ({ status: 200, body: "<html>" }), json(200, { hello: 1 })];
  const expected = [/HTTP 500: kaput/, /not JSON: <html>/, /not a trace snapshot \(.*traces/];
  for (const [i, answer] of answers.entries()) {
    await withServer(answer, async (base) => {
      const result = await pollTraces({ url: base, credential: { source: "none" }, timeoutMs: 5000 });
      assert.ok("problem" in result && result.problem.kind === "failed");
      if ("problem" in result) assert.match(result.problem.detail, expected[i]!);
    });
  }
});

test("an unreachable server is a problem that says so", async () => {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as AddressInfo).port;
  await new Promise((r) => server.close(r));
  const result = await pollTraces({ url: `http://127.0.0.1:${port}`, credential: { source: "none" }, timeoutMs: 5000 });
  assert.ok("problem" in result);
  if ("problem" in result) {
    assert.is(result.problem.kind, "unreachable");
    assert.match(result.problem.detail, /Connection refused/);
  }
});

test("tracesUrl keeps a path prefix (a server behind a proxy)", () => {
  assert.is(tracesUrl("http://h:1/svc", 3).href, "http://h:1/svc/traces?limit=3");
  assert.is(tracesUrl("http://h:1/", undefined).href, "http://h:1/traces");
});

test.run();
