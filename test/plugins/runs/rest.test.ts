/**
 * The REST runs API end to end: a background run answers 202 and completes; its events stream as
 * SSE and resume after Last-Event-ID; cancel aborts the wrapper's signal; bad input is the error
 * body; on Redis another instance reads and cancels a run, and a run whose instance stopped renewing
 * its lease fails.
 */
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { createParser } from "eventsource-parser";
import runsPlugin from "svc/runs";
import { startPipelineKernel, wrapper, type PipelineKernel } from "../../helpers/pipelines.js";
import { redisSkipReason, startRedis } from "../../helpers/redis.js";
import { untilValue as until } from "../../helpers/http.js";

const test = suite("rest runs");

const STREAMER = wrapper(`async *runApi(input: { n: number; hold?: boolean }, ctx: { signal: AbortSignal }) {
    const g = globalThis as any;
    ctx.signal.addEventListener("abort", () => (g.__runsAborted = (g.__runsAborted ?? 0) + 1));
    for (let i = 1; i <= input.n; i++) yield "part" + i + " ";
    while (input.hold && !ctx.signal.aborted) await new Promise((r) => setTimeout(r, 20));
  }`);
const ECHO = wrapper(`runApi(input: { q: string }) { if (input.q === "fail") throw new Error("no luck"); return { echo: input.q }; }`, `  static inputSchema = v.object({ q: v.string() });`);

async function kernelWithRuns(settings: Record<string, unknown> = {}): Promise<PipelineKernel> {
  const k = await startPipelineKernel({ plugins: [runsPlugin()], settings });
  for (const [name, source] of [["streamer", STREAMER], ["echo", ECHO]] as const) {
    const res = await k.deploy({ name, files: { "pipeline_wrapper.ts": source }, save_files: false, overwrite: true });
    assert.is(res.status, 200, JSON.stringify(res.body));
  }
  return k;
}

const json = async (url: string, init?: RequestInit) => {
  const res = await fetch(url, init);
  return { status: res.status, body: (await res.json()) as any, headers: res.headers };
};
const post = (url: string, body?: unknown) => json(url, { method: "POST", body: body === undefined ? undefined : JSON.stringify(body) });


/** The SSE events of a run: id, event name and parsed data. */
async function sseEvents(url: string, headers: Record<string, string> = {}): Promise<{ id?: string; event?: string; data: any }[]> {
  const res = await fetch(url, { headers });
  assert.is(res.status, 200);
  assert.match(res.headers.get("content-type") ?? "", /text\/event-stream/);
  const events: { id?: string; event?: string; data: any }[] = [];
  const parser = createParser({ onEvent: (e) => events.push({ id: e.id, event: e.event, data: JSON.parse(e.data) }) });
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) parser.feed(Buffer.from(chunk).toString());
  return events;
}

test("POST /{name}/runs answers 202 at once; the run completes with the result; GET /runs lists and filters it", async () => {
  const k = await kernelWithRuns();
  try {
    const created = await post(`${k.url}/echo/runs`, { q: "hi" });
    assert.is(created.status, 202);
    assert.match(created.body.id, /^run_/);
    assert.ok(["queued", "in_progress"].includes(created.body.status));
    assert.is(created.headers.get("location"), `/runs/${created.body.id}`);
    const done = await until(() => json(`${k.url}/runs/${created.body.id}`), (r) => r.body.status === "completed");
    assert.equal(done.body.result, { echo: "hi" });
    assert.equal(done.body.input, { q: "hi" });
    assert.is(done.body.owner, null);
    assert.is("owner_id" in done.body, false);
    const failed = await post(`${k.url}/echo/runs`, { q: "fail" });
    const failure = await until(() => json(`${k.url}/runs/${failed.body.id}`), (r) => r.body.status === "failed");
    assert.equal(failure.body.error, { code: "pipeline_failed", message: "Pipeline execution failed: no luck" });
    const list = await json(`${k.url}/runs?pipeline=echo&status=completed`);
    assert.equal(list.body.runs.map((r: any) => r.id), [created.body.id]);
    const page = await json(`${k.url}/runs?limit=1`);
    assert.is(page.body.runs.length, 1);
    assert.is(page.body.has_more, true);
    const next = await json(`${k.url}/runs?limit=1&cursor=${page.body.next_cursor}`);
    assert.is(next.body.runs[0].id, created.body.id);
  } finally {
    await k.close();
  }
});

