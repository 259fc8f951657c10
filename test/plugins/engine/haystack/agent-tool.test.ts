/**
 * @module Port of Haystack's test/tools/test_agent_tool.py (values, not Python). Haystack's
 * MockChatGenerator is a test double here with the same init parameters; `test_live_run` runs
 * against the loopback OpenAI fixture, which answers as the two models would.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import * as v from "valibot";
import { NOOP_TRACER } from "svc/plugin";
import { Agent, AgentTool, ChatMessage, Component, createRegistry, loadPipelineYaml, OpenAIChatGenerator, output, Secret, socket, Tool } from "svc/engine";
import { agentResultToString } from "../../../../plugins/engine/agent-tool.js";
import { startOpenAIFixture } from "../../../fixtures/openai-server.js";

const echoLastMessage = (messages: ChatMessage[]) => messages.at(-1)?.text ?? "";
const FUNCTIONS: Record<string, (messages: ChatMessage[]) => string> = { "test_agent_tool._echo_last_message": echoLastMessage };

/** Haystack's MockChatGenerator: fixed `responses` in turn, or `response_fn(messages)`. */
class MockChatGenerator extends Component {
  static override readonly type = "haystack.components.generators.chat.mock.MockChatGenerator";
  static override readonly initSchema = v.object({
    responses: v.optional(v.nullable(v.array(v.string())), null),
    response_fn: v.optional(v.nullable(v.string()), null),
    model: v.optional(v.string(), "mock-model"),
    meta: v.optional(v.record(v.string(), v.unknown()), {}),
    streaming_callback: v.optional(v.unknown(), null),
  });
  private calls = 0;
  protected inputSpecs() {
    return { messages: socket(v.array(v.instance(ChatMessage))), tools: socket(v.any(), { default: null }), streaming_callback: socket(v.any(), { default: null }), generation_kwargs: socket(v.any(), { default: null }) };
  }
  protected outputSpecs() {
    return { replies: output(v.array(v.instance(ChatMessage))) };
  }
  run(inputs: { messages: ChatMessage[] }) {
    const p = this.initParameters as { responses: string[] | null; response_fn: string | null };
    const text = p.response_fn ? FUNCTIONS[p.response_fn]!(inputs.messages) : p.responses![this.calls++ % p.responses!.length]!;
    return { replies: [ChatMessage.fromAssistant(text)] };
  }
}
const mock = (init: Record<string, unknown>) => new MockChatGenerator(init);
const registry = () => {
  const r = createRegistry();
  r.components.register(MockChatGenerator as never);
  return r;
};
/** AgentTool.from_dict: the tool loaded as an Agent's tool from YAML. */
const fromDict = (data: Record<string, unknown>) =>
  (loadPipelineYaml(JSON.stringify({ components: { boss: { type: "haystack.components.agents.agent.Agent", init_parameters: { chat_generator: { type: MockChatGenerator.type, init_parameters: { responses: ["ok"] } }, tools: [data], state_schema: { notes: { type: "str" } } } } }, connections: [] }), registry()).getComponent("boss")!.initParameters as { tools: AgentTool[] }).tools[0]!;

const MESSAGES_SCHEMA = {
  type: "array",
  description: "Exactly one user message.",
  minItems: 1,
  maxItems: 1,
  items: { type: "object", properties: { role: { type: "string", enum: ["user"] }, content: { type: "string", description: "The task to delegate to this tool." } }, required: ["role", "content"] },
};
const requiredToolParameters = (agent: Agent, inputsFromState: Record<string, string> | null) => (AgentTool.generatedParameters(agent, inputsFromState).required as string[]).slice(1);

// ---- TestRequiredToolParameters ----
test("test_agent_without_prompt_variables", () => {
  const agent = new Agent({ chat_generator: mock({ responses: ["done"] }), system_prompt: "You research things." });
  assert.equal(requiredToolParameters(agent, null), []);
});
test("test_agent_with_prompt_variables", () => {
  const agent = new Agent({ chat_generator: mock({ responses: ["done"] }), system_prompt: "You research {{topic}}." });
  assert.equal(requiredToolParameters(agent, null), ["topic"]);
});
test("test_prompt_variable_mapped_from_state", () => {
  const agent = new Agent({ chat_generator: mock({ responses: ["done"] }), system_prompt: "You research {{topic}}." });
  assert.equal(requiredToolParameters(agent, { subject: "topic" }), []);
});

