/**
 * @module Port of the two live-OpenAI cases of Haystack's test/components/agents/test_agent.py
 * (`TestAgent.test_run`, `TestAgentStreaming.test_agent_streaming_with_tool_call`). The Agent's
 * OpenAIChatGenerator talks to the loopback OpenAI fixture in its `likeOpenAI` mode (a request
 * the API would reject fails, the answer names the model snapshot and carries the usage); each
 * scripted reply is what gpt-4.1-nano answers at that step: a weather_tool call, then the answer.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { Agent, ChatMessage, OpenAIChatGenerator, Secret, type StreamingChunk } from "svc/engine";
import { startOpenAIFixture, type OpenAIFixture } from "../../../fixtures/openai-server.js";
import { ctx, weatherTool } from "./agent-fixtures.js";

type Out = { messages: ChatMessage[]; last_message: ChatMessage; step_count: number; token_usage: Record<string, number>; tool_call_counts: Record<string, number> };
const KEY = "sk-live-fixture";

async function withOpenAI(fn: (f: OpenAIFixture, llm: () => OpenAIChatGenerator) => Promise<void>): Promise<void> {
  const fixture = await startOpenAIFixture({ apiKey: KEY, likeOpenAI: true });
  try {
    await fn(fixture, () => new OpenAIChatGenerator({ model: "gpt-4.1-nano", api_key: Secret.fromToken(KEY), api_base_url: fixture.url, max_retries: 0 }));
  } finally {
    await fixture.close();
  }
}

const usagePositive = (usage: Record<string, number>) => assert.ok(usage.prompt_tokens! > 0 && usage.completion_tokens! > 0 && usage.total_tokens! > 0, JSON.stringify(usage));

/** The second request carries the tool call and its result back, in OpenAI's format. */
function assertToolRoundTrip(f: OpenAIFixture, location: string, weather: Record<string, unknown>) {
  assert.is(f.requests.length, 2);
  const [, assistant, tool] = f.requests[1]!.body.messages;
  const call = assistant.tool_calls[0];
  assert.equal([assistant.role, call.type, call.function.name, JSON.parse(call.function.arguments)], ["assistant", "function", "weather_tool", { location }]);
  assert.equal([tool.role, tool.tool_call_id, JSON.parse(tool.content)], ["tool", call.id, weather]);
  assert.equal(f.requests[0]!.body.tools.map((t: any) => t.function.name), ["weather_tool"]);
}

test("test_run", () =>
  withOpenAI(async (f, llm) => {
    const agent = new Agent({ chat_generator: llm(), tools: [weatherTool()], max_agent_steps: 3 });
    f.script([{ toolCalls: [{ name: "weather_tool", arguments: { location: "Berlin" } }] }, { content: "The weather in Berlin is mostly sunny, 7 °C." }]);
    const response = (await agent.run({ messages: [ChatMessage.fromUser("What is the weather in Berlin?")] } as never, ctx())) as unknown as Out;
    const messages = response.messages;
    assert.is(messages.length, 4);
    assert.is(messages[0]!.text, "What is the weather in Berlin?");
    assert.is(messages[1]!.text, null);
    assert.is(messages[2]!.text, null);
    assert.ok(messages[3]!.text);
    assert.equal(messages[0]!.meta, {});
    assert.ok(messages[1]!.meta.model);
    assert.equal(messages[2]!.meta, {});
    assert.ok(messages[3]!.meta.model);
    assert.is(messages[1]!.toolCalls[0]!.tool_name, "weather_tool");
    assert.equal(messages[1]!.toolCalls[0]!.arguments, { location: "Berlin" });
    assert.ok(messages[2]!.toolCallResults[0]!.result);
    assert.equal(messages[2]!.toolCallResults[0]!.origin, messages[1]!.toolCalls[0]);
    assert.ok(response.last_message instanceof ChatMessage);
    assert.is(response.messages.at(-1), response.last_message);
    assert.is(response.step_count, 2);
    assert.equal(response.tool_call_counts, { weather_tool: 1 });
    usagePositive(response.token_usage);
    assertToolRoundTrip(f, "Berlin", { weather: "mostly sunny", temperature: 7, unit: "celsius" });
  }));

test("test_agent_streaming_with_tool_call", () =>
  withOpenAI(async (f, llm) => {
    const agent = new Agent({ chat_generator: llm(), tools: [weatherTool()] });
    const chunks: StreamingChunk[] = [];
    f.script([{ toolCalls: [{ name: "weather_tool", arguments: { location: "Paris" } }] }, { content: "It is mostly cloudy in Paris, 8 °C." }]);
    const result = (await agent.run(
      { messages: [ChatMessage.fromUser("What's the weather in Paris?")], streaming_callback: (c: StreamingChunk) => void chunks.push(c), generation_kwargs: { stream_options: { include_usage: true } } } as never,
      ctx(),
    )) as unknown as Out;
    assert.ok(result.messages);
    assert.ok(result.last_message);
    assert.ok(chunks.length > 0);
    assert.is(result.step_count, 2);
    assert.equal(result.tool_call_counts, { weather_tool: 1 });
    usagePositive(result.token_usage);
    // Both LLM calls streamed, with the usage chunk asked for.
    assert.equal(f.requests.map((r) => [r.body.stream, r.body.stream_options]), [[true, { include_usage: true }], [true, { include_usage: true }]]);
    assert.equal(result.messages[1]!.toolCalls[0]!.arguments, { location: "Paris" });
    assertToolRoundTrip(f, "Paris", { weather: "mostly cloudy", temperature: 8, unit: "celsius" });
  }));

test.run();
