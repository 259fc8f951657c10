import { test } from "uvu";
import * as assert from "uvu/assert";
import { ABORTED, HttpError, StreamedRun, TIMED_OUT, createKernel, definePlugin, type Kernel, type KernelPlugin, type RunCall, type Span, type StreamInfo } from "svc/plugin";
import { sse } from "svc";

/** A kernel serving `wrapper` as pipeline `p` (registered directly: no files, no deploy). */
async function kernelWith(wrapper: object, plugins: KernelPlugin[] = []): Promise<Kernel> {
  const kernel = await createKernel({ plugins, settings: { pipelinesDir: "/nonexistent-svc-invoke-test" } });
  const capabilities = { api: "runApi" in wrapper, chat: "runChatCompletion" in wrapper, response: "runResponse" in wrapper };
  kernel.registry.set({ name: "p", description: "", source: "test", wrapper, capabilities, skipMcp: false, requiresFiles: false, deployedAt: new Date() });
  return kernel;
}

const request = (signal = new AbortController().signal) => ({ pipeline: "p", method: "runApi" as const, transport: "test", input: { q: 1 }, signal });

async function rejection(promise: Promise<unknown>): Promise<HttpError> {
  try {
    await promise;
  } catch (error) {
    return error as HttpError;
  }
  throw new Error("expected a rejection");
}

test("lookup and capability: one answer each, before any interceptor runs", async () => {
  let intercepted = 0;
  const counter = definePlugin({ name: "counter", setup: (k) => k.hooks.run.tap((_c, next) => (intercepted++, next())) });
  const kernel = await kernelWith({ runApi: () => "ok" }, [counter]);
  try {
    const missing = await rejection(kernel.invoke({ ...request(), pipeline: "nope" }));
    assert.equal([missing.status, missing.message], [404, "Pipeline 'nope' not found"]);
    const chat = await rejection(kernel.invoke({ ...request(), method: "runChatCompletion" }));
    assert.equal([chat.status, chat.message], [501, "Chat endpoint not implemented for this model"]);
    assert.is(intercepted, 0);
    assert.is((await kernel.invoke(request())).result, "ok");
    assert.is(intercepted, 1);
  } finally {
    await kernel.close();
  }
});

test("a wrapper failure is a 500; an HttpError it throws passes as it is", async () => {
  const kernel = await kernelWith({
    runApi: (input: { q: number }) => {
      if (input.q === 1) throw new Error("broke");
      throw new HttpError(418, "teapot");
    },
  });
  try {
    const failed = await rejection(kernel.invoke(request()));
    assert.equal([failed.status, failed.message], [500, "Pipeline execution failed: broke"]);
    const own = await rejection(kernel.invoke({ ...request(), input: { q: 2 } }));
    assert.equal([own.status, own.message], [418, "teapot"]);
  } finally {
    await kernel.close();
  }
});

test("a streamed run settles once, when its stream ends; the stream's taps get the run's call and span", async () => {
  const settled: unknown[] = [];
  const seen: { call?: RunCall; info?: StreamInfo } = {};
  const span = { marker: true } as unknown as Span;
  const watcher = definePlugin({
    name: "watcher",
    setup(k) {
      k.hooks.run.tap(async (_call, next) => {
        const result = await next({ span });
        settled.push(result);
        return result;
      });
      k.hooks.run.tap((call, next) => ((seen.call = call), next()));
      k.hooks.stream.tap({ start: (info) => void (seen.info = info), item: (item) => `${item}!` });
    },
  });
  const kernel = await kernelWith({ runApi: () => sse(["a", "b", "c"]) }, [watcher]);
  try {
    const invocation = await kernel.invoke(request());
    assert.ok(invocation.source?.sse);
    assert.is(settled.length, 0, "not settled before the stream is read");
    const items: unknown[] = [];
    for await (const item of invocation.stream("run.item")) items.push(item);
    assert.equal(items, ["a!", "b!", "c!"]);
    await new Promise((resolve) => setImmediate(resolve));
    assert.is(settled.length, 1);
    const run = settled[0] as StreamedRun;
    assert.instance(run, StreamedRun);
    assert.is(run.stats.items, 3);
    assert.is(run.aborted, false);
    assert.is(seen.info!.call, seen.call, "the same call object the wrapper got");
    assert.is(seen.info!.call.span, span);
  } finally {
    await kernel.close();
  }
});

