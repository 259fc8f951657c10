// SIGTERM to a real `svc run` with real keep-alive clients: their next request is answered, not reset.
import { test } from "uvu";
import * as assert from "uvu/assert";
import { connect, type Socket } from "node:net";
import { join } from "node:path";
import { repoRoot, startSvc } from "../helpers/cli.js";

const slowPlugin = join(repoRoot, "test/fixtures/plugins/slow.ts");
const base = ["run", "--host", "127.0.0.1", "--port", "0", "--plugin", slowPlugin];

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** A keep-alive connection that sends one request at a time and reads its answer. */
class Client {
  private buffer = "";
  private waiting?: () => void;
  ended = false;
  error?: Error;

  constructor(readonly socket: Socket) {
    socket.setEncoding("latin1");
    socket.on("data", (chunk: string) => {
      this.buffer += chunk;
      this.waiting?.();
    });
    socket.on("end", () => {
      this.ended = true;
      this.waiting?.();
    });
    socket.on("error", (error) => {
      this.error = error;
      this.waiting?.();
    });
  }

  static open(port: number): Promise<Client> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, "127.0.0.1", () => resolve(new Client(socket)));
      socket.once("error", reject);
    });
  }

  request(path: string): Promise<Answer> {
    this.socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n`);
    return new Promise((resolve, reject) => {
      const check = () => {
        const end = this.buffer.indexOf("\r\n\r\n");
        if (end >= 0) {
          const [line, ...fields] = this.buffer.slice(0, end).split("\r\n");
          const headers = Object.fromEntries(fields.map((f) => [f.slice(0, f.indexOf(":")).toLowerCase(), f.slice(f.indexOf(":") + 1).trim()]));
          const length = Number(headers["content-length"] ?? 0);
          if (this.buffer.length >= end + 4 + length) {
            const body = this.buffer.slice(end + 4, end + 4 + length);
            this.buffer = this.buffer.slice(end + 4 + length);
            this.waiting = undefined;
            return resolve({ status: Number(line!.split(" ")[1]), headers, body });
          }
        }
        if (this.error || this.ended) {
          this.waiting = undefined;
          reject(this.error ?? new Error("the server closed the connection without an answer"));
        }
      };
      this.waiting = check;
      check();
    });
  }
}

test("SIGTERM keeps idle keep-alive connections open: requests sent during the grace period are answered with Connection: close", async () => {
  const svc = await startSvc(base, { env: { SERVICE_GRACEFUL_SHUTDOWN_TIMEOUT: "20", SERVICE_KEEP_ALIVE_TIMEOUT: "60" } });
  const clients: Client[] = [];
  try {
    for (let i = 0; i < 32; i++) clients.push(await Client.open(svc.port));
    for (const client of clients) assert.is((await client.request("/pid")).status, 200);
    // Work in flight while the signal arrives, as in production.
    const busy = await Client.open(svc.port);
    clients.push(busy);
    const slow = busy.request("/slow?ms=1500");
    svc.proc.kill("SIGTERM");
    await svc.waitFor(/SIGTERM received/);
    const answers = await Promise.allSettled(clients.slice(0, 32).map((c) => c.request("/pid")));
    const failed = answers.filter((a) => a.status === "rejected").map((a) => String((a as PromiseRejectedResult).reason));
    assert.equal(failed, [], `${failed.length} of 32 clients got no answer`);
    for (const a of answers as PromiseFulfilledResult<Answer>[]) {
      assert.is(a.value.status, 200);
      assert.is(a.value.headers.connection, "close");
    }
    const done = await slow;
    assert.is(done.status, 200);
    assert.equal(JSON.parse(done.body), { slept: 1500, aborted: false });
    // Every connection was closed by the server once answered, so shutdown did not wait for the grace period.
    assert.is(await svc.exited, 0);
  } finally {
    for (const c of clients) c.socket.destroy();
    await svc.stop("SIGKILL");
  }
});

test("on SIGTERM /readyz answers 503 at once, while open connections are still served", async () => {
  const svc = await startSvc(base, { env: { SERVICE_GRACEFUL_SHUTDOWN_TIMEOUT: "20", SERVICE_KEEP_ALIVE_TIMEOUT: "60" } });
  const probe = await Client.open(svc.port);
  const other = await Client.open(svc.port);
  const busy = await Client.open(svc.port);
  try {
    assert.is((await probe.request("/readyz")).status, 200);
    assert.is((await other.request("/pid")).status, 200);
    // Work in flight keeps the process draining (and its connections open) for a while.
    const slow = busy.request("/slow?ms=4000");
    await new Promise((r) => setTimeout(r, 200));
    svc.proc.kill("SIGTERM");
    await svc.waitFor(/SIGTERM received/);
    const readyz = await probe.request("/readyz");
    assert.is(readyz.status, 503);
    const body = JSON.parse(readyz.body);
    assert.is(body.checks.shutdown.ready, false);
    assert.ok(body.error?.message, "the spec's error body");
    // The load balancer's signal came before any connection was closed: the others are still answered.
    const still = await other.request("/pid");
    assert.is(still.status, 200);
    assert.is((await slow).status, 200);
    assert.is(await svc.exited, 0);
  } finally {
    for (const c of [probe, other, busy]) c.socket.destroy();
    await svc.stop("SIGKILL");
  }
});

test("a request still running when the grace period ends gets a 503 answer with Connection: close, not a reset", async () => {
  const svc = await startSvc(base, { env: { SERVICE_GRACEFUL_SHUTDOWN_TIMEOUT: "0.5" } });
  const client = await Client.open(svc.port);
  try {
    const pending = client.request("/slow?ms=30000");
    await new Promise((r) => setTimeout(r, 200));
    svc.proc.kill("SIGTERM");
    const answer = await pending;
    assert.is(answer.status, 503);
    assert.is(answer.headers.connection, "close");
    assert.match(JSON.parse(answer.body).error.message, /grace period/);
    assert.is(await svc.exited, 0);
  } finally {
    client.socket.destroy();
    await svc.stop("SIGKILL");
  }
});

test.run();
