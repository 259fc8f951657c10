/**
 * Haystack's test/dataclasses/test_streaming_chunk.py, ported value for value. ToolCallDelta and
 * ComponentInfo are plain objects in svc (their dict forms through `toolCallDeltaToDict` and
 * `componentInfoFromDict`); a component's info is `{type: its registered type, name: its name in the
 * pipeline}`. Skipped, Python-only: the `dataclasses.replace` mutation warnings (6 cases); the
 * sync/async callback checks of `select_streaming_callback` (a coroutine callback refused in a sync
 * run, a sync one warned about in an async run: svc has no sync run, it awaits whatever a callback
 * returns) and `_invoke_streaming_callback` (Python's awaitable bridge).
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { Component, componentInfoFromComponent, componentInfoFromDict, output, Pipeline, selectStreamingCallback, socket, StreamingChunk, toolCallDeltaFromDict, toolCallDeltaToDict, ValueError, type ComponentInfo } from "svc/engine";

const INFO: ComponentInfo = { type: "test.component", name: "test_component" };
const RESULT = { result: "output", origin: { id: "123", tool_name: "test_tool", arguments: { arg1: "value1" } }, error: false };
const isValueError = (pattern?: RegExp) => (e: Error) => e instanceof ValueError && (!pattern || pattern.test(e.message));

test("test_create_chunk_with_content_and_metadata, _with_only_content, test_access_content, _with_empty_content, _with_all_fields", () => {
  const chunk = new StreamingChunk({ content: "Test content", meta: { key: "value" } });
  assert.equal([chunk.content, chunk.meta], ["Test content", { key: "value" }]);
  assert.equal(new StreamingChunk({ content: "Test content" }).meta, {});
  const empty = new StreamingChunk({ content: "" });
  assert.equal([empty.content, empty.meta], ["", {}]);
  const all = new StreamingChunk({ content: "Test content", meta: { key: "value" }, component_info: INFO });
  assert.equal(all.component_info, INFO);
});

test("test_create_chunk_with_content_and_tool_call, _and_tool_call_result, _and_reasoning, test_reasoning_and_no_index", () => {
  const only = /Only one of `content`, `tool_call`, `tool_call_result`/;
  assert.throws(() => new StreamingChunk({ content: "Test content", meta: { key: "value" }, tool_calls: [{ id: "123", tool_name: "test_tool", arguments: '{"arg1": "value1"}', index: 0 }] }), isValueError(only));
  assert.throws(() => new StreamingChunk({ content: "Test content", meta: { key: "value" }, tool_call_result: RESULT }), isValueError(only));
  assert.throws(() => new StreamingChunk({ content: "Test content", meta: { key: "value" }, reasoning: { reasoning_text: "thinking" } }), isValueError(only));
  assert.throws(
    () => new StreamingChunk({ content: "", meta: { key: "value" }, reasoning: { reasoning_text: "thinking" } }),
    isValueError(/If `tool_call`, `tool_call_result` or `reasoning` is set, `index` must also be set\./),
  );
});

test("ComponentInfo.from_dict: type and name, name defaults to null", () => {
  assert.equal(componentInfoFromDict({ type: "test_streaming_chunk.ExampleComponent" }), { type: "test_streaming_chunk.ExampleComponent", name: null });
  assert.equal(componentInfoFromDict({ type: "test_streaming_chunk.ExampleComponent", name: "pipeline_component" }), { type: "test_streaming_chunk.ExampleComponent", name: "pipeline_component" });
  assert.throws(() => componentInfoFromDict({ name: "x" }), TypeError);
});

/** Haystack's ExampleComponent. */
class ExampleComponent extends Component {
  static override readonly type = "test_streaming_chunk.ExampleComponent";
  protected inputSpecs() {
    return { input_value: socket() };
  }
  protected outputSpecs() {
    return { test_output: output() };
  }
  run(inputs: { input_value: unknown }) {
    return { test_output: inputs.input_value };
  }
}
test("test_component_info_from_component", () => {
  assert.equal(componentInfoFromComponent(new ExampleComponent({})), { type: "test_streaming_chunk.ExampleComponent", name: null });
});
test("test_component_info_from_component_with_name_from_pipeline", () => {
  const comp = new ExampleComponent({});
  const pipeline = new Pipeline().addComponent("pipeline_component", comp);
  assert.equal(componentInfoFromComponent(comp), { type: "test_streaming_chunk.ExampleComponent", name: "pipeline_component" });
  // Removed from the pipeline, it has no name again.
  pipeline.removeComponent("pipeline_component");
  assert.is(componentInfoFromComponent(comp).name, null);
});
test("test_tool_call_delta", () => {
  const delta = toolCallDeltaFromDict({ id: "123", tool_name: "test_tool", arguments: '{"arg1": "value1"}', index: 0 });
  assert.equal(delta, { id: "123", tool_name: "test_tool", arguments: '{"arg1": "value1"}', index: 0, extra: null });
  assert.equal(toolCallDeltaToDict({ index: 0, tool_name: "t" }), { index: 0, tool_name: "t", arguments: null, id: null, extra: null });
  assert.throws(() => toolCallDeltaFromDict({ tool_name: "t" }), TypeError);
});

