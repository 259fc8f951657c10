/**
 * @module Port of Haystack's test/tools/test_toolset.py (values, not Python). Python operators
 * become methods: `len(ts)` `length`, `ts[i]` `at(i)`, `x in ts` `has(x)`, `ts + x` `plus(x)`.
 * `_run_tool` is a ToolInvoker run; `Agent.from_dict(agent.to_dict())` is a YAML round trip.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { Agent, ChatMessage, createRegistry, dumpPipelineYaml, loadPipelineYaml, OpenAIChatGenerator, Pipeline, Secret, State, Tool, ToolInvocationError, ToolInvoker, Toolset, tool, type ToolCall } from "svc/engine";
import { ctx, MockChat, rejection } from "./agent-fixtures.js";

const numbers = { type: "object", properties: { a: { type: "integer", description: "first number" }, b: { type: "integer", description: "second number" } }, required: ["a", "b"] };
function add(args: Record<string, any>) {
  return args.a + args.b;
}
function multiply(args: Record<string, any>) {
  return args.a * args.b;
}
function subtract(args: Record<string, any>) {
  return args.a - args.b;
}
const addTool = tool({ name: "add", description: "Add two numbers.", parameters: numbers }, add);
const multiplyTool = tool({ name: "multiply", description: "Multiply two numbers.", parameters: numbers }, multiply);
const subtractTool = tool({ name: "subtract", description: "Subtract b from a.", parameters: numbers }, subtract);
function weather(args: Record<string, any>) {
  return { weather: args.location === "Berlin" ? "mostly sunny" : "unknown" };
}
const weatherTool = tool({ name: "weather", description: "Provides weather information for a given location.", parameters: { type: "object", properties: { location: { type: "string" } }, required: ["location"] } }, weather);
const faultyTool = new Tool({ name: "faulty_tool", description: "A tool that always fails when invoked.", parameters: { type: "object", properties: { location: { type: "string" } }, required: ["location"] }, function: () => Promise.reject(new Error("This tool always fails.")) });

const call = (tool_name: string, args: Record<string, unknown>): ToolCall => ({ tool_name, arguments: args });
const calls = (...c: ToolCall[]) => ChatMessage.fromAssistant(null, { toolCalls: c });
/** Haystack's `_run_tool_messages`: a ToolInvoker run (raise_on_failure as Haystack's `_run_tool` default). */
async function runTool(messages: ChatMessage[], tools: Toolset | (Tool | Toolset)[]) {
  const out = await new ToolInvoker({ tools }).run({ messages, state: new State({}) }, ctx({ name: "tool_invoker" }));
  return out.tool_messages;
}
const results = (messages: ChatMessage[]) => messages.flatMap((m) => m.toolCallResults.map((r) => r.result));
const names = (tools: Iterable<Tool>) => [...tools].map((t) => t.name);

class WarmUpCountingTool extends Tool {
  warmUpCount = 0;
  constructor(name: string) {
    super({ name, description: `${name} tool`, parameters: { type: "object", properties: {} }, function: () => null });
  }
  override warmUp() {
    this.warmUpCount++;
  }
}

