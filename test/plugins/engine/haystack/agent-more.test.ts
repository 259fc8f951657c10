/**
 * @module Port of Haystack's test/components/agents/test_agent.py, part 2 (values, not Python):
 * tracing, tool selection, prompt templates and their variables, warm-up and lifecycle, the
 * Agent in pipelines. Haystack's `run`/`run_async` twins both run svc's one (async) run.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import * as v from "valibot";
import { Agent, OpenAIChatGenerator, Secret, BranchJoiner, ChatMessage, ChatPromptBuilder, ConditionalRouter, Document, InMemoryBM25Retriever, InMemoryDocumentStore, ListJoiner, Pipeline, Tool, Toolset, output, socket, Component, type ToolCall } from "svc/engine";
import { startOpenAIFixture } from "../../../fixtures/openai-server.js";
import { componentTool, ctx, MockChat, rejection, SpyingTracer, warnings, weatherFunction, weatherTool } from "./agent-fixtures.js";
import { componentOf } from "./harness.js";

type Out = { messages: ChatMessage[]; last_message?: ChatMessage; step_count: number; exit_reason: string };
const run = async (agent: Agent, inputs: Record<string, unknown>, tracer?: SpyingTracer) => (await agent.run(inputs as never, ctx(tracer ? { tracer } : {}))) as unknown as Out;
const user = (text: string) => [ChatMessage.fromUser(text)];
const call = (tool_name: string, args: Record<string, unknown>): ToolCall => ({ tool_name, arguments: args });
const toolCallMessage = (...calls: ToolCall[]) => ChatMessage.fromAssistant(null, { toolCalls: calls });
const userMsg = (text: string) => `{% message role="user" %}${text}{% endmessage %}`;
const sysMsg = (text: string) => `{% message role="system" %}${text}{% endmessage %}`;
const makeAgent = (extra: Record<string, unknown> = {}) => new Agent({ chat_generator: new MockChat("Hello"), tools: [weatherTool()], ...extra });

// ---- TestAgentStreaming (Haystack mocks OpenAI's stream: here the loopback OpenAI fixture streams "Hello") ----
for (const [name, where] of [
  ["test_run_with_params_streaming", "agent init"],
  ["test_run_with_run_streaming", "run"],
  ["test_keep_generator_streaming", "generator init"],
] as const) {
  test(`TestAgentStreaming.${name}`, async () => {
    const fixture = await startOpenAIFixture({ apiKey: "test-api-key" });
    try {
      fixture.script([{ content: "Hello" }]);
      let called = false;
      const callback = () => void (called = true);
      const llm = new OpenAIChatGenerator({ api_base_url: fixture.url, api_key: Secret.fromToken("test-api-key"), ...(where === "generator init" ? { streaming_callback: callback } : {}) });
      const agent = new Agent({ chat_generator: llm, tools: [weatherTool()], ...(where === "agent init" ? { streaming_callback: callback } : {}) });
      const out = await run(agent, { messages: user("Hello"), ...(where === "run" ? { streaming_callback: callback } : {}) });
      assert.ok(called);
      assert.is(out.messages.length, 2);
      assert.ok(out.messages[1]!.text!.includes("Hello"));
      assert.is(out.last_message, out.messages.at(-1));
    } finally {
      await fixture.close();
    }
  });
}

// ---- TestAgentTracing ----
for (const name of ["test_tracing_span_run", "test_tracing_span_run_async"]) {
  test(`TestAgentTracing.${name}`, async () => {
    const tracer = new SpyingTracer();
    await run(new Agent({ chat_generator: new MockChat(), tools: [weatherTool()] }), { messages: user("What's the weather in Paris?") }, tracer);
    assert.equal(tracer.spans.map((s) => s.name), ["haystack.agent.run", "haystack.agent.step", "haystack.agent.step.llm"]);
    const [runSpan, stepSpan, llmSpan] = tracer.spans;
    assert.is(stepSpan!.parent, runSpan);
    assert.is(llmSpan!.parent, stepSpan);
    assert.is(runSpan!.tags["haystack.agent.max_steps"], 100);
    assert.equal(runSpan!.tags["haystack.agent.tools"], ["weather_tool"]);
    assert.equal(runSpan!.tags["haystack.agent.exit_conditions"], ["text"]);
    assert.equal(Object.keys(runSpan!.tags["haystack.agent.state_schema"] as object), ["messages", "step_count", "token_usage", "tool_call_counts", "exit_reason"]);
    assert.is(runSpan!.tags["haystack.agent.steps_taken"], 1);
    assert.is(stepSpan!.tags["haystack.agent.step"], 0);
  });
}
test("TestAgentTracing.test_tracing_span_run_reflects_runtime_tools", async () => {
  const tracer = new SpyingTracer();
  await run(new Agent({ chat_generator: new MockChat(), tools: [weatherTool(), componentTool()] }), { messages: user("What's the weather in Paris?"), tools: ["weather_tool"] }, tracer);
  assert.equal(tracer.spans[0]!.tags["haystack.agent.tools"], ["weather_tool"]);
});
test("TestAgentTracing.test_tracing_span_run_with_tool_call", async () => {
  const tracer = new SpyingTracer();
  await run(new Agent({ chat_generator: new MockChat([toolCallMessage(call("weather_tool", { location: "Berlin" })), "done"]), tools: [weatherTool()] }), { messages: user("What's the weather in Berlin?") }, tracer);
  assert.equal(tracer.spans.map((s) => s.name), ["haystack.agent.run", "haystack.agent.step", "haystack.agent.step.llm", "haystack.agent.step.tool", "haystack.agent.step", "haystack.agent.step.llm"]);
  // Haystack also writes the call's input and output as content tags (content tracing).
  const toolSpan = tracer.spans[3]!;
  assert.is(toolSpan.tags["haystack.tool.name"], "weather_tool");
  assert.is(toolSpan.tags["haystack.tool.description"], "Provides weather information for a given location.");
  assert.is(tracer.spans[0]!.tags["haystack.agent.steps_taken"], 2);
});
for (const name of ["test_tracing_span_run_with_parallel_tool_calls", "test_tracing_span_run_async_with_parallel_tool_calls"]) {
  test(`TestAgentTracing.${name}`, async () => {
    // Both calls wait until the other has started: their spans are open at the same time.
    let arrived = 0;
    let release!: () => void;
    const bothStarted = new Promise<void>((r) => (release = r));
    const blocking = async (args: Record<string, any>) => (++arrived === 2 && release(), await bothStarted, weatherFunction(args));
    const tracer = new SpyingTracer();
    const llm = new MockChat([toolCallMessage(call("weather_tool", { location: "Berlin" }), call("weather_tool", { location: "Paris" })), "done"]);
    await run(new Agent({ chat_generator: llm, tools: [weatherTool(blocking)] }), { messages: user("What's the weather in Berlin and Paris?") }, tracer);
    const toolSpans = tracer.spans.filter((s) => s.name === "haystack.agent.step.tool");
    assert.is(toolSpans.length, 2);
    assert.ok(toolSpans.every((s) => s.tags["haystack.tool.name"] === "weather_tool"));
    assert.is(tracer.spans[1]!.name, "haystack.agent.step");
    assert.ok(toolSpans.every((s) => s.parent === tracer.spans[1]), "siblings under the step");
  });
}
const promptAndAgent = () =>
  new Pipeline()
    .addComponent("prompt_builder", new ChatPromptBuilder({ template: [ChatMessage.fromUser("Hello {{location}}")] }))
    .addComponent("agent", new Agent({ chat_generator: new MockChat(), tools: [weatherTool()] }))
    .connect("prompt_builder.prompt", "agent.messages");
test("TestAgentTracing.test_tracing_in_pipeline", async () => {
  const tracer = new SpyingTracer();
  await promptAndAgent().run({ prompt_builder: { location: "Berlin" } }, { tracer });
  assert.equal(tracer.spans.map((s) => s.name), ["haystack.pipeline.run", "haystack.component.run", "haystack.component.run", "haystack.agent.run", "haystack.agent.step", "haystack.agent.step.llm"]);
  assert.equal(tracer.spans.filter((s) => s.name === "haystack.component.run").map((s) => s.tags["haystack.component.name"]), ["prompt_builder", "agent"]);
});
test("TestAgentTracing.test_agent_span_has_parent_when_in_pipeline", async () => {
  const tracer = new SpyingTracer();
  await promptAndAgent().run({ prompt_builder: { location: "Berlin" } }, { tracer });
  const agentSpans = tracer.spans.filter((s) => s.name === "haystack.agent.run");
  assert.is(agentSpans.length, 1);
  const componentSpans = tracer.spans.filter((s) => s.name === "haystack.component.run" && s.tags["haystack.component.name"] === "agent");
  assert.is(componentSpans.length, 1);
  assert.is(agentSpans[0]!.parent, componentSpans[0]);
});

// ---- TestAgentToolSelection ----
const sameName = (description: string) => new Tool({ name: "same_name", description, parameters: { type: "object", properties: {} }, function: () => null });
for (const name of ["test_run_raises_on_duplicate_tool_names_across_toolsets", "test_run_async_raises_on_duplicate_tool_names_across_toolsets"]) {
  test(`TestAgentToolSelection.${name}`, async () => {
    // svc checks the init tools when the Agent is built; Haystack when it runs.
    assert.throws(() => new Agent({ chat_generator: new MockChat(), tools: [new Toolset([sameName("first")]), new Toolset([sameName("second")])] }), /Duplicate tool names/);
    const agent = new Agent({ chat_generator: new MockChat() });
    assert.match(String(await rejection(run(agent, { messages: user("hi"), tools: [new Toolset([sameName("first")]), new Toolset([sameName("second")])] }))), /Duplicate tool names/);
  });
}
test("TestAgentToolSelection.test_tool_selection_new_tool", async () => {
  const llm = new MockChat();
  const parrot = componentTool();
  await run(new Agent({ chat_generator: llm, tools: [weatherTool()], system_prompt: "This is a system prompt." }), { messages: user("hi"), tools: [parrot] });
  assert.equal(llm.calls[0]!.tools, [parrot.toolSpec]);
});
test("TestAgentToolSelection.test_tool_selection_existing_tools", async () => {
  const llm = new MockChat();
  const [weather, parrot] = [weatherTool(), componentTool()];
  await run(new Agent({ chat_generator: llm, tools: [weather, parrot], system_prompt: "This is a system prompt." }), { messages: user("hi") });
  assert.equal(llm.calls[0]!.tools, [weather.toolSpec, parrot.toolSpec]);
});
test("TestAgentToolSelection.test_tool_selection_invalid_type", async () => {
  const agent = new Agent({ chat_generator: new MockChat(), tools: [weatherTool(), componentTool()], system_prompt: "This is a system prompt." });
  const error = await rejection(run(agent, { messages: user("hi"), tools: "invalid_tool_name" }));
  assert.instance(error, TypeError);
  assert.is(error!.message, "tools must be a list of Tool and/or Toolset objects, a Toolset, or a list of tool names (strings).");
});

// ---- TestRegisterPromptVariables ----
const NO_EFFECT = "The parameter required_variables is provided but neither";
test("TestRegisterPromptVariables.test_register_prompt_variables_warning_when_no_prompt_and_required_variables", async () => {
  assert.ok((await warnings(() => makeAgent({ required_variables: ["name"] }))).some((w) => w.includes(NO_EFFECT)));
});
test("TestRegisterPromptVariables.test_register_prompt_variables_no_warning_when_no_prompt_and_default", async () => {
  assert.not.ok((await warnings(() => makeAgent())).some((w) => w.includes(NO_EFFECT)));
});
test("TestRegisterPromptVariables.test_register_prompt_variables_all_required_by_default", () => {
  assert.ok(makeAgent({ user_prompt: userMsg("Question: {{question}}") }).inputSockets.question!.mandatory);
});
test("TestRegisterPromptVariables.test_register_prompt_variables_all_optional_with_none", () => {
  assert.not.ok(makeAgent({ user_prompt: userMsg("Question: {{question}}"), required_variables: null }).inputSockets.question!.mandatory);
});
test("TestRegisterPromptVariables.test_register_prompt_variables_set_all_variables_as_required", () => {
  const agent = makeAgent({ user_prompt: userMsg("Question: {{question}}"), required_variables: "*" });
  assert.ok(agent.inputSockets.question!.mandatory);
});
test("TestRegisterPromptVariables.test_register_prompt_variables_set_required_variables_on_builder", async () => {
  const agent = makeAgent({ user_prompt: userMsg("Question: {{question}} {{extra}}"), required_variables: ["question"] });
  assert.ok(agent.inputSockets.question!.mandatory);
  assert.not.ok(agent.inputSockets.extra!.mandatory);
  assert.match(String(await rejection(run(agent, { messages: [] }))), /Missing required input variables in ChatPromptBuilder: question/);
});
test("TestRegisterPromptVariables.test_register_prompt_variables_raises_on_state_schema_conflict", () => {
  assert.throws(() => makeAgent({ user_prompt: userMsg("Question: {{question}}"), state_schema: { question: { type: "str" } } }), /Variable 'question' from user_prompt is already defined in the state schema\./);
});
test("TestRegisterPromptVariables.test_register_prompt_variables_raises_on_run_param_conflict", () => {
  assert.throws(() => makeAgent({ user_prompt: userMsg("{{streaming_callback}} is already a run parameter.") }), /Variable 'streaming_callback' from user_prompt conflicts with input names in the run method\./);
});

// ---- TestPrompts ----
test("TestPrompts.test_system_prompt_incorrect_jinja2_syntax_raises", () => {
  assert.throws(() => makeAgent({ system_prompt: "{% message role='system' %}Incomplete syntax." }));
});
test("TestPrompts.test_prompt_wrong_role_raises_at_init", () => {
  assert.throws(() => makeAgent({ system_prompt: userMsg("This is a user message, not system.") }), /system_prompt message block must have role 'system'/);
  assert.throws(() => makeAgent({ user_prompt: sysMsg("This is a system message, not user.") }), /user_prompt message block must have role 'user'/);
});
test("TestPrompts.test_dynamic_prompt_role_raises_at_runtime", async () => {
  const agent = makeAgent({ user_prompt: "{% message role=role_name %}Q: {{question}}{% endmessage %}" });
  assert.match(String(await rejection(run(agent, { messages: [], role_name: "assistant", question: "Will it snow?" }))), /user_prompt must render to a user message/);
});
test("TestPrompts.test_system_prompt_plain_string_with_template_variables", async () => {
  const agent = makeAgent({ system_prompt: "You are an assistant for {{company}}. Your role is {{role}}." });
  const out = await run(agent, { messages: user("Hi"), company: "Acme", role: "support agent" });
  assert.is(out.messages[0]!.role, "system");
  assert.is(out.messages[0]!.text, "You are an assistant for Acme. Your role is support agent.");
  assert.ok("company" in agent.inputSockets && "role" in agent.inputSockets);
});
test("TestPrompts.test_user_prompt_plain_string_with_template_variables", async () => {
  const agent = makeAgent({ user_prompt: "Question: {{question}}" });
  const out = await run(agent, { messages: [], question: "Will it snow?" });
  assert.is(out.messages.filter((m) => m.role === "user")[0]!.text, "Question: Will it snow?");
  assert.ok("question" in agent.inputSockets);
});
test("TestPrompts.test_user_prompt_appended_after_initial_messages", async () => {
  const out = await run(makeAgent({ user_prompt: userMsg("And now: {{query}}") }), { messages: user("First message"), query: "What is the weather?" });
  assert.equal(out.messages.filter((m) => m.role === "user").map((m) => m.text), ["First message", "And now: What is the weather?"]);
});
test("TestPrompts.test_system_prompt_and_user_prompt", async () => {
  const agent = makeAgent({ system_prompt: sysMsg("You help users of {{project}}."), user_prompt: userMsg("Tell me about {{topic}} in the {{project}} context.") });
  const out = await run(agent, { messages: [], project: "Haystack", topic: "pipelines" });
  assert.equal([out.messages[0]!.role, out.messages[0]!.text], ["system", "You help users of Haystack."]);
  assert.is(out.messages.filter((m) => m.role === "user")[0]!.text, "Tell me about pipelines in the Haystack context.");
});

// ---- TestAgentUserPromptInPipeline ----
async function storeWithDocs() {
  const store = new InMemoryDocumentStore();
  await store.write_documents([new Document({ content: "The Eiffel Tower is located in Paris." }), new Document({ content: "The Brandenburg Gate is in Berlin." }), new Document({ content: "The Colosseum is in Rome." })]);
  return store;
}
test("TestAgentUserPromptInPipeline.test_rag_pipeline_user_prompt_init_only", async () => {
  const agent = makeAgent({
    user_prompt: userMsg("Use the following documents to answer the question.\nDocuments:\n{% for doc in documents %}{{doc.content}}\n{% endfor %}Question: {{query}}"),
    system_prompt: "You are a knowledgeable assistant.",
    required_variables: ["query", "documents"],
  });
  const pipeline = new Pipeline().addComponent("retriever", new InMemoryBM25Retriever({ document_store: await storeWithDocs() })).addComponent("agent", agent).connect("retriever.documents", "agent.documents");
  const query = "Where is the Colosseum?";
  const out = (await pipeline.run({ retriever: { query }, agent: { query, messages: [] } })).agent as unknown as Out;
  assert.ok(out.last_message);
  assert.equal([out.messages[0]!.role, out.messages[0]!.text], ["system", "You are a knowledgeable assistant."]);
  const users = out.messages.filter((m) => m.role === "user");
  assert.is(users.length, 1);
  assert.ok(users[0]!.text!.includes("Question: Where is the Colosseum?"));
  assert.ok(users[0]!.text!.includes("Documents:"));
});
test("TestAgentUserPromptInPipeline.test_rag_pipeline_messages_plus_user_prompt", async () => {
  const agent = makeAgent({ chat_generator: new MockChat("Berlin"), user_prompt: userMsg("Relevant docs:\n{% for doc in documents %}{{doc.content}}\n{% endfor %}") });
  const pipeline = new Pipeline()
    .addComponent("prompt_builder", new ChatPromptBuilder({ template: [ChatMessage.fromUser("History: {{history_note}}")] }))
    .addComponent("retriever", new InMemoryBM25Retriever({ document_store: await storeWithDocs() }))
    .addComponent("agent", agent)
    .connect("prompt_builder.prompt", "agent.messages")
    .connect("retriever.documents", "agent.documents");
  const out = (await pipeline.run({ prompt_builder: { history_note: "User previously asked about European cities." }, retriever: { query: "Brandenburg Gate" } })).agent as unknown as Out;
  const users = out.messages.filter((m) => m.role === "user");
  assert.ok(users[0]!.text!.includes("History:"));
  assert.ok(users[1]!.text!.includes("Relevant docs:"));
});

// ---- TestAgentWarmUp ----
class TrackingTool extends Tool {
  warmUps = 0;
  constructor(name = "test_tool", fn: () => unknown = () => "result") {
    super({ name, description: "A test tool", parameters: { type: "object", properties: {} }, function: fn });
  }
  override warmUp() {
    this.warmUps++;
  }
}
class TrackingToolset extends Toolset {
  warmUps = 0;
  override async warmUp() {
    await super.warmUp();
    this.warmUps++;
  }
}
test("TestAgentWarmUp.test_warm_up_multiple_tools", async () => {
  const [t1, t2] = [new TrackingTool("tool1"), new TrackingTool("tool2")];
  const agent = new Agent({ chat_generator: new MockChat(), tools: [t1, t2] });
  assert.equal([t1.warmUps, t2.warmUps], [0, 0]);
  await agent.warmUp();
  assert.equal([t1.warmUps, t2.warmUps], [1, 1]);
});
test("TestAgentWarmUp.test_warm_up_toolset", async () => {
  const toolset = new TrackingToolset([new TrackingTool()]);
  await new Agent({ chat_generator: new MockChat(), tools: toolset }).warmUp();
  assert.is(toolset.warmUps, 1);
});
test("TestAgentWarmUp.test_warm_up_mixed_list_of_tools_and_toolsets", async () => {
  const [t1, t2] = [new TrackingTool("standalone_tool1"), new TrackingTool("standalone_tool2")];
  const [s1, s2] = [new TrackingToolset([new TrackingTool("toolset_tool1")]), new TrackingToolset([new TrackingTool("toolset_tool2")])];
  await new Agent({ chat_generator: new MockChat(), tools: [t1, s1, t2, s2] }).warmUp();
  assert.equal([t1.warmUps, t2.warmUps, s1.warmUps, s2.warmUps], [1, 1, 1, 1]);
});
test("TestAgentWarmUp.test_warm_up_rewarms_tools_on_every_call", async () => {
  const counting = new TrackingTool("counting_tool");
  const agent = new Agent({ chat_generator: new MockChat(), tools: [counting] });
  for (let i = 0; i < 3; i++) await agent.warmUp();
  assert.is(counting.warmUps, 3);
});
const actualTool = () => new Tool({ name: "get_time", description: "Get the current time in ISO format", parameters: { type: "object", properties: {}, required: [] }, function: () => "2024-12-01T12:00:00Z" });
const placeholder = () => new Tool({ name: "mcp_not_connected_placeholder_123", description: "Placeholder tool before connection", parameters: { type: "object", properties: {} }, function: () => "placeholder" });
/** A toolset that loads its tools on its first warm-up (as MCPToolset). */
class LazyToolset extends Toolset {
  connected = false;
  constructor(
    initial: Tool[],
    private readonly real: Tool,
  ) {
    super(initial);
  }
  override async warmUp() {
    if (this.connected) return;
    this.tools = [this.real];
    this.connected = true;
  }
}
for (const [id, initial] of [
  ["empty", () => []],
  ["placeholder", () => [placeholder()]],
] as const) {
  test(`TestAgentWarmUp.test_warm_up_loads_lazy_toolset[${id}]`, async () => {
    const real = actualTool();
    const toolset = new LazyToolset(initial(), real);
    const agent = new Agent({ chat_generator: new MockChat(), tools: toolset });
    assert.is(toolset.tools.length, initial().length);
    await agent.warmUp();
    assert.equal(toolset.tools, [real]);
  });
}
test("TestAgentWarmUp.test_run_warms_lazy_toolset_before_tool_selection", async () => {
  const real = actualTool();
  const toolset = new LazyToolset([placeholder()], real);
  const llm = new MockChat([toolCallMessage(call("get_time", {})), "done"]);
  const out = await run(new Agent({ chat_generator: llm, tools: toolset }), { messages: user("What time is it?") });
  assert.ok(llm.calls.every((c) => (c.tools as { name: string }[]).map((t) => t.name).join() === "get_time"));
  assert.equal(toolset.tools, [real]);
  assert.is(out.messages[2]!.toolCallResult!.result, "2024-12-01T12:00:00Z");
  assert.is(out.last_message!.text, "done");
});
for (const name of ["test_run_warms_up_per_run_toolset", "test_run_async_warms_up_per_run_toolset"]) {
  test(`TestAgentWarmUp.${name}`, async () => {
    const agent = new Agent({ chat_generator: new MockChat(), tools: new Toolset([new TrackingTool("init_tool")]) });
    await agent.warmUp();
    const perRunTool = new TrackingTool("per_run_tool");
    const perRun = new TrackingToolset([perRunTool]);
    assert.equal([perRun.warmUps, perRunTool.warmUps], [0, 0]);
    await run(agent, { messages: user("hi"), tools: perRun });
    assert.ok(perRun.warmUps > 0 && perRunTool.warmUps > 0);
  });
}
test("TestAgentWarmUp.test_run_warms_up_per_run_list_of_tools_and_toolsets", async () => {
  const agent = new Agent({ chat_generator: new MockChat(), tools: [new TrackingTool("init_tool")] });
  await agent.warmUp();
  const [perRunTool, toolsetTool] = [new TrackingTool("per_run_tool"), new TrackingTool("toolset_tool")];
  const perRun = new TrackingToolset([toolsetTool]);
  await run(agent, { messages: user("hi"), tools: [perRunTool, perRun] });
  assert.ok(perRunTool.warmUps > 0 && perRun.warmUps > 0 && toolsetTool.warmUps > 0);
});