test("test_create_chunk_with_finish_reason, _and_meta, test_finish_reason_standard_values, _tool_call_results", () => {
  const chunk = new StreamingChunk({ content: "Test content", finish_reason: "stop" });
  assert.equal([chunk.content, chunk.finish_reason, chunk.meta], ["Test content", "stop", {}]);
  const withMeta = new StreamingChunk({ content: "Test content", finish_reason: "stop", meta: { model: "gpt-4", usage: { tokens: 10 } } });
  assert.equal([withMeta.meta.model, (withMeta.meta.usage as { tokens: number }).tokens], ["gpt-4", 10]);
  for (const value of ["stop", "length", "tool_calls", "content_filter", "tool_call_results"] as const) {
    assert.is(new StreamingChunk({ content: "Test content", finish_reason: value }).finish_reason, value);
  }
  const results = new StreamingChunk({ content: "", finish_reason: "tool_call_results", meta: { finish_reason: "tool_call_results" } });
  assert.equal([results.finish_reason, results.meta.finish_reason, results.content], ["tool_call_results", "tool_call_results", ""]);
});

test("test_to_dict_tool_call_result, test_to_dict_tool_calls, test_to_dict_reasoning", () => {
  const base = { content: "", meta: { key: "value" }, index: 0, component_info: INFO };
  assert.equal(new StreamingChunk({ ...base, tool_call_result: RESULT, finish_reason: "tool_call_results" }).toDict(), {
    ...base,
    tool_calls: null,
    tool_call_result: RESULT,
    start: false,
    finish_reason: "tool_call_results",
    reasoning: null,
  });
  const d = new StreamingChunk({
    ...base,
    tool_calls: [{ id: "123", tool_name: "test_tool", arguments: '{"arg1": "value1"}', index: 0 }, { id: "456", tool_name: "another_tool", arguments: '{"arg2": "value2"}', index: 1 }],
    finish_reason: "tool_calls",
  }).toDict();
  assert.equal(d.tool_calls, [
    { index: 0, tool_name: "test_tool", arguments: '{"arg1": "value1"}', id: "123", extra: null },
    { index: 1, tool_name: "another_tool", arguments: '{"arg2": "value2"}', id: "456", extra: null },
  ]);
  assert.equal([d.finish_reason, d.reasoning, d.component_info], ["tool_calls", null, INFO]);
  const r = new StreamingChunk({ ...base, reasoning: { reasoning_text: "thinking", extra: { step: 1 } }, finish_reason: "stop" }).toDict();
  assert.equal([r.reasoning, r.finish_reason, r.tool_calls, r.tool_call_result], [{ reasoning_text: "thinking", extra: { step: 1 } }, "stop", null, null]);
  assert.equal(JSON.parse(JSON.stringify(new StreamingChunk({ content: "x" }))), new StreamingChunk({ content: "x" }).toDict(), "JSON carries to_dict");
});

test("test_from_dict_tool_call_result, test_from_dict_tool_calls, test_from_dict_reasoning; content is required", () => {
  const component_info = { type: "test_streaming_chunk.ExampleComponent", name: "test_component" };
  const withResult = StreamingChunk.fromDict({ content: "", meta: { key: "value" }, index: 0, component_info, tool_call_result: RESULT, finish_reason: "tool_call_results" });
  assert.equal([withResult.content, withResult.meta, withResult.index, withResult.component_info], ["", { key: "value" }, 0, component_info]);
  assert.equal([withResult.tool_call_result!.result, withResult.tool_call_result!.error, withResult.tool_call_result!.origin.id, withResult.reasoning], ["output", false, "123", null]);
  const withCalls = StreamingChunk.fromDict({ content: "", meta: { key: "value" }, index: 0, component_info, tool_calls: [{ id: "123", tool_name: "test_tool", arguments: '{"arg1": "value1"}', index: 0 }], finish_reason: "tool_calls" });
  assert.equal([withCalls.tool_calls![0]!.tool_name, withCalls.tool_calls![0]!.index, withCalls.finish_reason, withCalls.reasoning], ["test_tool", 0, "tool_calls", null]);
  const withReasoning = StreamingChunk.fromDict({ content: "", meta: { key: "value" }, index: 0, component_info, reasoning: { reasoning_text: "thinking", extra: { step: 1 } }, finish_reason: "stop" });
  assert.equal([withReasoning.reasoning, withReasoning.finish_reason, withReasoning.tool_calls, withReasoning.tool_call_result], [{ reasoning_text: "thinking", extra: { step: 1 } }, "stop", null, null]);
  assert.throws(() => StreamingChunk.fromDict({ meta: {} }), isValueError(/Missing required field `content`/));
});

test("TestSelectStreamingCallback: runtime precedes init, runtime only, init fallback, both none", () => {
  const sync = () => {};
  const async_ = async () => {};
  assert.is(selectStreamingCallback(sync, async_), async_);
  assert.is(selectStreamingCallback(null, sync), sync);
  assert.is(selectStreamingCallback(async_, null), async_);
  assert.is(selectStreamingCallback(null, null), undefined);
});

test.run();
