import { test } from "uvu";
import * as assert from "uvu/assert";
import { connect } from "node:net";
import { Agent, request } from "node:http";
import { definePlugin, type KernelPlugin } from "svc/plugin";
import { startKernel, type TestKernel } from "../helpers/kernel.js";
import { rawRequest, sleep } from "../helpers/http.js";

/** How each body read of `/leave` ended. */
const leaveOutcomes: string[] = [];

const routes: KernelPlugin = definePlugin({
  name: "hardening-routes",
  setup(k) {
    k.route("POST", "/raw", async (c) => ({ value: await c.json() }));
    k.route("POST", "/leave", async (c) => {
      try {
        await c.json();
        leaveOutcomes.push("read");
      } catch (error) {
        leaveOutcomes.push(`${(error as { status?: number }).status}: ${(error as Error).message}`);
        throw error;
      }
    });
    k.route("POST", "/form", async (c) => ({ fields: [...(await c.form()).fields.keys()] }));
    k.route("GET", "/deep", () => {
      let value: unknown = 1;
      for (let i = 0; i < 200_000; i++) value = [value];
      return value;
    });
    k.route("GET", "/slow-stream", async (c) => {
      c.res.writeHead(200, { "content-type": "text/plain" });
      for (let i = 0; i < 4; i++) {
        c.res.write(`part ${i}\n`);
        await sleep(300);
      }
      c.res.end("end\n");
    });
    k.route("GET", "/slow", async () => {
      await sleep(400);
      return { ok: true };
    });
  },
});

async function withKernel(settings: Record<string, unknown>, fn: (k: TestKernel) => Promise<void>) {
  const k = await startKernel({ settings, plugins: [routes] });
  try {
    await fn(k);
  } finally {
    await k.close();
  }
}