// ---- TestToolset ----
test("TestToolset.test_toolset_with_multiple_tools", async () => {
  const toolset = new Toolset([addTool, multiplyTool]);
  assert.is(toolset.length, 2);
  assert.equal([toolset.at(0)!.name, toolset.at(1)!.name], ["add", "multiply"]);
  const messages = await runTool([calls(call("add", { a: 2, b: 3 })), calls(call("multiply", { a: 4, b: 5 }))], toolset);
  assert.is(messages.length, 2);
  assert.ok(results(messages).includes("5"));
  assert.ok(results(messages).includes("20"));
});
test("TestToolset.test_toolset_add", async () => {
  const toolset = new Toolset();
  assert.is(toolset.length, 0);
  toolset.add(addTool);
  assert.is(toolset.length, 1);
  assert.is(toolset.at(0)!.name, "add");
  assert.equal(results(await runTool([calls(call("add", { a: 2, b: 3 }))], toolset)), ["5"]);
});
test("TestToolset.test_toolset_contains", () => {
  const toolset = new Toolset([addTool]);
  assert.ok(toolset.has(addTool));
  assert.not.ok(toolset.has(multiplyTool));
  assert.ok(toolset.has("add"));
  assert.not.ok(toolset.has("multiply"));
  assert.not.ok(toolset.has("non_existent_tool"));
});
test("TestToolset.test_toolset_addition", async () => {
  const base = new Toolset([addTool]);
  let result = base.plus(multiplyTool);
  assert.instance(result, Toolset);
  assert.equal(names(result), ["add", "multiply"]);
  result = base.plus(new Toolset([subtractTool]));
  assert.equal(names(result), ["add", "subtract"]);
  result = base.plus([multiplyTool, subtractTool]);
  assert.instance(result, Toolset);
  assert.equal(names(result), ["add", "multiply", "subtract"]);
  assert.throws(() => base.plus("not_a_tool" as never), (e: Error) => e instanceof TypeError);
  assert.throws(() => base.plus(123 as never), (e: Error) => e instanceof TypeError);
  const messages = await runTool([calls(call("add", { a: 10, b: 5 }), call("multiply", { a: 10, b: 5 }), call("subtract", { a: 10, b: 5 }))], result);
  assert.equal(results(messages), ["15", "50", "5"]);
});
test("TestToolset.test_combining_toolsets_via_unpacking", async () => {
  const combined = new Toolset([...new Toolset([addTool, subtractTool]), multiplyTool]);
  assert.equal(names(combined), ["add", "subtract", "multiply"]);
  assert.equal(results(await runTool([calls(call("add", { a: 10, b: 5 }), call("multiply", { a: 10, b: 5 }))], combined)), ["15", "50"]);
});
test("TestToolset.test_toolset_serialization", async () => {
  const registry = createRegistry().registerFunction("add", add);
  const serialized = new Toolset([addTool]).toDict(registry);
  assert.equal(serialized.type, "haystack.tools.toolset.Toolset");
  // Toolset.from_dict: the dict as an init parameter of a component that takes tools.
  const yaml = JSON.stringify({ components: { invoker: { type: "haystack.components.tools.tool_invoker.ToolInvoker", init_parameters: { tools: serialized } } }, connections: [] });
  const deserialized = (loadPipelineYaml(yaml, registry).getComponent("invoker") as ToolInvoker).initParameters.tools as Toolset;
  assert.instance(deserialized, Toolset);
  assert.is(deserialized.length, 1);
  assert.is(deserialized.at(0)!.name, "add");
  assert.is(deserialized.at(0)!.description, "Add two numbers.");
  assert.equal(results(await runTool([calls(call("add", { a: 2, b: 3 }))], deserialized)), ["5"]);
});
test("TestToolset.test_toolset_duplicate_tool_names", () => {
  assert.throws(() => new Toolset([addTool, addTool]), /Duplicate tool names found/);
  const toolset = new Toolset([addTool]);
  assert.throws(() => toolset.add(addTool), /Duplicate tool names found/);
  assert.throws(() => new Toolset([...toolset, ...new Toolset([addTool])]), /Duplicate tool names found/);
});
test("a single Tool passed as the list is refused, as Haystack's __post_init__", () => {
  assert.throws(() => new Toolset(addTool as never), /A single Tool cannot be directly passed to Toolset/);
});