test("bad input: schema failures are 400 before a run exists; unknown pipeline or run 404; bad query 400; ended run cancel 409", async () => {
  const k = await kernelWithRuns();
  try {
    const bad = await post(`${k.url}/echo/runs`, { q: 1 });
    assert.is(bad.status, 400);
    assert.match(bad.body.error.message, /^Invalid request body: q: /);
    assert.is((await post(`${k.url}/nope/runs`, {})).status, 404);
    assert.is((await post(`${k.url}/echo/runs`, [1])).status, 400);
    assert.equal((await json(`${k.url}/runs`)).body.runs, []);
    const unknown = await json(`${k.url}/runs/run_0000000000000000000000000000`);
    assert.is(unknown.status, 404);
    assert.equal(unknown.body.error.type, "invalid_request_error");
    assert.is((await json(`${k.url}/runs/not-an-id`)).status, 404);
    assert.is((await json(`${k.url}/runs?status=sleeping`)).status, 400);
    assert.is((await json(`${k.url}/runs?limit=0`)).status, 400);
    assert.is((await json(`${k.url}/runs?cursor=xyz`)).status, 400);
    const run = await post(`${k.url}/echo/runs`, { q: "x" });
    await until(() => json(`${k.url}/runs/${run.body.id}`), (r) => r.body.status === "completed");
    const late = await post(`${k.url}/runs/${run.body.id}/cancel`);
    assert.is(late.status, 409);
    const badHeader = await fetch(`${k.url}/runs/${run.body.id}/events`, { headers: { "last-event-id": "abc" } });
    assert.is(badHeader.status, 400);
    await badHeader.body?.cancel();
  } finally {
    await k.close();
  }
});

test("GET /runs/{id}/events: every event with its id, ending with run.completed; Last-Event-ID resumes after it", async () => {
  const k = await kernelWithRuns();
  try {
    const run = await post(`${k.url}/streamer/runs`, { n: 3 });
    const all = await sseEvents(`${k.url}/runs/${run.body.id}/events`);
    assert.equal(all.map((e) => e.event), ["run.in_progress", "run.output", "run.output", "run.output", "run.completed"]);
    assert.equal(all.map((e) => e.id), ["1", "2", "3", "4", "5"]);
    assert.equal(all.slice(1, 4).map((e) => e.data.text), ["part1 ", "part2 ", "part3 "]);
    assert.equal(all[4]!.data.result, "part1 part2 part3 ");
    const resumed = await sseEvents(`${k.url}/runs/${run.body.id}/events`, { "last-event-id": "3" });
    assert.equal(resumed.map((e) => e.id), ["4", "5"]);
    const byQuery = await sseEvents(`${k.url}/runs/${run.body.id}/events?after=4`);
    assert.equal(byQuery.map((e) => e.event), ["run.completed"]);
  } finally {
    await k.close();
  }
});

test("cancel aborts the wrapper's signal; the run ends cancelled and its live stream ends with run.cancelled", async () => {
  const k = await kernelWithRuns();
  const g = globalThis as any;
  g.__runsAborted = 0;
  try {
    const run = await post(`${k.url}/streamer/runs`, { n: 1, hold: true });
    const streamed = sseEvents(`${k.url}/runs/${run.body.id}/events`);
    await until(() => json(`${k.url}/runs/${run.body.id}`), (r) => r.body.status === "in_progress");
    const cancelled = await post(`${k.url}/runs/${run.body.id}/cancel`);
    assert.is(cancelled.status, 200);
    assert.is(cancelled.body.status, "cancelled");
    assert.is(cancelled.body.error.code, "cancelled");
    assert.ok(g.__runsAborted >= 1, "the wrapper's signal was aborted");
    const events = await streamed;
    assert.is(events.at(-1)!.event, "run.cancelled");
  } finally {
    await k.close();
  }
});

const redisTest = suite("rest runs on Redis");
const skip = redisSkipReason();

redisTest("two instances on one Redis: one runs, the other reads, streams and cancels; a run whose instance stops renewing its lease fails", async () => {
  if (skip) return console.log(skip);
  const redis = await startRedis();
  const settings = { clusterRedisUrl: redis.url, runLeaseSeconds: 1 };
  const a = await kernelWithRuns(settings);
  const b = await kernelWithRuns(settings);
  try {
    const done = await post(`${a.url}/echo/runs`, { q: "shared" });
    const read = await until(() => json(`${b.url}/runs/${done.body.id}`), (r) => r.body.status === "completed");
    assert.equal(read.body.result, { echo: "shared" });
    const held = await post(`${a.url}/streamer/runs`, { n: 2, hold: true });
    await until(() => json(`${b.url}/runs/${held.body.id}`), (r) => r.body.status === "in_progress");
    const replay = sseEvents(`${b.url}/runs/${held.body.id}/events`, { "last-event-id": "1" });
    const cancelled = await post(`${b.url}/runs/${held.body.id}/cancel`);
    assert.is(cancelled.body.status, "cancelled");
    const events = await replay;
    assert.equal(events.map((e) => e.event), ["run.output", "run.output", "run.cancelled"]);
    // The instance running it stops renewing leases (as if killed): the other fails the run.
    const orphan = await post(`${a.url}/streamer/runs`, { n: 1, hold: true });
    await until(() => json(`${b.url}/runs/${orphan.body.id}`), (r) => r.body.status === "in_progress");
    const { RUN_STORE } = await import("svc/runs");
    const storeA = a.kernel.resolve(RUN_STORE) as unknown as { abandonLeases(): void };
    const started = Date.now();
    storeA.abandonLeases();
    const failed = await until(() => json(`${b.url}/runs/${orphan.body.id}`), (r) => r.body.status === "failed", 20_000);
    assert.is(failed.body.status, "failed");
    assert.is(failed.body.error.code, "lease_expired");
    assert.ok(Date.now() - started < 15_000, `failed after ${Date.now() - started} ms`);
  } finally {
    await Promise.all([a.close(), b.close()]);
    await redis.stop();
  }
});

test.run();
redisTest.run();
