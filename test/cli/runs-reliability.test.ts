/**
 * Background runs across real `svc run` processes sharing a real redis-server: an instance killed
 * with -9 mid-run has its run failed by another within 15 s; after every instance is replaced
 * (Redis kept) the runs are still there; a cancel during a stream (on another instance) ends the
 * run `cancelled`, ends the events stream with `run.cancelled`, and aborts the wrapper's signal.
 */
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { existsSync } from "node:fs";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { join } from "node:path";
import { createParser } from "eventsource-parser";
import { pipelinesDirWith, post, startInstance, stopAll, type Instance } from "../helpers/cluster.js";
import { sleep } from "../helpers/http.js";
import { tempDir, wrapper } from "../helpers/pipelines.js";
import { redisSkipReason, startRedis, type TestRedis } from "../helpers/redis.js";

const test = suite("runs reliability (processes)");
const skip = redisSkipReason();

/** Streams a part, then holds until aborted; on abort it writes `marker` (a file: the test is another process). */
const SLOW = `import { writeFileSync } from "node:fs";
${wrapper(`async *runApi(input: { marker?: string }, ctx: { signal: AbortSignal }) {
    ctx.signal.addEventListener("abort", () => input.marker && writeFileSync(input.marker, "aborted"));
    yield "started ";
    while (!ctx.signal.aborted) await new Promise((r) => setTimeout(r, 20));
  }`)}`;
const ECHO = wrapper(`runApi(input: { q: string }) { return { echo: input.q }; }`);

const json = async (url: string) => {
  const res = await fetch(url);
  return { status: res.status, body: (await res.json()) as any };
};

async function eventually<T>(what: string, read: () => Promise<T>, ok: (value: T) => boolean, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read().catch(() => undefined);
    if (value !== undefined && ok(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting until ${what} (last: ${JSON.stringify(value)})`);
    await sleep(100);
  }
}

const SECRET = "reliability webhook secret";
const state: { redis?: TestRedis; dir?: string; instances: Instance[]; hook?: Server; hookUrl?: string; received: { headers: IncomingHttpHeaders; body: string }[] } = { instances: [], received: [] };
const start = async () => {
  const env = { SERVICE_RUN_LEASE_SECONDS: "3", SERVICE_WEBHOOK_ALLOWED_URLS: state.hookUrl!, SERVICE_WEBHOOK_SECRET: SECRET };
  const instance = await startInstance({ redisUrl: state.redis!.url, dir: state.dir, env });
  state.instances.push(instance);
  return instance;
};

test.before(async () => {
  if (skip) return;
  state.redis = await startRedis();
  state.dir = pipelinesDirWith({ slow: SLOW, echo: ECHO });
  state.hook = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      state.received.push({ headers: req.headers, body });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => state.hook!.listen(0, "127.0.0.1", r));
  state.hookUrl = `http://127.0.0.1:${(state.hook.address() as AddressInfo).port}`;
});

test.after(async () => {
  await stopAll(...state.instances);
  await state.redis?.stop();
  await new Promise((r) => (state.hook ? state.hook.close(r) : r(undefined)));
});

const ids: { completed?: string; killed?: string } = {};

test("kill -9 of the instance running a run: another instance reports it failed (lease_expired) within 15 s and sends its webhook, once", async () => {
  if (skip) return console.log(skip);
  const [a, b] = [await start(), await start()];
  const done = await post(`${b.url}/echo/runs`, { q: "kept" });
  assert.is(done.status, 202, JSON.stringify(done.body));
  ids.completed = done.body.id;
  await eventually("the echo run completed", () => json(`${a.url}/runs/${ids.completed}`), (r) => r.body.status === "completed");
  const run = await post(`${a.url}/slow/runs`, { webhook_url: `${state.hookUrl}/done` });
  assert.is(run.status, 202, JSON.stringify(run.body));
  ids.killed = run.body.id;
  await eventually("the slow run is in progress", () => json(`${b.url}/runs/${ids.killed}`), (r) => r.body.status === "in_progress");
  const killed = Date.now();
  await a.stop("SIGKILL");
  const failed = await eventually("the killed instance's run failed", () => json(`${b.url}/runs/${ids.killed}`), (r) => r.body.status === "failed", 20_000);
  const took = Date.now() - killed;
  assert.is(failed.body.error.code, "lease_expired");
  assert.match(failed.body.error.message, /stopped renewing its lease/);
  assert.ok(took < 15_000, `failed ${took} ms after the kill`);
  await eventually("the failed run's webhook", async () => state.received.length, (n) => n >= 1);
  await sleep(500); // room for a second delivery, had another instance sent one too
  assert.is(state.received.length, 1);
  const delivered = new Webhook(SECRET, { format: "raw" }).verify(state.received[0]!.body, state.received[0]!.headers as Record<string, string>) as any;
  assert.is(delivered.type, "run.failed");
  assert.is(delivered.data.id, ids.killed);
  assert.is(delivered.data.error.code, "lease_expired");
  await b.stop("SIGTERM");
});

test("every instance replaced, Redis kept: the completed and the failed run are still there", async () => {
  if (skip) return;
  const c = await start();
  const completed = await json(`${c.url}/runs/${ids.completed}`);
  assert.is(completed.status, 200);
  assert.is(completed.body.status, "completed");
  assert.equal(completed.body.result, { echo: "kept" });
  const failed = await json(`${c.url}/runs/${ids.killed}`);
  assert.is(failed.body.status, "failed");
  const list = await json(`${c.url}/runs`);
  assert.equal(list.body.runs.map((r: any) => r.id).sort(), [ids.completed, ids.killed].sort());
});

test("cancel during a stream, from another instance: the SSE stream ends with run.cancelled and the wrapper's signal is aborted", async () => {
  if (skip) return;
  const [c, d] = [state.instances.at(-1)!, await start()];
  const marker = join(tempDir("svc-runs-marker-"), "aborted");
  const run = await post(`${c.url}/slow/runs`, { marker });
  assert.is(run.status, 202, JSON.stringify(run.body));
  const res = await fetch(`${d.url}/runs/${run.body.id}/events`);
  const events: { id?: string; event?: string }[] = [];
  const parser = createParser({ onEvent: (e) => events.push({ id: e.id, event: e.event }) });
  const reader = (async () => {
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) parser.feed(Buffer.from(chunk).toString());
  })();
  await eventually("the stream's first part", async () => events.length, (n) => n >= 2);
  const cancelled = await post(`${d.url}/runs/${run.body.id}/cancel`, {});
  assert.is(cancelled.status, 200, JSON.stringify(cancelled.body));
  assert.is(cancelled.body.status, "cancelled");
  await reader;
  assert.equal(events.map((e) => e.event), ["run.in_progress", "run.output", "run.cancelled"]);
  await eventually("the wrapper's abort marker", async () => existsSync(marker), (ok) => ok, 10_000);
});

test.run();
