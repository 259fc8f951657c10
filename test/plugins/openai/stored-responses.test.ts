/**
 * Stored and background responses through the real `openai` client: background create, retrieve,
 * cancel (the wrapper's signal fires; a live stream ends `cancelled`), delete, input_items pages,
 * a background stream's sequence_numbers and its resume with starting_after, previous_response_id
 * (the wrapper gets the whole conversation), owner scoping with svc:auth, the bad inputs, and all
 * of it across two instances sharing one real Redis.
 */
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { join } from "node:path";
import OpenAI from "openai";
import type { KernelPlugin } from "svc/plugin";
import runsPlugin from "svc/runs";
import authPlugin from "../../../plugins/auth/index.js";
import { openaiPlugin } from "../../../plugins/openai/index.js";
import { addKey } from "../../../cli/auth.js";
import { startPipelineKernel, tempDir, type PipelineKernel } from "../../helpers/pipelines.js";
import { redisSkipReason, startRedis } from "../../helpers/redis.js";
import { rejects } from "../../helpers/rejects.js";
import { untilValue } from "../../helpers/http.js";

/**
 * `echo` answers the conversation it got (`role:text | …`) in three streamed parts; with
 * `metadata.hold` it yields one part and waits for its signal (counting aborts in a global).
 */
const WRAPPER = `import { BasePipelineWrapper } from "svc";
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const textOf = (c: any) => (typeof c === "string" ? c : Array.isArray(c) ? c.map((p: any) => p.text ?? "").join("") : "");
export class PipelineWrapper extends BasePipelineWrapper {
  async *runResponse(model: string, input: any[], body: any, ctx: { signal: AbortSignal }) {
    const g = globalThis as any;
    ctx.signal.addEventListener("abort", () => (g.__responsesAborted = (g.__responsesAborted ?? 0) + 1));
    if (body.metadata?.hold) {
      yield "holding ";
      while (!ctx.signal.aborted) await sleep(20);
      return;
    }
    const text = input.map((item) => item.role + ":" + textOf(item.content)).join(" | ");
    for (const part of [text.slice(0, 5), text.slice(5, 10), text.slice(10)]) {
      await sleep(10);
      yield part;
    }
  }
}
`;

async function kernel(settings: Record<string, unknown> = {}, options: { withRuns?: boolean; plugins?: KernelPlugin[]; adminKey?: string } = {}): Promise<PipelineKernel> {
  const plugins = [...(options.withRuns === false ? [] : [runsPlugin()]), openaiPlugin(), ...(options.plugins ?? [])];
  const k = await startPipelineKernel({ plugins, settings });
  const headers: Record<string, string> = options.adminKey ? { authorization: `Bearer ${options.adminKey}` } : {};
  const res = await fetch(`${k.url}/deploy_files`, { method: "POST", headers, body: JSON.stringify({ name: "echo", files: { "pipeline_wrapper.ts": WRAPPER }, save_files: false, overwrite: true }) });
  assert.is(res.status, 200, await res.text());
  return k;
}

const clientOf = (k: PipelineKernel, apiKey = "test-key") => new OpenAI({ apiKey, baseURL: `${k.url}/v1`, maxRetries: 0, timeout: 30_000 });

const until = <T>(read: () => Promise<T>, ok: (value: T) => boolean): Promise<T> => untilValue(read, ok, 20_000);

const CONVERSATION = "user:hi there";