// ---- TestComponentLifecycle ----
test("TestComponentLifecycle.test_warm_up_delegates_to_chat_generator", async () => {
  const llm = new MockChat();
  const agent = new Agent({ chat_generator: llm, tools: [weatherTool()], system_prompt: "This is a system prompt." });
  await agent.warmUp();
  assert.is(llm.warmUps, 1);
  // svc warms the generator once per Agent (Haystack's generators guard their own warm-up the same way).
  await run(agent, { messages: user("What is the weather in Berlin?") });
  assert.is(llm.warmUps, 1);
});
for (const name of ["test_close_delegates_to_chat_generator", "test_close_async_delegates_to_chat_generator"]) {
  test(`TestComponentLifecycle.${name}`, async () => {
    const llm = new MockChat();
    await new Agent({ chat_generator: llm, tools: [] }).close();
    assert.is(llm.closes, 1);
  });
}
test("TestComponentLifecycle.test_lifecycle_is_safe_when_chat_generator_lacks_methods", async () => {
  class Bare extends Component {
    static override readonly type = "test.Bare";
    protected inputSpecs() {
      return { messages: socket(v.array(v.instance(ChatMessage))) };
    }
    protected outputSpecs() {
      return { replies: output(v.array(v.instance(ChatMessage))) };
    }
    run() {
      return { replies: [ChatMessage.fromAssistant("Hello")] };
    }
  }
  const agent = new Agent({ chat_generator: new Bare({}), tools: [] });
  await agent.warmUp();
  await agent.close();
});

