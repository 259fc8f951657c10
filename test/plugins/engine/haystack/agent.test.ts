/**
 * @module Port of Haystack's test/components/agents/test_agent.py, part 1 (values, not Python):
 * init, serialization (through the registry and YAML), clone, run, run metadata and exit
 * conditions. Haystack's `run` and `run_async` twins both run svc's one (async) run. Part 2 is
 * agent-more.test.ts.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { Agent, ChatMessage, ComponentTool, createRegistry, dumpPipelineYaml, loadPipelineYaml, OpenAIChatGenerator, Pipeline, PromptBuilder, Secret, Toolset, type Tool, type ToolCall } from "svc/engine";
import { checkExitConditions } from "../../../../plugins/engine/components/agent-run.js";
import { rememberCallableName } from "../../../../plugins/engine/callable-names.js";
import { componentTool, ctx, logged, MockChat, rejection, weatherFunction, weatherTool } from "./agent-fixtures.js";

type Out = { messages: ChatMessage[]; last_message?: ChatMessage; step_count: number; token_usage: Record<string, unknown>; tool_call_counts: Record<string, number>; exit_reason: string };
const run = async (agent: Agent, inputs: Record<string, unknown>) => (await agent.run(inputs as never, ctx())) as unknown as Out;
const user = (text: string) => [ChatMessage.fromUser(text)];
const call = (tool_name: string, args: Record<string, unknown>): ToolCall => ({ tool_name, arguments: args });
const toolCallMessage = (...calls: ToolCall[]) => ChatMessage.fromAssistant(null, { toolCalls: calls });
const withUsage = (text: string | null, usage: Record<string, unknown>, calls: ToolCall[] = []) => ChatMessage.fromAssistant(text, { toolCalls: calls, meta: { usage } });
const BERLIN = '{"weather": "mostly sunny", "temperature": 7, "unit": "celsius"}';

// ---- TestAgentInit ----
test("TestAgentInit.test_state_schema_resolution", () => {
  const agent = new Agent({ chat_generator: new MockChat(), tools: [weatherTool()], state_schema: { foo: { type: "str" } } });
  assert.equal(agent.initParameters.state_schema, { foo: { type: "str" } });
  // Haystack also lists the keys its hooks use (continue_run, stop_run, tools, hook_context, context_tokens): svc has no hooks.
  assert.equal(
    Object.fromEntries(Object.entries(agent.stateSchema).map(([k, f]) => [k, f.type])),
    { foo: "str", messages: "list[ChatMessage]", step_count: "int", token_usage: "dict[str, Any]", tool_call_counts: "dict[str, int]", exit_reason: "str" },
  );
});
test("TestAgentInit.test_output_types", () => {
  const agent = new Agent({ chat_generator: new OpenAIChatGenerator({ api_key: Secret.fromToken("fake-key") }), tools: [weatherTool(), componentTool()] });
  assert.equal(Object.keys(agent.outputSockets).sort(), ["exit_reason", "last_message", "messages", "step_count", "token_usage", "tool_call_counts"]);
  for (const key of ["step_count", "token_usage", "tool_call_counts", "exit_reason", "continue_run", "context_tokens"]) assert.not.ok(key in agent.inputSockets, key);
});
test("TestAgentInit.test_reserved_state_schema_keys_raise", () => {
  for (const reserved of ["step_count", "token_usage", "context_tokens", "tool_call_counts", "exit_reason", "stop_run"]) {
    assert.throws(() => new Agent({ chat_generator: new MockChat(), tools: [weatherTool()], state_schema: { [reserved]: { type: "int" } } }), /reserved for Agent internal state/);
  }
});
test("TestAgentInit.test_exit_conditions", () => {
  assert.equal(new Agent({ chat_generator: new MockChat(), tools: [weatherTool(), componentTool()] }).exitConditions, ["text"]);
  assert.equal(new Agent({ chat_generator: new MockChat(), tools: [weatherTool(), componentTool()], exit_conditions: ["text", "weather_tool"] }).exitConditions, ["text", "weather_tool"]);
  // Not checked against tool names: tools may come at run time or from a lazy toolset.
  assert.equal(new Agent({ chat_generator: new MockChat(), tools: [weatherTool()], exit_conditions: ["not_loaded_yet"] }).exitConditions, ["not_loaded_yet"]);
});
test("TestAgentInit.test_tool_concurrency_limit_validation", () => {
  assert.throws(() => new Agent({ chat_generator: new MockChat(), tools: [weatherTool()], tool_concurrency_limit: 0 }), /tool_concurrency_limit must be greater than or equal to 1/);
});
test("TestAgentInit.test_chat_generator_must_support_tools", () => {
  assert.throws(() => new Agent({ chat_generator: new MockChat("Hello", { tools: false }), tools: [weatherTool()] }), /test\.MockChatGenerator does not accept tools/);
});

// ---- TestAgentSerialization (Haystack's to_dict/from_dict: svc's toDict and the YAML loader) ----
const registry = () => createRegistry().registerFunction("agents.test_agent.weather_function", weatherFunction);
const generator = () => new OpenAIChatGenerator({ api_key: Secret.fromEnvVar("OPENAI_API_KEY") });
/** Haystack's `Agent.from_dict`: the dict loaded as a one-component pipeline. */
const fromDict = (dict: unknown) => loadPipelineYaml(JSON.stringify({ components: { agent: dict }, connections: [] }), registry()).getComponent("agent") as Agent;