test("a stream that fails rejects the run with its error; one the client leaves before it is read settles as aborted and closes the source", async () => {
  const outcomes: string[] = [];
  const watcher = definePlugin({
    name: "watcher",
    setup: (k) =>
      k.hooks.run.tap((_call, next) =>
        next().then(
          (r) => void outcomes.push(r instanceof StreamedRun ? `streamed aborted=${r.aborted}` : "value"),
          (e) => void outcomes.push(`failed ${(e as Error).message}`),
        ),
      ),
  });
  let closed = false;
  const kernel = await kernelWith(
    {
      async *runApi(input: { q: number }) {
        try {
          yield 1;
          if (input.q === 1) throw new Error("mid-stream");
          yield 2;
        } finally {
          closed = true;
        }
      },
    },
    [watcher],
  );
  try {
    const failing = await kernel.invoke(request());
    const error = await rejection((async () => {
      for await (const _ of failing.stream("run.item"));
    })());
    assert.is(error.message, "mid-stream");
    const client = new AbortController();
    await kernel.invoke({ ...request(client.signal), input: { q: 2 } });
    client.abort();
    await new Promise((resolve) => setImmediate(resolve));
    const reader = new AbortController();
    const reading = await kernel.invoke({ ...request(reader.signal), input: { q: 2 } });
    await reading.stream("run.item").next();
    closed = false;
    reader.abort();
    await new Promise((resolve) => setImmediate(resolve));
    assert.ok(closed, "the source is closed");
    assert.equal(outcomes, ["failed mid-stream", "streamed aborted=true", "streamed aborted=true"]);
  } finally {
    await kernel.close();
  }
});

test("an interceptor may answer in the wrapper's place", async () => {
  let ran = false;
  const cache = definePlugin({ name: "cache", setup: (k) => k.hooks.run.tap(async () => "cached") });
  const kernel = await kernelWith({ runApi: () => ((ran = true), "fresh") }, [cache]);
  try {
    assert.is((await kernel.invoke(request())).result, "cached");
    assert.not.ok(ran);
  } finally {
    await kernel.close();
  }
});

test("a stream read with a time-out keeps the late item, or the late failure, for the next read; an abort answers a waiting read", async () => {
  const gates: (() => void)[] = [];
  const gate = () => new Promise<void>((resolve) => gates.push(resolve));
  const kernel = await kernelWith({
    async *runApi(input: { fail?: boolean }) {
      await gate();
      yield "first";
      await gate();
      if (input.fail) throw new Error("late failure");
      yield "second";
      await gate();
    },
  });
  try {
    const controller = new AbortController();
    const items = (await kernel.invoke({ ...request(controller.signal), input: {} })).stream<string>("run.item");
    assert.is(await items.next(5), TIMED_OUT);
    gates.shift()!();
    await new Promise((r) => setTimeout(r, 5)); // the item arrives while no read waits
    assert.equal(await items.next(5), { done: false, value: "first" });
    const waiting = items.next();
    gates.shift()!();
    assert.equal(await waiting, { done: false, value: "second" });
    const pending = items.next();
    controller.abort();
    assert.is(await pending, ABORTED);
    while (gates.length) gates.shift()!(); // lets the stopped generator finish

    const failing = (await kernel.invoke({ ...request(), input: { fail: true } })).stream<string>("run.item");
    const first = failing.next();
    gates.shift()!();
    assert.equal(await first, { done: false, value: "first" });
    assert.is(await failing.next(5), TIMED_OUT);
    gates.shift()!();
    await new Promise((r) => setTimeout(r, 5));
    assert.is((await rejection(failing.next())).message, "late failure");
    failing.close();
  } finally {
    await kernel.close();
  }
});

test("kernel.run: a target runs through the run interceptors without a deployed pipeline", async () => {
  const seen: string[] = [];
  const tagger = definePlugin({
    name: "tagger",
    setup: (k) =>
      k.hooks.run.tap(async (call, next) => {
        seen.push(`${call.pipeline}:${call.transport}`);
        return `<${String(await next())}>`;
      }),
  });
  const kernel = await createKernel({ plugins: [tagger], settings: { pipelinesDir: "/nonexistent-svc-invoke-test" } });
  try {
    const call: RunCall = { pipeline: "not-deployed", method: "runApi", transport: "host", input: {}, signal: new AbortController().signal };
    assert.is(await kernel.run(call, async () => "answer"), "<answer>");
    const failure = new Error("target broke");
    assert.is(await rejection(kernel.run(call, () => Promise.reject(failure))), failure as unknown as HttpError, "the target's error passes through");
    assert.equal(seen, ["not-deployed:host", "not-deployed:host"]);
  } finally {
    await kernel.close();
  }
});

test.run();
