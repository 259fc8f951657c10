/**
 * @module Port of Haystack's test/components/agents/test_tool_calling.py (values, not Python),
 * through svc's ToolInvoker, whose runner the Agent shares. Haystack's private helpers
 * (`_run_tool`, `_build_tool_result_message`, `_merge_tool_outputs_into_state`,
 * `_result_to_string`) are reached through a run, `mergeIntoState` and `resultToString`.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { ChatMessage, Document, PromptBuilder, State, Tool, ToolInvocationError, ToolInvoker, ToolNotFoundError, ToolStateMergeError, ComponentTool, mergeIntoState, resultToString, scheduleToolCalls, type ToolCall } from "svc/engine";
import type { StreamingChunk } from "../../../../plugins/engine/dataclasses/streaming-chunk.js";
import { assistant, call, ctx, faultyTool, readerTool, retrievalTool, runTool, weatherFunction, weatherParameters, weatherTool, writerTool } from "./tool-calling-fixtures.js";

const rejection = (p: Promise<unknown>) => p.then(() => null, (e: Error) => e);

// ---- TestCore ----
test("TestCore.test_validate_and_prepare_tools", () => {
  const invoker = new ToolInvoker({ tools: [weatherTool(), faultyTool()] });
  assert.equal([...(invoker.initParameters.tools as Tool[])].map((t) => t.name), ["weather_tool", "faulty_tool"]);
});
test("TestCore.test_validate_and_prepare_tools_validation_failures", () => {
  assert.throws(() => new ToolInvoker({ tools: [] }));
  assert.throws(() => new ToolInvoker({ tools: [weatherTool(), weatherTool()] }), /Duplicate tool names found: weather_tool/);
});
/** What the tool function receives for an LLM call with `llmArgs`. */
async function injected(tool: (fn: (args: Record<string, unknown>) => unknown) => Tool, llmArgs: Record<string, unknown>, state: State) {
  let seen: Record<string, unknown> | undefined;
  const t = tool((args) => ((seen = args), "ok"));
  await runTool({ messages: [assistant(call(t.name, llmArgs))], state, tools: [t], raise_on_failure: false });
  return seen;
}
const optionalLocation = { type: "object", properties: { location: { type: "string" } } };
test("TestCore.test_inject_state_args_no_tool_inputs_does_not_match_by_name", async () => {
  const args = await injected((fn) => new Tool({ name: "weather_tool", description: "", parameters: optionalLocation, function: fn }), {}, new State({ location: { type: "str" } }, { location: "Berlin" }));
  assert.equal(args, {});
});
test("TestCore.test_inject_state_args_no_tool_inputs_component_tool_does_not_match_by_name", async () => {
  const promptTool = new ComponentTool({ component: new PromptBuilder({ template: "Hello, {{name}}!", required_variables: [] }), name: "prompt_tool", description: "Creates a personalized greeting prompt." });
  const [messages] = await runTool({ messages: [assistant(call("prompt_tool", {}))], state: new State({ name: { type: "str" } }, { name: "James" }), tools: [promptTool] });
  assert.is(messages[0]!.toolCallResult!.result, '{"prompt": "Hello, !"}');
});
test("TestCore.test_inject_state_args_with_tool_inputs", async () => {
  const args = await injected((fn) => new Tool({ name: "weather_tool", description: "", parameters: optionalLocation, function: fn, inputs_from_state: { loc: "location" } }), {}, new State({ loc: { type: "str" } }, { loc: "Berlin" }));
  assert.equal(args, { location: "Berlin" });
});
test("TestCore.test_inject_state_args_param_in_state_and_llm", async () => {
  const args = await injected((fn) => new Tool({ name: "weather_tool", description: "", parameters: optionalLocation, function: fn }), { location: "Paris" }, new State({ location: { type: "str" } }, { location: "Berlin" }));
  assert.equal(args, { location: "Paris" });
});

// ---- TestRunTool ----
test("TestRunTool.test_run_with_streaming_callback_finish_reason", async () => {
  const chunks: StreamingChunk[] = [];
  const [messages] = await runTool({ messages: [assistant(call("weather_tool", { location: "Berlin" }))], tools: [weatherTool()], streaming_callback: (c) => void chunks.push(c) });
  assert.is(messages.length, 1);
  assert.is(chunks.at(-1)!.finish_reason, "tool_call_results");
  assert.ok(chunks.some((c) => c.tool_call_result));
});
test("TestRunTool.test_run_no_messages", async () => assert.equal((await runTool({ messages: [], tools: [weatherTool()] }))[0], []));
test("TestRunTool.test_run_no_tool_calls", async () =>
  assert.equal((await runTool({ messages: [ChatMessage.fromUser("Hello!"), ChatMessage.fromAssistant("How can I help you?")], tools: [weatherTool()] }))[0], []));
