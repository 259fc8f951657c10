/**
 * @module Port of Haystack's test/tools/test_component_tool.py, the cases that do not read Python
 * docstrings or dataclass signatures (values, not Python). svc's components carry no docstrings:
 * a generated parameter is described as `Input '<name>' for the component.` and the default
 * description is the tool's name.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import * as v from "valibot";
import { Agent, ChatMessage, Component, ComponentTool, createRegistry, dumpPipelineYaml, loadPipelineYaml, OpenAIChatGenerator, output, Pipeline, Secret, socket, State, type ComponentContext } from "svc/engine";
import { MockChat } from "./agent-fixtures.js";

/** Haystack's SimpleComponent: greets `text`; counts its warm-ups. */
class SimpleComponent extends Component {
  static override readonly type = "test.SimpleComponent";
  warmUps = 0;
  constructor() {
    super({});
  }
  protected inputSpecs() {
    return { text: socket(v.string()) };
  }
  protected outputSpecs() {
    return { reply: output(v.string()) };
  }
  warmUp() {
    this.warmUps++;
  }
  run(inputs: { text: string }) {
    return { reply: `Hello, ${inputs.text}!` };
  }
}
/** Haystack's SimpleComponentUsingChatMessages. */
class SimpleComponentUsingChatMessages extends Component {
  static override readonly type = "test.SimpleComponentUsingChatMessages";
  constructor() {
    super({});
  }
  protected inputSpecs() {
    return { messages: socket(v.array(v.instance(ChatMessage))) };
  }
  protected outputSpecs() {
    return { reply: output(v.string()) };
  }
  run(inputs: { messages: ChatMessage[] }, _ctx?: ComponentContext) {
    return { reply: `Hello, ${inputs.messages[0]!.text}!` };
  }
}