// ---- TestToolsetWithAgent ----
process.env.OPENAI_API_KEY ??= "test";
const openai = () => new OpenAIChatGenerator({ api_key: Secret.fromEnvVar("OPENAI_API_KEY") });
const roundTrip = (agent: Agent) => {
  const registry = createRegistry().registerFunction("add", add).registerFunction("multiply", multiply).registerFunction("weather", weather);
  const yaml = dumpPipelineYaml(new Pipeline().addComponent("agent", agent));
  return [loadPipelineYaml(yaml, registry), yaml] as const;
};
test("TestToolsetWithAgent.test_init_with_toolset", () => {
  const toolset = new Toolset([weatherTool]);
  assert.is(new Agent({ chat_generator: openai(), tools: toolset }).tools, toolset);
});
test("TestToolsetWithAgent.test_tool_invocation_error_with_toolset", async () => {
  const error = await rejection(runTool([calls(call("faulty_tool", { location: "Berlin" }))], new Toolset([faultyTool])));
  assert.instance(error, ToolInvocationError);
});
test("TestToolsetWithAgent.test_serde_with_toolset", () => {
  const agent = new Agent({ chat_generator: openai(), tools: new Toolset([addTool, multiplyTool]) });
  const toolsDict = (agent.toDict().init_parameters.tools as { type: string; data: { tools: { data: { name: string } }[] } });
  assert.is(toolsDict.type, "haystack.tools.toolset.Toolset");
  assert.equal(toolsDict.data.tools.map((t) => t.data.name), ["add", "multiply"]);
  const restored = roundTrip(agent)[0].getComponent("agent") as Agent;
  assert.instance(restored.tools, Toolset);
  assert.equal(names(restored.tools as Toolset), ["add", "multiply"]);
});
test("TestToolsetWithAgent.test_agent_serde_with_list_of_toolsets", () => {
  const agent = new Agent({ chat_generator: openai(), tools: [new Toolset([weatherTool]), new Toolset([addTool])] });
  const toolsData = agent.toDict().init_parameters.tools as { type: string }[];
  assert.ok(Array.isArray(toolsData));
  assert.equal(toolsData.map((t) => t.type), ["haystack.tools.toolset.Toolset", "haystack.tools.toolset.Toolset"]);
  const restored = roundTrip(agent)[0].getComponent("agent") as Agent;
  assert.ok(Array.isArray(restored.tools));
  assert.is((restored.tools as Toolset[]).length, 2);
  assert.ok((restored.tools as Toolset[]).every((t) => t instanceof Toolset));
});
test("TestToolsetWithAgent.test_list_of_toolsets_runtime_override", async () => {
  const llm = new MockChat([calls(call("add", { a: 3, b: 7 })), "done"]);
  const agent = new Agent({ chat_generator: llm, tools: new Toolset([weatherTool]) });
  const out = (await agent.run({ messages: [ChatMessage.fromUser("Add numbers")], tools: [new Toolset([addTool]), new Toolset([multiplyTool])] }, ctx())) as { messages: ChatMessage[] };
  // The Agent flattens toolsets before passing them to the chat generator.
  assert.equal(llm.calls[0]!.tools, [addTool.toolSpec, multiplyTool.toolSpec]);
  assert.is(out.messages[2]!.toolCallResult!.result, "10");
});
test("TestToolsetWithAgent.test_pipeline_with_list_of_toolsets", () => {
  const [pipeline, yaml] = roundTrip(new Agent({ chat_generator: openai(), tools: [new Toolset([addTool]), new Toolset([multiplyTool])] }));
  const registry = createRegistry().registerFunction("add", add).registerFunction("multiply", multiply);
  assert.ok(yaml.includes("haystack.tools.toolset.Toolset"));
  assert.is(dumpPipelineYaml(pipeline), yaml);
});