/** Every event of a stream, as the client parsed them. */
async function collect(stream: AsyncIterable<any>): Promise<any[]> {
  const events: any[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

const memory = suite("stored responses");

memory("background: queued at once, then completed; retrieve, input_items pages (desc, asc, after), delete", async () => {
  const k = await kernel();
  const client = clientOf(k);
  try {
    const created = await client.responses.create({ model: "echo", input: "hi there", background: true });
    assert.ok(["queued", "in_progress"].includes(created.status!), created.status);
    assert.is(created.background, true);
    assert.match(created.id, /^resp_[0-9a-f]{28}$/);
    const done = await until(() => client.responses.retrieve(created.id), (r) => r.status === "completed");
    assert.is(done.status, "completed");
    assert.is(done.output_text, CONVERSATION);
    assert.is(done.id, created.id);
    const items = [
      { type: "message" as const, role: "user" as const, content: "one" },
      { type: "message" as const, role: "user" as const, content: [{ type: "input_text" as const, text: "two" }] },
      { type: "message" as const, role: "user" as const, content: "three" },
    ];
    const multi = await client.responses.create({ model: "echo", input: items });
    assert.is(multi.output_text, "user:one | user:two | user:three");
    const desc = await client.responses.inputItems.list(multi.id);
    assert.equal(desc.data.map((i: any) => i.content[0].text), ["three", "two", "one"]);
    assert.ok(desc.data.every((i: any) => /^msg_/.test(i.id) && i.type === "message"));
    const first = await client.responses.inputItems.list(multi.id, { order: "asc", limit: 2 });
    assert.equal(first.data.map((i: any) => i.content[0].text), ["one", "two"]);
    assert.is(first.has_more, true);
    const rest = await client.responses.inputItems.list(multi.id, { order: "asc", limit: 2, after: first.data[1]!.id });
    assert.equal(rest.data.map((i: any) => i.content[0].text), ["three"]);
    assert.is(rest.has_more, false);
    const all: string[] = [];
    for await (const item of client.responses.inputItems.list(multi.id, { order: "asc", limit: 1 })) all.push((item as any).content[0].text);
    assert.equal(all, ["one", "two", "three"]);
    await client.responses.delete(multi.id);
    await rejects(() => client.responses.retrieve(multi.id), /404/);
    await rejects(() => client.responses.delete(multi.id), /404/);
    const badLimit = await fetch(`${k.url}/v1/responses/${created.id}/input_items?limit=0`);
    assert.is(badLimit.status, 400);
    assert.is(((await badLimit.json()) as any).error.type, "invalid_request_error");
  } finally {
    await k.close();
  }
});

memory("a background stream numbers its events; retrieve with stream and starting_after resumes after N; beyond the end is a 400", async () => {
  const k = await kernel();
  const client = clientOf(k);
  try {
    const events = await collect(await client.responses.create({ model: "echo", input: "hi there", background: true, stream: true }));
    assert.equal(events.map((e) => e.sequence_number), events.map((_, i) => i));
    assert.is(events[0].type, "response.created");
    assert.is(events.at(-1).type, "response.completed");
    const id = events[0].response.id;
    assert.is(events.at(-1).response.id, id);
    assert.is(events.at(-1).response.output[0].content[0].text, CONVERSATION);
    assert.is(events.filter((e) => e.type === "response.output_text.delta").map((e) => e.delta).join(""), CONVERSATION);
    const resumed = await collect(await client.responses.retrieve(id, { stream: true, starting_after: 2 }));
    assert.equal(resumed.map((e) => e.sequence_number), events.slice(3).map((e) => e.sequence_number));
    assert.equal(resumed.map((e) => e.type), events.slice(3).map((e) => e.type));
    const last = events.at(-1).sequence_number;
    await rejects(() => client.responses.retrieve(id, { stream: true, starting_after: last }), /400/);
    const bad = await fetch(`${k.url}/v1/responses/${id}?stream=true&starting_after=-1`);
    assert.is(bad.status, 400);
    // A foreground response is stored but has no event log to stream again.
    const foreground = await client.responses.create({ model: "echo", input: "x" });
    await rejects(() => client.responses.retrieve(foreground.id, { stream: true }), /400/);
  } finally {
    await k.close();
  }
});

memory("cancel during a background stream: the wrapper's signal fires, the stream ends with response.cancelled; bad cancels", async () => {
  const k = await kernel();
  const client = clientOf(k);
  const g = globalThis as any;
  g.__responsesAborted = 0;
  try {
    const stream = await client.responses.create({ model: "echo", input: "wait", background: true, stream: true, metadata: { hold: "yes" } });
    const events: any[] = [];
    const reading = (async () => {
      for await (const event of stream) events.push(event);
    })();
    await until(async () => events.length, (n) => events.some((e) => e.type === "response.output_text.delta"));
    const id = events[0].response.id;
    const cancelled = await client.responses.cancel(id);
    assert.is(cancelled.status, "cancelled");
    await reading;
    assert.is(events.at(-1).type, "response.cancelled");
    assert.is(events.at(-1).response.status, "cancelled");
    assert.ok(g.__responsesAborted >= 1, "the wrapper's signal was aborted");
    assert.is((await client.responses.retrieve(id)).status, "cancelled");
    await rejects(() => client.responses.cancel(id), /400 Cannot cancel a cancelled response/);
    await rejects(() => client.responses.cancel("resp_0000000000000000000000000000"), /404/);
    await rejects(() => client.responses.retrieve("resp_nope"), /404/);
    const foreground = await client.responses.create({ model: "echo", input: "x" });
    await rejects(() => client.responses.cancel(foreground.id), /400 .*background/);
  } finally {
    await k.close();
  }
});

memory("previous_response_id: the wrapper gets the earlier inputs and outputs in order; unknown or unstored ids are 404s", async () => {
  const k = await kernel();
  const client = clientOf(k);
  try {
    const one = await client.responses.create({ model: "echo", input: "hi there" });
    const two = await client.responses.create({ model: "echo", input: "again", previous_response_id: one.id });
    assert.is(two.output_text, `user:hi there | assistant:${CONVERSATION} | user:again`);
    assert.is(two.previous_response_id, one.id);
    const three = await client.responses.create({ model: "echo", input: "third", previous_response_id: two.id, background: true });
    const done = await until(() => client.responses.retrieve(three.id), (r) => r.status === "completed");
    assert.is(done.output_text, `user:hi there | assistant:${CONVERSATION} | user:again | assistant:${two.output_text} | user:third`);
    // Only its own input is listed.
    assert.equal((await client.responses.inputItems.list(three.id)).data.length, 1);
    const unknown = await fetch(`${k.url}/v1/responses`, { method: "POST", body: JSON.stringify({ model: "echo", input: "x", previous_response_id: "resp_0000000000000000000000000000" }) });
    assert.is(unknown.status, 404);
    const error = ((await unknown.json()) as any).error;
    assert.is(error.type, "invalid_request_error");
    assert.match(error.message, /previous_response_id/);
    const unstored = await client.responses.create({ model: "echo", input: "x", store: false });
    await rejects(() => client.responses.retrieve(unstored.id), /404/);
    await rejects(() => client.responses.create({ model: "echo", input: "y", previous_response_id: unstored.id }), /404/);
    await rejects(() => client.responses.create({ model: "echo", input: "y", background: true, store: false }), /400/);
  } finally {
    await k.close();
  }
});

memory("without svc:runs: background and previous_response_id are refused, naming the plugin; responses answer as before", async () => {
  const k = await kernel({}, { withRuns: false });
  const client = clientOf(k);
  try {
    await rejects(() => client.responses.create({ model: "echo", input: "x", background: true }), /400 .*svc:runs/);
    const plain = await client.responses.create({ model: "echo", input: "x" });
    assert.is(plain.output_text, "user:x");
    await rejects(() => client.responses.retrieve(plain.id), /404 .*svc:runs/);
    await rejects(() => client.responses.create({ model: "echo", input: "y", previous_response_id: plain.id }), /404/);
  } finally {
    await k.close();
  }
});

memory("with svc:auth a key sees only its own responses (admin: all); another key's previous_response_id is a 404", async () => {
  const file = join(tempDir("svc-auth-"), "keys.yaml");
  const alice = await addKey("alice", { scope: "run", keysFile: file });
  const bob = await addKey("bob", { scope: "run", keysFile: file });
  const admin = await addKey("ops", { scope: ["admin"], keysFile: file });
  const k = await kernel({ authKeysFile: file }, { plugins: [authPlugin()], adminKey: admin });
  try {
    const own = await clientOf(k, alice).responses.create({ model: "echo", input: "secret", background: true });
    await until(() => clientOf(k, alice).responses.retrieve(own.id), (r) => r.status === "completed");
    await rejects(() => clientOf(k, bob).responses.retrieve(own.id), /404/);
    await rejects(() => clientOf(k, bob).responses.inputItems.list(own.id), /404/);
    await rejects(() => clientOf(k, bob).responses.cancel(own.id), /404/);
    await rejects(() => clientOf(k, bob).responses.delete(own.id), /404/);
    await rejects(() => clientOf(k, bob).responses.create({ model: "echo", input: "x", previous_response_id: own.id }), /404/);
    assert.is((await clientOf(k, admin).responses.retrieve(own.id)).output_text, "user:secret");
  } finally {
    await k.close();
  }
});

const redisSuite = suite("stored responses on Redis");
const skip = redisSkipReason();

redisSuite("two instances on one Redis: create on one; retrieve, resume the stream, continue the conversation, cancel and delete on the other", async () => {
  if (skip) return console.log(skip);
  const redis = await startRedis();
  const settings = { clusterRedisUrl: redis.url, runLeaseSeconds: 1 };
  const a = await kernel(settings);
  const b = await kernel(settings);
  const ca = clientOf(a);
  const cb = clientOf(b);
  const g = globalThis as any;
  g.__responsesAborted = 0;
  try {
    const events = await collect(await ca.responses.create({ model: "echo", input: "hi there", background: true, stream: true }));
    const id = events[0].response.id;
    assert.is((await cb.responses.retrieve(id)).output_text, CONVERSATION);
    const resumed = await collect(await cb.responses.retrieve(id, { stream: true, starting_after: 1 }));
    assert.equal(resumed.map((e) => e.sequence_number), events.slice(2).map((e) => e.sequence_number));
    assert.is(resumed.at(-1).type, "response.completed");
    const next = await cb.responses.create({ model: "echo", input: "again", previous_response_id: id });
    assert.is(next.output_text, `user:hi there | assistant:${CONVERSATION} | user:again`);
    assert.equal((await ca.responses.inputItems.list(next.id)).data.map((i: any) => i.content[0].text), ["again"]);
    // A held background response on A: B follows its live stream and cancels it; A's wrapper is aborted.
    const held = await ca.responses.create({ model: "echo", input: "wait", background: true, metadata: { hold: "yes" } });
    await until(() => cb.responses.retrieve(held.id), (r) => r.status === "in_progress");
    const live = collect(await cb.responses.retrieve(held.id, { stream: true }));
    const cancelled = await cb.responses.cancel(held.id);
    assert.is(cancelled.status, "cancelled");
    const followed = await live;
    assert.is(followed[0].sequence_number, 0);
    assert.is(followed.at(-1).type, "response.cancelled");
    assert.ok(g.__responsesAborted >= 1, "the wrapper's signal on A was aborted");
    await cb.responses.delete(id);
    await rejects(() => ca.responses.retrieve(id), /404/);
  } finally {
    await Promise.all([a.close(), b.close()]);
    await redis.stop();
  }
});

memory.run();
redisSuite.run();
