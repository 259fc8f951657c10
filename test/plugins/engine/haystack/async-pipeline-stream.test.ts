/**
 * Haystack's `Pipeline.stream()` tests (haystack test/core/pipeline/test_async_pipeline_stream.py),
 * ported value for value. Python's task cancellation is the run's AbortSignal: StreamingEcho's
 * delay stops when it aborts, as an awaited `asyncio.sleep` does on `task.cancel()`. A consumer
 * task cancelled mid-stream is a consumer leaving its `for await` loop; awaiting `handle._task`
 * is `handle.wait()`.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import * as v from "valibot";
import { Component, output, Pipeline, PipelineRuntimeError, PipelineStreamHandle, socket, StreamingChunk, ValueError, type ComponentContext, type StreamingCallback } from "svc/engine";

interface EchoInit {
  prefix: string;
  n_chunks: number;
  fail: boolean;
  chunk_delay: number;
  streaming_callback?: StreamingCallback;
}

/** Sleeps, or rejects with the signal's reason when it aborts first. */
const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const onAbort = () => (clearTimeout(timer), reject(signal.reason));
    const timer = setTimeout(() => (signal.removeEventListener("abort", onAbort), resolve()), ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });

/** Emits `n_chunks` chunks to its run-time callback, then returns a final reply. */
class StreamingEcho extends Component<EchoInit> {
  static override readonly initSchema = v.object({
    prefix: v.optional(v.string(), "tok"),
    n_chunks: v.optional(v.number(), 3),
    fail: v.optional(v.boolean(), false),
    chunk_delay: v.optional(v.number(), 0),
    streaming_callback: v.optional(v.function()),
  });
  protected inputSpecs() {
    return { prompt: socket(v.string()), streaming_callback: socket(v.nullable(v.function()), { default: null }) };
  }
  protected outputSpecs() {
    return { reply: output(v.string()) };
  }
  async run(inputs: { prompt: string; streaming_callback: StreamingCallback | null }, ctx: ComponentContext) {
    const p = this.initParameters;
    for (let i = 0; i < p.n_chunks; i++) {
      if (p.chunk_delay) await sleep(p.chunk_delay * 1000, ctx.signal);
      const chunk = new StreamingChunk({ content: `${p.prefix}${i}` });
      if (inputs.streaming_callback) await inputs.streaming_callback(chunk);
    }
    if (p.fail) throw new Error("boom");
    return { reply: `${p.prefix}-final` };
  }
}

/** Declares its sockets per instance, at construction (Haystack: `component.set_input_type`). */
class DynamicStreamingEcho extends Component<{ prefix: string; n_chunks: number }> {
  static override readonly initSchema = v.object({ prefix: v.optional(v.string(), "tok"), n_chunks: v.optional(v.number(), 2) });
  private readonly declared: Record<string, ReturnType<typeof socket>> = {};
  constructor(init: Partial<{ prefix: string; n_chunks: number }> = {}) {
    super(init);
    this.declared.prompt = socket(v.string());
    this.declared.streaming_callback = socket(v.nullable(v.function()), { default: null });
  }
  protected inputSpecs() {
    return this.declared;
  }
  protected outputSpecs() {
    return { reply: output(v.string()) };
  }
  async run(inputs: Record<string, unknown>) {
    const cb = inputs.streaming_callback as StreamingCallback | null;
    for (let i = 0; i < this.initParameters.n_chunks; i++) if (cb) await cb(new StreamingChunk({ content: `${this.initParameters.prefix}${i}` }));
    return { reply: `${this.initParameters.prefix}-final` };
  }
}

class Passthrough extends Component {
  protected inputSpecs() {
    return { prompt: socket(v.string()) };
  }
  protected outputSpecs() {
    return { prompt: output(v.string()) };
  }
  run(inputs: { prompt: string }) {
    return { prompt: inputs.prompt };
  }
}

const echo = (init: Partial<EchoInit> = {}) => new StreamingEcho(init);

async function collect(handle: PipelineStreamHandle): Promise<string[]> {
  const out: string[] = [];
  for await (const chunk of handle) out.push(chunk.content);
  return out;
}