/** Haystack's DynamicToolset: dumps no tools and rebuilds them when loaded (registered as an engine object). */
class DynamicToolset extends Toolset {
  static readonly type = "test_toolset.DynamicToolset";
  constructor() {
    super([addTool]);
  }
  static fromDict() {
    return new DynamicToolset();
  }
  override toDict() {
    return { type: DynamicToolset.type, data: {} };
  }
}
const withDynamic = () => {
  const registry = createRegistry().registerFunction("multiply", multiply).registerFunction("add", add);
  registry.objects.register(DynamicToolset);
  return registry;
};
test("TestToolsetWithAgent.test_custom_toolset_serde_in_agent", () => {
  const agent = new Agent({ chat_generator: openai(), tools: new DynamicToolset() });
  const toolsDict = agent.toDict().init_parameters.tools as { type: string; data: object };
  assert.is(toolsDict.type, "test_toolset.DynamicToolset");
  assert.equal(toolsDict.data, {});
  const restored = loadPipelineYaml(dumpPipelineYaml(new Pipeline().addComponent("agent", agent)), withDynamic()).getComponent("agent") as Agent;
  assert.instance(restored.tools, DynamicToolset);
});
test("TestToolsetWithAgent.test_agent_serde_with_list_containing_custom_toolset", () => {
  const agent = new Agent({ chat_generator: openai(), tools: [new DynamicToolset(), new Toolset([multiplyTool])] });
  const toolsData = agent.toDict().init_parameters.tools as { type: string; data: object }[];
  assert.equal([toolsData[0]!.type, toolsData[0]!.data, toolsData[1]!.type], ["test_toolset.DynamicToolset", {}, "haystack.tools.toolset.Toolset"]);
  const restored = loadPipelineYaml(dumpPipelineYaml(new Pipeline().addComponent("agent", agent)), withDynamic()).getComponent("agent") as Agent;
  const [custom, plain] = restored.tools as Toolset[];
  assert.instance(custom, DynamicToolset);
  assert.instance(plain, Toolset);
  assert.equal(names(custom!), ["add"]);
  assert.equal(names(plain!), ["multiply"]);
});

// ---- TestToolsetWarmUp ----
test("TestToolsetWarmUp.test_warm_up_warms_all_tools", async () => {
  const [t1, t2] = [new WarmUpCountingTool("a"), new WarmUpCountingTool("b")];
  const toolset = new Toolset([t1, t2]);
  assert.equal([t1.warmUpCount, t2.warmUpCount], [0, 0]);
  await toolset.warmUp();
  assert.equal([t1.warmUpCount, t2.warmUpCount], [1, 1]);
});
test("TestToolsetWarmUp.test_warm_up_can_be_called_multiple_times", async () => {
  const t1 = new WarmUpCountingTool("a");
  const toolset = new Toolset([t1]);
  for (let i = 0; i < 3; i++) await toolset.warmUp();
  assert.is(t1.warmUpCount, 3);
});
test("TestToolsetWarmUp.test_add_never_warms_the_new_tool", async () => {
  const toolset = new Toolset([new WarmUpCountingTool("a")]);
  await toolset.warmUp();
  const added = new WarmUpCountingTool("b");
  toolset.add(added);
  assert.is(added.warmUpCount, 0);
  await toolset.warmUp();
  assert.is(added.warmUpCount, 1);
});
test("TestToolsetWarmUp.test_add_toolset_flattens_with_future_warning", () => {
  const toolset = new Toolset([new WarmUpCountingTool("a")]);
  toolset.add(new Toolset([new WarmUpCountingTool("b")]));
  assert.equal(names(toolset), ["a", "b"]);
});
test("TestToolsetWarmUp.test_add_non_tool_raises", () => {
  assert.throws(() => new Toolset([new WarmUpCountingTool("a")]).add("not_a_tool" as never), /Expected Tool or Toolset/);
});

// ---- TestToolsetSpawn, TestToolsetToolSelection ----
test("TestToolsetSpawn.test_spawn_returns_self_for_plain_toolset", () => {
  const toolset = new Toolset([addTool, multiplyTool]);
  assert.is(toolset.spawn(), toolset);
  assert.is(toolset.spawn(new Set(["add"])), toolset);
  assert.equal(names(toolset), ["add", "multiply"]);
});
test("TestToolsetToolSelection.test_get_selectable_tools_returns_all_tools", async () => {
  assert.equal(await new Toolset([addTool, multiplyTool]).getSelectableTools(), [addTool, multiplyTool]);
});
test("TestToolsetToolSelection.test_get_selectable_tools_warms_up_lazy_toolset", async () => {
  class LazyToolset extends Toolset {
    loaded = false;
    override async warmUp() {
      if (this.loaded) return;
      this.loaded = true;
      this.tools = [addTool, multiplyTool];
    }
  }
  const toolset = new LazyToolset([]);
  assert.equal(toolset.tools, []);
  assert.equal(names(await toolset.getSelectableTools()), ["add", "multiply"]);
});

test.run();