// ---- TestAgentNotTriggeredByInjectedInput ----
test("TestAgentNotTriggeredByInjectedInput.test_agent_not_triggered_by_injected_streaming_callback", async () => {
  class Planner extends Component {
    static override readonly type = "test.Planner";
    protected inputSpecs() {
      return {};
    }
    protected outputSpecs() {
      return { messages: output(v.array(v.instance(ChatMessage))), last_role: output(v.string()) };
    }
    run() {
      return { messages: [ChatMessage.fromAssistant("?")], last_role: "assistant" };
    }
  }
  const llm = new MockChat("x");
  const router = new ConditionalRouter({
    routes: [
      { condition: "{{ last_role == 'tool' }}", output: "{{ messages }}", output_name: "processing", output_type: "list[ChatMessage]" },
      { condition: "{{ True }}", output: "{{ messages }}", output_name: "planning", output_type: "list[ChatMessage]" },
    ],
    unsafe: true,
  });
  const pipeline = new Pipeline()
    .addComponent("planner", new Planner({}))
    .addComponent("router", router)
    .addComponent("branch_joiner", new BranchJoiner({ type_: "list[ChatMessage]" }))
    .addComponent("agent", new Agent({ chat_generator: llm, tools: [weatherTool()] }))
    .connect("planner.messages", "router.messages")
    .connect("planner.last_role", "router.last_role")
    .connect("router.processing", "branch_joiner.value")
    .connect("branch_joiner.value", "agent.messages");
  const result = await pipeline.run({ agent: { streaming_callback: () => {} } });
  assert.not.ok("agent" in result);
  assert.is(llm.calls.length, 0);
});

