/**
 * @module Port of Haystack's test_tool_calling.py, continued: tools taking the live State (a
 * Python `state: State` annotation is `receivesState(fn)`, or a ComponentTool socket of type
 * State), `raw_result` content parts (`_process_tool_output` is `processToolOutput`), the
 * streaming-callback passthrough, a list of Toolsets, and TestRunToolAsync (svc's one runner
 * awaits async tool functions).
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import * as v from "valibot";
import { ChatMessage, Component, ComponentTool, Document, OpenAIChatGenerator, Secret, State, Tool, ToolInvoker, Toolset, injectStateArgs, output, printStreamingChunk, processToolOutput, receivesState, scheduleToolCalls, socket, type ToolCall } from "svc/engine";
import { assistant, call, ctx, readerTool, retrievalTool, runTool, WEATHER, weatherParameters, weatherTool, writerTool } from "./tool-calling-fixtures.js";

const cityParameters = { type: "object", properties: { city: { type: "string" } }, required: ["city"] };
/** A 1×1 PNG, Haystack's `base64_image_string` fixture's role. */
const BASE64_IMAGE = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";
const image = (base64_image = BASE64_IMAGE, mime_type = "image/png") => ({ image: { base64_image, mime_type } });
const retrieveImage: ToolCall = { tool_name: "retrieve_image", arguments: {} };

// ---- TestCore: the live State injected ----
test("TestCore.test_inject_state_args_injects_state_object_for_state_annotated_param", () => {
  const stateTool = new Tool({ name: "state_tool", description: "A tool that receives the live State object.", parameters: cityParameters, function: receivesState((args) => `Weather in ${args.city}`) });
  const state = new State({ city: { type: "str" } }, { city: "Berlin" });
  const args = injectStateArgs(stateTool, { city: "Paris" }, state);
  assert.is(args.city, "Paris");
  assert.is(args.state, state);
});
test("TestCore.test_inject_state_args_injects_state_object_for_optional_state_annotated_param", () => {
  // `state: State | None = None`: a component socket typed as an optional State.
  class OptionalState extends Component {
    static override readonly type = "test.OptionalState";
    protected inputSpecs() {
      return { city: socket(v.string()), state: socket(v.nullable(v.instance(State)), { default: null }) };
    }
    protected outputSpecs() {
      return { result: output(v.string()) };
    }
    run(inputs: { city: string }) {
      return { result: `Weather in ${inputs.city}` };
    }
  }
  const stateTool = new ComponentTool({ component: new OptionalState({}), name: "state_tool", description: "A tool that receives an optional State object." });
  const state = new State({});
  const args = injectStateArgs(stateTool, { city: "Paris" }, state);
  assert.is(args.city, "Paris");
  assert.is(args.state, state);
});

// ---- TestRunTool ----
for (const [name, asyncFunction] of [["test_run_injects_state_object_into_tool", false], ["test_run_async_injects_state_object_into_tool", true]] as const) {
  test(`TestRunTool.${name}`, async () => {
    let received: unknown;
    const body = (args: Record<string, any>) => ((received = args.state), `Weather in ${args.city}: sunny`);
    const fn = asyncFunction ? { async_function: receivesState(async (args: Record<string, any>) => body(args)) } : { function: receivesState(body) };
    const stateTool = new Tool({ name: "state_tool", description: "A tool that receives the live State object.", parameters: cityParameters, ...fn });
    const state = new State({ city: { type: "str" } });
    const [messages] = await runTool({ messages: [assistant(call("state_tool", { city: "Berlin" }))], state, tools: [stateTool] });
    assert.is(messages.length, 1);
    assert.is(messages[0]!.toolCallResults[0]!.error, false);
    assert.is(received, state);
  });
}
test("TestRunTool.test_enable_streaming_callback_passthrough", async () => {
  const calls: Record<string, unknown>[] = [];
  /** OpenAIChatGenerator with its run patched, as Haystack's test does. */
  class PatchedGenerator extends OpenAIChatGenerator {
    override async run(inputs: Parameters<OpenAIChatGenerator["run"]>[0]) {
      calls.push(inputs as unknown as Record<string, unknown>);
      return { replies: [ChatMessage.fromAssistant("Hello! How can I help you?")] };
    }
  }
  const llmTool = new ComponentTool({ component: new PatchedGenerator({ api_key: Secret.fromToken("test-key") }), name: "chat_generator_tool", description: "A tool that generates chat messages using OpenAI's GPT model." });
  const invoker = new ToolInvoker({ tools: [llmTool] });
  const message = assistant({ tool_name: "chat_generator_tool", arguments: { messages: [{ role: "user", content: [{ text: "Hello!" }] }] }, id: "12345" });
  await invoker.run({ messages: [message], state: new State({}), streaming_callback: printStreamingChunk, enable_streaming_callback_passthrough: true }, ctx());
  assert.is(calls.length, 1);
  assert.equal((calls[0]!.messages as ChatMessage[]).map((m) => m.toDict()), [ChatMessage.fromUser("Hello!").toDict()]);
  assert.is(calls[0]!.streaming_callback, printStreamingChunk);
  // Without the passthrough the tool's component gets no callback.
  await invoker.run({ messages: [message], state: new State({}), streaming_callback: printStreamingChunk }, ctx());
  assert.is(calls[1]!.streaming_callback ?? null, null);
});
test("TestRunTool.test_run_tool_calls_across_list_of_toolsets", async () => {
  const addTool = new Tool({
    name: "add",
    description: "A tool that adds two numbers.",
    parameters: { type: "object", properties: { num1: { type: "integer" }, num2: { type: "integer" } }, required: ["num1", "num2"] },
    function: (a: Record<string, any>) => a.num1 + a.num2,
  });
  const message = assistant(call("weather_tool", { location: "Berlin" }), call("add", { num1: 5, num2: 3 }));
  const [messages] = await runTool({ messages: [message], tools: [new Toolset([weatherTool()]), new Toolset([addTool])] });
  assert.is(messages.length, 2);
  assert.ok(messages[0]!.toolCallResults[0]!.result.includes("mostly sunny"));
  assert.ok(messages[1]!.toolCallResults[0]!.result.includes("8"));
});

