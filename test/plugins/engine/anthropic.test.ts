import { test } from "uvu";
import * as assert from "uvu/assert";
import { NOOP_TRACER } from "svc/plugin";
import { Agent, ChatMessage, createRegistry, loadPipelineYaml, StreamingChunk, tool } from "svc/engine";
import { AnthropicChatGenerator, resolveGenerationKwargs } from "../../../plugins/engine/components/anthropic-chat-generator.js";
import { captureStdout } from "../../helpers/stdout.js";
import { rejects } from "../../helpers/rejects.js";
import { startAnthropicFixture, type AnthropicFixture } from "../../fixtures/anthropic-server.js";

let server: AnthropicFixture;
/** A test model name: the SDK warns about deprecated real ones. */
const make = (init: Record<string, unknown> = {}) => new AnthropicChatGenerator({ model: "claude-test", ...init });
const saved = { key: process.env.ANTHROPIC_API_KEY, url: process.env.ANTHROPIC_BASE_URL };
const ctx = (name = "llm") => ({ name, signal: new AbortController().signal, tracer: NOOP_TRACER });

test.before(async () => {
  server = await startAnthropicFixture({ apiKey: "test-key" });
  process.env.ANTHROPIC_API_KEY = "test-key";
  process.env.ANTHROPIC_BASE_URL = server.url;
});
test.after(async () => {
  await server.close();
  for (const [name, value] of [["ANTHROPIC_API_KEY", saved.key], ["ANTHROPIC_BASE_URL", saved.url]] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

test("a reply: system blocks, max_tokens default, OpenAI-style usage, finish reason, empty reasoning", async () => {
  const llm = make({ generation_kwargs: { temperature: 0.2, seed: 1 } });
  const { replies } = await llm.run({ messages: [ChatMessage.fromSystem("Be brief."), ChatMessage.fromUser("hello there")] }, ctx());
  const sent = server.requests.at(-1)!;
  assert.is(sent.headers["x-api-key"] ?? sent.headers.authorization, sent.headers["x-api-key"] ? "test-key" : "Bearer test-key");
  assert.equal(sent.body.system, [{ type: "text", text: "Be brief." }]);
  assert.equal(sent.body.messages, [{ role: "user", content: [{ type: "text", text: "hello there" }] }]);
  assert.is(sent.body.max_tokens, 1024);
  assert.is(sent.body.temperature, 0.2);
  assert.is(sent.body.seed, undefined, "parameters Anthropic does not take are dropped");
  const reply = replies[0]!;
  assert.is(reply.text, "hello there");
  assert.equal(reply.meta, { model: "claude-test", index: 0, finish_reason: "stop", usage: { prompt_tokens: 10, completion_tokens: 5 } });
  assert.equal(reply.reasoning, { reasoning_text: "", extra: { reasoning_contents: [] } });
});

test("tools: specs sent as input_schema, tool_use parsed, text dropped unless asked, tool results merged", async () => {
  const weather = tool({ name: "weather", description: "Weather of a city", parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } }, ({ city }) => `sunny in ${city}`);
  const llm = make({ tools: [weather] });
  server.script({
    content: [{ type: "text", text: "Let me check." }, { type: "tool_use", id: "toolu_1", name: "weather", input: { city: "Paris" } }],
    stop_reason: "tool_use",
    usage: { input_tokens: 20, output_tokens: 7, cache_read_input_tokens: 5 },
  });
  const [reply] = (await llm.run({ messages: [ChatMessage.fromUser("weather in Paris?")] }, ctx())).replies;
  assert.equal(server.requests.at(-1)!.body.tools, [{ name: "weather", description: "Weather of a city", input_schema: weather.parameters }]);
  assert.is(reply!.text, "");
  assert.equal(reply!.toolCalls, [{ tool_name: "weather", arguments: { city: "Paris" }, id: "toolu_1" }]);
  assert.equal(reply!.meta.usage, { prompt_tokens: 25, completion_tokens: 7, cache_read_input_tokens: 5 });
  assert.is(reply!.meta.finish_reason, "tool_calls");
  server.script({ content: [{ type: "text", text: "a" }, { type: "tool_use", id: "toolu_2", name: "weather", input: {} }], stop_reason: "tool_use" });
  const keep = await make({ tools: [weather], ignore_tools_thinking_messages: false }).run({ messages: [ChatMessage.fromUser("x")] }, ctx());
  assert.is(keep.replies[0]!.text, "a");
  // Two tool messages in a row become one user turn with two tool_result blocks.
  const call1 = { tool_name: "weather", arguments: { city: "A" }, id: "t1" }, call2 = { tool_name: "weather", arguments: { city: "B" }, id: "t2" };
  await llm.run({ messages: [ChatMessage.fromUser("q"), ChatMessage.fromAssistant(null, { toolCalls: [call1, call2] }), ChatMessage.fromTool("ra", call1), ChatMessage.fromTool("rb", call2, true)] }, ctx());
  assert.equal(server.requests.at(-1)!.body.messages.slice(1), [
    { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "weather", input: { city: "A" } }, { type: "tool_use", id: "t2", name: "weather", input: { city: "B" } }] },
    { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: [{ type: "text", text: "ra" }], is_error: false }, { type: "tool_result", tool_use_id: "t2", content: [{ type: "text", text: "rb" }], is_error: true }] },
  ]);
  assert.throws(() => make({ tools: [weather, weather] }), /Duplicate tool names/);
  assert.throws(() => make({ tools: [weather], anthropic_server_tools: [{ type: "web_search_20250305", name: "weather" }] }), /cannot reuse a name/);
});

