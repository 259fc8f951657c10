/**
 * @module Agent, ToolInvoker and Tool: the agent loop against a scripted chat generator (tool
 * call, then text), exit conditions, max steps, tool failures, validation, streaming through
 * streamingGenerator, state, tracing and errors; the ToolInvoker alone; Tool serialization; and
 * one end-to-end run with the OpenAIChatGenerator against the loopback OpenAI fixture.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import * as v from "valibot";
import { Logger, NOOP_TRACER, type Span, type Tags, type TagValue, type Tracer } from "svc/plugin";
import { ChatMessage, Component, Double, EngineRegistry, Pipeline, PipelineRuntimeError, Secret, StreamingChunk, output, selectStreamingCallback, socket, streamingGenerator, type ComponentContext } from "svc/engine";
import { Tool, ToolInvocationError, tool } from "../../../plugins/engine/tool.js";
import { ToolInvoker, ToolNotFoundError } from "../../../plugins/engine/components/tool-invoker.js";
import { Agent } from "../../../plugins/engine/components/agent.js";
import { State } from "../../../plugins/engine/components/agent-state.js";
import { OpenAIChatGenerator } from "../../../plugins/engine/components/openai-chat-generator.js";
import { startOpenAIFixture } from "../../fixtures/openai-server.js";

interface Reply {
  text?: string;
  calls?: { name: string; args: Record<string, unknown>; id?: string }[];
}

/** A chat generator that answers from a script, streaming like OpenAI: tool-call deltas or text. */
class ScriptedChat extends Component {
  static override readonly type = "test.ScriptedChat";
  readonly seen: { messages: ChatMessage[]; tools: unknown; generation_kwargs: unknown; name: string; span?: Span }[] = [];
  warmUps = 0;
  constructor(private readonly script: Reply[] | ((turn: number) => Reply)) {
    super({});
  }
  protected inputSpecs() {
    return {
      messages: socket(v.array(v.instance(ChatMessage))),
      tools: socket(v.any(), { default: null }),
      streaming_callback: socket(v.any(), { default: null }),
      generation_kwargs: socket(v.any(), { default: null }),
    };
  }
  protected outputSpecs() {
    return { replies: output(v.array(v.instance(ChatMessage))) };
  }
  warmUp() {
    this.warmUps++;
  }
  async run(inputs: { messages: ChatMessage[]; tools: unknown; streaming_callback: unknown; generation_kwargs: unknown }, ctx: ComponentContext) {
    const turn = this.seen.length;
    this.seen.push({ messages: [...inputs.messages], tools: inputs.tools, generation_kwargs: inputs.generation_kwargs, name: ctx.name, span: ctx.span });
    const reply = typeof this.script === "function" ? this.script(turn) : this.script[turn];
    if (!reply) throw new Error(`script exhausted at turn ${turn}`);
    const calls = (reply.calls ?? []).map((c, i) => ({ tool_name: c.name, arguments: c.args, id: c.id ?? `call_${turn}_${i}` }));
    const cb = selectStreamingCallback(undefined, inputs.streaming_callback);
    const info = { type: this.type, name: ctx.name };
    if (reply.text) await cb?.(new StreamingChunk({ content: reply.text, index: 0, start: true, component_info: info }));
    for (const [index, c] of calls.entries()) {
      await cb?.(new StreamingChunk({ index, start: true, tool_calls: [{ index, tool_name: c.tool_name, id: c.id, arguments: "" }], component_info: info }));
      await cb?.(new StreamingChunk({ index, tool_calls: [{ index, arguments: JSON.stringify(c.arguments) }], component_info: info }));
    }
    await cb?.(new StreamingChunk({ finish_reason: calls.length ? "tool_calls" : "stop", component_info: info }));
    return { replies: [ChatMessage.fromAssistant(reply.text ?? null, { toolCalls: calls })] };
  }
}

/** Records every span with its tags, parent and outcome. */
class MemoryTracer implements Tracer {
  readonly spans: { name: string; tags: Tags; parent?: string; ended: boolean; error?: unknown }[] = [];
  startSpan(name: string, tags: Tags = {}, parent?: Span): Span {
    const record: (typeof this.spans)[number] = { name, tags: { ...tags }, parent: parent?.name, ended: false };
    this.spans.push(record);
    const span: Span = {
      name,
      setTag: (k: string, val: TagValue) => ((record.tags[k] = val), span),
      setTags: (t: Tags) => (Object.assign(record.tags, t), span),
      end: (error?: unknown) => void ((record.ended = true), (record.error = error)),
    };
    return span;
  }
}