test("TestAgentSerialization.test_to_dict", () => {
  const agent = new Agent({ chat_generator: generator(), tools: [weatherTool(), componentTool()], exit_conditions: ["text", "weather_tool"], state_schema: { foo: { type: "str" } }, tool_concurrency_limit: 5, tool_streaming_callback_passthrough: true });
  const dict = agent.toDict() as { type: string; init_parameters: Record<string, any> };
  assert.is(dict.type, "haystack.components.agents.agent.Agent");
  assert.is(dict.init_parameters.chat_generator.type, "haystack.components.generators.chat.openai.OpenAIChatGenerator");
  const { chat_generator: _generator, tools, ...rest } = dict.init_parameters;
  assert.equal(rest, {
    system_prompt: null,
    user_prompt: null,
    required_variables: "*",
    exit_conditions: ["text", "weather_tool"],
    state_schema: { foo: { type: "str" } },
    max_agent_steps: 100,
    streaming_callback: null,
    raise_on_tool_invocation_failure: false,
    tool_concurrency_limit: 5,
    tool_streaming_callback_passthrough: true,
    hooks: null,
  });
  assert.equal(tools[0].data.function, "weatherFunction");
  assert.equal(tools[1], {
    type: "haystack.tools.component_tool.ComponentTool",
    data: {
      component: { type: "haystack.components.builders.prompt_builder.PromptBuilder", init_parameters: { template: "{{parrot}}", variables: null, required_variables: "*" } },
      name: "parrot",
      description: "This is a parrot.",
      parameters: null,
      outputs_to_string: null,
      inputs_from_state: null,
      outputs_to_state: null,
    },
  });
});
const serializedWeatherTool = {
  type: "haystack.tools.tool.Tool",
  data: { name: "weather_tool", description: "Provides weather information for a given location.", parameters: { type: "object", properties: { location: { type: "string" } }, required: ["location"] }, function: "agents.test_agent.weather_function", async_function: null, outputs_to_string: null, inputs_from_state: null, outputs_to_state: null },
};
test("TestAgentSerialization.test_from_dict", () => {
  process.env.OPENAI_API_KEY ??= "fake-key";
  const agent = fromDict({
    type: "haystack.components.agents.agent.Agent",
    init_parameters: {
      chat_generator: { type: "haystack.components.generators.chat.openai.OpenAIChatGenerator", init_parameters: { model: "gpt-5", api_key: { type: "env_var", env_vars: ["OPENAI_API_KEY"], strict: true } } },
      tools: [serializedWeatherTool, componentTool().toDict()],
      system_prompt: null,
      exit_conditions: ["text", "weather_tool"],
      state_schema: { foo: { type: "str" } },
      max_agent_steps: 100,
      raise_on_tool_invocation_failure: false,
      streaming_callback: null,
      tool_concurrency_limit: 5,
      tool_streaming_callback_passthrough: true,
    },
  });
  assert.instance(agent.initParameters.chat_generator, OpenAIChatGenerator);
  assert.is((agent.initParameters.chat_generator as OpenAIChatGenerator).initParameters.model, "gpt-5");
  const tools = agent.tools as Tool[];
  assert.is(tools[0]!.function, weatherFunction as never);
  assert.instance((tools[1] as ComponentTool).component, PromptBuilder);
  assert.equal(agent.exitConditions, ["text", "weather_tool"]);
  assert.equal(agent.initParameters.state_schema, { foo: { type: "str" } });
  assert.is(agent.initParameters.tool_concurrency_limit, 5);
  assert.is(agent.initParameters.tool_streaming_callback_passthrough, true);
});
test("TestAgentSerialization.test_from_dict_state_schema_none", () => {
  process.env.OPENAI_API_KEY ??= "fake-key";
  const agent = fromDict({ type: "haystack.components.agents.agent.Agent", init_parameters: { chat_generator: { type: "haystack.components.generators.chat.openai.OpenAIChatGenerator", init_parameters: { model: "gpt-4o-mini" } }, state_schema: null } });
  assert.equal(agent.initParameters.state_schema, {});
});
function syncStreamingCallback() {}
// Haystack serializes a callback by its import path; svc by the name it is registered (and was loaded) under.
rememberCallableName(syncStreamingCallback, "syncStreamingCallback");
test("TestAgentSerialization.test_serde", () => {
  process.env.FAKE_OPENAI_KEY = "fake-key";
  const agent = new Agent({ chat_generator: new OpenAIChatGenerator({ api_key: Secret.fromEnvVar("FAKE_OPENAI_KEY") }), tools: [weatherTool(), componentTool()], exit_conditions: ["text", "weather_tool"], state_schema: { foo: { type: "str" } }, streaming_callback: syncStreamingCallback });
  const reg = registry().registerFunction("weatherFunction", weatherFunction).registerFunction("syncStreamingCallback", syncStreamingCallback);
  const restored = loadPipelineYaml(dumpPipelineYaml(new Pipeline().addComponent("agent", agent)), reg).getComponent("agent") as Agent;
  assert.equal(restored.toDict(), agent.toDict());
  assert.instance(restored.initParameters.chat_generator, OpenAIChatGenerator);
  assert.is((restored.tools as Tool[])[0]!.function, weatherFunction as never);
  assert.instance(((restored.tools as Tool[])[1] as ComponentTool).component, PromptBuilder);
  assert.is(restored.initParameters.streaming_callback, syncStreamingCallback as never);
});
const roundTrip = (agent: Agent) => {
  const reg = registry().registerFunction("weatherFunction", weatherFunction);
  return loadPipelineYaml(dumpPipelineYaml(new Pipeline().addComponent("agent", agent)), reg).getComponent("agent") as Agent;
};
test("TestAgentSerialization.test_serde_with_toolset", () => {
  process.env.OPENAI_API_KEY ??= "fake-key";
  const restored = roundTrip(new Agent({ chat_generator: generator(), tools: new Toolset([weatherTool()]) }));
  assert.instance(restored.tools, Toolset);
  assert.is((restored.tools as Toolset).at(0)!.function, weatherFunction as never);
});
test("TestAgentSerialization.test_serde_with_list_of_toolsets", () => {
  process.env.OPENAI_API_KEY ??= "fake-key";
  const restored = roundTrip(new Agent({ chat_generator: generator(), tools: [new Toolset([weatherTool()]), new Toolset([componentTool()])] }));
  const tools = restored.tools as Toolset[];
  assert.ok(Array.isArray(tools));
  assert.is(tools.length, 2);
  assert.ok(tools.every((t) => t instanceof Toolset));
  assert.is(tools[0]!.at(0)!.function, weatherFunction as never);
});

