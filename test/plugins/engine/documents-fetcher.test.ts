import { readFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createSecureServer } from "node:http2";
import type { AddressInfo } from "node:net";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { NOOP_TRACER } from "svc/plugin";
import { LinkContentFetcher } from "../../../plugins/engine/components/link-content-fetcher.js";
import { certificateSkipReason, createTestCertificate } from "../../helpers/test-certificate.js";

const ctx = (signal = new AbortController().signal) => ({ name: "fetcher", signal, tracer: NOOP_TRACER });

interface Seen {
  path: string;
  headers: IncomingMessage["headers"];
}

/** A loopback server; `handle` answers by path; every request is recorded. Always closed by the caller. */
async function withServer(handle: (req: IncomingMessage, res: ServerResponse, count: number) => void, fn: (base: string, seen: Seen[]) => Promise<void>) {
  const seen: Seen[] = [];
  const counts = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    const path = req.url ?? "/";
    counts.set(path, (counts.get(path) ?? 0) + 1);
    seen.push({ path, headers: req.headers });
    handle(req, res, counts.get(path)!);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  try {
    await fn(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen);
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected a rejection");
}

const fast = { retry_backoff_factor: 0 };

const routes = (req: IncomingMessage, res: ServerResponse, count: number) => {
  const path = req.url ?? "/";
  if (path === "/text") {
    res.writeHead(200, { "content-type": "text/plain; charset=iso-8859-1" });
    res.end(Buffer.from("Caf\xe9", "latin1"));
  } else if (path === "/html") {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end("<p>Hello</p>");
  } else if (path === "/json") {
    res.writeHead(200, { "content-type": "application/json" });
    res.end('{"a":1}');
  } else if (path === "/pdf") {
    res.writeHead(200, { "content-type": "application/pdf" });
    res.end(Buffer.from([0x25, 0x50, 0x44, 0x46, 0xff]));
  } else if (path === "/flaky") {
    res.writeHead(count === 1 ? 503 : 200, { "content-type": "text/plain" });
    res.end(count === 1 ? "busy" : "ok now");
  } else if (path === "/slow") {
    // Never answers (the connection is closed with the server): only a time-out or an abort ends it.
  } else if (path === "/big-declared") {
    res.writeHead(200, { "content-type": "text/plain", "content-length": "2048" });
    res.end("x".repeat(2048));
  } else if (path === "/big-streamed") {
    res.writeHead(200, { "content-type": "text/plain" });
    res.write("y".repeat(600));
    res.end("y".repeat(600));
  } else {
    res.writeHead(404, { "content-type": "text/plain" });
    res.end("not found");
  }
};

test("fetches text (re-encoded as UTF-8), HTML and binary bytes, JSON as text; meta has url and content_type", () =>
  withServer(routes, async (base, seen) => {
    const fetcher = new LinkContentFetcher();
    const { streams } = await fetcher.run({ urls: [`${base}/text`, `${base}/html`, `${base}/json`, `${base}/pdf`] }, ctx());
    assert.equal(streams.map((s) => s.meta), [
      { content_type: "text/plain", url: `${base}/text` },
      { content_type: "text/html", url: `${base}/html` },
      { content_type: "application/json", url: `${base}/json` },
      { content_type: "application/pdf", url: `${base}/pdf` },
    ]);
    assert.equal(streams.map((s) => s.mimeType), ["text/plain", "text/html", "application/json", "application/pdf"]);
    assert.is(streams[0]!.toString(), "Café");
    assert.is(streams[1]!.toString(), "<p>Hello</p>");
    assert.is(streams[2]!.toString(), '{"a":1}');
    assert.equal([...streams[3]!.data], [0x25, 0x50, 0x44, 0x46, 0xff]);
    const headers = seen[0]!.headers;
    assert.is(headers["user-agent"], "svc/LinkContentFetcher");
    assert.is(headers.accept, "*/*");
    assert.is(headers.referer, "https://www.google.com/");
    assert.equal(await fetcher.run({ urls: [] }, ctx()), { streams: [] });
  }));

test("retries an HTTP error with the next user agent; request_headers are sent", () =>
  withServer(routes, async (base, seen) => {
    const fetcher = new LinkContentFetcher({ ...fast, user_agents: ["agent-1", "agent-2"], request_headers: { "X-Api": "k", accept: "text/plain" } });
    const { streams } = await fetcher.run({ urls: [`${base}/flaky`] }, ctx());
    assert.is(streams[0]!.toString(), "ok now");
    assert.equal(seen.map((s) => s.headers["user-agent"]), ["agent-1", "agent-2"]);
    assert.ok(seen.every((s) => s.headers["x-api"] === "k" && s.headers.accept === "text/plain"));
  }));

test("a failing single URL raises after the first attempt and retry_attempts retries, or yields an empty stream", () =>
  withServer(routes, async (base, seen) => {
    const error = await rejection(new LinkContentFetcher({ ...fast, retry_attempts: 3 }).run({ urls: [`${base}/missing`] }, ctx()));
    assert.match(error.message, /^Client error '404 Not Found' for url/);
    assert.is(seen.length, 4);
    const quiet = new LinkContentFetcher({ ...fast, raise_on_failure: false });
    const { streams } = await quiet.run({ urls: [`${base}/missing`] }, ctx());
    assert.is(streams.length, 1);
    assert.equal(streams[0]!.meta, { content_type: "text/html", url: `${base}/missing` });
    assert.is(streams[0]!.data.length, 0);
  }));

test("with several URLs a failure is skipped when raising, kept as an empty stream otherwise; order is kept", () =>
  withServer(routes, async (base) => {
    const urls = [`${base}/html`, `${base}/missing`, `${base}/json`];
    const raising = await new LinkContentFetcher(fast).run({ urls }, ctx());
    assert.equal(raising.streams.map((s) => s.meta.url), [urls[0], urls[2]]);
    const quiet = await new LinkContentFetcher({ ...fast, raise_on_failure: false }).run({ urls }, ctx());
    assert.equal(quiet.streams.map((s) => [s.meta.url, s.data.length > 0]), [[urls[0], true], [urls[1], false], [urls[2], true]]);
  }));

test("each attempt times out after `timeout` seconds, and is retried", () =>
  withServer(routes, async (base, seen) => {
    const error = await rejection(new LinkContentFetcher({ ...fast, timeout: 0.2 }).run({ urls: [`${base}/slow`] }, ctx()));
    assert.match(error.message, /Timed out after 0.2s fetching/);
    assert.is(seen.length, 3);
  }));

test("timeout bounds each wait, not the download (httpx's): a steady slow body arrives, a stalled one times out", () =>
  withServer(
    (req, res) => {
      res.writeHead(200, { "content-type": "text/plain" });
      const chunks = req.url === "/steady" ? 6 : 1;
      let sent = 0;
      const timer = setInterval(() => {
        res.write(`chunk${sent} `);
        if (++sent === chunks && req.url === "/steady") (clearInterval(timer), res.end());
        if (sent === chunks && req.url === "/stalled") clearInterval(timer); // then nothing more
      }, 300);
      res.on("close", () => clearInterval(timer));
    },
    async (base) => {
      // 6 chunks 300 ms apart: longer than the 1 s time-out in all, never 1 s without a chunk.
      const fetcher = new LinkContentFetcher({ ...fast, timeout: 1, retry_attempts: 0 });
      assert.is((await fetcher.run({ urls: [`${base}/steady`] }, ctx())).streams[0]!.toString(), "chunk0 chunk1 chunk2 chunk3 chunk4 chunk5 ");
      const error = await rejection(fetcher.run({ urls: [`${base}/stalled`] }, ctx()));
      assert.match(error.message, /Timed out after 1s reading/);
      await fetcher.close();
    },
  ));

test("bodies over max_content_bytes are refused, by Content-Length or while streaming, without retrying", () =>
  withServer(routes, async (base, seen) => {
    const fetcher = new LinkContentFetcher({ ...fast, max_content_bytes: 1024 });
    assert.match((await rejection(fetcher.run({ urls: [`${base}/big-declared`] }, ctx()))).message, /larger than the limit of 1024 bytes/);
    assert.match((await rejection(fetcher.run({ urls: [`${base}/big-streamed`] }, ctx()))).message, /larger than the limit of 1024 bytes/);
    assert.is(seen.length, 2);
    const roomy = new LinkContentFetcher({ max_content_bytes: 4096 });
    assert.is((await roomy.run({ urls: [`${base}/big-streamed`] }, ctx())).streams[0]!.data.length, 1200);
  }));

test("only http and https URLs are fetched", () =>
  withServer(routes, async (_base, seen) => {
    const fetcher = new LinkContentFetcher(fast);
    for (const url of ["file:///etc/passwd", "ftp://127.0.0.1/x", "data:text/plain,hi", "javascript:alert(1)"]) {
      assert.match((await rejection(fetcher.run({ urls: [url] }, ctx()))).message, /Unsupported URL scheme/);
    }
    assert.match((await rejection(fetcher.run({ urls: ["not a url"] }, ctx()))).message, /Invalid URL/);
    const quiet = await new LinkContentFetcher({ raise_on_failure: false }).run({ urls: ["file:///etc/passwd"] }, ctx());
    assert.is(quiet.streams[0]!.data.length, 0);
    assert.is(seen.length, 0);
  }));

test("an aborted run stops at once, even between retries and when not raising", () =>
  withServer(routes, async (base) => {
    const controller = new AbortController();
    const fetcher = new LinkContentFetcher({ raise_on_failure: false, timeout: 60 });
    setTimeout(() => controller.abort(new Error("client went away")), 100).unref();
    const started = Date.now();
    const error = await rejection(fetcher.run({ urls: [`${base}/slow`, `${base}/missing`] }, ctx(controller.signal)));
    assert.match(error.message, /client went away/);
    // The attempt's own time-out is 60 s and /slow never answers: only the abort can end it this soon.
    assert.ok(Date.now() - started < 30_000, `took ${Date.now() - started} ms`);
  }));

test("a response without Content-Type: meta content_type and mime_type are '' (Haystack's), the body text", () =>
  withServer(
    (_req, res) => {
      res.removeHeader("content-type");
      res.end("plain words");
    },
    async (base) => {
      const fetcher = new LinkContentFetcher();
      const [stream] = (await fetcher.run({ urls: [`${base}/x`] }, ctx())).streams;
      assert.equal([stream!.meta.content_type, stream!.mimeType, stream!.toString()], ["", "", "plain words"]);
      await fetcher.close();
    },
  ));

test("client_kwargs: timeout wins over timeout, follow_redirects false raises on a redirect, headers are the lowest layer", () =>
  withServer(
    (req, res) => {
      if (req.url === "/moved") res.writeHead(302, { location: "/there" }).end();
      else if (req.url === "/slow") setTimeout(() => res.end("late"), 400).unref();
      else res.writeHead(200, { "content-type": "text/plain" }).end("here");
    },
    async (base, seen) => {
      const strict = new LinkContentFetcher({ ...fast, retry_attempts: 0, client_kwargs: { follow_redirects: false, headers: { "X-Base": "b", accept: "text/x" } } });
      const error = await rejection(strict.run({ urls: [`${base}/moved`] }, ctx()));
      assert.match(error.message, /^Redirect response '302 Found' for url '.*\/moved'\nRedirect location: '\/there'/);
      assert.is(seen.length, 1);
      // Client headers sit below the component's defaults: X-Base is sent, Accept is the default's.
      assert.equal([seen[0]!.headers["x-base"], seen[0]!.headers.accept], ["b", "*/*"]);
      const following = new LinkContentFetcher();
      assert.is((await following.run({ urls: [`${base}/moved`] }, ctx())).streams[0]!.toString(), "here");
      const short = new LinkContentFetcher({ ...fast, retry_attempts: 0, timeout: 60, client_kwargs: { timeout: 0.1 } });
      assert.match((await rejection(short.run({ urls: [`${base}/slow`] }, ctx()))).message, /Timed out after 0.1s/);
      const none = new LinkContentFetcher({ timeout: 0.1, client_kwargs: { timeout: null } });
      assert.is((await none.run({ urls: [`${base}/slow`] }, ctx())).streams[0]!.toString(), "late");
      await Promise.all([strict, following, short, none].map((f) => f.close()));
    },
  ));

test("client_kwargs refuses what svc cannot honour (a silently ignored proxy would be worse)", () => {
  assert.throws(() => new LinkContentFetcher({ client_kwargs: { proxy: "http://proxy:3128" } }), /client_kwargs accepts only timeout, follow_redirects, headers, verify and http2/);
  assert.throws(() => new LinkContentFetcher({ client_kwargs: { verify: "/etc/ssl/ca.pem" } }), /verify/);
});

test("https: verify refuses a self-signed certificate unless false; http2 is negotiated over TLS", async () => {
  const skip = certificateSkipReason();
  if (skip) return console.log(skip);
  const cert = await createTestCertificate();
  const server = createSecureServer({ key: await readFile(cert.keyFile), cert: cert.certPem, allowHTTP1: true }, (req, res) => {
    res.writeHead(200, { "content-type": "text/plain" });
    res.end(`HTTP/${req.httpVersion}`);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const fetchers: LinkContentFetcher[] = [];
  const make = (init: Record<string, unknown>) => (fetchers.push(new LinkContentFetcher({ ...fast, retry_attempts: 0, ...init })), fetchers.at(-1)!);
  try {
    assert.match((await rejection(make({}).run({ urls: [url] }, ctx()))).message, /SELF_SIGNED|certificate/i);
    assert.is((await make({ client_kwargs: { verify: false } }).run({ urls: [url] }, ctx())).streams[0]!.toString(), "HTTP/1.1");
    assert.is((await make({ http2: true, client_kwargs: { verify: false } }).run({ urls: [url] }, ctx())).streams[0]!.toString(), "HTTP/2.0");
    assert.is((await make({ client_kwargs: { verify: false, http2: true } }).run({ urls: [url] }, ctx())).streams[0]!.toString(), "HTTP/2.0");
  } finally {
    await Promise.all(fetchers.map((f) => f.close()));
    await new Promise((resolve) => server.close(resolve));
    await cert.remove();
  }
});

test("init parameters: Haystack's defaults and names", () => {
  const fetcher = new LinkContentFetcher({ http2: true, client_kwargs: { verify: false } });
  assert.equal({ ...fetcher.initParameters, client_kwargs: undefined }, {
    raise_on_failure: true,
    user_agents: null,
    retry_attempts: 2,
    timeout: 3,
    http2: true,
    client_kwargs: undefined,
    request_headers: null,
    max_content_bytes: 10 * 1024 * 1024,
    retry_backoff_factor: 1,
  });
  assert.is(LinkContentFetcher.type, "haystack.components.fetchers.link_content.LinkContentFetcher");
  assert.throws(() => new LinkContentFetcher({ timeout: 0 }), /timeout/);
});

test.run();
