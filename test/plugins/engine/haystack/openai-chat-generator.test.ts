/**
 * @module Port of Haystack's test/components/generators/chat/test_openai.py and
 * test_openai_async.py (values, not Python). Haystack mocks the `openai` client; here the calls go
 * to the loopback OpenAI fixture, which speaks the real protocol, and the assertions read the
 * request it recorded and the replies. svc has one (async) run, so an `_async` twin is counted with
 * its sync case. `from_dict` is a pipeline document's component; caplog warnings are read from the
 * component context's logger. Python-only cases (not ported): a pydantic class as
 * `response_format`, a MagicMock-wrapped stream, httpx `http_client_kwargs` transports, and the
 * separate sync/async client pair.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { ChatMessage, createRegistry, OpenAIChatGenerator, Secret, Tool, type StreamingChunk } from "svc/engine";
import { pipelineFromDocument, readPipelineDocument } from "../../../../plugins/engine/yaml.js";
import { checkFinishReason } from "../../../../plugins/engine/components/openai-conversion.js";
import { startOpenAIFixture, type OpenAIFixture } from "../../../fixtures/openai-server.js";
import { withEnv, loggedContext } from "../../../helpers/env.js";

const TYPE = "haystack.components.generators.chat.openai.OpenAIChatGenerator";
const KEY = "test-api-key";

const logged = () => loggedContext("llm");
const ctx = () => logged().ctx;


async function withFixture(fn: (f: OpenAIFixture, make: (init?: Record<string, unknown>) => OpenAIChatGenerator) => Promise<void>): Promise<void> {
  const fixture = await startOpenAIFixture({ apiKey: KEY });
  const make = (init: Record<string, unknown> = {}) => new OpenAIChatGenerator({ api_key: Secret.fromToken(KEY), api_base_url: fixture.url, max_retries: 0, ...init });
  try {
    await fn(fixture, make);
  } finally {
    await fixture.close();
  }
}

const weatherFunction = ({ city }: Record<string, any>) => ({ weather: "mostly cloudy", temperature: 8, unit: "celsius", city });
const weatherTool = () =>
  new Tool({
    name: "weather",
    description: "useful to determine the weather in a given location",
    parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
    function: weatherFunction,
  });
const chatMessages = () => [ChatMessage.fromSystem("You are a helpful assistant"), ChatMessage.fromUser("What's the capital of France")];
const registry = () => createRegistry().registerFunction("builtins.print", (x: unknown) => console.log(x));
const fromDict = (data: Record<string, unknown>) =>
  pipelineFromDocument(readPipelineDocument({ components: { llm: data }, connections: [] }), registry()).getComponent("llm") as OpenAIChatGenerator;

test("test_supported_models", () => {
  assert.ok(OpenAIChatGenerator.SUPPORTED_MODELS.length > 0);
  assert.ok(OpenAIChatGenerator.SUPPORTED_MODELS.every((m) => typeof m === "string"));
});

test("test_init_default", () =>
  withEnv({ OPENAI_API_KEY: KEY }, () => {
    const component = new OpenAIChatGenerator();
    const p = component.initParameters;
    assert.is(Secret.fromEnvVar("OPENAI_API_KEY").resolveValue(), KEY);
    assert.is((p.api_key ?? Secret.fromEnvVar("OPENAI_API_KEY")).resolveValue(), KEY);
    assert.is(p.model, "gpt-5-mini");
    assert.not.ok(p.streaming_callback);
    assert.not.ok(p.generation_kwargs);
    assert.is(p.timeout ?? null, null);
    assert.is(p.max_retries ?? null, null);
    assert.is(p.tools ?? null, null);
    assert.is(p.tools_strict, false);
    assert.is(p.http_client_kwargs ?? null, null);
    assert.is(component.clientSettings, undefined);
  }));

test("test_init_fail_with_duplicate_tool_names", () => {
  const tool = weatherTool();
  assert.throws(() => new OpenAIChatGenerator({ tools: [tool, tool] }), /Duplicate tool names found: weather/);
});

const printCallback = (chunk: StreamingChunk) => void chunk;
const xTool = () => new Tool({ name: "name", description: "description", parameters: { x: { type: "string" } }, function: (x: unknown) => x });

test("test_init_with_parameters", () =>
  withEnv({ OPENAI_TIMEOUT: "100", OPENAI_MAX_RETRIES: "10" }, () => {
    const tool = xTool();
    const http = { proxy: "http://example.com:8080", verify: false };
    const component = new OpenAIChatGenerator({
      api_key: Secret.fromToken(KEY), streaming_callback: printCallback, api_base_url: "test-base-url",
      generation_kwargs: { max_completion_tokens: 10, some_test_param: "test-params" }, timeout: 40.0, max_retries: 1,
      tools: [tool], tools_strict: true, http_client_kwargs: http,
    });
    const p = component.initParameters;
    assert.is(p.api_key!.resolveValue(), KEY);
    assert.is(p.model, "gpt-5-mini");
    assert.is(p.streaming_callback, printCallback);
    assert.equal(p.generation_kwargs, { max_completion_tokens: 10, some_test_param: "test-params" });
    assert.equal([p.timeout, p.max_retries, p.tools, p.tools_strict, p.http_client_kwargs], [40, 1, [tool], true, http]);
    assert.is(component.clientSettings, undefined);
  }));

test("test_init_with_parameters_and_env_vars", () =>
  withEnv({ OPENAI_TIMEOUT: "100", OPENAI_MAX_RETRIES: "10" }, () => {
    const component = new OpenAIChatGenerator({ api_key: Secret.fromToken(KEY), streaming_callback: printCallback, api_base_url: "test-base-url", generation_kwargs: { max_completion_tokens: 10, some_test_param: "test-params" } });
    const p = component.initParameters;
    assert.is(p.model, "gpt-5-mini");
    assert.equal(p.generation_kwargs, { max_completion_tokens: 10, some_test_param: "test-params" });
    // The env values are read when the client is made, not stored as init parameters.
    assert.is(p.timeout ?? null, null);
    assert.is(p.max_retries ?? null, null);
    assert.is(component.clientSettings, undefined);
  }));

const defaultDict = {
  api_key: { env_vars: ["OPENAI_API_KEY"], strict: true, type: "env_var" },
  model: "gpt-5-mini",
  organization: null,
  streaming_callback: null,
  api_base_url: null,
  generation_kwargs: {},
  tools: null,
  tools_strict: false,
  max_retries: null,
  timeout: null,
  http_client_kwargs: null,
};

test("test_to_dict_default", () =>
  withEnv({ OPENAI_API_KEY: KEY }, () => assert.equal(new OpenAIChatGenerator().toDict(), { type: TYPE, init_parameters: defaultDict })));

// Haystack's pydantic `CalendarEvent` is written as the JSON schema its to_dict produces.
const calendarEventFormat = {
  type: "json_schema",
  json_schema: {
    name: "CalendarEvent",
    strict: true,
    schema: {
      properties: {
        event_name: { title: "Event Name", type: "string" },
        event_date: { title: "Event Date", type: "string" },
        event_location: { title: "Event Location", type: "string" },
      },
      required: ["event_name", "event_date", "event_location"],
      title: "CalendarEvent",
      type: "object",
      additionalProperties: false,
    },
  },
};

test("test_to_dict_with_parameters", () =>
  withEnv({ ENV_VAR: KEY }, () => {
    const init = {
      api_key: { env_vars: ["ENV_VAR"], strict: true, type: "env_var" },
      model: "gpt-5-mini",
      organization: null,
      api_base_url: "test-base-url",
      max_retries: 10,
      timeout: 100.0,
      streaming_callback: "haystack.components.generators.utils.print_streaming_chunk",
      generation_kwargs: { max_completion_tokens: 10, some_test_param: "test-params", logprobs: true, response_format: calendarEventFormat },
      tools: [
        {
          type: "haystack.tools.tool.Tool",
          data: { async_function: null, description: "description", function: "builtins.print", inputs_from_state: null, name: "name", outputs_to_state: null, outputs_to_string: null, parameters: { x: { type: "string" } } },
        },
      ],
      tools_strict: true,
      http_client_kwargs: { proxy: "http://example.com:8080", verify: false },
    };
    assert.equal(fromDict({ type: TYPE, init_parameters: init }).toDict(), { type: TYPE, init_parameters: init });
  }));

test("test_to_dict_with_response_format_json_object", () =>
  withEnv({ OPENAI_API_KEY: KEY }, () => {
    const component = new OpenAIChatGenerator({ api_key: Secret.fromEnvVar("OPENAI_API_KEY"), generation_kwargs: { response_format: { type: "json_object" } } });
    assert.equal(component.toDict(), { type: TYPE, init_parameters: { ...defaultDict, generation_kwargs: { response_format: { type: "json_object" } } } });
  }));

test("test_from_dict", () =>
  withEnv({ OPENAI_API_KEY: "fake-api-key" }, () => {
    const component = fromDict({
      type: TYPE,
      init_parameters: {
        api_key: { env_vars: ["OPENAI_API_KEY"], strict: true, type: "env_var" },
        model: "gpt-5-mini",
        api_base_url: "test-base-url",
        streaming_callback: "haystack.components.generators.utils.print_streaming_chunk",
        max_retries: 10,
        timeout: 100.0,
        generation_kwargs: { max_completion_tokens: 10, some_test_param: "test-params" },
        tools: [{ type: "haystack.tools.tool.Tool", data: { description: "description", function: "builtins.print", name: "name", parameters: { x: { type: "string" } } } }],
        tools_strict: true,
        http_client_kwargs: { proxy: "http://example.com:8080", verify: false },
      },
    });
    assert.ok(component instanceof OpenAIChatGenerator);
    const p = component.initParameters;
    assert.is(p.model, "gpt-5-mini");
    assert.type(p.streaming_callback, "function");
    assert.is(component.toDict().init_parameters.streaming_callback, "haystack.components.generators.utils.print_streaming_chunk");
    assert.is(p.api_base_url, "test-base-url");
    assert.equal(p.generation_kwargs, { max_completion_tokens: 10, some_test_param: "test-params" });
    assert.equal(p.api_key!.toDict(), Secret.fromEnvVar("OPENAI_API_KEY").toDict());
    const [tool] = p.tools as Tool[];
    assert.equal([tool!.name, tool!.description, tool!.parameters], ["name", "description", { x: { type: "string" } }]);
    assert.equal([p.tools_strict, p.timeout, p.max_retries, p.http_client_kwargs], [true, 100, 10, { proxy: "http://example.com:8080", verify: false }]);
  }));

test("test_from_dict_wo_env_var_does_not_fail", () =>
  withEnv({ OPENAI_API_KEY: undefined }, () => {
    const component = fromDict({
      type: TYPE,
      init_parameters: {
        api_key: { env_vars: ["OPENAI_API_KEY"], strict: true, type: "env_var" },
        model: "gpt-4",
        organization: null,
        api_base_url: "test-base-url",
        streaming_callback: "haystack.components.generators.utils.print_streaming_chunk",
        generation_kwargs: { max_completion_tokens: 10, some_test_param: "test-params" },
        tools: null,
      },
    });
    assert.is(component.clientSettings, undefined);
  }));

test("test_run (+ test_run_async)", () =>
  withFixture(async (f, make) => {
    const { replies } = await make().run({ messages: chatMessages() }, ctx());
    assert.is(replies.length, 1);
    assert.ok(replies[0] instanceof ChatMessage);
    // The messages go out in Haystack's to_openai_dict_format, with n = 1.
    const { messages, n, model, stream } = f.requests[0]!.body;
    assert.equal({ messages, n, model, stream }, {
      messages: [{ role: "system", content: "You are a helpful assistant" }, { role: "user", content: "What's the capital of France" }],
      n: 1, model: "gpt-5-mini", stream: false,
    });
  }));

test("test_run_with_string_input (+ _async)", () =>
  withFixture(async (f, make) => {
    const { replies } = await make().run({ messages: "What's the capital of France?" }, ctx());
    assert.equal(f.requests[0]!.body.messages, [{ role: "user", content: "What's the capital of France?" }]);
    assert.is(replies.length, 1);
    assert.ok(replies[0] instanceof ChatMessage);
  }));

test("test_run_with_params (+ _async)", () =>
  withFixture(async (f, make) => {
    const { replies } = await make({ generation_kwargs: { max_completion_tokens: 10, temperature: 0.5 } }).run({ messages: chatMessages() }, ctx());
    const body = f.requests[0]!.body;
    assert.equal([body.max_completion_tokens, body.temperature], [10, 0.5]);
    assert.not.ok("tools" in body);
    assert.is(replies.length, 1);
  }));

test("test_run_with_generation_kwargs (+ _async)", () =>
  withFixture(async (f, make) => {
    await make({ generation_kwargs: { max_completion_tokens: 10, temperature: 0.5 } }).run({ messages: chatMessages(), generation_kwargs: { temperature: 0.9 } }, ctx());
    const body = f.requests[0]!.body;
    assert.equal([body.temperature, body.max_completion_tokens], [0.9, 10]);
  }));

test("test_run_with_params_streaming (+ _async)", () =>
  withFixture(async (f, make) => {
    let called = false;
    f.script({ content: "Hello world" });
    const { replies } = await make({ streaming_callback: () => void (called = true) }).run({ messages: chatMessages() }, ctx());
    assert.ok(called);
    assert.is(replies.length, 1);
    assert.ok(replies[0]!.text!.includes("Hello"));
    assert.is(f.requests[0]!.body.stream, true);
  }));

test("test_run_with_streaming_callback_in_run_method (+ _async)", () =>
  withFixture(async (f, make) => {
    let called = false;
    f.script({ content: "Hello world" });
    const { replies } = await make().run({ messages: chatMessages(), streaming_callback: () => void (called = true) }, ctx());
    assert.ok(called);
    assert.is(replies.length, 1);
    assert.ok(replies[0]!.text!.includes("Hello"));
  }));

const calendarJson = '{"event_name":"Team Meeting","event_date":"2024-03-15","event_location":"Conference Room A"}';

test("test_run_with_response_format (the format as its JSON schema)", () =>
  withFixture(async (f, make) => {
    f.script({ content: calendarJson, usage: { completion_tokens: 29, prompt_tokens: 86, total_tokens: 115 } });
    const { replies } = await make({ generation_kwargs: { response_format: calendarEventFormat } }).run({ messages: chatMessages() }, ctx());
    assert.is(replies.length, 1);
    assert.ok(replies[0]!.text!.includes("Team Meeting"));
    assert.equal(f.requests[0]!.body.response_format, calendarEventFormat);
  }));

test("test_run_with_response_format_in_run_method", () =>
  withFixture(async (f, make) => {
    f.script({ content: calendarJson });
    const { replies } = await make().run({ messages: chatMessages(), generation_kwargs: { response_format: calendarEventFormat } }, ctx());
    assert.ok(replies[0]!.text!.includes("Team Meeting"));
    assert.equal(f.requests[0]!.body.response_format, calendarEventFormat);
  }));

test("test_check_abnormal_completions", () => {
  const warnings: string[] = [];
  for (let i = 0; i < 4; i++) checkFinishReason({ finish_reason: i % 2 === 0 ? "content_filter" : "length", index: i }, (m) => warnings.push(m));
  for (const i of [1, 3]) {
    assert.is(warnings[i], `The completion for index ${i} has been truncated before reaching a natural stopping point. Increase the max_completion_tokens parameter to allow for longer completions.`);
  }
  for (const i of [0, 2]) assert.is(warnings[i], `The completion for index ${i} has been truncated due to the content filter.`);
});

test("the abnormal-completion warning reaches the run's logger", () =>
  withFixture(async (f, make) => {
    f.script({ content: "cut", finishReason: "length" });
    const { ctx: context, warnings } = logged();
    const { replies } = await make().run({ messages: chatMessages() }, context);
    assert.is(replies[0]!.text, "cut");
    assert.equal(warnings, ["The completion for index 0 has been truncated before reaching a natural stopping point. Increase the max_completion_tokens parameter to allow for longer completions."]);
  }));

const toolUsage = { completion_tokens: 40, prompt_tokens: 57, total_tokens: 97 };

test("test_run_with_tools (+ _async)", () =>
  withFixture(async (f, make) => {
    f.script({ toolCalls: [{ id: "123", name: "weather", arguments: '{"city": "Paris"}' }], usage: toolUsage });
    const tool = weatherTool();
    const { replies } = await make({ tools: [tool], tools_strict: true }).run({ messages: [ChatMessage.fromUser("What's the weather like in Paris?")] }, ctx());
    const spec = { name: "weather", description: tool.description, strict: true, parameters: { ...tool.parameters, additionalProperties: false } };
    assert.equal(f.requests[0]!.body.tools, [{ type: "function", function: spec }]);
    assert.is(replies.length, 1);
    const message = replies[0]!;
    assert.equal(message.texts, []);
    assert.not.ok(message.text);
    assert.equal(message.toolCall, { id: "123", tool_name: "weather", arguments: { city: "Paris" } });
    assert.is(message.meta.finish_reason, "tool_calls");
    assert.is((message.meta.usage as typeof toolUsage).completion_tokens, 40);
  }));

test("test_run_with_tools_and_response_format", () =>
  withFixture(async (f, make) => {
    f.script({ toolCalls: [{ id: "123", name: "weather", arguments: '{"city": "Paris"}' }], usage: toolUsage });
    const { replies } = await make({ tools: [weatherTool()], tools_strict: true }).run(
      { messages: [ChatMessage.fromUser("What's the weather like in Paris?")], generation_kwargs: { response_format: calendarEventFormat } },
      ctx(),
    );
    const message = replies[0]!;
    assert.not.ok(message.text);
    assert.equal(message.toolCall, { id: "123", tool_name: "weather", arguments: { city: "Paris" } });
    assert.is(message.meta.finish_reason, "tool_calls");
    assert.is((message.meta.usage as typeof toolUsage).completion_tokens, 40);
    assert.equal(f.requests[0]!.body.response_format, calendarEventFormat);
  }));

test("test_run_with_tools_streaming (+ _async)", () =>
  withFixture(async (f, make) => {
    f.script({ toolCalls: [{ id: "123", name: "weather", arguments: '{"city": "Paris"}' }] });
    let called = false;
    const { replies } = await make({ streaming_callback: () => void (called = true) }).run({ messages: [ChatMessage.fromUser("What's the weather like in Paris?")], tools: [weatherTool()] }, ctx());
    assert.ok(called);
    assert.is(replies.length, 1);
    assert.equal(replies[0]!.toolCall, { id: "123", tool_name: "weather", arguments: { city: "Paris" } });
    assert.is(replies[0]!.meta.finish_reason, "tool_calls");
  }));

test("test_invalid_tool_call_json", () =>
  withFixture(async (f, make) => {
    f.script({ toolCalls: [{ id: "1", name: "weather", arguments: '"invalid": "json"' }], usage: { completion_tokens: 47, prompt_tokens: 540, total_tokens: 587 } });
    const { ctx: context, warnings } = logged();
    const { replies } = await make({ tools: [weatherTool()] }).run({ messages: [ChatMessage.fromUser("What's the weather in Paris?")] }, context);
    assert.is(replies.length, 1);
    assert.is(replies[0]!.toolCalls.length, 0);
    assert.ok(warnings.join("\n").includes("OpenAI returned a malformed JSON string for tool call arguments"));
    assert.is(replies[0]!.meta.finish_reason, "tool_calls");
    assert.is((replies[0]!.meta.usage as { completion_tokens: number }).completion_tokens, 47);
  }));

test("test_run_with_wrong_model (+ _async)", () =>
  withFixture(async (f, make) => {
    f.script({ status: 404, error: { message: "The model `something-obviously-wrong` does not exist", code: "model_not_found" } });
    await make({ model: "something-obviously-wrong" }).run({ messages: [ChatMessage.fromUser("irrelevant")] }, ctx()).then(
      () => assert.unreachable("expected an error"),
      (err: Error) => assert.match(err.message, /answered 404: The model `something-obviously-wrong` does not exist/),
    );
  }));

test("test_async_stream_closes_on_cancellation: aborting the run stops the stream", () =>
  withFixture(async (f, make) => {
    f.script({ content: "one two three four five six", stallAfterChunks: 3 });
    const controller = new AbortController();
    const chunks: StreamingChunk[] = [];
    const run = make().run({ messages: chatMessages(), streaming_callback: (c: StreamingChunk) => { chunks.push(c); if (chunks.length === 2) controller.abort(new Error("cancelled")); } }, { ...ctx(), signal: controller.signal });
    await run.then(() => assert.unreachable("expected the abort"), (err: Error) => assert.is(err.message, "cancelled"));
    assert.ok(chunks.length >= 2 && chunks.length <= 3);
  }));

test.run();