test("TestComponentTool.test_from_component_basic", async () => {
  const tool = new ComponentTool({ component: new SimpleComponent() });
  assert.is(tool.name, "simple_component");
  assert.equal(tool.parameters, { type: "object", properties: { text: { type: "string", description: "Input 'text' for the component." } }, required: ["text"] });
  assert.equal(await tool.invoke({ text: "world" }), { reply: "Hello, world!" });
});
test("TestComponentTool.test_from_component_long_description", () => {
  assert.is(new ComponentTool({ component: new SimpleComponent(), description: "A".repeat(1024) }).description.length, 1024);
});
test("TestComponentTool.test_from_component_with_inputs_from_state", () => {
  const tool = new ComponentTool({ component: new SimpleComponent(), inputs_from_state: { text: "text" } });
  assert.equal(tool.inputs_from_state, { text: "text" });
  assert.equal(tool.parameters, { type: "object", properties: {} });
});
test("TestComponentTool.test_from_component_with_inputs_from_state_different_names", () => {
  const tool = new ComponentTool({ component: new SimpleComponent(), inputs_from_state: { state_text: "text" } });
  assert.equal(tool.inputs_from_state, { state_text: "text" });
  assert.equal(tool.parameters, { type: "object", properties: {} });
});
test("TestComponentTool.test_from_component_with_invalid_inputs_from_state_nested_dict", () => {
  assert.throws(() => new ComponentTool({ component: new SimpleComponent(), inputs_from_state: { documents: { source: "documents" } as never } }));
});
test("TestComponentTool.test_from_component_with_outputs_to_state", () => {
  assert.equal(new ComponentTool({ component: new SimpleComponent(), outputs_to_state: { replies: { source: "reply" } } }).outputs_to_state, { replies: { source: "reply" } });
});
test("TestComponentTool.test_from_component_with_invalid_outputs_to_state_source", () => {
  assert.throws(() => new ComponentTool({ component: new SimpleComponent(), outputs_to_state: { result: { source: "nonexistent" } } }), /unknown output/);
});
test("TestComponentTool.test_from_component_with_invalid_component", () => {
  const notAComponent = { foo: (text: string) => ({ reply: `Hello, ${text}!` }) };
  assert.throws(() => new ComponentTool({ component: notAComponent as never, name: "invalid_tool", description: "This should fail" }), (e: Error) => e instanceof TypeError);
});
test("TestComponentTool.test_component_invoker_with_chat_message_input", async () => {
  const tool = new ComponentTool({ component: new SimpleComponentUsingChatMessages(), name: "simple_tool", description: "A simple tool" });
  assert.equal(await tool.invoke({ messages: [{ role: "user", content: "world" }] }), { reply: "Hello, world!" });
});
test("TestComponentTool.test_warm_up_is_idempotent", async () => {
  const component = new SimpleComponent();
  const tool = new ComponentTool({ component });
  for (let i = 0; i < 3; i++) await tool.warmUp();
  assert.is(component.warmUps, 1);
});
test("TestComponentTool.test_from_component_with_callable_params_skipped", () => {
  const tool = new ComponentTool({ component: new Agent({ chat_generator: new MockChat() }), name: "agent_tool", description: "An agent tool", outputs_to_string: { source: "last_message" } });
  assert.equal([tool.name, tool.description], ["agent_tool", "An agent tool"]);
  const names = Object.keys(tool.parameters.properties as object);
  assert.not.ok(names.includes("snapshot_callback"));
  assert.not.ok(names.includes("streaming_callback"));
  assert.ok(names.includes("messages"));
});
for (const [name, optional] of [
  ["test_from_component_with_state_param_excluded_from_schema", false],
  ["test_from_component_with_optional_state_param_excluded_from_schema", true],
] as const) {
  test(`TestComponentTool.${name}`, () => {
    class ComponentWithState extends Component {
      static override readonly type = "test.ComponentWithState";
      protected inputSpecs() {
        return { query: socket(v.string()), state: optional ? socket(v.nullable(v.instance(State)), { default: null }) : socket(v.instance(State)) };
      }
      protected outputSpecs() {
        return { result: output(v.string()) };
      }
      run(inputs: { query: string }) {
        return { result: inputs.query };
      }
    }
    const tool = new ComponentTool({ component: new ComponentWithState({}), name: "state_comp", description: "test" });
    const names = Object.keys(tool.parameters.properties as object);
    assert.not.ok(names.includes("state"));
    assert.ok(names.includes("query"));
  });
}
test("TestComponentTool.test_component_invoker_with_agent", async () => {
  const tool = new ComponentTool({ component: new Agent({ chat_generator: new MockChat("Answer") }), name: "agent_tool", description: "An agent tool", outputs_to_string: { source: "last_message" } });
  const result = (await tool.invoke({ messages: [{ role: "user", content: [{ text: "A 4-day trip in the south of France" }] }] })) as { last_message: ChatMessage };
  assert.is(result.last_message.text, "Answer");
});
/** Haystack's ListProcessor: joins `texts` with spaces. */
class ListProcessor extends Component {
  static override readonly type = "test.ListProcessor";
  constructor() {
    super({});
  }
  protected inputSpecs() {
    return { texts: socket(v.array(v.string())) };
  }
  protected outputSpecs() {
    return { concatenated: output(v.string()) };
  }
  run(inputs: { texts: string[] }) {
    return { concatenated: inputs.texts.join(" ") };
  }
}
test("TestComponentTool.test_from_component_with_list_input", async () => {
  const tool = new ComponentTool({ component: new ListProcessor(), name: "list_processing_tool", description: "A tool that concatenates strings" });
  assert.equal(tool.parameters, { type: "object", properties: { texts: { type: "array", description: "Input 'texts' for the component.", items: { type: "string" } } }, required: ["texts"] });
  const result = (await tool.invoke({ texts: ["hello", "world"] })) as Record<string, unknown>;
  assert.equal(result, { concatenated: "hello world" });
});
/** Haystack's ComponentWithUnionMessages: `messages: list[ChatMessage] | str`. */
class ComponentWithUnionMessages extends Component {
  static override readonly type = "test.ComponentWithUnionMessages";
  received: unknown;
  constructor() {
    super({});
  }
  protected inputSpecs() {
    return { messages: socket(v.union([v.array(v.instance(ChatMessage)), v.string()])) };
  }
  protected outputSpecs() {
    return { reply: output(v.string()) };
  }
  run(inputs: { messages: unknown }) {
    this.received = inputs.messages;
    return { reply: "ok" };
  }
}
test("TestComponentTool.test_convert_param_union_with_list_arm", async () => {
  const component = new ComponentWithUnionMessages();
  const tool = new ComponentTool({ component });
  await tool.invoke({ messages: [{ role: "user", content: "Hello" }] });
  assert.equal((component.received as ChatMessage[]).map((m) => m.toDict()), [ChatMessage.fromUser("Hello").toDict()]);
});
// ---- TestComponentToolInAgent: the serialization cases ----
function replyFormatter(text: unknown) {
  return `Formatted reply: ${text}`;
}
function outputHandler(_current: unknown, incoming: unknown) {
  return incoming;
}
const registry = () => {
  const r = createRegistry().registerFunction("test_component_tool.reply_formatter", replyFormatter).registerFunction("test_component_tool.output_handler", outputHandler);
  r.components.register(SimpleComponent as never);
  return r;
};
test("TestComponentToolInAgent.test_serde", () => {
  process.env.OPENAI_API_KEY ??= "test-key";
  const tool = new ComponentTool({ component: new SimpleComponent(), name: "hello_tool", description: "A simple greeting tool" });
  const pipeline = new Pipeline().addComponent("agent", new Agent({ chat_generator: new OpenAIChatGenerator({ api_key: Secret.fromEnvVar("OPENAI_API_KEY") }), tools: [tool] }));
  const agentDict = pipeline.getComponent("agent")!.toDict() as { type: string; init_parameters: { tools: { type: string; data: { name: string; component: { type: string } } }[] } };
  assert.is(agentDict.type, "haystack.components.agents.agent.Agent");
  assert.is(agentDict.init_parameters.tools.length, 1);
  const toolDict = agentDict.init_parameters.tools[0]!;
  assert.equal([toolDict.type, toolDict.data.name, toolDict.data.component.type], ["haystack.tools.component_tool.ComponentTool", "hello_tool", "test.SimpleComponent"]);
  const yaml = dumpPipelineYaml(pipeline);
  assert.is(dumpPipelineYaml(loadPipelineYaml(yaml, registry())), yaml);
});
test("TestComponentToolInAgent.test_component_tool_serde", () => {
  const tool = new ComponentTool({
    component: new SimpleComponent(),
    name: "simple_tool",
    description: "A simple tool",
    outputs_to_string: { source: "reply", handler: replyFormatter },
    inputs_from_state: { test: "text" },
    outputs_to_state: { output: { source: "reply", handler: outputHandler } },
  });
  const expected = {
    type: "haystack.tools.component_tool.ComponentTool",
    data: {
      component: { type: "test.SimpleComponent", init_parameters: {} },
      name: "simple_tool",
      description: "A simple tool",
      parameters: null,
      inputs_from_state: { test: "text" },
      outputs_to_state: { output: { source: "reply", handler: "test_component_tool.output_handler" } },
      outputs_to_string: { source: "reply", handler: "test_component_tool.reply_formatter" },
    },
  };
  assert.equal(tool.toDict(registry()), expected);
  // ComponentTool.from_dict: the dict as a ToolInvoker's tool in YAML.
  const yaml = JSON.stringify({ components: { invoker: { type: "haystack.components.tools.tool_invoker.ToolInvoker", init_parameters: { tools: [expected] } } }, connections: [] });
  const loaded = (loadPipelineYaml(yaml, registry()).getComponent("invoker")!.initParameters as { tools: ComponentTool[] }).tools[0]!;
  assert.equal([loaded.name, loaded.description, loaded.parameters, loaded.inputs_from_state], [tool.name, tool.description, tool.parameters, tool.inputs_from_state]);
  assert.is(loaded.outputs_to_string!.handler, replyFormatter as never);
  assert.is(loaded.outputs_to_state!.output!.handler, outputHandler as never);
  assert.instance(loaded.component, SimpleComponent);
});

test.run();