// ---- TestAgentClone ----
test("TestAgentClone.test_clone", () => {
  const agent = new Agent({ chat_generator: new MockChat(), tools: [weatherTool()], system_prompt: "You are helpful", exit_conditions: ["text", "weather_tool"], state_schema: { foo: { type: "str" } }, max_agent_steps: 7 });
  const clone = agent.clone();
  assert.ok(clone !== agent);
  assert.equal(JSON.stringify(clone.toDict()), JSON.stringify(agent.toDict()));
});
for (const [name, value] of [
  ["system_prompt", "A nice system prompt"],
  ["max_agent_steps", 3],
  ["exit_conditions", ["weather_tool"]],
  ["state_schema", { bar: { type: "int" } }],
] as const) {
  test(`TestAgentClone.test_clone_with_overrides[${name}]`, () => {
    const agent = new Agent({ chat_generator: new MockChat(), tools: [weatherTool()], system_prompt: "You are helpful", state_schema: { foo: { type: "str" } } });
    const clone = agent.clone({ [name]: value });
    assert.equal(clone.initParameters[name], value);
    const original = agent.toDict().init_parameters;
    const cloned = clone.toDict().init_parameters;
    assert.equal(Object.keys(cloned), Object.keys(original));
    for (const key of Object.keys(original)) {
      if (key === name) assert.not.equal(JSON.stringify(cloned[key]), JSON.stringify(original[key]), key);
      else assert.is(JSON.stringify(cloned[key]), JSON.stringify(original[key]), key);
    }
  });
}
test("TestAgentClone.test_clone_with_additional_state_schema_and_tools", () => {
  const weather = weatherTool();
  const parrot = componentTool();
  const agent = new Agent({ chat_generator: new MockChat(), tools: [weather], state_schema: { foo: { type: "str" } } });
  const clone = agent.clone({ tools: [...(agent.tools as Tool[]), parrot], state_schema: { ...agent.initParameters.state_schema, notes: { type: "str" } } });
  assert.equal(clone.tools, [weather, parrot]);
  assert.equal(clone.initParameters.state_schema, { foo: { type: "str" }, notes: { type: "str" } });
});

