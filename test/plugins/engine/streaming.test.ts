import { test } from "uvu";
import * as assert from "uvu/assert";
import * as v from "valibot";
import { ChatMessage, Component, Double, Pipeline, StreamingChunk, output, selectStreamingCallback, socket, streamingGenerator, type ComponentContext } from "svc/engine";

/** Streams a script of chunks through its streaming callback, then replies. */
class FakeLLM extends Component<{ chunks: ConstructorParameters<typeof StreamingChunk>[0][]; delayMs: number; fail?: boolean }> {
  static override readonly type = "test.FakeLLM";
  static override readonly initSchema = v.object({ chunks: v.array(v.any()), delayMs: v.optional(v.number(), 0), fail: v.optional(v.boolean()) });
  aborted = false;
  protected inputSpecs() {
    return { prompt: socket(v.string(), { default: "" }), streaming_callback: socket(v.any(), { default: null }) };
  }
  protected outputSpecs() {
    return { replies: output(v.array(v.instance(ChatMessage))) };
  }
  async run(inputs: { streaming_callback: unknown }, ctx: ComponentContext) {
    const cb = selectStreamingCallback(undefined, inputs.streaming_callback);
    let text = "";
    for (const c of this.initParameters.chunks) {
      if (ctx.signal.aborted) {
        this.aborted = true;
        throw new Error("aborted");
      }
      const chunk = new StreamingChunk({ ...c, component_info: { type: this.type, name: ctx.name } });
      text += chunk.content;
      await cb?.(chunk);
      await new Promise((r) => setTimeout(r, this.initParameters.delayMs));
    }
    if (this.initParameters.fail) throw new Error("model exploded");
    return { replies: [ChatMessage.fromAssistant(text)] };
  }
}

const toolChunks = [
  { index: 0, tool_calls: [{ index: 0, tool_name: "test_tool", arguments: "", id: null }], start: true },
  { content: "Hello ", index: 0 },
  { index: 1, tool_call_result: { result: "sunny", origin: { tool_name: "test_tool", arguments: { city: "Berlin" }, id: "c1" }, error: false }, start: true },
];

test("hooks run before their chunk, onPipelineEnd adds the last item, in order", async () => {
  const pipeline = new Pipeline().addComponent("llm", new FakeLLM({ chunks: toolChunks }));
  const args = { llm: { prompt: "hi" } };
  const seen: unknown[] = [];
  for await (const item of streamingGenerator({
    pipeline,
    pipelineRunArgs: args,
    onToolCallStart: (name, a, id) => ({ event: { type: "status", data: { description: `Calling '${name}' tool...`, done: false, args: a, id } } }),
    onToolCallEnd: (name, a, result, error) => [`called ${name} ${JSON.stringify(a)} -> ${result} ${error}`, "details"],
    onPipelineEnd: (result) => `done: ${(result.llm as { replies: ChatMessage[] }).replies[0]!.text}`,
  })) {
    seen.push(item instanceof StreamingChunk ? `chunk:${item.content || (item.tool_calls ? "tool-delta" : "tool-result")}` : item);
  }
  assert.equal(seen, [
    { event: { type: "status", data: { description: "Calling 'test_tool' tool...", done: false, args: {}, id: null } } },
    "chunk:tool-delta",
    "chunk:Hello ",
    'called test_tool {"city":"Berlin"} -> sunny false',
    "details",
    "chunk:tool-result",
    "chunk:done: Hello ",
  ]);
  assert.equal(args, { llm: { prompt: "hi" } }, "the caller's args are not mutated");
});

test("only the last streaming-capable component streams by default; 'all' streams every one", async () => {
  const build = () =>
    new Pipeline()
      .addComponent("first", new FakeLLM({ chunks: [{ content: "a" }] }))
      .addComponent("second", new FakeLLM({ chunks: [{ content: "b" }] }))
      .addComponent("double", new Double());
  const collect = async (o: Partial<Parameters<typeof streamingGenerator>[0]>) => {
    const out: string[] = [];
    for await (const item of streamingGenerator({ pipeline: build(), pipelineRunArgs: { double: { value: 1 } }, ...o })) if (item instanceof StreamingChunk) out.push(item.content);
    return out.sort();
  };
  assert.equal(await collect({}), ["b"]);
  assert.equal(await collect({ streamingComponents: "all" }), ["a", "b"]);
  assert.equal(await collect({ streamingComponents: ["first"] }), ["a"]);
  const none = new Pipeline().addComponent("double", new Double());
  try {
    for await (const _ of streamingGenerator({ pipeline: none, pipelineRunArgs: { double: { value: 1 } } })) void _;
    assert.unreachable();
  } catch (error) {
    assert.match((error as Error).message, /No streaming-capable components found in the pipeline/);
  }
});

test("a pipeline failure surfaces to the consumer; stopping early aborts the run", async () => {
  const failing = new Pipeline().addComponent("llm", new FakeLLM({ chunks: [{ content: "x" }], fail: true }));
  const got: string[] = [];
  try {
    for await (const item of streamingGenerator({ pipeline: failing })) if (item instanceof StreamingChunk) got.push(item.content);
    assert.unreachable();
  } catch (error) {
    assert.match((error as Error).message, /model exploded/);
  }
  assert.equal(got, ["x"]);

  const llm = new FakeLLM({ chunks: Array.from({ length: 50 }, (_, i) => ({ content: String(i) })), delayMs: 5 });
  const slow = new Pipeline().addComponent("llm", llm);
  for await (const item of streamingGenerator({ pipeline: slow })) if (item instanceof StreamingChunk && item.content === "2") break;
  assert.ok(llm.aborted, "the component saw the abort");
});

test("a component (an Agent) can be streamed directly", async () => {
  const out: string[] = [];
  for await (const item of streamingGenerator({ pipeline: new FakeLLM({ chunks: [{ content: "x" }, { content: "y" }] }), pipelineRunArgs: { prompt: "p" } })) {
    if (item instanceof StreamingChunk) out.push(item.content);
  }
  assert.equal(out, ["x", "y"]);
});

test.run();