test("streaming: Anthropic's events as StreamingChunks, the reply rebuilt with usage and reasoning", async () => {
  const chunks: StreamingChunk[] = [];
  server.script({
    content: [{ type: "thinking", thinking: "Think about it.", signature: "sig-1" }, { type: "text", text: "Answer text" }, { type: "tool_use", id: "toolu_9", name: "lookup", input: { q: "x y" } }],
    stop_reason: "tool_use",
    usage: { input_tokens: 12, output_tokens: 30 },
  });
  const llm = make({ streaming_callback: (c: StreamingChunk) => void chunks.push(c) });
  const [reply] = (await llm.run({ messages: [ChatMessage.fromUser("go")] }, ctx("streamer"))).replies;
  assert.ok(server.requests.at(-1)!.body.stream);
  assert.equal(chunks[0]!.start && chunks[0]!.index, null, "message_start starts the reply");
  assert.ok(chunks.every((c) => c.component_info?.name === "streamer" && c.component_info.type === AnthropicChatGenerator.type));
  assert.is(chunks.filter((c) => c.content).map((c) => c.content).join(""), "Answer text");
  assert.is(chunks.find((c) => c.content)!.index, 1);
  const toolStart = chunks.find((c) => c.tool_calls?.[0]?.tool_name)!;
  assert.equal([toolStart.start, toolStart.index, toolStart.tool_calls], [true, 2, [{ index: 0, id: "toolu_9", tool_name: "lookup" }]]);
  assert.is(chunks.at(-1)!.finish_reason, "tool_calls");
  assert.is(reply!.text, "Answer text");
  assert.equal(reply!.toolCalls, [{ id: "toolu_9", tool_name: "lookup", arguments: { q: "x y" } }]);
  assert.equal(reply!.meta.usage, { output_tokens: 30, input_tokens: 12 });
  assert.is(reply!.meta.finish_reason, "tool_calls");
  assert.equal(reply!.reasoning, { reasoning_text: "Think about it.", extra: { reasoning_contents: [{ reasoning_content: { reasoning_text: { text: "Think about it.", signature: "sig-1" } } }] } });
  // The reasoning goes back to Anthropic as a signed thinking block.
  await make().run({ messages: [ChatMessage.fromUser("go"), reply!, ChatMessage.fromTool("done", reply!.toolCalls[0]!)] }, ctx());
  assert.equal(server.requests.at(-1)!.body.messages[1].content.slice(0, 2), [{ type: "thinking", thinking: "Think about it.", signature: "sig-1" }, { type: "text", text: "Answer text" }]);
});

