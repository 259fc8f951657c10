/**
 * @module Port of Haystack's test/tools/test_tool.py (values, not Python). Functions are named in
 * dumps by the name they are registered under (`test_tool.get_weather_report`), as YAML names
 * them. JS calls a plain and an async function the same way, so Haystack's checks that tell them
 * apart (a coroutine passed as `function`, a plain one as `async_function`, `invoke` of an
 * async-only tool) are Python-only and not ported.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { EngineRegistry, Tool, ToolInvocationError, checkDuplicateTools } from "svc/engine";

const getWeatherReport = (args: Record<string, any>) => `Weather report for ${args.city}: 20°C, sunny`;
const formatString = (text: unknown) => `Formatted: ${String(text)}`;
const outputsToResultHandler = (result: any) => [{ text: result.text }];
const asyncGetWeather = async (args: Record<string, any>) => `Weather report for ${args.city}: 20°C, sunny`;
const parameters = { type: "object", properties: { city: { type: "string" } }, required: ["city"] };
const registry = () =>
  new EngineRegistry()
    .registerFunction("test_tool.get_weather_report", getWeatherReport)
    .registerFunction("test_tool.format_string", formatString)
    .registerFunction("test_tool.outputs_to_result_handler", outputsToResultHandler)
    .registerFunction("test_tool.async_get_weather", asyncGetWeather);
const weather = (extra: Record<string, unknown> = {}) => new Tool({ name: "weather", description: "Get weather report", parameters, function: getWeatherReport, ...extra });
const irrelevant = (extra: Record<string, unknown>) => () =>
  new Tool({ name: "irrelevant", description: "irrelevant", parameters: { type: "object", properties: { city: { type: "string" } } }, function: getWeatherReport, ...extra });
const throwsKind = (fn: () => unknown, kind: typeof Error, pattern?: RegExp) =>
  assert.throws(fn, (e: Error) => (kind === Error ? !(e instanceof TypeError) : e instanceof kind) && (!pattern || pattern.test(e.message)));

test("test_init", () => {
  const tool = weather();
  assert.is(tool.name, "weather");
  assert.is(tool.description, "Get weather report");
  assert.equal(tool.parameters, parameters);
  assert.is(tool.function, getWeatherReport);
  assert.is(tool.inputs_from_state, null);
  assert.is(tool.outputs_to_state, null);
});
test("test_init_invalid_parameters", () =>
  throwsKind(() => new Tool({ name: "irrelevant", description: "irrelevant", parameters: { type: "invalid", properties: { city: { type: "string" } } }, function: getWeatherReport }), Error, /do not define a valid JSON schema/));
test("test_init_requires_function_or_async_function", () =>
  throwsKind(() => new Tool({ name: "weather", description: "Get weather report", parameters } as never), Error, /requires at least one of `function` or `async_function`/));
test("test_init_invalid_output_structure[source-not-a-string]", () => throwsKind(irrelevant({ outputs_to_state: { documents: { source: getWeatherReport } } }), Error, /source for key 'documents' must be a string/));
test("test_init_invalid_output_structure[handler-not-callable]", () => throwsKind(irrelevant({ outputs_to_state: { documents: { handler: "some_string", source: "docs" } } }), Error, /handler for key 'documents' must be callable/));
test("test_init_invalid_output_structure_config_not_dict", () => throwsKind(irrelevant({ outputs_to_state: { documents: ["some_value"] } }), TypeError, /must be a dictionary/));
const badOutputsToString: [string, Record<string, unknown>, RegExp][] = [
  ["source-not-a-string", { source: getWeatherReport }, /outputs_to_string source must be a string/],
  ["handler-not-callable", { handler: "some_string" }, /outputs_to_string handler must be callable/],
  ["raw_result-not-a-bool", { raw_result: "not-a-bool" }, /raw_result must be a boolean/],
  ["multi-value-source-not-a-string", { documents: { source: getWeatherReport } }, /source for key 'documents' must be a string/],
  ["multi-value-handler-not-callable", { documents: { handler: "some_string" } }, /each output must have a 'source' defined/],
  ["multi-value-raw_result-not-supported", { documents: { source: "docs", raw_result: true } }, /'raw_result' is not supported in the multiple output format/],
];
for (const [id, outputs_to_string, pattern] of badOutputsToString) test(`test_init_invalid_outputs_to_string_structure[${id}]`, () => throwsKind(irrelevant({ outputs_to_string }), Error, pattern));
test("test_init_invalid_outputs_to_string_structure_config_not_dict", () => throwsKind(irrelevant({ outputs_to_string: { documents: ["some_value"] } }), TypeError, /must be a dictionary/));
test("test_tool_spec", () => assert.equal(weather().toolSpec, { name: "weather", description: "Get weather report", parameters }));
test("test_invoke", async () => assert.is(await weather().invoke({ city: "Berlin" }), "Weather report for Berlin: 20°C, sunny"));
test("test_invoke_fail", async () => {
  // Haystack's message ends in Python's missing-argument text; svc's schema check names the missing property.
  const error = await weather().invoke({}).then(() => null, (e: Error) => e);
  assert.instance(error, ToolInvocationError);
  assert.ok(error!.message.startsWith("Failed to invoke Tool `weather` with parameters {}. Error: "), error!.message);
  assert.match(error!.message, /city/);
});
const fullDict = {
  type: "haystack.tools.tool.Tool",
  data: {
    name: "weather",
    description: "Get weather report",
    parameters,
    function: "test_tool.get_weather_report",
    async_function: null,
    outputs_to_string: { handler: "test_tool.format_string" },
    inputs_from_state: { location: "city" },
    outputs_to_state: { documents: { source: "docs", handler: "test_tool.get_weather_report" } },
  },
};
test("test_to_dict", () => {
  const tool = weather({ outputs_to_string: { handler: formatString }, inputs_from_state: { location: "city" }, outputs_to_state: { documents: { handler: getWeatherReport, source: "docs" } } });
  assert.equal(tool.toDict(registry()), fullDict);
});
test("test_from_dict", () => {
  const { async_function: _, ...data } = fullDict.data;
  const tool = Tool.fromDict({ type: fullDict.type, data }, registry());
  assert.is(tool.name, "weather");
  assert.is(tool.description, "Get weather report");
  assert.equal(tool.parameters, parameters);
  assert.is(tool.function, getWeatherReport);
  assert.equal(tool.outputs_to_string, { handler: formatString });
  assert.is(tool.outputs_to_string!.handler, formatString);
  assert.equal(tool.inputs_from_state, { location: "city" });
  assert.equal(tool.outputs_to_state, { documents: { source: "docs", handler: getWeatherReport } });
});
/** `_serialize_outputs_to_string` / `_deserialize_...` through a Tool's dump and load. */
const dumpedOutputsToString = (config: Record<string, unknown>) => weather({ outputs_to_string: config }).toDict(registry()).data.outputs_to_string;
const loadedOutputsToString = (config: Record<string, unknown>) => Tool.fromDict({ ...fullDict.data, outputs_to_string: config }, registry()).outputs_to_string;
test("test_serialize_outputs_to_string", () => {
  assert.equal(dumpedOutputsToString({ handler: formatString, source: "result", raw_result: false }), { handler: "test_tool.format_string", source: "result", raw_result: false });
  assert.equal(dumpedOutputsToString({ handler: formatString }), { handler: "test_tool.format_string" });
  assert.equal(dumpedOutputsToString({ handler: outputsToResultHandler, raw_result: true }), { handler: "test_tool.outputs_to_result_handler", raw_result: true });
  assert.equal(dumpedOutputsToString({ report: { source: "report", handler: formatString }, temp: { source: "temperature", handler: formatString } }), {
    report: { source: "report", handler: "test_tool.format_string" },
    temp: { source: "temperature", handler: "test_tool.format_string" },
  });
});
test("test_deserialize_outputs_to_string", () => {
  assert.equal(loadedOutputsToString({ handler: "test_tool.format_string", source: "result", raw_result: false }), { handler: formatString, source: "result", raw_result: false });
  assert.equal(loadedOutputsToString({ handler: "test_tool.format_string" }), { handler: formatString });
  assert.equal(loadedOutputsToString({ handler: "test_tool.outputs_to_result_handler", raw_result: true }), { handler: outputsToResultHandler, raw_result: true });
  const multi = loadedOutputsToString({ report: { source: "report", handler: "test_tool.format_string" }, temp: { source: "temperature", handler: "test_tool.format_string" } }) as any;
  assert.equal(multi, { report: { source: "report", handler: formatString }, temp: { source: "temperature", handler: formatString } });
  assert.is(multi.temp.handler, formatString);
});
const stateConfig = { documents: { source: "docs", handler: formatString }, summary: { source: "docs", handler: getWeatherReport }, raw_docs: { source: "docs" } };
const stateDump = { documents: { source: "docs", handler: "test_tool.format_string" }, summary: { source: "docs", handler: "test_tool.get_weather_report" }, raw_docs: { source: "docs" } };
test("test_serialize_outputs_to_state", () => assert.equal(weather({ outputs_to_state: stateConfig }).toDict(registry()).data.outputs_to_state, stateDump));
test("test_deserialize_outputs_to_state", () => {
  const loaded = Tool.fromDict({ ...fullDict.data, outputs_to_state: stateDump }, registry()).outputs_to_state!;
  assert.equal(loaded, stateConfig);
  assert.is(loaded.summary!.handler, getWeatherReport);
});
test("test_inputs_from_state_validation_with_invalid_parameter", () =>
  throwsKind(() => weather({ inputs_from_state: { state_key: "nonexistent" } }), Error, /^inputs_from_state maps 'state_key' to unknown parameter 'nonexistent'\. Valid parameters are: \{'city'\}\.$/));