// ---- TestUtilities: raw_result ----
test("TestUtilities.test_process_output_empty_config", () => {
  assert.equal(processToolOutput({ raw_result: true }, [image()], retrieveImage, { raiseOnFailure: false }), [image()]);
});
test("TestUtilities.test_process_output_source_only", () => {
  assert.equal(processToolOutput({ source: "images", raw_result: true }, { images: [image()] }, retrieveImage, { raiseOnFailure: false }), [image()]);
});
const toImage = (result: unknown) => {
  const r = result as { base64_image_string: string; mime_type: string };
  return [image(r.base64_image_string, r.mime_type)];
};
test("TestUtilities.test_process_output_handler_only", () => {
  assert.equal(processToolOutput({ handler: toImage, raw_result: true }, { base64_image_string: BASE64_IMAGE, mime_type: "image/png" }, retrieveImage, { raiseOnFailure: false }), [image()]);
});
test("TestUtilities.test_process_output_source_and_handler", () => {
  const result = { images: { base64_image_string: BASE64_IMAGE, mime_type: "image/png" }, other_key: "other_value" };
  assert.equal(processToolOutput({ source: "images", handler: toImage, raw_result: true }, result, retrieveImage, { raiseOnFailure: false }), [image()]);
});
test("TestUtilities.test_output_to_result_e2e", async () => {
  const handler = (r: unknown) => {
    const w = r as (typeof WEATHER)[string];
    return [{ text: `weather: ${w.weather}` }, { text: `temperature: ${w.temperature} ${w.unit}` }];
  };
  const [messages] = await runTool({ messages: [assistant(call("weather_tool", { location: "Berlin" }))], tools: [weatherTool({ outputs_to_string: { handler, raw_result: true } })] });
  assert.equal(messages[0]!.toolCallResults[0]!.result, [{ text: "weather: mostly sunny" }, { text: "temperature: 7 celsius" }]);
  // The parts survive the message's round trip.
  assert.equal(ChatMessage.fromDict(messages[0]!.toDict() as never).toolCallResults[0]!.result, [{ text: "weather: mostly sunny" }, { text: "temperature: 7 celsius" }]);
});

// ---- TestScheduleToolCalls ----
test("TestScheduleToolCalls.test_state_param_tool_is_a_barrier", () => {
  const stateTool = new Tool({ name: "state_tool", description: "Receives the live State.", parameters: { type: "object", properties: {} }, function: receivesState(() => "done") });
  const calls = [call("reader_tool"), call("state_tool"), call("writer_tool")];
  assert.equal(scheduleToolCalls(calls, [readerTool("a"), stateTool, writerTool("b")]), [[2], [1], [0]]);
});

// ---- TestRunToolAsync ----
test("TestRunToolAsync.test_async_tool_is_awaited_directly", async () => {
  const asyncWeather = new Tool({ name: "weather_tool", description: "Provides weather information for a given location.", parameters: weatherParameters, async_function: async (a: Record<string, any>) => WEATHER[a.location] });
  const [messages] = await runTool({ messages: [assistant({ ...call("weather_tool", { location: "Berlin" }), id: "1" })], tools: [asyncWeather] });
  assert.is(JSON.parse(messages[0]!.toolCallResults[0]!.result).weather, "mostly sunny");
});
test("TestRunToolAsync.test_max_workers_serializes_async_tool_calls", async () => {
  let active = 0;
  let maxActive = 0;
  const slow = new Tool({
    name: "weather_tool",
    description: "Slow async tool.",
    parameters: weatherParameters,
    async_function: async (a: Record<string, any>) => {
      active++;
      maxActive = Math.max(maxActive, active);
      await new Promise((resolve) => setTimeout(resolve, 10));
      active--;
      return a.location;
    },
  });
  const message = assistant(...[0, 1, 2, 3].map((i) => ({ ...call("weather_tool", { location: `city-${i}` }), id: String(i) })));
  const [messages] = await runTool({ messages: [message], tools: [slow], max_workers: 1 });
  assert.is(maxActive, 1);
  assert.equal(messages.map((m) => m.toolCallResults[0]!.result), ["city-0", "city-1", "city-2", "city-3"]);
});
test("TestRunToolAsync.test_read_write_same_key_runs_sequentially", async () => {
  const state = new State({ documents: { type: "list[Document]" } });
  await runTool({ messages: [assistant({ ...call("retrieval_tool"), id: "1" }, { ...call("retrieval_tool"), id: "2" })], state, tools: [retrievalTool()] });
  assert.equal((state.get("documents") as Document[]).map((d) => d.content), ["doc-0", "doc-1"]);
});

test.run();
