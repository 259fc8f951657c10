/**
 * @module Port of Haystack's test_component_tool.py TestComponentToolInAgent live cases: an Agent
 * in a Pipeline calls a ComponentTool through OpenAIChatGenerator. The model is the loopback
 * OpenAI fixture, scripted to answer what the real API answers: a tool call with the arguments
 * the prompt asks for, then a text reply. The checks are Haystack's, plus what the model was sent.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { Agent, ChatMessage, ComponentTool, LostInTheMiddleRanker, OpenAIChatGenerator, Pipeline, Secret } from "svc/engine";
import { startOpenAIFixture, type OpenAIFixture, type ToolCallReply } from "../../../fixtures/openai-server.js";
import { DocumentProcessor, ListProcessor, PersonProcessor, SimpleComponent, UserGreeter } from "./component-tool-fixtures.js";

/** Runs `pipeline.run({agent: {messages: [user]}})` with the model answering `calls`, then "Done."; the tool messages and the fixture. */
async function runAgent(tool: ComponentTool, user: string, calls: ToolCallReply[], generator: Record<string, unknown> = {}): Promise<{ toolMessages: ChatMessage[]; openai: OpenAIFixture }> {
  const openai = await startOpenAIFixture({ apiKey: "test-key" });
  try {
    openai.script([{ toolCalls: calls.map((c, i) => ({ id: `call_${i}`, ...c })) }, { content: "Done." }]);
    const llm = new OpenAIChatGenerator({ api_key: Secret.fromToken("test-key"), api_base_url: openai.url, max_retries: 0, ...generator });
    const pipeline = new Pipeline().addComponent("agent", new Agent({ chat_generator: llm, tools: [tool] }));
    const result = (await pipeline.run({ agent: { messages: [ChatMessage.fromUser(user)] } })) as { agent: { messages: ChatMessage[] } };
    return { toolMessages: result.agent.messages.filter((m) => m.role === "tool"), openai };
  } finally {
    await openai.close();
  }
}
/** The one tool result, which must not be an error. */
function onlyResult(toolMessages: ChatMessage[]): string {
  assert.is(toolMessages.length, 1);
  const result = toolMessages[0]!.toolCallResult!;
  assert.ok(result);
  assert.is(result.error, false);
  return result.result;
}

test("TestComponentToolInAgent.test_component_tool", async () => {
  const tool = new ComponentTool({ component: new SimpleComponent(), name: "hello_tool", description: "A tool that generates a greeting message for the user" });
  const { toolMessages, openai } = await runAgent(tool, "Using a single tool call, greet Vladimir", [{ name: "hello_tool", arguments: { text: "Vladimir" } }]);
  assert.ok(onlyResult(toolMessages).includes("Vladimir"));
  assert.equal(openai.requests[0]!.body.tools, [{ type: "function", function: { name: "hello_tool", description: "A tool that generates a greeting message for the user", parameters: tool.parameters } }]);
});
test("TestComponentToolInAgent.test_component_tool_openai_tools_strict", async () => {
  const tool = new ComponentTool({ component: new SimpleComponent(), name: "hello_tool", description: "A tool that generates a greeting message for the user" });
  const { toolMessages, openai } = await runAgent(tool, "Using tools, greet Vladimir", [{ name: "hello_tool", arguments: { text: "Vladimir" } }], { tools_strict: true });
  assert.ok(onlyResult(toolMessages).includes("Vladimir"));
  const sent = openai.requests[0]!.body.tools[0].function;
  assert.equal([sent.strict, sent.parameters.additionalProperties], [true, false]);
});
test("TestComponentToolInAgent.test_user_greeter", async () => {
  const tool = new ComponentTool({ component: new UserGreeter(), name: "user_greeter", description: "A tool that greets users with their name and age" });
  const { toolMessages } = await runAgent(tool, "Greet the user Alice who is 30 years old", [{ name: "user_greeter", arguments: { user: { name: "Alice", age: 30 } } }]);
  assert.is(onlyResult(toolMessages), '{"message": "User Alice is 30 years old"}');
});
test("TestComponentToolInAgent.test_list_processor", async () => {
  const tool = new ComponentTool({ component: new ListProcessor(), name: "list_processor", description: "A tool that concatenates a list of strings" });
  const { toolMessages } = await runAgent(tool, "Using tools, join these words: hello, beautiful, world", [{ name: "list_processor", arguments: { texts: ["hello", "beautiful", "world"] } }]);
  assert.ok(toolMessages.length >= 1);
  let combined = "";
  for (const message of toolMessages) {
    const result = message.toolCallResult!;
    assert.ok(result && !result.error);
    assert.type(result.result, "string");
    assert.ok(result.result.includes("concatenated"));
    combined += ` ${result.result}`;
  }
  const normalized = combined.split(/\s+/).filter(Boolean).join(" ");
  for (const word of ["hello", "beautiful", "world"]) assert.ok(normalized.includes(word));
});
test("TestComponentToolInAgent.test_person_processor", async () => {
  const tool = new ComponentTool({ component: new PersonProcessor(), name: "person_processor", description: "A tool that processes information about a person and their address" });
  const { toolMessages } = await runAgent(tool, "Process information about the person Diana who lives at 123 Elm Street in Metropolis", [
    { name: "person_processor", arguments: { person: { name: "Diana", address: { street: "123 Elm Street", city: "Metropolis" } } } },
  ]);
  const result = onlyResult(toolMessages);
  assert.ok(result.includes("Diana") && result.includes("Metropolis"));
});
test("TestComponentToolInAgent.test_document_processor", async () => {
  const tool = new ComponentTool({ component: new DocumentProcessor(), name: "document_processor", description: "A tool that concatenates the content of multiple documents" });
  const { toolMessages } = await runAgent(
    tool,
    "Concatenate these documents: First one says 'Hello world' and second one says 'Goodbye world' and third one says 'Hello again', but use top_k=2. Set only content field of the document only. Do not set id, meta, score, embedding, sparse_embedding, dataframe, blob fields.",
    [{ name: "document_processor", arguments: { documents: [{ content: "Hello world" }, { content: "Goodbye world" }, { content: "Hello again" }], top_k: 2 } }],
  );
  const result = JSON.parse(onlyResult(toolMessages)) as { concatenated: string };
  assert.ok("concatenated" in result);
  assert.ok(result.concatenated.includes("Hello world"));
  assert.ok(result.concatenated.includes("Goodbye world"));
  assert.not.ok(result.concatenated.includes("Hello again"));
});
test("TestComponentToolInAgent.test_lost_in_middle_ranker", async () => {
  const tool = new ComponentTool({ component: new LostInTheMiddleRanker(), name: "lost_in_middle_ranker", description: "A tool that ranks documents using the Lost in the Middle algorithm and returns top k results" });
  const { toolMessages, openai } = await runAgent(
    tool,
    "I have three documents with content: 'First doc', 'Middle doc', and 'Last doc'. Rank them top_k=2. Set only content field of the document only. Do not set id, meta, score, embedding, sparse_embedding, dataframe, blob fields.",
    [{ name: "lost_in_middle_ranker", arguments: { documents: [{ content: "First doc" }, { content: "Middle doc" }, { content: "Last doc" }], top_k: 2 } }],
  );
  assert.is(toolMessages.length, 1);
  assert.is(toolMessages[0]!.role, "tool");
  assert.is(toolMessages[0]!.toolCallResult!.error, false);
  // The model was offered Documents by Haystack's schema.
  assert.equal(openai.requests[0]!.body.tools[0].function.parameters.properties.documents.items, { $ref: "#/$defs/Document" });
});

test.run();