test("test_agent_waits_for_messages_when_predecessor_is_blocked", async () => {
  const messages = () => v.array(v.instance(ChatMessage));
  const historyParser = componentOf({ query: socket(v.string()) }, { messages: messages() }, ({ query }: { query: string }) => ({ messages: [ChatMessage.fromUser(query)] }));
  // No output for no files: the attachments builder behind it is blocked.
  const filesProcessor = componentOf({ files: socket(v.array(v.string())) }, { processed_files: v.array(v.string()) }, ({ files }: { files: string[] }) => (files.length ? { processed_files: files } : {}));
  const attachmentsBuilder = componentOf({ processed_files: socket(v.array(v.string())) }, { prompt: messages() }, ({ processed_files }: { processed_files: string[] }) => ({ prompt: [ChatMessage.fromUser(`Files: ${processed_files}`)] }));
  const chat = new MockChat("done");
  const agent = new Agent({ chat_generator: chat, tools: [weatherTool()], state_schema: { retrieval_filters: { type: "dict[str, Any]" } } });
  const pipeline = new Pipeline()
    .addComponent("history_parser", historyParser)
    .addComponent("files_processor", filesProcessor)
    .addComponent("attachments_builder", attachmentsBuilder)
    .addComponent("messages_joiner", new ListJoiner({ list_type_: "list[haystack.dataclasses.chat_message.ChatMessage]" }))
    .addComponent("agent", agent)
    .connect("history_parser.messages", "messages_joiner.values")
    .connect("files_processor.processed_files", "attachments_builder.processed_files")
    .connect("attachments_builder.prompt", "messages_joiner.values")
    .connect("messages_joiner.values", "agent.messages");
  const result = await pipeline.run({ history_parser: { query: "What case law applies?" }, files_processor: { files: [] }, agent: { retrieval_filters: { field: "date", value: "2024-01-01" } } });
  assert.ok("agent" in result);
  // The agent ran once, on the joined messages: the user's question only.
  assert.equal(chat.calls.map((c) => (c.messages as ChatMessage[]).map((m) => m.text)), [["What case law applies?"]]);
});

test.run();