// ---- TestAgentRun ----
test("TestAgentRun.test_agent_with_no_tools", async () => {
  const out = await run(new Agent({ chat_generator: new MockChat("Berlin"), tools: [], max_agent_steps: 3 }), { messages: user("What is the capital of Germany?") });
  assert.equal(out.messages.map((m) => m.text), ["What is the capital of Germany?", "Berlin"]);
  assert.instance(out.last_message, ChatMessage);
  assert.is(out.messages.at(-1), out.last_message);
  assert.is(out.exit_reason, "text");
});
test("TestAgentRun.test_no_tools_with_chat_generator_without_tools_support", async () => {
  const out = await run(new Agent({ chat_generator: new MockChat("Hello", { tools: false }), max_agent_steps: 1 }), { messages: user("Hello") });
  assert.equal(out.messages.map((m) => m.text), ["Hello", "Hello"]);
  assert.is(out.last_message, out.messages.at(-1));
});
test("TestAgentRun.test_run_with_system_prompt", async () => {
  const out = await run(new Agent({ chat_generator: new MockChat(), tools: [weatherTool()], system_prompt: "This is a system prompt." }), { messages: user("What is the weather in Berlin?") });
  assert.is(out.messages[0]!.text, "This is a system prompt.");
});
test("TestAgentRun.test_run_only_system_prompt", async () => {
  logged.length = 0;
  await run(new Agent({ chat_generator: new MockChat(), tools: [], system_prompt: "This is a system prompt." }), { messages: [] });
  assert.ok(logged.some((l) => l.includes("All messages provided to the Agent component are system messages.")));
});
test("TestAgentRun.test_run_no_messages", async () => {
  const out = await run(new Agent({ chat_generator: new MockChat("Hello", { emptyForNoMessages: true }), tools: [] }), { messages: [] });
  assert.equal(out.messages, []);
});
/** Haystack's ToolAssertingChatGenerator: checks the tools it gets, calls weather_tool once, then answers. */
const toolAsserting = () => new MockChat([toolCallMessage(call("weather_tool", { location: "Berlin" })), "Hello"]);
test("TestAgentRun.test_run_with_tools_run_param", async () => {
  const weather = weatherTool();
  const llm = toolAsserting();
  const agent = new Agent({ chat_generator: llm, tools: [componentTool()], system_prompt: "This is a system prompt.", tool_concurrency_limit: 3, tool_streaming_callback_passthrough: true });
  const out = await run(agent, { messages: user("What is the weather in Berlin?"), tools: [weather] });
  assert.equal(llm.calls.map((c) => c.tools), [[weather.toolSpec], [weather.toolSpec]]);
  assert.is(out.messages[3]!.toolCallResult!.result, BERLIN);
  assert.equal(out.tool_call_counts, { weather_tool: 1 });
});
test("TestAgentRun.test_run_with_tools_run_param_for_tool_selection", async () => {
  const weather = weatherTool();
  const llm = toolAsserting();
  const agent = new Agent({ chat_generator: llm, tools: [weather, componentTool()], system_prompt: "This is a system prompt." });
  const out = await run(agent, { messages: user("What is the weather in Berlin?"), tools: ["weather_tool"] });
  assert.equal(llm.calls[0]!.tools, [weather.toolSpec]);
  assert.equal(out.tool_call_counts, { weather_tool: 1 });
});
test("TestAgentRun.test_generation_kwargs", async () => {
  const llm = new MockChat();
  await run(new Agent({ chat_generator: llm }), { messages: user("Hello"), generation_kwargs: { temperature: 0.0 } });
  assert.equal(llm.calls[0]!.messages, user("Hello"));
  assert.equal(llm.calls[0]!.generation_kwargs, { temperature: 0.0 });
  assert.is(llm.calls[0]!.tools, null, "no tools configured: none passed");
});
for (const name of ["test_run_async_uses_chat_generator_run_async_when_available", "test_run_async_falls_back_to_sync_run_for_sync_only_chat_generator"]) {
  test(`TestAgentRun.${name}`, async () => {
    const weather = weatherTool();
    const llm = new MockChat("Hello from run_async");
    const out = await run(new Agent({ chat_generator: llm, tools: [weather] }), { messages: user("Hello") });
    assert.is(llm.calls.length, 1);
    assert.equal(llm.calls[0]!.tools, [weather.toolSpec]);
    assert.ok(out.messages[1]!.text!.includes("Hello from run_async"));
    assert.is(out.last_message, out.messages.at(-1));
  });
}
for (const [name, first, second, total] of [
  ["test_run_populates_token_usage_and_tool_call_counts", { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 }, { prompt_tokens: 6, completion_tokens: 3, total_tokens: 9 }, { prompt_tokens: 16, completion_tokens: 8, total_tokens: 24 }],
  ["test_run_async_populates_token_usage_and_tool_call_counts", { prompt_tokens: 4, completion_tokens: 2, total_tokens: 6 }, { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 }, { prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 }],
] as const) {
  test(`TestAgentRun.${name}`, async () => {
    const llm = new MockChat([withUsage(null, first, [call("weather_tool", { location: "Berlin" })]), withUsage("Done.", second)]);
    const out = await run(new Agent({ chat_generator: llm, tools: [weatherTool()] }), { messages: user("Hi") });
    assert.is(out.step_count, 2);
    assert.equal(out.tool_call_counts, { weather_tool: 1 });
    assert.equal(out.token_usage, total);
  });
}
test("TestAgentRun.test_metadata_outputs_show_defaults_when_no_data", async () => {
  const out = await run(new Agent({ chat_generator: new MockChat(withUsage("Hello", {})), tools: [weatherTool()] }), { messages: user("Hi") });
  assert.is(out.step_count, 1);
  assert.equal(out.token_usage, {});
  assert.equal(out.tool_call_counts, { weather_tool: 0 });
});
test("accumulated usage: nested details are summed, other values replaced (Haystack's _accumulate_usage)", async () => {
  const llm = new MockChat([withUsage(null, { prompt_tokens: 1, completion_tokens_details: { reasoning_tokens: 2 }, model: "a" }, [call("weather_tool", { location: "Rome" })]), withUsage("ok", { prompt_tokens: 2, completion_tokens_details: { reasoning_tokens: 3 }, model: "b" })]);
  const out = await run(new Agent({ chat_generator: llm, tools: [weatherTool()] }), { messages: user("Hi") });
  assert.equal(out.token_usage, { prompt_tokens: 3, completion_tokens_details: { reasoning_tokens: 5 }, model: "b" });
});