const logLines: string[] = [];
const ctx = (extra: Partial<ComponentContext> = {}): ComponentContext => ({
  name: "agent",
  signal: new AbortController().signal,
  tracer: NOOP_TRACER,
  log: new Logger("INFO", (line) => logLines.push(line)),
  ...extra,
});

const weatherCalls: Record<string, unknown>[] = [];
const getWeather = tool(
  { name: "get_weather", description: "Weather for a city", parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } },
  async (args) => (weatherCalls.push(args), args.city === "Berlin" ? "sunny" : "rainy"),
);
const finalAnswer = tool({ name: "final_answer", description: "Give the answer", parameters: { type: "object", properties: { answer: { type: "string" } }, required: ["answer"] } }, (args) => `ANSWER: ${args.answer}`);
const broken = tool({ name: "broken", description: "Always fails" }, () => {
  throw new Error("the weather service is down");
});

const berlin = [ChatMessage.fromUser("Weather in Berlin?")];
const toolThenText = (): Reply[] => [{ calls: [{ name: "get_weather", args: { city: "Berlin" }, id: "c1" }] }, { text: "It is sunny in Berlin." }];
const roles = (messages: ChatMessage[]) => messages.map((m) => m.role);

test("the loop: a tool call with parsed args, the tool message appended, exit on text", async () => {
  weatherCalls.length = 0;
  const llm = new ScriptedChat(toolThenText());
  const agent = new Agent({ chat_generator: llm, tools: [getWeather], system_prompt: "Be brief." });
  const out = (await agent.run({ messages: berlin, generation_kwargs: { temperature: 0 } }, ctx())) as { messages: ChatMessage[]; last_message: ChatMessage };
  assert.equal(weatherCalls, [{ city: "Berlin" }]);
  assert.equal(roles(out.messages), ["system", "user", "assistant", "tool", "assistant"]);
  assert.equal(out.messages[3]!.toolCallResult, { result: "sunny", origin: { tool_name: "get_weather", arguments: { city: "Berlin" }, id: "c1" }, error: false });
  assert.is(out.last_message.text, "It is sunny in Berlin.");
  assert.is(llm.seen.length, 2);
  assert.equal(llm.seen[0]!.tools, [getWeather.toolSpec], "the generator gets the tools' specs");
  assert.equal(llm.seen[0]!.generation_kwargs, { temperature: 0 });
  assert.is(llm.seen[0]!.name, "agent.chat_generator");
  assert.equal(roles(llm.seen[1]!.messages), ["system", "user", "assistant", "tool"], "the second turn sees the tool result");
  assert.equal(berlin.length, 1, "the caller's messages are not mutated");
});

test("exit on a tool name: stops after that tool ran cleanly, but not when it failed", async () => {
  const llm = new ScriptedChat([{ calls: [{ name: "final_answer", args: { answer: "42" } }] }]);
  const agent = new Agent({ chat_generator: llm, tools: [getWeather, finalAnswer], exit_conditions: ["final_answer"] });
  const out = (await agent.run({ messages: berlin }, ctx())) as { messages: ChatMessage[]; last_message: ChatMessage };
  assert.is(llm.seen.length, 1);
  assert.is(out.last_message.toolCallResult!.result, "ANSWER: 42");

  // A failed exit tool (bad arguments here) goes back to the LLM, which tries again.
  const retry = new ScriptedChat([{ calls: [{ name: "final_answer", args: {} }] }, { calls: [{ name: "final_answer", args: { answer: "7" } }] }]);
  const again = new Agent({ chat_generator: retry, tools: [finalAnswer], exit_conditions: ["final_answer", "text"] });
  const result = (await again.run({ messages: berlin }, ctx())) as { messages: ChatMessage[] };
  assert.is(retry.seen.length, 2);
  assert.equal(roles(result.messages), ["user", "assistant", "tool", "assistant", "tool"]);
  assert.ok(result.messages[2]!.toolCallResult!.error);
});