test("test_inputs_from_state_validation_with_non_string_value", () =>
  throwsKind(() => weather({ inputs_from_state: { state_key: { source: "city" } } }), TypeError, /^inputs_from_state values must be str, not dict/));
test("test_inputs_from_state_validation_with_valid_parameter", () => assert.equal(weather({ inputs_from_state: { location: "city" } }).inputs_from_state, { location: "city" }));
test("test_outputs_to_state_no_validation_when_get_valid_outputs_returns_none", () =>
  assert.equal(weather({ outputs_to_state: { result: { source: "nonexistent" } } }).outputs_to_state, { result: { source: "nonexistent" } }));
test("test_outputs_to_state_validation_when_subclass_provides_valid_outputs", () => {
  // Haystack's subclass overriding _get_valid_outputs is svc's `valid_outputs` (what ComponentTool passes).
  const valid_outputs = ["report", "temperature"];
  assert.equal(weather({ valid_outputs, outputs_to_state: { result: { source: "report" } } }).outputs_to_state, { result: { source: "report" } });
  throwsKind(() => weather({ valid_outputs, outputs_to_state: { result: { source: "nonexistent" } } }), Error, /outputs_to_state: 'weather' maps state key 'result' to unknown output 'nonexistent'/);
});

// ---- TestToolAsync ----
const asyncTool = () => new Tool({ name: "weather", description: "Get weather report", parameters, async_function: asyncGetWeather });
test("TestToolAsync.test_invoke_async_awaits_async_function", async () => {
  const tool = asyncTool();
  assert.is(tool.function, null);
  assert.is(tool.async_function, asyncGetWeather);
  assert.is(await tool.invoke({ city: "Berlin" }), "Weather report for Berlin: 20°C, sunny");
});
test("TestToolAsync.test_invoke_async_falls_back_to_sync_function", async () => assert.is(await weather().invoke({ city: "Berlin" }), "Weather report for Berlin: 20°C, sunny"));
test("TestToolAsync.test_async_function_is_preferred_when_both_set", async () => {
  const tool = new Tool({ name: "weather", description: "Get weather report", parameters, function: () => "sync", async_function: async () => "async" });
  assert.is(await tool.invoke({ city: "Berlin" }), "async");
});
test("TestToolAsync.test_invoke_async_wraps_exception", async () => {
  const tool = new Tool({ name: "weather", description: "Get weather report", parameters, async_function: async () => Promise.reject(new Error("kaboom")) });
  const error = await tool.invoke({ city: "Berlin" }).then(() => null, (e: Error) => e);
  assert.instance(error, ToolInvocationError);
  assert.match(error!.message, /kaboom/);
});
const roundtrips: [string, Record<string, unknown>, string | null, string][] = [
  ["async-only", { async_function: asyncGetWeather }, null, "test_tool.async_get_weather"],
  ["both", { function: getWeatherReport, async_function: asyncGetWeather }, "test_tool.get_weather_report", "test_tool.async_get_weather"],
];
for (const [id, kwargs, fn, asyncFn] of roundtrips) {
  test(`TestToolAsync.test_serde_roundtrip[${id}]`, () => {
    const tool = new Tool({ name: "weather", description: "Get weather report", parameters, ...kwargs });
    const data = tool.toDict(registry());
    assert.is(data.data.function, fn);
    assert.is(data.data.async_function, asyncFn);
    const restored = Tool.fromDict(data, registry());
    assert.is(restored.function, kwargs.function ?? null);
    assert.is(restored.async_function, kwargs.async_function ?? null);
  });
}
test("TestToolAsync.test_from_dict_legacy_payload_without_async_function_key", () => {
  const tool = Tool.fromDict({ type: "haystack.tools.tool.Tool", data: { name: "weather", description: "Get weather report", parameters, function: "test_tool.get_weather_report" } }, registry());
  assert.is(tool.function, getWeatherReport);
  assert.is(tool.async_function, null);
});
test("test_check_duplicate_tool_names", () => {
  const other = new Tool({ name: "weather", description: "A different description", parameters, function: getWeatherReport });
  assert.throws(() => checkDuplicateTools([weather(), other]), /Duplicate tool names found: weather/);
  checkDuplicateTools([weather(), new Tool({ name: "weather2", description: "Get weather report", parameters, function: getWeatherReport })]);
});

test.run();