test("TestRunTool.test_run_multiple_tool_calls", async () => {
  const calls = ["Berlin", "Paris", "Rome"].map((location) => call("weather_tool", { location }));
  const [messages] = await runTool({ messages: [assistant(...calls)], tools: [weatherTool()] });
  assert.is(messages.length, 3);
  for (const [i, m] of messages.entries()) {
    assert.is(m.role, "tool");
    assert.is(m.toolCallResult!.error, false);
    assert.equal(m.toolCallResult!.origin, calls[i]);
  }
});
test("TestRunTool.test_run_tool_calls_with_empty_args", async () => {
  const hello = new Tool({ name: "hello_world", description: "A tool that returns a greeting.", parameters: { type: "object", properties: {} }, function: () => "Hello, world!" });
  const [messages] = await runTool({ messages: [assistant(call("hello_world", {}))], tools: [hello] });
  assert.is(messages.length, 1);
  assert.equal([messages[0]!.toolCallResult!.error, messages[0]!.toolCallResult!.result], [false, "Hello, world!"]);
});
test("TestRunTool.test_run_with_tools", async () => {
  const c = call("weather_tool", { location: "Berlin" });
  const [messages] = await runTool({ messages: [assistant(c)], tools: [weatherTool()] });
  const result = messages[0]!.toolCallResult!;
  assert.is(result.error, false);
  assert.is(result.result, '{"weather": "mostly sunny", "temperature": 7, "unit": "celsius"}');
  assert.equal(result.origin, c);
});
test("TestRunTool.test_parallel_tool_calling_with_state_updates", async () => {
  const log: string[] = [];
  const stateTool = (n: number) =>
    new Tool({
      name: `state_tool_${n}`,
      description: "A tool that updates state counter",
      parameters: { type: "object", properties: {} },
      function: async () => (await new Promise((r) => setTimeout(r, 10)), log.push(`tool_${n}_executed`), { counter: n, tool_name: `tool_${n}` }),
      outputs_to_state: { counter: { source: "counter" }, last_tool: { source: "tool_name" } },
    });
  const state = new State({ counter: { type: "int" }, last_tool: { type: "str" } });
  await runTool({ messages: [assistant(call("state_tool_1"), call("state_tool_2"), call("state_tool_3"))], state, tools: [1, 2, 3].map(stateTool) });
  assert.equal([...log].sort(), ["tool_1_executed", "tool_2_executed", "tool_3_executed"]);
  assert.ok([1, 2, 3].includes(state.get("counter") as number));
  assert.ok(["tool_1", "tool_2", "tool_3"].includes(state.get("last_tool") as string));
});
test("TestRunTool.test_two_subsequent_run_tool_calls", async () => {
  const calls = ["Berlin", "Paris", "Rome"].map((location) => call("weather_tool", { location }));
  let called = false;
  const tool = weatherTool();
  for (let i = 0; i < 2; i++) assert.is((await runTool({ messages: [assistant(...calls)], tools: [tool], streaming_callback: () => void (called = true) }))[0].length, 3);
  assert.ok(called);
});

// ---- TestRunToolErrorHandling ----
test("TestRunToolErrorHandling.test_tool_not_found_error", async () =>
  assert.instance(await rejection(runTool({ messages: [assistant(call("non_existent_tool", { location: "Berlin" }))], tools: [weatherTool()] })), ToolNotFoundError));
test("TestRunToolErrorHandling.test_tool_not_found_does_not_raise_exception", async () => {
  const [messages] = await runTool({ messages: [assistant(call("non_existent_tool", { location: "Berlin" }))], tools: [weatherTool()], raise_on_failure: false });
  assert.is(messages[0]!.toolCallResults[0]!.error, true);
  assert.match(messages[0]!.toolCallResults[0]!.result, /not found/);
});
test("TestRunToolErrorHandling.test_tool_invocation_error", async () =>
  assert.instance(await rejection(runTool({ messages: [assistant(call("faulty_tool", { location: "Berlin" }))], tools: [faultyTool()] })), ToolInvocationError));