test("max_agent_steps stops the loop with a warning and returns what it has", async () => {
  const llm = new ScriptedChat(() => ({ calls: [{ name: "get_weather", args: { city: "Paris" } }] }));
  const agent = new Agent({ chat_generator: llm, tools: [getWeather], max_agent_steps: 3 });
  logLines.length = 0;
  const out = (await agent.run({ messages: berlin }, ctx())) as { messages: ChatMessage[] };
  assert.is(llm.seen.length, 3);
  assert.equal(roles(out.messages), ["user", "assistant", "tool", "assistant", "tool", "assistant", "tool"]);
  assert.ok(logLines.some((l) => l.includes("Agent reached maximum agent steps of 3, stopping.")));
});

test("a failing tool goes back to the LLM as an error message, or raises when asked to", async () => {
  const llm = new ScriptedChat([{ calls: [{ name: "broken", args: {} }] }, { text: "Sorry, no weather today." }]);
  const agent = new Agent({ chat_generator: llm, tools: [broken] });
  const out = (await agent.run({ messages: berlin }, ctx())) as { messages: ChatMessage[]; last_message: ChatMessage };
  const result = out.messages[2]!.toolCallResult!;
  assert.ok(result.error);
  assert.match(result.result, /Failed to invoke Tool `broken`.*the weather service is down/);
  assert.equal(roles(llm.seen[1]!.messages), ["user", "assistant", "tool"]);
  assert.is(out.last_message.text, "Sorry, no weather today.");

  const strict = new Agent({ chat_generator: new ScriptedChat([{ calls: [{ name: "broken", args: {} }] }]), tools: [broken], raise_on_tool_invocation_failure: true });
  try {
    await strict.run({ messages: berlin }, ctx({ name: "helper" }));
    assert.unreachable();
  } catch (error) {
    assert.instance(error, PipelineRuntimeError);
    assert.is((error as PipelineRuntimeError).componentName, "helper");
    assert.match((error as Error).message, /Component name: 'helper'[^]*tool_invoker \(step 1\): Failed to invoke Tool `broken`/);
    assert.instance((error as Error).cause, ToolInvocationError);
    assert.is(((error as Error).cause as ToolInvocationError).toolName, "broken");
  }
});

test("an unknown tool and invalid arguments become error tool messages; the function is not called", async () => {
  weatherCalls.length = 0;
  const llm = new ScriptedChat([{ calls: [{ name: "nope", args: {} }, { name: "get_weather", args: { city: 3 } }] }, { text: "done" }]);
  const out = (await new Agent({ chat_generator: llm, tools: [getWeather] }).run({ messages: berlin }, ctx())) as { messages: ChatMessage[] };
  const [unknown, invalid] = out.messages.slice(2, 4).map((m) => m.toolCallResult!);
  assert.equal([unknown!.error, unknown!.result], [true, "Tool nope not found in the list of tools. Available tools are: get_weather."]);
  assert.ok(invalid!.error);
  assert.match(invalid!.result, /Tool `get_weather`.*invalid arguments: arguments\/city must be string/);
  assert.equal(weatherCalls, []);

  const strict = new Agent({ chat_generator: new ScriptedChat([{ calls: [{ name: "nope", args: {} }] }]), tools: [getWeather], raise_on_tool_invocation_failure: true });
  const error = await strict.run({ messages: berlin }, ctx()).then(() => null, (e: Error) => e);
  assert.instance(error?.cause, ToolNotFoundError);
});

test("streaming through streamingGenerator: tool-call start, then end with the result, then text", async () => {
  const agent = new Agent({ chat_generator: new ScriptedChat(toolThenText()), tools: [getWeather] });
  const events: unknown[] = [];
  const chunks: StreamingChunk[] = [];
  for await (const item of streamingGenerator({
    pipeline: agent,
    pipelineRunArgs: { messages: berlin },
    onToolCallStart: (name, args, id) => void events.push(["start", name, args, id]),
    onToolCallEnd: (name, args, result, error) => void events.push(["end", name, args, result, error]),
  })) {
    if (item instanceof StreamingChunk) {
      chunks.push(item);
      if (item.content) events.push(["text", item.content]);
    }
  }
  assert.equal(events, [["start", "get_weather", {}, "c1"], ["end", "get_weather", { city: "Berlin" }, "sunny", false], ["text", "It is sunny in Berlin."]]);
  const resultChunk = chunks.find((c) => c.tool_call_result)!;
  assert.equal([resultChunk.index, resultChunk.start, resultChunk.meta.tool_result], [0, true, "sunny"]);
  assert.equal(resultChunk.component_info, { type: ToolInvoker.type, name: `${Agent.type}.tool_invoker` });
  const marker = chunks.findIndex((c) => c.finish_reason === "tool_call_results");
  assert.ok(marker > chunks.indexOf(resultChunk) && marker < chunks.findIndex((c) => c.content !== ""), "the marker sits between the results and the next turn");
});