test("an Agent loops tools through Anthropic", async () => {
  const weather = tool({ name: "weather", description: "d", parameters: { type: "object", properties: { city: { type: "string" } } } }, ({ city }) => `sunny in ${city}`);
  server.script({ content: [{ type: "tool_use", id: "toolu_a", name: "weather", input: { city: "Rome" } }], stop_reason: "tool_use" }, { content: [{ type: "text", text: "It is sunny in Rome." }] });
  const agent = new Agent({ chat_generator: make(), tools: [weather] });
  const out = (await agent.run({ messages: [ChatMessage.fromUser("weather?")] }, ctx("agent"))) as { last_message: ChatMessage };
  assert.is(out.last_message.text, "It is sunny in Rome.");
  const last = server.requests.at(-1)!.body.messages.at(-1);
  assert.equal(last, { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_a", content: [{ type: "text", text: "sunny in Rome" }], is_error: false }] });
});

test("errors: the API's message, a missing key, generation kwargs shortcuts", async () => {
  server.script({ status: 529, error: { type: "overloaded_error", message: "Overloaded" } });
  await rejects(() => make({ max_retries: 0 }).run({ messages: [ChatMessage.fromUser("x")] }, ctx()), /AnthropicChatGenerator 'llm': the Anthropic API answered 529: Overloaded/);
  await rejects(() => make({ api_key: { type: "env_var", env_vars: ["NO_SUCH_ANTHROPIC_KEY"], strict: false } }).run({ messages: [ChatMessage.fromUser("x")] }, ctx()), /has no Anthropic API key: set the environment variable NO_SUCH_ANTHROPIC_KEY/);
  assert.equal(resolveGenerationKwargs({ parallel_tool_use: false, thinking_budget_tokens: 2000 }), { tool_choice: { type: "auto", disable_parallel_tool_use: true }, thinking: { type: "enabled", budget_tokens: 2000 } });
  assert.equal(resolveGenerationKwargs({ adaptive_thinking_effort: "high", tool_choice_type: "any" }), { tool_choice: { type: "any" }, thinking: { type: "adaptive" }, output_config: { effort: "high" } });
  assert.throws(() => resolveGenerationKwargs({ parallel_tool_use: true, disable_parallel_tool_use: true }), /Cannot set both/);
});

test("YAML as Haystack writes it: secret, streaming callback by import path, to_dict round trip", async () => {
  const yaml = `components:
  llm:
    type: haystack_integrations.components.generators.anthropic.chat.chat_generator.AnthropicChatGenerator
    init_parameters:
      api_key: {type: env_var, env_vars: [ANTHROPIC_API_KEY], strict: true}
      model: claude-test
      streaming_callback: haystack.components.generators.utils.print_streaming_chunk
      generation_kwargs: {max_tokens: 50}
      ignore_tools_thinking_messages: true
      tools: null
      anthropic_server_tools: null
      timeout: null
      max_retries: null
connections: []
`;
  const pipeline = loadPipelineYaml(yaml, createRegistry());
  const { result, written } = await captureStdout(() => pipeline.run({ llm: { messages: [ChatMessage.fromUser("printed")] } }));
  assert.is((result.llm!.replies as ChatMessage[])[0]!.text, "printed");
  assert.is(server.requests.at(-1)!.body.max_tokens, 50);
  // Anthropic starts a block before its text, so no [ASSISTANT] header (as with Haystack).
  assert.is(written, "printed\n\n");
  const dict = pipeline.getComponent("llm").toDict();
  assert.equal(dict.init_parameters.api_key, { type: "env_var", env_vars: ["ANTHROPIC_API_KEY"], strict: true });
  assert.is(dict.init_parameters.streaming_callback, "haystack.components.generators.utils.print_streaming_chunk");
});

test.run();
