/**
 * Haystack's LinkContentFetcher tests (test/components/fetchers/test_link_content_fetcher.py),
 * ported value for value. Haystack mocks httpx; here a loopback server answers what each mock
 * answers (a dropped connection is httpx's `RequestError`, an error status its `HTTPStatusError`),
 * and the integration cases' real websites are routes serving Haystack's test files (a
 * docs page, a README, a PDF as raw.githubusercontent.com serves it, google.com's redirect).
 * Haystack's httpx client is svc's connection pool: the lifecycle cases watch the server's
 * connections open and close. `run_async` twins run svc's one `run` through a pipeline in the
 * concurrent mode. Patched `wait_exponential` / `asyncio.sleep` are `retry_backoff_factor`.
 */
import { readFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { join } from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { ByteStream, HTTPStatusError, LinkContentFetcher, Pipeline } from "svc/engine";
import { NOOP_TRACER } from "svc/plugin";
import { DEFAULT_USER_AGENT } from "../../../../plugins/engine/components/link-content-fetcher.js";
import { repoRoot } from "../../../helpers/cli.js";
import { until } from "../../../helpers/http.js";
import { rejects } from "../../../helpers/rejects.js";

const ctx = () => ({ name: "fetcher", signal: new AbortController().signal, tracer: NOOP_TRACER });
const noWait = { retry_backoff_factor: 0 };

let server: Server;
let base: string;
let pdf: Buffer;
let html: Buffer;
let readme: Buffer;
/** Every request: its path and headers. */
let seen: { path: string; headers: IncomingMessage["headers"]; rawHeaders: string[] }[] = [];
const counts = new Map<string, number>();
/** The connections opened during the current test and still open. */
const open = new Set<Socket>();
let connections = 0;

const HTML_URL = () => `${base}/docs/intro`;
const TEXT_URL = () => `${base}/deepset-ai/haystack/main/README.md`;
const PDF_URL = () => `${base}/deepset-ai/haystack/e2e/samples/pipelines/sample_pdf_1.pdf`;
const GOOGLE_URL = () => `${base}/google.com`;

test.before(async () => {
  const files = join(repoRoot, "test/fixtures/haystack-files");
  [pdf, html, readme] = await Promise.all([readFile(join(files, "pdf/sample_pdf_1.pdf")), readFile(join(files, "html/what_is_haystack.html")), readFile(join(files, "markdown/sample.md"))]);
  server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    const path = url.pathname;
    const count = (counts.get(path) ?? 0) + 1;
    counts.set(path, count);
    seen.push({ path, headers: req.headers, rawHeaders: req.rawHeaders });
    const send = (status: number, type: string | null, body: string | Buffer = "") => {
      res.writeHead(status, type === null ? {} : { "content-type": type });
      res.end(body);
    };
    if (path === "/text") send(200, "text/plain", "Example test response");
    else if (path === "/html") send(200, "text/html", "<h1>Example test response</h1>");
    else if (path === "/pdf") send(200, "application/pdf", pdf);
    else if (path === "/ok") send(200, "text/plain", "OK");
    else if (path === "/typed") send(200, `${url.searchParams.get("ct")}; charset=iso-8859-1`, Buffer.from("Caf\xe9", "latin1"));
    else if (path === "/untyped") send(200, null, "no type");
    else if (path.startsWith("/status/")) send(Number(path.slice(8)), "text/plain", "error page");
    // First request per path: the connection drops without an answer (httpx's RequestError).
    else if (path.startsWith("/drop-once/")) count === 1 ? req.socket.destroy() : send(200, "text/plain", "Success");
    else if (path.startsWith("/forbidden-once/")) count === 1 ? send(403, "text/plain", "no") : send(200, "text/plain", "Success");
    else if (path === "/unreachable") req.socket.destroy();
    else if (path === "/docs/intro") send(200, "text/html; charset=utf-8", html);
    else if (path === "/docs/moved") (res.writeHead(301, { location: "/docs/intro" }), res.end());
    else if (path === "/deepset-ai/haystack/main/README.md") send(200, "text/plain; charset=utf-8", readme);
    // raw.githubusercontent.com serves PDFs as application/octet-stream.
    else if (path.endsWith("sample_pdf_1.pdf")) send(200, "application/octet-stream", pdf);
    else if (path === "/google.com") (res.writeHead(301, { location: "/www.google.com/" }), res.end());
    else if (path === "/www.google.com/") send(200, "text/html; charset=ISO-8859-1", "<!doctype html><title>Google</title>");
    else send(404, "text/plain", "not found");
  });
  server.on("connection", (socket) => {
    connections++;
    open.add(socket);
    socket.on("close", () => open.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

test.after(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

test.before.each(() => {
  seen = [];
  counts.clear();
  connections = 0;
  open.clear(); // only this test's connections count
});

/** Haystack's `run_async`: svc's run, in a pipeline run concurrently. */
async function runAsync(fetcher: LinkContentFetcher, urls: string[]): Promise<ByteStream[]> {
  const result = await new Pipeline().addComponent("fetcher", fetcher).run({ fetcher: { urls } }, { concurrencyLimit: 4 });
  return (result.fetcher as { streams: ByteStream[] }).streams;
}

// --- TestLinkContentFetcher ---

test("test_init: defaults, and the content-type handlers (text re-encoded from its charset, binary kept)", async () => {
  const fetcher = new LinkContentFetcher();
  const p = fetcher.initParameters;
  assert.equal([p.raise_on_failure, p.retry_attempts, p.timeout, p.http2], [true, 2, 3, false]);
  assert.equal(fetcher.userAgents, [DEFAULT_USER_AGENT]);
  assert.is(fetcher.warmedUp, false);
  // Haystack's handlers: text/* text, text/html binary, application/json text, application/* image/*
  // audio/* video/* binary; anything else text.
  const handled = { "text/plain": "text", "text/csv": "text", "text/html": "binary", "application/json": "text", "application/pdf": "binary", "image/png": "binary", "audio/wav": "binary", "video/mp4": "binary", "font/woff": "text" };
  const urls = Object.keys(handled).map((ct) => `${base}/typed?ct=${encodeURIComponent(ct)}`);
  const { streams } = await fetcher.run({ urls }, ctx());
  const latin1 = Buffer.from("Caf\xe9", "latin1");
  assert.equal(
    streams.map((s) => [s.meta.content_type, s.data.equals(latin1) ? "binary" : s.data.equals(Buffer.from("Café")) ? "text" : "?"]),
    Object.entries(handled),
  );
  await fetcher.close();
});

test("test_init_with_params", () => {
  const fetcher = new LinkContentFetcher({ raise_on_failure: false, user_agents: ["test"], retry_attempts: 1, timeout: 2, http2: true, client_kwargs: { verify: false } });
  const p = fetcher.initParameters;
  assert.equal([p.raise_on_failure, p.retry_attempts, p.timeout, p.http2], [false, 1, 2, true]);
  assert.equal(fetcher.userAgents, ["test"]);
  assert.is(p.client_kwargs?.verify, false);
});

test("test_run_text", async () => {
  const fetcher = new LinkContentFetcher();
  const [first] = (await fetcher.run({ urls: [`${base}/text`] }, ctx())).streams;
  assert.equal(first!.data, Buffer.from("Example test response"));
  assert.is(first!.meta.content_type, "text/plain");
  assert.is(first!.mimeType, "text/plain");
  await fetcher.close();
});

test("test_run_html", async () => {
  const fetcher = new LinkContentFetcher();
  const [first] = (await fetcher.run({ urls: [`${base}/html`] }, ctx())).streams;
  assert.equal(first!.data, Buffer.from("<h1>Example test response</h1>"));
  assert.is(first!.meta.content_type, "text/html");
  assert.is(first!.mimeType, "text/html");
  await fetcher.close();
});

test("test_run_binary", async () => {
  const fetcher = new LinkContentFetcher();
  const [first] = (await fetcher.run({ urls: [`${base}/pdf`] }, ctx())).streams;
  assert.ok(first!.data.equals(pdf));
  assert.is(first!.meta.content_type, "application/pdf");
  assert.is(first!.mimeType, "application/pdf");
  await fetcher.close();
});

test("test_run_bad_request_no_exception", async () => {
  const fetcher = new LinkContentFetcher({ raise_on_failure: false, retry_attempts: 0 });
  const { streams } = await fetcher.run({ urls: [`${base}/status/403`] }, ctx());
  assert.is(streams.length, 1);
  assert.is(streams[0]!.data.length, 0);
  assert.is(streams[0]!.meta.content_type, "text/html");
  assert.is(streams[0]!.mimeType, "text/html");
  assert.is(seen.length, 1);
  await fetcher.close();
});

test("test_bad_request_exception_raised", async () => {
  const fetcher = new LinkContentFetcher({ raise_on_failure: true, retry_attempts: 0 });
  const url = `${base}/status/403`;
  const error = await rejects(() => fetcher.run({ urls: [url] }, ctx()), /Client error '403 Forbidden' for url/);
  assert.instance(error, HTTPStatusError);
  assert.is((error as HTTPStatusError).status, 403);
  assert.ok(error.message.startsWith(`Client error '403 Forbidden' for url '${url}'`));
  assert.is(seen.length, 1);
  await fetcher.close();
});

test("test_run_retries_once_when_retry_attempts_is_one", async () => {
  const fetcher = new LinkContentFetcher({ ...noWait, retry_attempts: 1 });
  const { streams } = await fetcher.run({ urls: [`${base}/drop-once/a`] }, ctx());
  assert.equal(streams[0]!.data, Buffer.from("Success"));
  assert.is(counts.get("/drop-once/a"), 2);
  await fetcher.close();
});

async function headersMerge(run: (fetcher: LinkContentFetcher, urls: string[]) => Promise<unknown>, lang: string, custom: [string, string], agents: string[]) {
  const fetcher = new LinkContentFetcher({ user_agents: agents, request_headers: { "Accept-Language": lang, [custom[0]]: custom[1], "User-Agent": "will-be-overridden" } });
  await run(fetcher, [`${base}/ok`]);
  assert.is(seen.length, 1);
  const sent = seen[0]!.headers;
  assert.is(sent[custom[0].toLowerCase()], custom[1]);
  assert.is(sent["accept-language"], lang);
  assert.is(sent["user-agent"], agents[0]); // the rotating user agent wins
  assert.is(sent.accept, "*/*");
  await fetcher.close();
}

test("test_request_headers_merging_and_ua_override", () => headersMerge((f, urls) => f.run({ urls }, ctx()), "fr-FR", ["X-Test", "1"], ["ua-sync-1", "ua-sync-2"]));

test("test_user_agent_rotation_is_independent_per_url", async () => {
  const urls = Array.from({ length: 8 }, (_, i) => `${base}/drop-once/${i}`);
  const agents = Array.from({ length: 4 }, (_, i) => `ua-${i}`);
  const fetcher = new LinkContentFetcher({ ...noWait, user_agents: agents, retry_attempts: 3, raise_on_failure: false });
  const { streams } = await fetcher.run({ urls }, ctx());
  assert.equal(streams.map((s) => s.toString()), Array(8).fill("Success"));
  // Each URL failed once and succeeded on its first retry, so each one sent the second user agent.
  const paths = urls.map((u) => new URL(u).pathname);
  assert.equal(paths.map((p) => counts.get(p)), Array(8).fill(2));
  const secondAgent = paths.map((p) => seen.filter((s) => s.path === p)[1]!.headers["user-agent"]);
  assert.equal(secondAgent, Array(8).fill(agents[1]));
  await fetcher.close();
});

// --- TestComponentLifecycle: the pool is Haystack's httpx client ---

test("test_clients_are_none_after_init", () => {
  const fetcher = new LinkContentFetcher();
  assert.is(fetcher.warmedUp, false);
  assert.is(connections, 0);
});

/** Lets the pool see its connection free again before the next fetch (else it opens a second one). */
const settle = () => new Promise((resolve) => setImmediate(resolve));

interface Driver {
  warmUp(): Promise<void>;
  run(urls: string[]): Promise<unknown>;
  close(): Promise<void>;
}
/** The component driven directly (Haystack's sync methods)... */
const direct = (f: LinkContentFetcher): Driver => ({ warmUp: async () => f.warmUp(), run: (urls) => f.run({ urls }, ctx()), close: () => f.close() });
/** ...or by a pipeline run concurrently (its async ones). */
function viaPipeline(f: LinkContentFetcher): Driver {
  const pipeline = new Pipeline().addComponent("fetcher", f);
  return { warmUp: () => pipeline.warmUp(), run: (urls) => pipeline.run({ fetcher: { urls } }, { concurrencyLimit: 4 }), close: () => pipeline.close() };
}

/** Warm up (no connection yet), fetch (one kept-alive connection), close: the server sees it close. */
async function lifecycle(drive: (f: LinkContentFetcher) => Driver) {
  const fetcher = new LinkContentFetcher();
  const driver = drive(fetcher);
  await driver.warmUp();
  assert.is(fetcher.warmedUp, true);
  assert.is(connections, 0);
  await driver.run([`${base}/text`]);
  assert.is(open.size, 1);
  await driver.close();
  assert.is(fetcher.warmedUp, false);
  await until(() => open.size === 0, 10_000, "the pooled connection to close");
}

/** Warming up twice keeps the one pool: the second fetch reuses the first one's connection. */
async function idempotent(drive: (f: LinkContentFetcher) => Driver) {
  const fetcher = new LinkContentFetcher();
  const driver = drive(fetcher);
  await driver.warmUp();
  await driver.run([`${base}/text`]);
  await settle();
  await driver.warmUp();
  await driver.run([`${base}/text`]);
  assert.is(counts.get("/text"), 2);
  assert.is(connections, 1);
  await driver.close();
}

test("test_sync_lifecycle", () => lifecycle(direct));

test("test_warm_up_is_idempotent", () => idempotent(direct));

test("test_async_lifecycle", () => lifecycle(viaPipeline));

test("test_warm_up_async_is_idempotent", () => idempotent(viaPipeline));

test("test_close_is_safe_without_warm_up", async () => {
  const fetcher = new LinkContentFetcher();
  await fetcher.close();
  await new Pipeline().addComponent("fetcher", fetcher).close();
  assert.is(fetcher.warmedUp, false);
});

test("test_run_self_heals", async () => {
  const fetcher = new LinkContentFetcher();
  await fetcher.run({ urls: [`${base}/text`] }, ctx());
  assert.is(fetcher.warmedUp, true);
  // After close, the next run opens a new pool.
  await fetcher.close();
  assert.is((await fetcher.run({ urls: [`${base}/text`] }, ctx())).streams[0]!.toString(), "Example test response");
  assert.is(fetcher.warmedUp, true);
  await fetcher.close();
});

test("test_run_async_self_heals", async () => {
  const fetcher = new LinkContentFetcher();
  await runAsync(fetcher, [`${base}/text`]);
  assert.is(fetcher.warmedUp, true);
  await fetcher.close();
});

// --- TestLinkContentFetcherIntegration: the websites are loopback routes ---

function assertHaystackPage(stream: ByteStream, url: string, type: string) {
  assert.ok(stream.data.toString("utf8").includes("Haystack"));
  assert.is(stream.meta.content_type, type);
  assert.is(stream.meta.url, url);
  assert.is(stream.mimeType, type);
}

test("test_link_content_fetcher_html", async () => {
  const fetcher = new LinkContentFetcher();
  const { streams } = await fetcher.run({ urls: [HTML_URL()] }, ctx());
  assertHaystackPage(streams[0]!, HTML_URL(), "text/html");
  await fetcher.close();
});

test("test_link_content_fetcher_text", async () => {
  const fetcher = new LinkContentFetcher();
  const { streams } = await fetcher.run({ urls: [TEXT_URL()] }, ctx());
  assertHaystackPage(streams[0]!, TEXT_URL(), "text/plain");
  await fetcher.close();
});

function assertMixed(streams: ByteStream[], pages: RegExp) {
  for (const stream of streams) {
    assert.ok(["text/html", "application/pdf", "application/octet-stream"].includes(stream.meta.content_type as string));
    if (stream.meta.content_type === "text/html") {
      assert.match(stream.data.toString("utf8"), pages);
      assert.is(stream.mimeType, "text/html");
    } else {
      assert.ok(stream.data.equals(pdf));
      assert.is(stream.mimeType, stream.meta.content_type);
    }
  }
}

test("test_link_content_fetcher_multiple_different_content_types", async () => {
  const fetcher = new LinkContentFetcher();
  const { streams } = await fetcher.run({ urls: [PDF_URL(), HTML_URL()] }, ctx());
  assert.is(streams.length, 2);
  assertMixed(streams, /Haystack/);
  await fetcher.close();
});

test("test_link_content_fetcher_multiple_html_streams", async () => {
  const fetcher = new LinkContentFetcher();
  const { streams } = await fetcher.run({ urls: [PDF_URL(), HTML_URL(), GOOGLE_URL()] }, ctx());
  assert.is(streams.length, 3);
  assertMixed(streams, /Haystack|Google/);
  // google.com answers with a redirect, which is followed; the meta url stays the one asked for.
  assert.is(streams[2]!.meta.url, GOOGLE_URL());
  assert.match(streams[2]!.toString(), /Google/);
  await fetcher.close();
});

test("test_mix_of_good_and_failed_requests", async () => {
  const fetcher = new LinkContentFetcher({ retry_attempts: 0 });
  const { streams } = await fetcher.run({ urls: [`${base}/unreachable`, GOOGLE_URL()] }, ctx());
  assert.is(streams.length, 1);
  assert.is(streams[0]!.meta.content_type, "text/html");
  assert.is(streams[0]!.mimeType, "text/html");
  assert.is(counts.get("/unreachable"), 1);
  await fetcher.close();
});

// --- TestLinkContentFetcherAsync ---

test("test_run_async", async () => {
  const fetcher = new LinkContentFetcher();
  const [first] = await runAsync(fetcher, [`${base}/text`]);
  assert.equal(first!.data, Buffer.from("Example test response"));
  assert.is(first!.meta.content_type, "text/plain");
  assert.is(first!.mimeType, "text/plain");
  await fetcher.close();
});

test("test_run_async_multiple", async () => {
  const fetcher = new LinkContentFetcher();
  const streams = await runAsync(fetcher, [`${base}/text?example1`, `${base}/text?example2`]);
  assert.is(streams.length, 2);
  for (const stream of streams) {
    assert.equal(stream.data, Buffer.from("Example test response"));
    assert.is(stream.meta.content_type, "text/plain");
    assert.is(stream.mimeType, "text/plain");
  }
  await fetcher.close();
});

test("test_run_async_empty_urls", async () => {
  const fetcher = new LinkContentFetcher();
  assert.equal(await runAsync(fetcher, []), []);
  assert.is(seen.length, 0);
  await fetcher.close();
});

test("test_run_async_error_handling", async () => {
  const quiet = new LinkContentFetcher({ raise_on_failure: false, retry_attempts: 0 });
  assert.is((await runAsync(quiet, [`${base}/status/404`])).length, 1); // an empty stream
  const raising = new LinkContentFetcher({ raise_on_failure: true, retry_attempts: 0 });
  const error = await rejects(() => runAsync(raising, [`${base}/status/404`]), /Client error '404 Not Found' for url/);
  assert.instance(error.cause, HTTPStatusError);
  await Promise.all([quiet.close(), raising.close()]);
});

test("test_run_async_user_agent_rotation", async () => {
  // A short back-off instead of Haystack's patched asyncio.sleep; it is waited once, between the attempts.
  const fetcher = new LinkContentFetcher({ user_agents: ["agent1", "agent2"], retry_attempts: 1, retry_backoff_factor: 0.05 });
  const started = Date.now();
  const streams = await runAsync(fetcher, [`${base}/forbidden-once/x`]);
  assert.ok(Date.now() - started >= 90, "the back-off was waited");
  assert.is(streams.length, 1);
  assert.equal(streams[0]!.data, Buffer.from("Success"));
  assert.equal(seen.map((s) => s.headers["user-agent"]), ["agent1", "agent2"]);
  await fetcher.close();
});

test("async test_request_headers_merging_and_ua_override", () => headersMerge(runAsync, "de-DE", ["X-Async", "true"], ["ua-async-1", "ua-async-2"]));

// Haystack also checks the spelling kept (the last one); fetch sends header names lowercased, and
// HTTP names are case-insensitive, so the port checks the value and that the header is sent once.
test("test_duplicated_request_headers_merging", async () => {
  const fetcher = new LinkContentFetcher({ request_headers: { "x-test-header": "header-1", "X-Test-Header": "agent-2", "X-TEST-HEADER": "agent-3", "X-TeSt-HeAdEr": "good-one" } });
  await runAsync(fetcher, [`${base}/ok`]);
  const raw = seen[0]!.rawHeaders;
  const names = raw.filter((_, i) => i % 2 === 0).map((n) => n.toLowerCase());
  assert.is(new Set(names).size, names.length, "no header is sent twice");
  assert.is(seen[0]!.headers["x-test-header"], "good-one");
  await fetcher.close();
});

// --- TestLinkContentFetcherAsyncIntegration ---

test("test_run_async_multiple_integration", async () => {
  const fetcher = new LinkContentFetcher();
  const streams = await runAsync(fetcher, [HTML_URL(), TEXT_URL()]);
  assert.is(streams.length, 2);
  assertHaystackPage(streams.find((s) => s.meta.url === HTML_URL())!, HTML_URL(), "text/html");
  assertHaystackPage(streams.find((s) => s.meta.url === TEXT_URL())!, TEXT_URL(), "text/plain");
  await fetcher.close();
});

test("test_run_async_with_client_kwargs", async () => {
  const fetcher = new LinkContentFetcher({ client_kwargs: { follow_redirects: true, timeout: 10.0 } });
  // The docs page behind a redirect, so that follow_redirects has something to follow.
  const streams = await runAsync(fetcher, [`${base}/docs/moved`]);
  assert.is(streams.length, 1);
  assert.ok(streams[0]!.data.toString("utf8").includes("Haystack"));
  await fetcher.close();
});

test.run();