test("state: inputs_from_state fills arguments, outputs_to_state collects results, state keys are outputs", async () => {
  const lookup = tool(
    { name: "lookup", description: "Looks up a topic", parameters: { type: "object", properties: { topic: { type: "string" }, user: { type: "string" } }, required: ["topic", "user"] } },
    (args) => ({ doc: `${args.topic} for ${args.user}`, score: 1 }),
    { inputs_from_state: { user_name: "user" }, outputs_to_state: { documents: { source: "doc" } }, outputs_to_string: { source: "doc" } },
  );
  const llm = new ScriptedChat([{ calls: [{ name: "lookup", args: { topic: "a" } }, { name: "lookup", args: { topic: "b" } }] }, { text: "ok" }]);
  const agent = new Agent({ chat_generator: llm, tools: [lookup], state_schema: { documents: { type: "list[str]" }, user_name: { type: "str" } } });
  assert.ok("user_name" in agent.inputSockets && !agent.inputSockets.user_name!.mandatory);
  assert.ok("documents" in agent.outputSockets);
  const out = await agent.run({ messages: berlin, user_name: "ada" }, ctx());
  assert.equal(out.documents, ["a for ada", "b for ada"], "list keys append, in call order");
  assert.is(out.user_name, "ada");
  assert.is((out.messages as ChatMessage[])[2]!.toolCallResult!.result, "a for ada");
  assert.throws(() => new Agent({ chat_generator: llm, tools: [lookup] }), /tool 'lookup' uses state key 'user_name', which is not in state_schema/);
});

test("init checks: exit conditions, duplicate tools, a generator without tools, unsupported parameters", () => {
  const llm = new ScriptedChat([]);
  // Haystack 3 no longer checks exit conditions against tool names (tools may come at run time).
  assert.equal(new Agent({ chat_generator: llm, tools: [getWeather], exit_conditions: ["text", "nope"] }).initParameters.exit_conditions, ["text", "nope"]);
  assert.throws(() => new Agent({ chat_generator: llm, tools: [getWeather, getWeather] }), /Duplicate tool names found: get_weather/);
  assert.throws(() => new Agent({ chat_generator: new Double(), tools: [getWeather] }), /double\.Double does not accept tools parameter in its run method/);
  assert.throws(() => new Agent({ chat_generator: llm, hooks: { before_llm: ["x"] } }), /hooks is not supported yet/);
  assert.throws(() => new Agent({ chat_generator: "gpt" }), /chat_generator must be a component instance/);
  const agent = new Agent({ chat_generator: llm, tools: [getWeather], max_agent_steps: 5 });
  assert.equal(agent.initParameters.exit_conditions, ["text"]);
});

test("run-time tools select by name; warmUp is idempotent; a generator failure names the agent", async () => {
  const llm = new ScriptedChat([{ text: "hi" }]);
  const agent = new Agent({ chat_generator: llm, tools: [getWeather, finalAnswer] });
  await Promise.all([agent.warmUp(), agent.warmUp()]);
  await agent.run({ messages: berlin, tools: ["final_answer"] }, ctx());
  assert.is(llm.warmUps, 1);
  assert.equal(llm.seen[0]!.tools, [finalAnswer.toolSpec]);
  const missing = await agent.run({ messages: berlin, tools: ["nope"] }, ctx()).then(() => null, (e: Error) => e);
  assert.match(missing!.message, /The following tool names are not valid: \{'nope'\}/);

  const pipeline = new Pipeline().addComponent("assistant", new Agent({ chat_generator: new ScriptedChat([]), tools: [getWeather] }));
  const error = await pipeline.run({ assistant: { messages: berlin } }).then(() => null, (e: Error) => e);
  assert.instance(error, PipelineRuntimeError);
  assert.is((error as PipelineRuntimeError).componentName, "assistant");
  assert.match(error!.message, /chat_generator \(step 1\): script exhausted at turn 0/);
});