// ---- TestAgentResultToString ----
const lookupResult = () => ChatMessage.fromTool("42", { id: "1", tool_name: "lookup", arguments: {} });
// Python's json.dumps(message.to_dict()): `, ` and `: ` separators.
const LOOKUP_JSON = '{"role": "tool", "meta": {}, "name": null, "content": [{"tool_call_result": {"result": "42", "origin": {"tool_name": "lookup", "arguments": {}, "id": "1", "extra": null}, "error": false}}]}';
test("test_exit_reason_text", () => {
  assert.is(agentResultToString({ last_message: ChatMessage.fromAssistant("Response"), exit_reason: "text" }), "Response");
});
test("test_exit_reason_tool", () => {
  assert.is(agentResultToString({ last_message: lookupResult(), exit_reason: "lookup" }), LOOKUP_JSON);
});
test("test_exit_reason_max_agent_steps", () => {
  assert.is(agentResultToString({ last_message: lookupResult(), exit_reason: "max_agent_steps" }), LOOKUP_JSON + "\n\n[The Agent reached max_agent_steps and stopped, so this result may be incomplete.]");
});

// ---- TestAgentTool ----
test("test_init", () => {
  const subAgent = new Agent({ chat_generator: mock({ response_fn: "test_agent_tool._echo_last_message" }) });
  const tool = new AgentTool({ agent: subAgent, name: "research", description: "Research a question and report the findings." });
  assert.is(tool.name, "research");
  assert.is(tool.description, "Research a question and report the findings.");
  assert.is(tool.component, subAgent);
  assert.equal(tool.parameters, { type: "object", properties: { messages: MESSAGES_SCHEMA }, required: ["messages"] });
  assert.equal(tool.outputs_to_string, { handler: agentResultToString });
});
test("test_init_with_non_agent", () => {
  assert.throws(() => new AgentTool({ agent: "not an agent" as never, name: "research", description: "Research a question." }), (e: Error) => e instanceof TypeError && /must be an instance of Agent/.test(e.message));
});
test("test_init_with_prompt_template", () => {
  const subAgent = new Agent({ chat_generator: mock({ responses: ["done"] }), system_prompt: "You research {{topic}}." });
  const tool = new AgentTool({ agent: subAgent, name: "research", description: "Research a question." });
  assert.equal(tool.parameters, { type: "object", properties: { messages: MESSAGES_SCHEMA, topic: { type: "string" } }, required: ["messages", "topic"] });
});
test("test_init_with_prompt_template_and_inputs_from_state", () => {
  const subAgent = new Agent({ chat_generator: mock({ responses: ["done"] }), system_prompt: "You research {{topic}}." });
  const tool = new AgentTool({ agent: subAgent, name: "research", description: "Research a question.", inputs_from_state: { subject: "topic" } });
  assert.equal(tool.parameters, { type: "object", properties: { messages: MESSAGES_SCHEMA }, required: ["messages"] });
});
const CUSTOM = { type: "object", properties: { messages: { type: "array" } }, required: ["messages"] };
test("test_init_with_custom_parameters", () => {
  const tool = new AgentTool({ agent: new Agent({ chat_generator: mock({ responses: ["done"] }) }), name: "research", description: "Research a question.", parameters: CUSTOM });
  assert.equal(tool.parameters, CUSTOM);
});
test("test_init_with_custom_parameters_missing_a_required_input", () => {
  const subAgent = new Agent({ chat_generator: mock({ responses: ["done"] }), system_prompt: "You research {{topic}}." });
  assert.throws(() => new AgentTool({ agent: subAgent, name: "research", description: "Research a question.", parameters: CUSTOM }), /requires the inputs \['topic'\]/);
});
test("test_to_dict", () => {
  const tool = new AgentTool({ agent: new Agent({ chat_generator: mock({ response_fn: "test_agent_tool._echo_last_message" }) }), name: "research", description: "Research a question.", outputs_to_state: { notes: { source: "last_message" } } });
  assert.equal(tool.toDict(), {
    type: "haystack.tools.agent_tool.AgentTool",
    data: {
      name: "research",
      description: "Research a question.",
      parameters: null,
      inputs_from_state: null,
      outputs_to_state: { notes: { source: "last_message" } },
      outputs_to_string: { handler: "haystack.tools.agent_tool.agent_result_to_string" },
      agent: {
        type: "haystack.components.agents.agent.Agent",
        init_parameters: {
          chat_generator: { type: MockChatGenerator.type, init_parameters: { responses: null, response_fn: "test_agent_tool._echo_last_message", model: "mock-model", meta: {}, streaming_callback: null } },
          tools: [],
          system_prompt: null,
          user_prompt: null,
          required_variables: "*",
          exit_conditions: ["text"],
          state_schema: {},
          max_agent_steps: 100,
          streaming_callback: null,
          raise_on_tool_invocation_failure: false,
          tool_concurrency_limit: 4,
          tool_streaming_callback_passthrough: false,
          hooks: null,
        },
      },
    },
  });
});
test("test_to_dict_with_explicit_parameters", () => {
  const tool = new AgentTool({ agent: new Agent({ chat_generator: mock({ response_fn: "test_agent_tool._echo_last_message" }) }), name: "research", description: "Research a question.", parameters: CUSTOM });
  assert.equal(tool.toDict().data.parameters, CUSTOM);
});
test("test_from_dict", () => {
  const tool = fromDict({
    type: "haystack.tools.agent_tool.AgentTool",
    data: {
      name: "research",
      description: "Research a question.",
      parameters: null,
      inputs_from_state: null,
      outputs_to_state: { notes: { source: "last_message" } },
      outputs_to_string: { handler: "haystack.tools.agent_tool.agent_result_to_string" },
      agent: { type: "haystack.components.agents.agent.Agent", init_parameters: { chat_generator: { type: MockChatGenerator.type, init_parameters: { response_fn: "test_agent_tool._echo_last_message" } } } },
    },
  });
  assert.ok(tool instanceof AgentTool);
  assert.ok(tool.component instanceof Agent);
  assert.is(tool.name, "research");
  assert.is(tool.description, "Research a question.");
  assert.equal(tool.parameters, { type: "object", properties: { messages: MESSAGES_SCHEMA }, required: ["messages"] });
  assert.equal(tool.outputs_to_string, { handler: agentResultToString });
  assert.equal(tool.outputs_to_state, { notes: { source: "last_message" } });
  assert.is(tool.toDict().data.parameters, null);
});
test("test_from_dict_with_explicit_parameters", () => {
  const parameters = { type: "object", properties: { messages: { type: "array", description: "Custom messages schema." } }, required: ["messages"] };
  const data = new AgentTool({ agent: new Agent({ chat_generator: mock({ response_fn: "test_agent_tool._echo_last_message" }) }), name: "research", description: "Research a question.", parameters }).toDict();
  const tool = fromDict(data);
  assert.equal(tool.parameters, parameters);
  assert.equal(tool.toDict().data.parameters, parameters);
});