// ---- TestAgentStreaming (the OpenAI-mock cases are in agent-more.test.ts) ----
test("TestAgentStreaming.test_run_async_with_async_streaming_callback", async () => {
  let chunks = 0;
  const out = await run(new Agent({ chat_generator: new MockChat(), tools: [weatherTool()], streaming_callback: async () => void chunks++ }), { messages: user("Hello") });
  assert.is(out.messages.length, 2);
  assert.is(out.messages[1]!.text, "Hello");
  assert.is(chunks, 1);
});

// ---- TestAgentExitConditions ----
const finishCall = call("weather_tool", { location: "Berlin" });
const searchCall = call("search", { q: "weather Berlin" });
test("TestAgentExitConditions.test_check_exit_conditions_parallel_tool_calls", () => {
  const ok = [ChatMessage.fromTool("ok", finishCall, false)];
  assert.is(checkExitConditions(["weather_tool"], [toolCallMessage(finishCall, searchCall)], ok), "weather_tool");
  assert.is(checkExitConditions(["weather_tool"], [toolCallMessage(searchCall, finishCall)], ok), "weather_tool");
});
test("TestAgentExitConditions.test_check_exit_conditions_parallel_calls_with_errored_exit_tool", () => {
  assert.is(checkExitConditions(["weather_tool"], [toolCallMessage(searchCall, finishCall)], [ChatMessage.fromTool("boom", finishCall, true)]), null);
});
test("TestAgentExitConditions.test_check_exit_conditions_parallel_calls_error_only_on_non_exit_tool", () => {
  const parrotCall = call("parrot", { parrot: "hi" });
  const toolMessages = [ChatMessage.fromTool("boom", parrotCall, true), ChatMessage.fromTool("ok", finishCall, false)];
  assert.is(checkExitConditions(["weather_tool"], [toolCallMessage(parrotCall, finishCall)], toolMessages), "weather_tool");
});
test("TestAgentExitConditions.test_check_exit_conditions_errored_exit_tool_cancels_a_succeeding_one", () => {
  const toolMessages = [ChatMessage.fromTool("ok", finishCall, false), ChatMessage.fromTool("boom", searchCall, true)];
  assert.is(checkExitConditions(["weather_tool", "search"], [toolCallMessage(finishCall, searchCall)], toolMessages), null);
});
test("TestAgentExitConditions.test_exit_condition_exits", async () => {
  const out = await run(new Agent({ chat_generator: new MockChat(toolCallMessage(finishCall)), tools: [weatherTool()], exit_conditions: ["weather_tool"] }), { messages: user("Hello") });
  assert.is(out.messages.length, 3);
  assert.is(out.messages.at(-2)!.toolCall!.tool_name, "weather_tool");
  assert.is(out.messages.at(-1)!.toolCallResult!.result, BERLIN);
  assert.is(out.last_message, out.messages.at(-1));
  assert.is(out.exit_reason, "weather_tool");
});
test("TestAgentExitConditions.test_exit_condition_on_tool_provided_at_runtime", async () => {
  const agent = new Agent({ chat_generator: new MockChat(toolCallMessage(finishCall)), tools: [], exit_conditions: ["weather_tool"], max_agent_steps: 5 });
  const out = await run(agent, { messages: user("What's the weather in Berlin?"), tools: [weatherTool()] });
  assert.is(out.step_count, 1);
  assert.is(out.messages.at(-2)!.toolCall!.tool_name, "weather_tool");
  assert.is(out.messages.at(-1)!.toolCallResult!.result, BERLIN);
  assert.is(out.last_message, out.messages.at(-1));
});
for (const name of ["test_does_not_exit_on_empty_assistant_message", "test_does_not_exit_on_empty_assistant_message_async"]) {
  test(`TestAgentExitConditions.${name}`, async () => {
    const out = await run(new Agent({ chat_generator: new MockChat([ChatMessage.fromAssistant(""), "The weather is sunny."]), tools: [weatherTool()], exit_conditions: ["text"] }), { messages: user("What's the weather?") });
    assert.is(out.step_count, 2);
    assert.is(out.last_message!.text, "The weather is sunny.");
  });
}
for (const name of ["test_text_exit", "test_text_exit_async"]) {
  test(`TestAgentExitConditions.${name}`, async () => {
    const out = await run(new Agent({ chat_generator: new MockChat("Berlin is sunny."), tools: [weatherTool()] }), { messages: user("Weather in Berlin?") });
    assert.is(out.exit_reason, "text");
  });
}
test("TestAgentExitConditions.test_tool_exit_reports_the_first_matching_tool", async () => {
  const calls = toolCallMessage(call("parrot", { parrot: "hi" }), finishCall);
  const out = await run(new Agent({ chat_generator: new MockChat(calls), tools: [weatherTool(), componentTool()], exit_conditions: ["weather_tool", "parrot"] }), { messages: user("Go") });
  assert.is(out.exit_reason, "parrot");
});
for (const name of ["test_max_steps_exit", "test_max_steps_exit_async"]) {
  test(`TestAgentExitConditions.${name}`, async () => {
    logged.length = 0;
    const out = await run(new Agent({ chat_generator: new MockChat(toolCallMessage(finishCall)), tools: [weatherTool()], max_agent_steps: 2 }), { messages: user("Weather in Berlin?") });
    assert.ok(logged.some((l) => l.includes("Agent reached maximum agent steps")));
    assert.is(out.exit_reason, "max_agent_steps");
    assert.is(out.step_count, 2);
  });
}
test("TestAgentExitConditions.test_tool_exit_reason_is_the_tool_name_async", async () => {
  const out = await run(new Agent({ chat_generator: new MockChat(toolCallMessage(finishCall)), tools: [weatherTool()], exit_conditions: ["weather_tool"] }), { messages: user("Weather in Berlin?") });
  assert.is(out.exit_reason, "weather_tool");
});
test("a run-time tool list naming unknown tools, or names with no init tools, is refused", async () => {
  const agent = new Agent({ chat_generator: new MockChat(), tools: [weatherTool()] });
  assert.match(String(await rejection(run(agent, { messages: user("x"), tools: ["nope"] }))), /The following tool names are not valid: \{'nope'\}\. Valid tool names are: \{'weather_tool'\}/);
  assert.match(String(await rejection(run(new Agent({ chat_generator: new MockChat() }), { messages: user("x"), tools: ["weather_tool"] }))), /No tools were configured for the Agent at initialization/);
});

test.run();