test("in a pipeline, with tracing: agent.run and step spans with Haystack's tags", async () => {
  const tracer = new MemoryTracer();
  const llm = new ScriptedChat(toolThenText());
  const pipeline = new Pipeline().addComponent("agent", new Agent({ chat_generator: llm, tools: [getWeather] }));
  const result = await pipeline.run({ agent: { messages: berlin } }, { tracer });
  assert.is((result.agent!.last_message as ChatMessage).text, "It is sunny in Berlin.");
  const run = tracer.spans.find((s) => s.name === "haystack.agent.run")!;
  assert.is(run.parent, "haystack.component.run");
  assert.equal([run.tags["haystack.agent.max_steps"], run.tags["haystack.agent.tools"], run.tags["haystack.agent.exit_conditions"], run.tags["haystack.agent.steps_taken"]], [100, ["get_weather"], ["text"], 2]);
  const steps = tracer.spans.filter((s) => s.name === "haystack.agent.step");
  assert.equal(steps.map((s) => [s.parent, s.tags["haystack.agent.step"], s.ended]), [["haystack.agent.run", 0, true], ["haystack.agent.run", 1, true]]);
  assert.is(llm.seen[0]!.span?.name, "haystack.agent.step.llm", "the generator runs under the step's llm span");
  const toolSpan = tracer.spans.find((s) => s.name === "haystack.agent.step.tool")!;
  assert.equal([toolSpan.parent, toolSpan.tags["haystack.tool.name"]], ["haystack.agent.step", "get_weather"]);
  assert.ok(tracer.spans.every((s) => s.ended));
});

test("ToolInvoker: concurrent (max_workers), results and chunks in call order, marker last, raise_on_failure", async () => {
  let active = 0;
  let peak = 0;
  const slow = tool({ name: "slow", description: "", parameters: { type: "object", properties: { ms: { type: "number" } } } }, async (args) => {
    peak = Math.max(peak, ++active);
    await new Promise((r) => setTimeout(r, args.ms as number));
    active--;
    return { waited: args.ms };
  });
  const calls = [30, 5, 20, 1].map((ms, i) => ({ tool_name: "slow", arguments: { ms }, id: `t${i}` }));
  const chunks: StreamingChunk[] = [];
  const invoker = new ToolInvoker({ tools: [slow], max_workers: 2 });
  assert.equal([ToolInvoker.type, ToolInvoker.aliases], ["haystack.components.tools.tool_invoker.ToolInvoker", ["ToolInvoker"]]);
  const { tool_messages, state } = await invoker.run({ messages: [ChatMessage.fromUser("x"), ChatMessage.fromAssistant(null, { toolCalls: calls })], streaming_callback: (c: StreamingChunk) => void chunks.push(c) }, ctx({ name: "tools" }));
  assert.is(peak, 2);
  assert.instance(state, State);
  assert.equal(tool_messages.map((m) => m.toolCallResult!.result), ['{"waited": 30}', '{"waited": 5}', '{"waited": 20}', '{"waited": 1}']);
  assert.equal(chunks.slice(0, 4).map((c) => [c.index, c.start, (c.meta.tool_call as { id: string }).id, c.component_info?.name]), [[0, true, "t0", "tools"], [1, true, "t1", "tools"], [2, true, "t2", "tools"], [3, true, "t3", "tools"]]);
  assert.equal([chunks.length, chunks[4]!.finish_reason], [5, "tool_call_results"]);
  assert.equal(await invoker.run({ messages: [ChatMessage.fromUser("no calls")] }, ctx()).then((r) => r.tool_messages), []);

  const failing = new ToolInvoker({ tools: [broken] }); // raise_on_failure defaults to true
  const error = await failing.run({ messages: [ChatMessage.fromAssistant(null, { toolCalls: [{ tool_name: "broken", arguments: {} }] })] }, ctx()).then(() => null, (e: Error) => e);
  assert.instance(error, ToolInvocationError);
  assert.throws(() => new ToolInvoker({ tools: [] }), /ToolInvoker requires at least one tool/);
});

test("ToolInvoker honours the abort signal", async () => {
  const hang = tool({ name: "hang", description: "" }, (_args, { signal }) => new Promise((_, reject) => signal.addEventListener("abort", () => reject(new Error("stopped")))));
  const controller = new AbortController();
  const pending = new ToolInvoker({ tools: [hang] }).run({ messages: [ChatMessage.fromAssistant(null, { toolCalls: [{ tool_name: "hang", arguments: {} }] })] }, ctx({ signal: controller.signal }));
  setTimeout(() => controller.abort(new Error("client went away")), 5);
  const error = await pending.then(() => null, (e: Error) => e);
  assert.match(error!.message, /client went away/);
});