async function iterationError(handle: PipelineStreamHandle, received: string[] = []): Promise<Error> {
  try {
    for await (const chunk of handle) received.push(chunk.content);
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected the iteration to fail");
}

function resultError(handle: PipelineStreamHandle): Error {
  try {
    void handle.result;
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected result to throw");
}

test("test_stream_yields_chunks_and_returns_result", async () => {
  const handle = new Pipeline().addComponent("streamer", echo({ prefix: "s", n_chunks: 3 })).stream({ streamer: { prompt: "hi" } });
  assert.equal(await collect(handle), ["s0", "s1", "s2"]);
  assert.equal(handle.result.streamer, { reply: "s-final" });
});

test("test_stream_yields_chunks_with_flat_input", async () => {
  const handle = new Pipeline().addComponent("streamer", echo({ prefix: "s", n_chunks: 3 })).stream({ prompt: "hi" });
  assert.equal(await collect(handle), ["s0", "s1", "s2"]);
  assert.equal(handle.result.streamer, { reply: "s-final" });
});

test("test_stream_composes_with_init_streaming_callback", async () => {
  const seen: string[] = [];
  const pipeline = new Pipeline().addComponent("streamer", echo({ prefix: "s", n_chunks: 2, streaming_callback: async (c) => void seen.push(c.content) }));
  assert.equal(await collect(pipeline.stream({ streamer: { prompt: "hi" } })), ["s0", "s1"]);
  assert.equal(seen, ["s0", "s1"]);
});

test("test_stream_runtime_callback_overrides_init", async () => {
  const initSeen: string[] = [];
  const runtimeSeen: string[] = [];
  const pipeline = new Pipeline().addComponent("streamer", echo({ prefix: "s", n_chunks: 2, streaming_callback: async (c) => void initSeen.push(c.content) }));
  await collect(pipeline.stream({ streamer: { prompt: "hi", streaming_callback: async (c: StreamingChunk) => void runtimeSeen.push(c.content) } }));
  assert.equal(initSeen, []);
  assert.equal(runtimeSeen, ["s0", "s1"]);
});

test("test_stream_warns_on_sync_runtime_callback: a sync callback gets every chunk (the warning is Python's: no event loop to block)", async () => {
  const seen: string[] = [];
  const pipeline = new Pipeline().addComponent("streamer", echo({ prefix: "s", n_chunks: 2 }));
  await collect(pipeline.stream({ streamer: { prompt: "hi", streaming_callback: (c: StreamingChunk) => void seen.push(c.content) } }));
  assert.equal(seen, ["s0", "s1"]);
});

test("test_stream_detects_streaming_callback_declared_via_set_input_type", async () => {
  const handle = new Pipeline().addComponent("streamer", new DynamicStreamingEcho({ prefix: "d", n_chunks: 3 })).stream({ streamer: { prompt: "hi" } });
  assert.equal(await collect(handle), ["d0", "d1", "d2"]);
  assert.equal(handle.result.streamer, { reply: "d-final" });
});

test("test_stream_streams_all_components_by_default", async () => {
  const pipeline = new Pipeline().addComponent("a", echo({ prefix: "a", n_chunks: 2 })).addComponent("b", echo({ prefix: "b", n_chunks: 2 }));
  const chunks = await collect(pipeline.stream({ a: { prompt: "x" }, b: { prompt: "y" } }));
  assert.equal(chunks.sort(), ["a0", "a1", "b0", "b1"]);
});

test("test_stream_filters_to_selected_components", async () => {
  const pipeline = new Pipeline().addComponent("a", echo({ prefix: "a", n_chunks: 2 })).addComponent("b", echo({ prefix: "b", n_chunks: 2 }));
  const handle = pipeline.stream({ a: { prompt: "x" }, b: { prompt: "y" } }, { streamingComponents: ["a"] });
  assert.equal((await collect(handle)).sort(), ["a0", "a1"]);
  assert.equal(handle.result.a, { reply: "a-final" });
  assert.equal(handle.result.b, { reply: "b-final" });
});

test("test_stream_raises_for_unknown_component_in_filter", () => {
  const pipeline = new Pipeline().addComponent("streamer", echo());
  assert.throws(() => pipeline.stream({ streamer: { prompt: "x" } }, { streamingComponents: ["typo"] }), (e: Error) => e instanceof ValueError && /Unknown components/.test(e.message) && e.message.includes("typo"));
});

test("test_stream_raises_for_non_streaming_component_in_filter", () => {
  const pipeline = new Pipeline().addComponent("streamer", echo()).addComponent("passthrough", new Passthrough());
  assert.throws(
    () => pipeline.stream({ streamer: { prompt: "x" }, passthrough: { prompt: "x" } }, { streamingComponents: ["passthrough"] }),
    (e: Error) => e instanceof ValueError && /do not support streaming/.test(e.message) && e.message.includes("passthrough"),
  );
});

test("test_stream_propagates_pipeline_exception_during_iteration", async () => {
  const handle = new Pipeline().addComponent("streamer", echo({ prefix: "s", n_chunks: 1, fail: true })).stream({ streamer: { prompt: "x" } });
  const error = await iterationError(handle);
  assert.instance(error, PipelineRuntimeError);
  assert.match(error.message, "failed to run");
  assert.match(error.message, "Component name: 'streamer'");
  assert.match(error.message, "Component type: 'StreamingEcho'");
  assert.match(error.message, "boom");
  assert.instance(error.cause, Error);
  assert.is((error.cause as Error).message, "boom");
});

test("test_failing_callback_does_not_drop_chunk", async () => {
  const pipeline = new Pipeline().addComponent(
    "streamer",
    echo({
      prefix: "s",
      n_chunks: 3,
      streaming_callback: async () => {
        throw new Error("callback boom");
      },
    }),
  );
  const received: string[] = [];
  const error = await iterationError(pipeline.stream({ streamer: { prompt: "hi" } }), received);
  assert.equal(received, ["s0"]);
  assert.instance(error, PipelineRuntimeError);
  assert.match(error.message, "failed to run");
  assert.match(error.message, "Component name: 'streamer'");
  assert.match(error.message, "callback boom");
  assert.is((error.cause as Error).message, "callback boom");
});

test("test_result_reraises_original_failure", async () => {
  const handle = new Pipeline().addComponent("streamer", echo({ prefix: "s", n_chunks: 1, fail: true })).stream({ streamer: { prompt: "x" } });
  const iterError = await iterationError(handle);
  assert.instance(iterError, PipelineRuntimeError);
  assert.is(resultError(handle), iterError);
});

test("test_result_raises_when_pipeline_not_finished", async () => {
  const handle = new Pipeline().addComponent("streamer", echo({ prefix: "s", n_chunks: 5 })).stream({ streamer: { prompt: "x" } });
  assert.match(resultError(handle).message, "Pipeline has not finished");
  await handle.aclose();
});

test("test_aclose_cancels_pipeline_and_result_reports_cancelled", async () => {
  const handle = new Pipeline().addComponent("streamer", echo({ prefix: "s", n_chunks: 100 })).stream({ streamer: { prompt: "x" } });
  await handle.aclose();
  assert.match(resultError(handle).message, "Pipeline was cancelled");
});

test("test_consumer_cancellation_cancels_pipeline", async () => {
  const handle = new Pipeline().addComponent("streamer", echo({ prefix: "s", n_chunks: 100, chunk_delay: 0.01 })).stream({ streamer: { prompt: "x" } });
  const received: string[] = [];
  for await (const chunk of handle) {
    received.push(chunk.content);
    if (received.length === 2) break; // the consumer stops mid-stream
  }
  assert.equal(received, ["s0", "s1"]);
  assert.ok(handle.done);
  assert.match(resultError(handle).message, "cancelled");
});

test("test_cancel_on_abandon_false_lets_pipeline_finish", async () => {
  const handle = new Pipeline().addComponent("streamer", echo({ prefix: "s", n_chunks: 3, chunk_delay: 0.01 })).stream({ streamer: { prompt: "x" } }, { cancelOnAbandon: false });
  for await (const chunk of handle) {
    assert.is(chunk.content, "s0");
    break; // the consumer stops after one chunk
  }
  await handle.wait();
  assert.equal(handle.result.streamer, { reply: "s-final" });
});

// ---- svc's own: bad run data and the caller's signal ----
test("stream: bad run data fails the iteration with the run's ValueError, and result rethrows it", async () => {
  const handle = new Pipeline().addComponent("streamer", echo()).stream({ streamer: { prompt: "x", nope: 1 } });
  const error = await iterationError(handle);
  assert.instance(error, ValueError);
  assert.match(error.message, "Input 'nope' not found in component 'streamer'");
  assert.is(resultError(handle), error);
});

test("stream: the caller's signal aborts the run", async () => {
  const caller = new AbortController();
  const handle = new Pipeline().addComponent("streamer", echo({ n_chunks: 100, chunk_delay: 0.01 })).stream({ streamer: { prompt: "x" } }, { signal: caller.signal });
  const received: string[] = [];
  let error: Error | undefined;
  try {
    for await (const chunk of handle) {
      received.push(chunk.content);
      caller.abort(new Error("caller gone"));
    }
  } catch (e) {
    error = e as Error;
  }
  assert.ok(error);
  assert.match(error.message, "caller gone");
  assert.ok(received.length < 100);
});

test.run();
