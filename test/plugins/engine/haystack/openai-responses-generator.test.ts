/**
 * @module Port of Haystack's test/components/generators/chat/test_openai_responses.py:
 * TestInitialization, TestSerDe, TestComponentLifecycle and TestRun (values, not Python), against
 * the loopback Responses fixture. A pydantic `text_format` is written as the `text.format` JSON
 * schema Haystack's to_dict produces; the sync/async client pair and httpx transports are
 * Python-only.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { ChatMessage, createRegistry, Secret, Tool, type StreamingChunk } from "svc/engine";
import { OpenAIResponsesChatGenerator } from "../../../../plugins/engine/components/openai-responses-chat-generator.js";
import { pipelineFromDocument, readPipelineDocument } from "../../../../plugins/engine/yaml.js";
import { startResponsesFixture, type ResponsesFixture } from "../../../fixtures/openai-responses-server.js";
import { withEnv } from "../../../helpers/env.js";

const TYPE = "haystack.components.generators.chat.openai_responses.OpenAIResponsesChatGenerator";
const KEY = "test-api-key";
const ctx = () => ({ name: "llm", signal: new AbortController().signal, tracer: undefined as any });

async function withFixture(fn: (f: ResponsesFixture, make: (init?: Record<string, unknown>) => OpenAIResponsesChatGenerator) => Promise<void>): Promise<void> {
  const fixture = await startResponsesFixture({ apiKey: KEY });
  const make = (init: Record<string, unknown> = {}) => new OpenAIResponsesChatGenerator({ api_key: Secret.fromToken(KEY), api_base_url: fixture.url, max_retries: 0, ...init });
  try {
    await fn(fixture, make);
  } finally {
    await fixture.close();
  }
}
const registry = () => createRegistry().registerFunction("builtins.print", (x: unknown) => console.log(x));
const fromDict = (data: Record<string, unknown>) =>
  pipelineFromDocument(readPipelineDocument({ components: { llm: data }, connections: [] }), registry()).getComponent("llm") as OpenAIResponsesChatGenerator;
const xTool = () => new Tool({ name: "name", description: "description", parameters: { x: { type: "string" } }, function: (x: unknown) => x });
const weather = () => new Tool({ name: "weather", description: "get the weather", parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] }, function: (x: unknown) => x });
const printCallback = (chunk: StreamingChunk) => void chunk;
const france = () => [ChatMessage.fromUser("What's the capital of France")];

test("test_supported_models", () => {
  assert.ok(OpenAIResponsesChatGenerator.SUPPORTED_MODELS.length > 0);
  assert.ok(OpenAIResponsesChatGenerator.SUPPORTED_MODELS.every((m) => typeof m === "string"));
});

test("test_init_default", () =>
  withEnv({ OPENAI_API_KEY: KEY }, () => {
    const c = new OpenAIResponsesChatGenerator();
    const p = c.initParameters;
    assert.is(c.clientSettings, undefined);
    assert.equal(c.toDict().init_parameters.api_key, Secret.fromEnvVar("OPENAI_API_KEY").toDict());
    assert.equal([p.model, p.streaming_callback ?? null, p.timeout ?? null, p.max_retries ?? null, p.tools ?? null, p.tools_strict, p.http_client_kwargs ?? null], ["gpt-5-mini", null, null, null, null, false, null]);
    assert.not.ok(p.generation_kwargs);
  }));

const initWith = (extra: Record<string, unknown> = {}) =>
  new OpenAIResponsesChatGenerator({ api_key: Secret.fromToken(KEY), model: "gpt-4o-mini", streaming_callback: printCallback, api_base_url: "test-base-url", generation_kwargs: { max_tokens: 10, some_test_param: "test-params" }, ...extra });

test("test_init_with_parameters", () =>
  withEnv({ OPENAI_TIMEOUT: "100", OPENAI_MAX_RETRIES: "10" }, () => {
    const tool = xTool();
    const http = { proxy: "http://example.com:8080", verify: false };
    const c = initWith({ timeout: 40.0, max_retries: 1, tools: [tool], tools_strict: true, http_client_kwargs: http });
    const p = c.initParameters;
    assert.is(c.clientSettings, undefined);
    assert.is(p.api_key!.resolveValue(), KEY);
    assert.equal([p.model, p.streaming_callback, p.generation_kwargs], ["gpt-4o-mini", printCallback, { max_tokens: 10, some_test_param: "test-params" }]);
    assert.equal([p.timeout, p.max_retries, p.tools, p.tools_strict, p.http_client_kwargs], [40, 1, [tool], true, http]);
  }));

test("test_init_with_parameters_and_env_vars", () =>
  withEnv({ OPENAI_TIMEOUT: "100", OPENAI_MAX_RETRIES: "10" }, () => {
    const p = initWith().initParameters;
    assert.equal([p.model, p.streaming_callback, p.generation_kwargs], ["gpt-4o-mini", printCallback, { max_tokens: 10, some_test_param: "test-params" }]);
    assert.equal([p.timeout ?? null, p.max_retries ?? null], [null, null]);
  }));

test("test_to_dict_default", () =>
  withEnv({ OPENAI_API_KEY: KEY }, () =>
    assert.equal(new OpenAIResponsesChatGenerator().toDict(), {
      type: TYPE,
      init_parameters: {
        api_key: { env_vars: ["OPENAI_API_KEY"], strict: true, type: "env_var" },
        model: "gpt-5-mini", organization: null, streaming_callback: null, api_base_url: null, generation_kwargs: {},
        tools: null, tools_strict: false, max_retries: null, timeout: null, http_client_kwargs: null,
      },
    })));

test("test_to_dict_with_parameters (text_format as its text.format schema)", () =>
  withEnv({ ENV_VAR: KEY }, () => {
    const format = {
      type: "json_schema", name: "CalendarEvent", strict: true,
      schema: {
        properties: { event_name: { title: "Event Name", type: "string" }, event_date: { title: "Event Date", type: "string" }, event_location: { title: "Event Location", type: "string" } },
        required: ["event_name", "event_date", "event_location"], title: "CalendarEvent", type: "object", additionalProperties: false,
      },
    };
    const init = {
      api_key: { env_vars: ["ENV_VAR"], strict: true, type: "env_var" },
      model: "gpt-5-mini", organization: null, api_base_url: "test-base-url", max_retries: 10, timeout: 100.0,
      streaming_callback: "haystack.components.generators.utils.print_streaming_chunk",
      generation_kwargs: { max_tokens: 10, some_test_param: "test-params", text: { format } },
      tools: [{ type: "haystack.tools.tool.Tool", data: { async_function: null, description: "description", function: "builtins.print", inputs_from_state: null, name: "name", outputs_to_state: null, outputs_to_string: null, parameters: { x: { type: "string" } } } }],
      tools_strict: true,
      http_client_kwargs: { proxy: "http://example.com:8080", verify: false },
    };
    assert.equal(fromDict({ type: TYPE, init_parameters: init }).toDict(), { type: TYPE, init_parameters: init });
  }));

test("test_from_dict", () =>
  withEnv({ OPENAI_API_KEY: "fake-api-key" }, () => {
    const c = fromDict({
      type: TYPE,
      init_parameters: {
        api_key: { env_vars: ["OPENAI_API_KEY"], strict: true, type: "env_var" }, model: "gpt-5-mini", api_base_url: "test-base-url",
        streaming_callback: "haystack.components.generators.utils.print_streaming_chunk", max_retries: 10, timeout: 100.0,
        generation_kwargs: { max_tokens: 10, some_test_param: "test-params" },
        tools: [{ type: "haystack.tools.tool.Tool", data: { description: "description", function: "builtins.print", name: "name", parameters: { x: { type: "string" } } } }],
        tools_strict: true, http_client_kwargs: { proxy: "http://example.com:8080", verify: false },
      },
    });
    const p = c.initParameters;
    assert.ok(c instanceof OpenAIResponsesChatGenerator);
    assert.equal([p.model, p.api_base_url, p.generation_kwargs], ["gpt-5-mini", "test-base-url", { max_tokens: 10, some_test_param: "test-params" }]);
    assert.is(c.toDict().init_parameters.streaming_callback, "haystack.components.generators.utils.print_streaming_chunk");
    assert.equal(p.api_key!.toDict(), Secret.fromEnvVar("OPENAI_API_KEY").toDict());
    const [tool] = p.tools as Tool[];
    assert.equal([tool!.name, tool!.description, tool!.parameters], ["name", "description", { x: { type: "string" } }]);
    assert.equal([p.tools_strict, p.timeout, p.max_retries, p.http_client_kwargs], [true, 100, 10, { proxy: "http://example.com:8080", verify: false }]);
  }));

test("test_from_dict_wo_env_var_does_not_fail", () =>
  withEnv({ OPENAI_API_KEY: undefined }, () => {
    const c = fromDict({
      type: TYPE,
      init_parameters: {
        api_key: { env_vars: ["OPENAI_API_KEY"], strict: true, type: "env_var" }, model: "gpt-5-mini", organization: null, api_base_url: "test-base-url",
        streaming_callback: "haystack.components.generators.utils.print_streaming_chunk", generation_kwargs: { max_tokens: 10, some_test_param: "test-params" }, tools: null,
      },
    });
    assert.is(c.clientSettings, undefined);
    assert.equal(c.initParameters.api_key!.toDict(), Secret.fromEnvVar("OPENAI_API_KEY").toDict());
  }));

const noEnv = { OPENAI_TIMEOUT: undefined, OPENAI_MAX_RETRIES: undefined };
const settings = (c: OpenAIResponsesChatGenerator) => [c.clientSettings!.maxRetries, c.clientSettings!.timeoutSeconds];

test("test_warm_up_uses_default_timeout_and_max_retries", () =>
  withEnv({ ...noEnv, OPENAI_API_KEY: "fake" }, async () => {
    const c = new OpenAIResponsesChatGenerator();
    await c.warmUp();
    assert.equal(settings(c), [5, 30]);
  }));
test("test_warm_up_uses_timeout_and_max_retries_from_parameters", () =>
  withEnv(noEnv, async () => {
    const c = new OpenAIResponsesChatGenerator({ api_key: Secret.fromToken("fake"), timeout: 40.0, max_retries: 1 });
    await c.warmUp();
    assert.equal(settings(c), [1, 40]);
  }));
test("test_warm_up_uses_timeout_and_max_retries_from_env_vars", () =>
  withEnv({ OPENAI_TIMEOUT: "100", OPENAI_MAX_RETRIES: "10" }, async () => {
    const c = new OpenAIResponsesChatGenerator({ api_key: Secret.fromToken("fake") });
    await c.warmUp();
    assert.equal(settings(c), [10, 100]);
  }));
test("test_warm_up_warms_tools_once", async () => {
  const calls: string[] = [];
  const mock = (name: string) => Object.assign(new Tool({ name, description: `Mock tool ${name}`, parameters: { type: "object", properties: { x: { type: "string" } } }, function: (x: unknown) => x }), { warmUp: () => void calls.push(name) });
  const c = new OpenAIResponsesChatGenerator({ api_key: Secret.fromToken("fake"), tools: [mock("tool1"), mock("tool2")] });
  await c.warmUp();
  await c.warmUp();
  assert.equal(calls.sort(), ["tool1", "tool2"]);
});
for (const [name, tools] of [["test_warm_up_with_no_tools_does_not_raise", null], ["test_warm_up_with_empty_tools_list_does_not_raise", []], ["test_warm_up_with_openai_tools_does_not_raise", [{ type: "web_search_preview" }]]] as const) {
  test(name, async () => {
    const c = new OpenAIResponsesChatGenerator({ api_key: Secret.fromToken("fake"), tools });
    await c.warmUp();
    assert.ok(c.clientSettings);
  });
}
test("test_sync_lifecycle (+ test_async_lifecycle)", async () => {
  const c = new OpenAIResponsesChatGenerator({ api_key: Secret.fromToken("fake") });
  assert.is(c.clientSettings, undefined);
  await c.warmUp();
  assert.ok(c.clientSettings);
  c.close();
  assert.is(c.clientSettings, undefined);
});
test("test_close_is_safe_without_warm_up", () => {
  const c = new OpenAIResponsesChatGenerator({ api_key: Secret.fromToken("fake") });
  c.close();
  assert.is(c.clientSettings, undefined);
});

test("test_run_fail_with_duplicate_tool_names", () => assert.throws(() => new OpenAIResponsesChatGenerator({ api_key: Secret.fromToken(KEY), tools: [weather(), weather()] }), /Duplicate tool names found: weather/));

test("test_prepare_api_call_does_not_mutate_tool_parameters", () =>
  withFixture(async (f, make) => {
    const tool = weather();
    await make({ tools_strict: false }).run({ messages: [ChatMessage.fromUser("hi")], tools: [tool] }, ctx());
    assert.equal(tool.parameters, { type: "object", properties: { city: { type: "string" } }, required: ["city"] });
    assert.is(f.requests[0]!.body.tools[0].parameters.additionalProperties, false);
  }));

test("test_run_with_wrong_model (+ _async)", () =>
  withFixture(async (f, make) => {
    f.script({ status: 400, error: { message: "The requested model 'something-obviously-wrong' does not exist." } });
    await make({ model: "something-obviously-wrong" }).run({ messages: [ChatMessage.fromUser("irrelevant")] }, ctx()).then(
      () => assert.unreachable("expected an error"),
      (err: Error) => assert.match(err.message, /answered 400: The requested model 'something-obviously-wrong' does not exist\./),
    );
  }));

test("test_run (+ test_run_async)", () =>
  withFixture(async (f, make) => {
    f.script({ output: [{ type: "message", text: "The capital of France is Paris." }] });
    const { replies } = await make({ model: "gpt-5", generation_kwargs: { include: ["message.output_text.logprobs"] } }).run({ messages: france() }, ctx());
    assert.is(replies.length, 1);
    assert.ok(replies[0]!.text!.includes("Paris"));
    assert.ok(String(replies[0]!.meta.model).includes("gpt-5"));
    assert.ok((replies[0]!.meta.usage as { total_tokens: number }).total_tokens > 0);
    assert.ok(replies[0]!.meta.id);
    assert.equal(f.requests[0]!.body.include, ["message.output_text.logprobs"]);
  }));

test("test_run_with_string_input (+ _async)", () =>
  withFixture(async (f, make) => {
    const { replies } = await make().run({ messages: "What's the capital of France?" }, ctx());
    assert.equal(f.requests[0]!.body.input, [{ role: "user", content: [{ type: "input_text", text: "What's the capital of France?" }] }]);
    assert.is(replies.length, 1);
    assert.ok(replies[0] instanceof ChatMessage);
  }));

test("test_run_with_generation_kwargs (+ _async)", () =>
  withFixture(async (f, make) => {
    await make({ generation_kwargs: { max_output_tokens: 10, temperature: 0.5 } }).run({ messages: france(), generation_kwargs: { temperature: 0.9 } }, ctx());
    assert.equal([f.requests[0]!.body.temperature, f.requests[0]!.body.max_output_tokens], [0.9, 10]);
  }));

const kwargsCases: [string, Record<string, unknown>, (body: any) => void][] = [
  ["test_run_with_flattened_generation_kwargs", { reasoning_effort: "low", reasoning_summary: "auto", reasoning_mode: "pro", verbosity: "low" }, (b) => assert.equal([b.reasoning, b.text], [{ effort: "low", summary: "auto", mode: "pro" }, { verbosity: "low" }])],
  ["test_run_with_reasoning_mode_only", { reasoning_mode: "standard" }, (b) => assert.equal(b.reasoning, { mode: "standard" })],
  ["test_run_with_reasoning_mode_merges_with_existing_reasoning_dict", { reasoning: { effort: "high" }, reasoning_mode: "pro" }, (b) => assert.equal(b.reasoning, { effort: "high", mode: "pro" })],
  ["test_run_with_include_reasoning_encrypted_content", { include_reasoning_encrypted_content: true }, (b) => assert.equal(b.include, ["reasoning.encrypted_content"])],
  ["test_run_with_include_reasoning_encrypted_content_merges_with_existing_include_list", { include: ["message.output_text.logprobs"], include_reasoning_encrypted_content: true }, (b) => assert.equal(b.include, ["message.output_text.logprobs", "reasoning.encrypted_content"])],
  ["test_run_with_include_reasoning_encrypted_content_false_does_not_set_include", { include_reasoning_encrypted_content: false }, (b) => assert.not.ok("include" in b || "include_reasoning_encrypted_content" in b)],
];
for (const [name, kwargs, check] of kwargsCases) {
  test(name, () =>
    withFixture(async (f, make) => {
      const { replies } = await make({ model: "gpt-5.6-luna", generation_kwargs: kwargs }).run({ messages: france() }, ctx());
      assert.is(replies.length, 1);
      check(f.requests[0]!.body);
    }));
}

test("test_run_with_params_streaming", () =>
  withFixture(async (f, make) => {
    f.script({ output: [{ type: "message", text: "The capital of France is Paris." }] });
    let called = false;
    const { replies } = await make({ streaming_callback: () => void (called = true) }).run({ messages: france() }, ctx());
    assert.ok(called);
    assert.is(replies.length, 1);
    assert.ok(replies[0]!.text!.includes("The capital of France is Paris."));
  }));

test("test_run_with_params_streaming_reasoning_summary_delta", () =>
  withFixture(async (f, make) => {
    f.script({ output: [{ type: "reasoning", id: "rs_1", summary: "I need to check the capital of France." }, { type: "message", text: "Paris." }] });
    let called = false;
    const { replies } = await make({ streaming_callback: () => void (called = true) }).run({ messages: france(), generation_kwargs: { reasoning: { summary: "auto", effort: "low" } } }, ctx());
    assert.ok(called);
    assert.is(replies.length, 1);
    assert.ok(replies[0]!.reasoning!.reasoning_text.includes("I need to check the capital of France."));
    assert.equal(f.requests[0]!.body.reasoning, { summary: "auto", effort: "low" });
  }));

test.run();