test("test_live_run", async () => {
  const openai = await startOpenAIFixture({ apiKey: "k" });
  try {
    const llm = (model: string) => new OpenAIChatGenerator({ model, api_key: Secret.fromToken("k"), api_base_url: openai.url, max_retries: 0 });
    const orderStatus = new Tool({ name: "order_status", description: "Look up the status of an order.", parameters: { type: "object", properties: { order_id: { type: "string" } }, required: ["order_id"] }, function: (a: Record<string, unknown>) => `Order ${a.order_id} shipped, tracking code ZX9-4471.` });
    const orderLookupAgent = new Agent({ chat_generator: llm("gpt-4.1-nano"), tools: [orderStatus], system_prompt: "Look up the order and report the tracking code exactly as the tool returned it.", max_agent_steps: 3 });
    const orderLookup = new AgentTool({ agent: orderLookupAgent, name: "order_lookup", description: "Look up the status of an order by its ID." });
    const coordinator = new Agent({ chat_generator: llm("gpt-4.1-mini"), tools: [orderLookup], system_prompt: "Delegate every order question to the order_lookup tool, then answer the user.", max_agent_steps: 5 });
    openai.script([
      { toolCalls: [{ id: "c1", name: "order_lookup", arguments: { messages: [{ role: "user", content: "Status of order A-17?" }] } }] },
      { toolCalls: [{ id: "c2", name: "order_status", arguments: { order_id: "A-17" } }] },
      { content: "Order A-17 shipped, tracking code ZX9-4471." },
      { content: "Order A-17 has shipped; its tracking code is ZX9-4471." },
    ]);
    const result = (await coordinator.run({ messages: [ChatMessage.fromUser("What is the status and the tracking code of order A-17?")] }, { name: "coordinator", signal: new AbortController().signal, tracer: NOOP_TRACER })) as { messages: ChatMessage[]; tool_call_counts: Record<string, number> };
    const toolMessages = result.messages.filter((m) => m.role === "tool");
    assert.ok(toolMessages.length);
    assert.ok(toolMessages.every((m) => !m.toolCallResults[0]!.error));
    assert.ok(toolMessages.some((m) => m.toolCallResults[0]!.result.includes("ZX9-4471")));
    assert.equal(Object.keys(result.tool_call_counts), ["order_lookup"]);
    assert.ok(result.messages.at(-1)!.text!.includes("ZX9-4471"));
    // What each model was sent: the inner Agent got the delegated task as its one user message.
    assert.equal(openai.requests.map((r) => r.body.model), ["gpt-4.1-mini", "gpt-4.1-nano", "gpt-4.1-nano", "gpt-4.1-mini"]);
    assert.equal(openai.requests[1]!.body.messages.map((m: any) => [m.role, m.content]), [["system", "Look up the order and report the tracking code exactly as the tool returned it."], ["user", "Status of order A-17?"]]);
  } finally {
    await openai.close();
  }
});

test.run();
