/**
 * @module Port of Haystack's test/components/generators/chat/test_openai.py, second half
 * (values, not Python): `TestComponentLifecycle` (the client's settings, tools warmed once,
 * `close`), `TestChatCompletionChunkConversion` (OpenAI stream chunks → StreamingChunks → the
 * reply; the chunks are the SDK's wire JSON) and `TestMakeSchemaStrict`.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { ChatMessage, OpenAIChatGenerator, Secret, Tool, type StreamingChunk } from "svc/engine";
import { makeSchemaStrict, messageFromChunks, openAITools, toStreamingChunk } from "../../../../plugins/engine/components/openai-conversion.js";
import { withEnv } from "../../../helpers/env.js";

const noEnv = { OPENAI_TIMEOUT: undefined, OPENAI_MAX_RETRIES: undefined };

test("test_warm_up_uses_default_timeout_and_max_retries", () =>
  withEnv({ ...noEnv, OPENAI_API_KEY: "fake-api-key" }, async () => {
    const generator = new OpenAIChatGenerator();
    await generator.warmUp();
    assert.equal([generator.clientSettings!.maxRetries, generator.clientSettings!.timeoutSeconds], [5, 30]);
  }));

test("test_warm_up_uses_timeout_and_max_retries_from_parameters", () =>
  withEnv(noEnv, async () => {
    const generator = new OpenAIChatGenerator({ api_key: Secret.fromToken("fake-api-key"), timeout: 40.0, max_retries: 1 });
    await generator.warmUp();
    assert.equal([generator.clientSettings!.maxRetries, generator.clientSettings!.timeoutSeconds], [1, 40]);
  }));

test("test_warm_up_uses_timeout_and_max_retries_from_env_vars", () =>
  withEnv({ OPENAI_TIMEOUT: "100", OPENAI_MAX_RETRIES: "10" }, async () => {
    const generator = new OpenAIChatGenerator({ api_key: Secret.fromToken("fake-api-key") });
    await generator.warmUp();
    assert.equal([generator.clientSettings!.maxRetries, generator.clientSettings!.timeoutSeconds], [10, 100]);
  }));

test("test_warm_up_warms_tools_once", () =>
  withEnv({ OPENAI_API_KEY: "fake-api-key" }, async () => {
    const calls: string[] = [];
    const mockTool = (name: string) =>
      Object.assign(new Tool({ name, description: `Mock tool ${name}`, parameters: { type: "object", properties: { x: { type: "string" } }, required: ["x"] }, function: ({ x }) => x }), {
        warmUp: () => void calls.push(name),
      });
    const generator = new OpenAIChatGenerator({ tools: [mockTool("tool1"), mockTool("tool2")] });
    await generator.warmUp();
    assert.equal(calls.sort(), ["tool1", "tool2"]);
    await generator.warmUp();
    assert.equal(calls.sort(), ["tool1", "tool2"]);
  }));

test("test_warm_up_with_no_tools_does_not_raise", () =>
  withEnv({ OPENAI_API_KEY: "fake-api-key" }, async () => {
    const generator = new OpenAIChatGenerator();
    await generator.warmUp();
    assert.ok(generator.clientSettings);
  }));

test("test_sync_lifecycle (+ test_async_lifecycle): close releases the client", () =>
  withEnv({ OPENAI_API_KEY: "fake" }, async () => {
    const generator = new OpenAIChatGenerator();
    assert.is(generator.clientSettings, undefined);
    await generator.warmUp();
    assert.ok(generator.clientSettings);
    generator.close();
    assert.is(generator.clientSettings, undefined);
  }));

test("test_close_is_safe_without_warm_up", () => {
  const generator = new OpenAIChatGenerator({ api_key: Secret.fromToken("fake") });
  generator.close();
  assert.is(generator.clientSettings, undefined);
});

// Haystack's `chat_completion_chunks` fixture: a role chunk, two streamed tool calls, the finish
// chunk and the usage chunk (gpt-5-mini).
const base = { id: "chatcmpl-BZdwjFecdcaQfCf7bn319vRp6fY8F", created: 1747834733, model: "gpt-5-mini", object: "chat.completion.chunk", service_tier: "default", system_fingerprint: "fp_54eb4bd693" };
const choice = (delta: Record<string, unknown> | null, finish_reason: string | null = null) => ({ ...base, choices: [{ delta, finish_reason, index: 0, logprobs: null }], usage: null });
const callStart = (index: number, id: string) => ({ index, id, function: { arguments: "", name: "weather" }, type: "function" });
const callArgs = (index: number, args: string) => ({ index, function: { arguments: args } });
const usage = {
  completion_tokens: 42, prompt_tokens: 282, total_tokens: 324,
  completion_tokens_details: { accepted_prediction_tokens: 0, audio_tokens: 0, reasoning_tokens: 0, rejected_prediction_tokens: 0, text_tokens: 42 },
  prompt_tokens_details: { audio_tokens: 0, cached_tokens: 0, cache_write_tokens: 0, image_tokens: 0, text_tokens: 282 },
};
const chatCompletionChunks = (): any[] => [
  choice({ role: "assistant" }),
  choice({ tool_calls: [callStart(0, "call_zcvlnVaTeJWRjLAFfYxX69z4")] }),
  ...['{"ci', 'ty": ', '"Paris', '"}'].map((a) => choice({ tool_calls: [callArgs(0, a)] })),
  choice({ tool_calls: [callStart(1, "call_C88m67V16CrETq6jbNXjdZI9")] }),
  ...['{"ci', 'ty": ', '"Berli', 'n"}'].map((a) => choice({ tool_calls: [callArgs(1, a)] })),
  choice({}, "tool_calls"),
  { ...base, choices: [], usage },
];

test("test_convert_chat_completion_chunk_to_streaming_chunk", () => {
  const previous: StreamingChunk[] = [];
  const raw = chatCompletionChunks();
  for (const openaiChunk of raw) previous.push(toStreamingChunk(openaiChunk, previous, undefined as any));
  // Haystack's `streaming_chunks` fixture, field by field (received_at is ANY).
  const expected = [
    { index: null, start: false, tool_calls: null, finish_reason: null },
    { index: 0, start: true, tool_calls: [{ index: 0, id: "call_zcvlnVaTeJWRjLAFfYxX69z4", tool_name: "weather", arguments: null }], finish_reason: null },
    ...['{"ci', 'ty": ', '"Paris', '"}'].map((a) => ({ index: 0, start: false, tool_calls: [{ index: 0, id: null, tool_name: null, arguments: a }], finish_reason: null })),
    { index: 1, start: true, tool_calls: [{ index: 1, id: "call_C88m67V16CrETq6jbNXjdZI9", tool_name: "weather", arguments: null }], finish_reason: null },
    ...['{"ci', 'ty": ', '"Berli', 'n"}'].map((a) => ({ index: 1, start: false, tool_calls: [{ index: 1, id: null, tool_name: null, arguments: a }], finish_reason: null })),
    { index: null, start: false, tool_calls: null, finish_reason: "tool_calls" },
    { index: null, start: false, tool_calls: null, finish_reason: null },
  ];
  assert.equal(previous.map((c) => ({ index: c.index, start: c.start, tool_calls: c.tool_calls ?? null, finish_reason: c.finish_reason })), expected);
  assert.ok(previous.every((c) => c.content === "" && c.meta.model === "gpt-5-mini" && typeof c.meta.received_at === "string"));
  for (const [i, c] of previous.slice(0, -1).entries()) {
    assert.equal(
      { index: c.meta.index, tool_calls: c.meta.tool_calls, finish_reason: c.meta.finish_reason, usage: c.meta.usage },
      { index: 0, tool_calls: raw[i].choices[0].delta.tool_calls ?? null, finish_reason: raw[i].choices[0].finish_reason, usage: null },
    );
  }
  assert.equal(Object.keys(previous.at(-1)!.meta).sort(), ["model", "received_at", "usage"]);
  assert.equal(previous.at(-1)!.meta.usage, usage);
});

test("test_convert_chat_completion_chunk_with_empty_tool_calls", () => {
  const chunk = { ...base, choices: [{ delta: { tool_calls: [{ index: 0, function: {} }] }, index: 0, finish_reason: null }] } as any;
  const result = toStreamingChunk(chunk, [], undefined as any);
  assert.is(result.content, "");
  assert.is(result.start, false);
  assert.equal(result.tool_calls, [{ index: 0, id: null, tool_name: null, arguments: null }]);
  assert.is(result.tool_call_result ?? null, null);
  assert.is(result.index, 0);
  assert.is(result.meta.model, "gpt-5-mini");
  assert.ok(result.meta.received_at);
});

test("test_convert_chat_completion_chunk_with_delta_none", () => {
  const result = toStreamingChunk({ ...base, choices: [{ delta: null, index: 0, finish_reason: null }] } as any, [], undefined as any);
  assert.is(result.content, "");
  assert.is(result.start, false);
  assert.is(result.tool_calls ?? null, null);
  assert.is(result.tool_call_result ?? null, null);
  assert.is(result.index, 0);
  assert.is(result.component_info ?? null, null);
  assert.is(result.finish_reason, null);
  assert.is(result.reasoning ?? null, null);
  assert.equal([result.meta.model, result.meta.index, result.meta.finish_reason, result.meta.usage, result.meta.tool_calls], ["gpt-5-mini", 0, null, null, null]);
  assert.ok(result.meta.received_at);
});

test("test_handle_stream_response", () => {
  const raw = [{ ...base, id: "chatcmpl-BC1y4wqIhe17R8sv3lgLcWlB4tXCw", choices: [{ delta: null, index: 0, finish_reason: null }] }, ...chatCompletionChunks()];
  const chunks: StreamingChunk[] = [];
  for (const c of raw) chunks.push(toStreamingChunk(c as any, chunks, undefined as any));
  const result: ChatMessage = messageFromChunks(chunks, () => assert.unreachable("no warning"));
  assert.equal(result.texts, []);
  assert.not.ok(result.text);
  assert.equal(result.toolCalls, [
    { id: "call_zcvlnVaTeJWRjLAFfYxX69z4", tool_name: "weather", arguments: { city: "Paris" } },
    { id: "call_C88m67V16CrETq6jbNXjdZI9", tool_name: "weather", arguments: { city: "Berlin" } },
  ]);
  assert.equal([result.meta.model, result.meta.finish_reason, result.meta.index], ["gpt-5-mini", "tool_calls", 0]);
  assert.ok(result.meta.completion_start_time);
  assert.equal(result.meta.usage, usage);
});

test("test_convert_usage_chunk_to_streaming_chunk", () => {
  const usageChunk = { ...base, choices: [], usage: { completion_tokens: 8, prompt_tokens: 13, total_tokens: 21 } } as any;
  const result = toStreamingChunk(usageChunk, [], undefined as any);
  assert.is(result.content, "");
  assert.is(result.start, false);
  assert.is(result.tool_calls ?? null, null);
  assert.is(result.tool_call_result ?? null, null);
  assert.is(result.meta.model, "gpt-5-mini");
  assert.ok(result.meta.received_at);
});

// TestMakeSchemaStrict
const strictCases: [string, Record<string, unknown>, Record<string, unknown>][] = [
  ["test_flat_object", { type: "object", properties: { name: { type: "string" } } }, { type: "object", properties: { name: { type: "string" } }, additionalProperties: false, required: ["name"] }],
  [
    "test_nested_object",
    { type: "object", properties: { person: { type: "object", properties: { name: { type: "string" }, age: { type: "integer" } } } } },
    { type: "object", properties: { person: { type: "object", properties: { name: { type: "string" }, age: { type: "integer" } }, additionalProperties: false, required: ["name", "age"] } }, additionalProperties: false, required: ["person"] },
  ],
  [
    "test_defs_and_ref",
    { type: "object", properties: { address: { $ref: "#/$defs/Address" } }, $defs: { Address: { type: "object", properties: { street: { type: "string" }, city: { type: "string" } } } } },
    {
      type: "object", properties: { address: { $ref: "#/$defs/Address" } },
      $defs: { Address: { type: "object", properties: { street: { type: "string" }, city: { type: "string" } }, additionalProperties: false, required: ["street", "city"] } },
      additionalProperties: false, required: ["address"],
    },
  ],
  [
    "test_array_items",
    { type: "object", properties: { people: { type: "array", items: { type: "object", properties: { name: { type: "string" } } } } } },
    { type: "object", properties: { people: { type: "array", items: { type: "object", properties: { name: { type: "string" } }, additionalProperties: false, required: ["name"] } } }, additionalProperties: false, required: ["people"] },
  ],
  [
    "test_anyof",
    { type: "object", properties: { value: { anyOf: [{ type: "string" }, { type: "object", properties: { x: { type: "integer" } } }] } } },
    { type: "object", properties: { value: { anyOf: [{ type: "string" }, { type: "object", properties: { x: { type: "integer" } }, additionalProperties: false, required: ["x"] }] } }, additionalProperties: false, required: ["value"] },
  ],
  [
    "test_preserves_existing_required",
    { type: "object", properties: { a: { type: "string" }, b: { type: "integer" } }, required: ["a"] },
    { type: "object", properties: { a: { type: "string" }, b: { type: "integer" } }, additionalProperties: false, required: ["a", "b"] },
  ],
];
for (const [name, schema, expected] of strictCases) test(name, () => assert.equal(makeSchemaStrict(schema), expected));

test("test_does_not_mutate_original", () => {
  const schema = { type: "object", properties: { a: { type: "string" } } };
  const result = makeSchemaStrict(schema);
  assert.not.ok("additionalProperties" in schema);
  assert.not.ok("required" in schema);
  assert.equal(result, { type: "object", properties: { a: { type: "string" } }, additionalProperties: false, required: ["a"] });
});

test("test_complex_schema_with_defs_and_combinators", () => {
  const usageSchema = { type: "object", properties: { prompt_tokens: { type: "integer" }, completion_tokens: { type: "integer" } } };
  const meta = { type: "object", properties: { model: { type: "string" }, usage: usageSchema } };
  const chatMessage = { type: "object", properties: { role: { type: "string" }, content: { anyOf: [{ type: "string" }, { type: "null" }] }, meta } };
  const config = { oneOf: [{ type: "null" }, { type: "object", properties: { temperature: { type: "number" }, max_tokens: { type: "integer" } } }] };
  const schema = { type: "object", properties: { messages: { type: "array", items: { $ref: "#/$defs/ChatMessage" } }, config }, $defs: { ChatMessage: chatMessage } };
  const closed = (s: Record<string, any>, required: string[], properties = s.properties) => ({ ...s, properties, additionalProperties: false, required });
  assert.equal(makeSchemaStrict(schema), {
    type: "object",
    properties: {
      messages: { type: "array", items: { $ref: "#/$defs/ChatMessage" } },
      config: { oneOf: [{ type: "null" }, closed(config.oneOf[1]!, ["temperature", "max_tokens"])] },
    },
    $defs: {
      ChatMessage: closed(chatMessage, ["role", "content", "meta"], {
        ...chatMessage.properties,
        meta: closed(meta, ["model", "usage"], { model: { type: "string" }, usage: closed(usageSchema, ["prompt_tokens", "completion_tokens"]) }),
      }),
    },
    additionalProperties: false,
    required: ["messages", "config"],
  });
});

test("test_prepare_api_call_strict_nested_tool", () => {
  const parameters = { type: "object", properties: { name: { type: "string" }, address: { type: "object", properties: { street: { type: "string" }, city: { type: "string" } } } }, required: ["name"] };
  const nested = new Tool({ name: "create_person", description: "Create a person record", parameters, function: ({ name, address }) => `${name} at ${address}` });
  const [definition] = openAITools([nested], true)!;
  assert.is(definition!.function.strict, true);
  assert.equal(definition!.function.parameters, {
    type: "object",
    properties: { name: { type: "string" }, address: { type: "object", properties: { street: { type: "string" }, city: { type: "string" } }, additionalProperties: false, required: ["street", "city"] } },
    additionalProperties: false,
    required: ["name", "address"],
  });
  assert.equal(nested.parameters, parameters, "the tool's own schema is unchanged");
});

test.run();