/** Sends raw bytes (leaving the socket open) and reads everything until the server closes it. */
function rawExchange(url: string, bytes: string, timeoutMs = 10_000): Promise<{ text: string }> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), "127.0.0.1");
    let text = "";
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no close within ${timeoutMs} ms; got ${JSON.stringify(text)}`));
    }, timeoutMs);
    socket.on("data", (d) => (text += d.toString()));
    socket.on("error", () => undefined);
    socket.on("close", () => {
      clearTimeout(timer);
      resolve({ text });
    });
    socket.write(bytes);
  });
}

function parse(text: string): { status: number; headers: string; body: unknown } {
  const [head, body] = text.split("\r\n\r\n");
  return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head!)?.[1]), headers: head!.toLowerCase(), body: body ? JSON.parse(body) : undefined };
}

test("errors of Node's HTTP parser, an unsupported Expect and CONNECT get the error body and the right status", () =>
  withKernel({}, async ({ url }) => {
    const cases: [string, number][] = [
      ["GARBAGE\r\n\r\n", 400],
      ["GET / HTTP/1.1\r\nHost: localhost\r\nBad Header\r\n\r\n", 400],
      ["BREW / HTTP/1.1\r\nHost: localhost\r\n\r\n", 501],
      [`GET /${"a".repeat(20_000)} HTTP/1.1\r\nHost: localhost\r\n\r\n`, 431],
      [`GET / HTTP/1.1\r\nHost: localhost\r\nX-Big: ${"b".repeat(20_000)}\r\n\r\n`, 431],
      ["POST /raw HTTP/1.1\r\nHost: localhost\r\nExpect: something-else\r\nContent-Length: 2\r\n\r\n{}", 417],
      ["CONNECT localhost:80 HTTP/1.1\r\nHost: localhost\r\n\r\n", 405],
      ["PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", 400],
      ["GET / HTTP/1.1\r\nHost: localhost\r\nContent-Length: abc\r\n\r\n", 400],
    ];
    for (const [bytes, status] of cases) {
      const { text } = await rawExchange(url, bytes);
      const answer = parse(text);
      assert.is(answer.status, status, bytes.slice(0, 30));
      assert.match(answer.headers, /content-type: application\/json/);
      assert.match(answer.headers, /connection: close/);
      const error = (answer.body as { error: { message: string; type: string; code: number } }).error;
      assert.is(error.code, status);
      assert.is(error.type, status >= 500 ? "server_error" : "invalid_request_error");
      assert.ok(error.message.length > 0);
    }
  }));

test("JSON bodies: nesting is capped at parse time, numbers must be finite", () =>
  withKernel({ maxJsonDepth: 50 }, async ({ url, kernel }) => {
    const post = (body: string) => rawRequest(`${url}/raw`, { method: "POST", headers: { "content-type": "application/json" }, body });
    const deep = await post("[".repeat(5000) + "]".repeat(5000));
    assert.is(deep.status, 400);
    assert.match(JSON.parse(deep.body).error.message, /nested deeper than 50 levels \(SERVICE_MAX_JSON_DEPTH\)/);
    const objects = await post('{"a":'.repeat(51) + "1" + "}".repeat(51));
    assert.is(objects.status, 400);
    const fits = await post('{"a":'.repeat(49) + '"[[[[{{{{"' + "}".repeat(49));
    assert.is(fits.status, 200, "brackets inside strings do not count");
    for (const big of ["1e999", '{"x": -1E400}', "[" + "9".repeat(400) + "]"]) {
      const res = await post(big);
      assert.is(res.status, 400, big.slice(0, 20));
      assert.match(JSON.parse(res.body).error.message, /too large/);
    }
    const fine = await post('{"a": 1e300, "b": "1e999", "c": [true, false, 2.5e-3]}');
    assert.equal(JSON.parse(fine.body), { value: { a: 1e300, b: "1e999", c: [true, false, 2.5e-3] } });
    // The answer's side: a result too deep to encode is a clear 500, and the server lives on.
    const tooDeep = await fetch(`${url}/deep`);
    assert.is(tooDeep.status, 500);
    assert.match(((await tooDeep.json()) as { error: { message: string } }).error.message, /nested too deeply/);
    assert.is((await post("[1]")).status, 200);
    assert.is(kernel.settings.maxJsonDepth, 50);
  }));

test("a stalled body gets 408 within the body time-out; a slow answer or stream is not cut", () =>
  withKernel({ bodyTimeout: 0.5 }, async ({ url }) => {
    const short = await rawExchange(url, "POST /raw HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"a\":");
    assert.is(parse(short.text).status, 408);
    assert.match(parse(short.text).headers, /connection: close/);
    assert.match((parse(short.text).body as { error: { message: string } }).error.message, /stalled.*SERVICE_BODY_TIMEOUT/);

    const chunked = await rawExchange(url, "POST /raw HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{\"a\":\r\n");
    assert.is(parse(chunked.text).status, 408);

    const boundary = "XyZ";
    const form = await rawExchange(
      url,
      `POST /form HTTP/1.1\r\nHost: localhost\r\nContent-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: 500\r\n\r\n--${boundary}\r\nContent-Disposition: form-data; name="a"\r\n\r\nvalue`,
    );
    assert.is(parse(form.text).status, 408);

    const slow = await fetch(`${url}/slow`);
    assert.equal(await slow.json(), { ok: true });
    const stream = await fetch(`${url}/slow-stream`);
    assert.is(await stream.text(), "part 0\npart 1\npart 2\npart 3\nend\n", "a stream longer than the body time-out is whole");
  }));

test("a client that leaves mid-body: the body read fails at once as ended early (400), not at the body time-out", () =>
  withKernel({ bodyTimeout: 30 }, async ({ url }) => {
    const socket = connect(Number(new URL(url).port), "127.0.0.1");
    socket.on("error", () => undefined);
    await new Promise((resolve) => socket.once("connect", resolve));
    socket.write("POST /leave HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"a\":");
    await sleep(200);
    assert.equal(leaveOutcomes, [], "nothing is decided while the body may still come");
    socket.destroy();
    for (let i = 0; i < 100 && leaveOutcomes.length === 0; i++) await sleep(50);
    assert.equal(leaveOutcomes, ["400: The request body ended early: the client disconnected."]);
  }));

test("a request whose head does not arrive in time gets 408", () =>
  withKernel({ headersTimeout: 0.5 }, async ({ url }) => {
    // rawExchange gives up after 10 s: far below Node's own 60 s head time-out.
    const { text } = await rawExchange(url, "GET /slow HTTP/1.1\r\nHost: localhost\r\n");
    assert.is(parse(text).status, 408);
  }));

test("idle keep-alive connections close after the keep-alive time-out", () =>
  withKernel({ keepAliveTimeout: 0.3 }, async ({ url }) => {
    const agent = new Agent({ keepAlive: true });
    try {
      const closed = await new Promise<number>((resolve, reject) => {
        const req = request(`${url}/slow`, { agent }, (res) => {
          res.resume();
          res.on("end", () => {
            const started = Date.now();
            req.socket!.on("close", () => resolve(Date.now() - started));
          });
        });
        req.on("error", reject);
        req.end();
      });
      assert.ok(closed < 4500, `closed after ${closed} ms, before Node's own 5 s`);
    } finally {
      agent.destroy();
    }
  }));

test.run();