test("TestRunToolErrorHandling.test_tool_invocation_error_does_not_raise_exception", async () => {
  const [messages] = await runTool({ messages: [assistant(call("faulty_tool", { location: "Berlin" }))], tools: [faultyTool()], raise_on_failure: false });
  assert.is(messages[0]!.toolCallResults[0]!.error, true);
  assert.match(messages[0]!.toolCallResults[0]!.result, /Failed to invoke/);
});
/** Haystack's `_build_tool_result_message`: the message for a tool that returns `result`. */
async function resultMessage(outputs_to_string: Record<string, unknown>, result: unknown, raise_on_failure = false) {
  const tool = weatherTool({ outputs_to_string, function: () => result });
  return (await runTool({ messages: [assistant(call("weather_tool", { location: "Berlin" }))], tools: [tool], raise_on_failure }))[0][0]!;
}
test("TestRunToolErrorHandling.test_outputs_to_string_with_multiple_outputs", async () =>
  assert.is((await resultMessage({ weather: { source: "weather" }, temp: { source: "temperature" } }, { weather: "sunny", temperature: 25, unit: "celsius" })).toolCallResults[0]!.result, '{"weather": "sunny", "temp": "25"}'));
test("TestRunToolErrorHandling.test_output_handler_failure_falls_back_to_string", async () => {
  const strict = (value: unknown) => {
    if (!(value && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype)) throw new TypeError("Object of type Date is not JSON serializable");
    return JSON.stringify(value);
  };
  const message = await resultMessage({ handler: strict }, new Date());
  assert.is(message.toolCallResults[0]!.error, false);
  assert.type(message.toolCallResults[0]!.result, "string");
});
test("TestRunToolErrorHandling.test_output_handler_failure_falls_back_to_string_raw_result", async () => {
  const message = await resultMessage({ handler: () => { throw new Error("Handler error"); }, raw_result: true }, "something");
  assert.equal([message.toolCallResults[0]!.error, message.toolCallResults[0]!.result], [false, "something"]);
});
test("TestRunToolErrorHandling.test_output_handler_failure_raises_when_raise_on_failure", async () => {
  const error = await rejection(resultMessage({ handler: () => { throw new Error("Handler error"); } }, "something", true));
  assert.match(error!.message, /Handler error/);
});
test("TestRunToolErrorHandling.test_run_state_merge_error_always_raises", async () => {
  class ProblematicState extends State {
    override set(): void {
      throw new Error("State set operation failed");
    }
  }
  const state = new ProblematicState({ test_key: { type: "str" } });
  const error = await rejection(runTool({ messages: [assistant(call("weather_tool", { location: "Berlin" }))], state, tools: [weatherTool({ outputs_to_state: { weather: { source: "weather" } } })], raise_on_failure: false }));
  assert.instance(error, ToolStateMergeError);
  assert.match(error!.message, /weather_tool/);
});

// ---- TestUtilities ----
test("TestUtilities.test_result_to_string", () => {
  assert.is(resultToString("hello"), "hello");
  assert.is(resultToString(42), "42");
  assert.is(resultToString(3.14), "3.14");
  assert.is(resultToString(true), "true");
  assert.is(resultToString(null), "null");
  assert.is(resultToString([1, 2, 3]), "[1, 2, 3]");
  assert.is(resultToString({ key: "value" }), '{"key": "value"}');
  assert.is(resultToString("Hello 🌍"), "Hello 🌍");
});
test("TestUtilities.test_result_to_string_with_serializable_objects", () => {
  const result = resultToString(new (class MockObject { constructor(readonly value: string) {} toDict() { return { value: this.value }; } })("test_value"));
  assert.ok(result.includes("test_value") && result.includes("value"));
});
const weatherResult = { weather: "sunny", temperature: 14, unit: "celsius" };
test("TestUtilities.test_merge_tool_outputs_result_not_a_dict", () => {
  const state = new State({ weather: { type: "str" } });
  mergeIntoState(weatherTool(), "test", state);
  assert.equal(state.data, {});
});
test("TestUtilities.test_merge_tool_outputs_empty_dict", () => {
  const state = new State({ weather: { type: "str" } });
  mergeIntoState(weatherTool(), {}, state);
  assert.equal(state.data, {});
});
test("TestUtilities.test_merge_tool_outputs_no_output_mapping", () => {
  const state = new State({ weather: { type: "str" } });
  mergeIntoState(weatherTool(), weatherResult, state);
  assert.equal(state.data, {});
});
test("TestUtilities.test_merge_tool_outputs_with_output_mapping", () => {
  const state = new State({ weather: { type: "str" } });
  mergeIntoState(weatherTool({ outputs_to_state: { weather: { source: "weather" } } }), weatherResult, state);
  assert.equal(state.data, { weather: "sunny" });
});
test("TestUtilities.test_merge_tool_outputs_with_output_mapping_2", () => {
  const state = new State({ all_weather_results: { type: "str" } });
  mergeIntoState(weatherTool({ outputs_to_state: { all_weather_results: {} } }), weatherResult, state);
  assert.equal(state.data, { all_weather_results: weatherResult });
});
test("TestUtilities.test_merge_tool_outputs_source_key_absent_does_not_corrupt_list_state", () => {
  const tool = new Tool({ name: "retrieval", description: "mock", parameters: { type: "object", properties: { query: { type: "string" } }, required: ["query"] }, function: () => ({}), outputs_to_state: { documents: { source: "documents_output" } } });
  const existing = new Document({ content: "from first call" });
  const state = new State({ documents: { type: "list[Document]" } });
  state.set("documents", [existing]);
  mergeIntoState(tool, { result: "no web results found" }, state);
  assert.equal(state.data.documents, [existing]);
});
test("TestUtilities.test_merge_tool_outputs_with_output_mapping_and_handler", () => {
  const state = new State({ temperature: { type: "str" } });
  mergeIntoState(weatherTool({ outputs_to_state: { temperature: { source: "temperature", handler: (_: unknown, incoming: unknown) => `${incoming}` } } }), weatherResult, state);
  assert.equal(state.data, { temperature: "14" });
});