test("Tool: spec, toDict/fromDict through the registry, unknown functions, bad schemas", async () => {
  const registry = new EngineRegistry();
  function weather_function(args: Record<string, unknown>) {
    return `weather in ${String(args.city)}`;
  }
  registry.registerFunction("weather_function", weather_function);
  const dict = {
    type: "haystack.tools.tool.Tool",
    data: { name: "weather", description: "Weather", parameters: { type: "object", properties: { city: { type: "string" } } }, function: "weather_function", outputs_to_string: null, inputs_from_state: null, outputs_to_state: null, async_function: null },
  };
  const loaded = Tool.fromDict(dict, registry);
  assert.equal(loaded.toolSpec, { name: "weather", description: "Weather", parameters: dict.data.parameters });
  assert.equal(loaded.toDict(), dict);
  assert.is(await loaded.invoke({ city: "Rome" }), "weather in Rome");
  assert.equal(Tool.fromDict(dict.data, registry).toDict(), dict, "just the data works too");
  const made = tool({ name: "w", description: "", parameters: { type: "object" } }, weather_function);
  assert.is(made.toDict().data.function, "weather_function");
  assert.throws(() => tool({ name: "anon" }, () => 1).toDict(), /has no name to serialize/);
  assert.throws(() => Tool.fromDict({ ...dict.data, function: "os.system" }, registry), /Unknown function 'os\.system'\. Registered functions: weather_function/);
  assert.throws(() => tool({ name: "bad", parameters: { type: "object", properties: { x: { type: "strin" } } } }, () => 1), /Tool 'bad': invalid parameters JSON Schema/);
  const withId = { $id: "args", type: "object", properties: { q: { type: "string" } } };
  for (let i = 0; i < 2; i++) assert.ok(tool({ name: "reloaded", parameters: structuredClone(withId) }, () => 1).validate({ q: 1 }), "a reload with the same $id compiles");
  const err = await loaded.invoke({ city: 1 }).then(() => null, (e: Error) => e);
  assert.instance(err, ToolInvocationError);
  assert.is((err as ToolInvocationError).toolName, "weather");
  // An Agent dumps its tools and generator in Haystack's shape.
  const agentDict = new Agent({ chat_generator: new ScriptedChat([]), tools: [loaded] }).toDict();
  assert.equal((agentDict.init_parameters.tools as unknown[])[0], dict);
});

test("end to end: Agent + OpenAIChatGenerator against the fixture, a tool call then text, streamed", async () => {
  const fixture = await startOpenAIFixture({ apiKey: "k" });
  try {
    fixture.script([{ toolCalls: [{ id: "call_w", name: "get_weather", arguments: { city: "Berlin" } }] }, { content: "It is sunny in Berlin." }]);
    const llm = new OpenAIChatGenerator({ api_base_url: fixture.url, api_key: Secret.fromToken("k") });
    const agent = new Agent({ chat_generator: llm, tools: [getWeather], system_prompt: "Be brief." });
    const events: unknown[] = [];
    let text = "";
    let result: Record<string, unknown> | undefined;
    for await (const item of streamingGenerator({
      pipeline: agent,
      pipelineRunArgs: { messages: berlin },
      onToolCallStart: (name, args, id) => void events.push(["start", name, args, id]),
      onToolCallEnd: (name, args, res, error) => void events.push(["end", name, args, res, error]),
      onPipelineEnd: (r) => void (result = r),
    })) {
      if (item instanceof StreamingChunk) text += item.content;
    }
    assert.equal(events, [["start", "get_weather", {}, "call_w"], ["end", "get_weather", { city: "Berlin" }, "sunny", false]]);
    assert.is(text, "It is sunny in Berlin.");
    const [first, second] = fixture.requests.map((r) => r.body);
    assert.equal([first.stream, first.tools.map((t: any) => t.function.name)], [true, ["get_weather"]]);
    assert.equal(second.messages.map((m: any) => m.role), ["system", "user", "assistant", "tool"]);
    assert.equal([second.messages[3].tool_call_id, second.messages[3].content], ["call_w", "sunny"]);
    assert.is((result!.last_message as ChatMessage).text, "It is sunny in Berlin.");
  } finally {
    await fixture.close();
  }
});

test.run();