// ---- TestScheduleToolCalls, TestStateDependencyScheduling ----
const schedule = (calls: [string, Record<string, unknown>][], tools: Tool[]) => scheduleToolCalls(calls.map(([name, args]) => call(name, args)), tools);
test("TestScheduleToolCalls.test_no_calls_returns_no_batches", () => assert.equal(scheduleToolCalls([], []), []));
test("TestScheduleToolCalls.test_single_call_is_one_batch", () => assert.equal(schedule([["writer_tool", {}]], [writerTool()]), [[0]]));
test("TestScheduleToolCalls.test_read_only_calls_run_in_one_batch", () => assert.equal(schedule([["reader_tool", {}], ["reader_tool", {}]], [readerTool(), readerTool()]), [[0, 1]]));
test("TestScheduleToolCalls.test_disjoint_keys_run_in_one_batch", () => assert.equal(schedule([["writer_tool", {}], ["reader_tool", {}]], [writerTool("a"), readerTool("b")]), [[0, 1]]));
test("TestScheduleToolCalls.test_writer_then_reader_serializes", () => assert.equal(schedule([["writer_tool", {}], ["reader_tool", {}]], [writerTool("docs"), readerTool("docs")]), [[0], [1]]));
test("TestScheduleToolCalls.test_reader_before_writer_is_reordered", () => assert.equal(schedule([["reader_tool", {}], ["writer_tool", {}]], [readerTool("docs"), writerTool("docs")]), [[1], [0]]));
test("TestScheduleToolCalls.test_pure_write_write_runs_in_one_batch", () => assert.equal(schedule([["writer_tool", {}], ["writer_tool", {}]], [writerTool("docs"), writerTool("docs")]), [[0, 1]]));
test("TestScheduleToolCalls.test_read_write_cycle_breaks_by_call_order", () => assert.equal(schedule([["retrieval_tool", {}], ["retrieval_tool", {}]], [retrievalTool(), retrievalTool()]), [[0], [1]]));
test("TestScheduleToolCalls.test_llm_supplied_arg_is_not_a_state_read", () =>
  assert.equal(schedule([["reader_tool", { value: "provided" }], ["writer_tool", {}]], [readerTool("docs"), writerTool("docs")]), [[0, 1]]));
test("TestStateDependencyScheduling.test_read_write_same_key_runs_sequentially", async () => {
  const state = new State({ documents: { type: "list[Document]" } });
  await runTool({ messages: [assistant({ ...call("retrieval_tool"), id: "1" }, { ...call("retrieval_tool"), id: "2" })], state, tools: [retrievalTool()] });
  assert.equal((state.get("documents") as Document[]).map((d) => d.content), ["doc-0", "doc-1"]);
});
test("TestStateDependencyScheduling.test_reader_requested_before_writer_still_sees_write", async () => {
  const seen: unknown[] = [];
  const state = new State({ value: { type: "str" } });
  await runTool({ messages: [assistant({ ...call("reader_tool"), id: "1" }, { ...call("writer_tool"), id: "2" })], state, tools: [readerTool("value", seen), writerTool("value")] });
  assert.equal(seen, ["written"]);
});

test.run();
