/**
 * @module Port of Haystack's test/components/converters/test_output_adapter.py (values, not Python).
 * Python types are written as svc's type strings; from_dict is `new OutputAdapter(to_dict().init_parameters)`
 * or, for safe/unsafe loading, a YAML pipeline.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import * as v from "valibot";
import { Component, createRegistry, Document, dumpPipelineYaml, loadPipelineYaml, output, Pipeline } from "svc/engine";
import { OutputAdaptationException, OutputAdapter } from "../../../../plugins/engine/components/output-adapter.js";

const upper = (value: unknown) => String(value).toUpperCase();
const jsonLoads = (s: unknown) => JSON.parse(String(s));
const reload = (a: OutputAdapter, extra: Record<string, unknown> = {}) => new OutputAdapter({ ...a.toDict().init_parameters, ...extra });

test("test_initialized_with_valid_template_and_output_type", () => {
  const adapter = new OutputAdapter({ template: "{{ documents[0].content }}", output_type: "str" });
  assert.is(adapter.initParameters.template, "{{ documents[0].content }}");
  assert.equal(Object.keys(adapter.outputSockets), ["output"]);
  assert.ok(v.is(adapter.outputSockets.output!.schema!, "text") && !v.is(adapter.outputSockets.output!.schema!, 1));
});
test("test_output_adaptation", () =>
  assert.equal(new OutputAdapter({ template: "{{ documents[0].content }}", output_type: "str" }).run({ documents: [{ content: "Test content" }] }), { output: "Test content" }));
test("test_predefined_filters", () =>
  assert.equal(new OutputAdapter({ template: "{{ documents[0].content|json_loads }}", output_type: "dict", custom_filters: { json_loads: jsonLoads } }).run({ documents: [{ content: '{"key": "value"}' }] }), { output: { key: "value" } }));
test("test_custom_filters", () =>
  assert.equal(new OutputAdapter({ template: "{{ documents[0].content|custom_filter }}", output_type: "str", custom_filters: { custom_filter: upper } }).run({ documents: [{ content: "test content" }] }), { output: "TEST CONTENT" }));
test("test_invalid_template_string", () => assert.throws(() => new OutputAdapter({ template: "{{ documents[0].content }", output_type: "str" })));
test("test_no_input_data_provided", () => assert.throws(() => new OutputAdapter({ template: "{{ documents[0].content }}", output_type: "str" }).run({})));
test("test_error_during_adaptation", () =>
  assert.throws(() => new OutputAdapter({ template: "{{ documents[0].content }}", output_type: "str" }).run({ documents: [{ title: "Test title" }] }), (e: Error) => e instanceof OutputAdaptationException));
test("test_sede", () => {
  const adapter = new OutputAdapter({ template: "{{ documents[0].content }}", output_type: "str" });
  const again = reload(adapter);
  assert.is(again.initParameters.template, adapter.initParameters.template);
  assert.is(again.initParameters.output_type, adapter.initParameters.output_type);
});
test("test_sede_with_callable_output_type", () => {
  const adapter = new OutputAdapter({ template: "{{ callback }}", output_type: "typing.Callable[[int, str], bool]" });
  assert.is(adapter.toDict().init_parameters.output_type, "typing.Callable[[int, str], bool]");
  assert.equal(Object.keys(adapter.outputSockets), ["output"]);
  assert.is(reload(adapter).initParameters.output_type, adapter.initParameters.output_type);
});
test("test_sede_with_custom_filters", () => {
  const adapter = new OutputAdapter({ template: "{{ documents[0].content|custom_filter }}", output_type: "str", custom_filters: { custom_filter: upper } });
  const pipeline = new Pipeline();
  pipeline.addComponent("adapter", adapter);
  const again = loadPipelineYaml(dumpPipelineYaml(pipeline), createRegistry().registerFunction("upper", upper), { unsafe: true }).getComponent("adapter") as OutputAdapter;
  assert.is(again.initParameters.template, adapter.initParameters.template);
  assert.is(again.initParameters.output_type, adapter.initParameters.output_type);
  assert.equal(again.run({ documents: [{ content: "test" }] }), { output: "TEST" });
});
test("test_sede_with_multiple_custom_filters", () => {
  const another = (value: unknown) => String(value).toUpperCase();
  const adapter = new OutputAdapter({ template: "{{ documents[0].content|custom_filter }}", output_type: "str", custom_filters: { custom_filter: upper, another_custom_filter: another } });
  const pipeline = new Pipeline();
  pipeline.addComponent("adapter", adapter);
  const registry = createRegistry().registerFunction("upper", upper).registerFunction("another", another);
  const again = loadPipelineYaml(dumpPipelineYaml(pipeline), registry, { unsafe: true }).getComponent("adapter") as OutputAdapter;
  assert.equal(again.toDict().init_parameters.custom_filters, { custom_filter: "upper", another_custom_filter: "another" });
  assert.equal(again.run({ documents: [{ content: "test" }] }), { output: "TEST" });
});
for (const type of ["list[str]", "typing.List[str]"]) {
  test(`test_sede_with_${type === "list[str]" ? "" : "typing_"}list_output_type_in_pipeline`, () => {
    const pipe = new Pipeline();
    pipe.addComponent("adapter", new OutputAdapter({ template: "{{ test }}", output_type: type }));
    const text = dumpPipelineYaml(pipe);
    assert.ok(text.includes(type));
    assert.is((loadPipelineYaml(text, createRegistry()).getComponent("adapter") as OutputAdapter).initParameters.output_type, type);
  });
}
test("test_output_adapter_from_dict_custom_filters_none", () => {
  const c = new OutputAdapter({ template: "{{ documents[0].content}}", output_type: "str", custom_filters: null, unsafe: false });
  assert.is(c.initParameters.template, "{{ documents[0].content}}");
  assert.is(c.initParameters.output_type, "str");
  assert.is(c.initParameters.unsafe, false);
  assert.equal(c.run({ documents: [{ content: "x" }] }), { output: "x" });
});
test("test_output_adapter_in_pipeline", async () => {
  class DocumentProducer extends Component {
    protected inputSpecs() {
      return {};
    }
    protected outputSpecs() {
      return { documents: output() };
    }
    run() {
      return { documents: [{ content: '{"framework": "Haystack"}' }] };
    }
  }
  const pipe = new Pipeline();
  pipe.addComponent("output_adapter", new OutputAdapter({ template: "{{ documents[0].content | json_loads}}", output_type: "str", custom_filters: { json_loads: jsonLoads } }));
  pipe.addComponent("document_producer", new DocumentProducer());
  pipe.connect("document_producer", "output_adapter");
  const result = await pipe.run({});
  assert.equal(result.output_adapter, { output: { framework: "Haystack" } });
});
test("test_unsafe", () => {
  const documents = [new Document({ content: "Test document" }), new Document({ content: "Another test document" }), new Document({ content: "Yet another test document" })];
  assert.is(new OutputAdapter({ template: "{{ documents[0] }}", output_type: "Document", unsafe: true }).run({ documents }).output, documents[0]);
});
const yaml = (extra: string) => `components:
  adapter:
    type: haystack.components.converters.output_adapter.OutputAdapter
    init_parameters:
      template: "{{ value | custom_filter }}"
      output_type: str
${extra}`;
const FILTERS = "      custom_filters:\n        custom_filter: my.upper\n";
const registry = () => createRegistry().registerFunction("my.upper", upper);
const refused = (text: string, pattern: RegExp) => assert.throws(() => loadPipelineYaml(text, registry()), (e: Error) => e.name === "DeserializationError" && pattern.test(e.message));
test("test_from_dict_rejects_unsafe_in_safe_mode", () => refused(yaml("      unsafe: true\n").replace("value | custom_filter", "documents[0]"), /unsafe=True while loading in safe mode/));
test("test_from_dict_rejects_custom_filters_in_safe_mode", () => refused(yaml(FILTERS), /custom filters while loading in safe mode/));
test("test_from_dict_allows_custom_filters_when_loading_unsafe", async () =>
  assert.equal(await loadPipelineYaml(yaml(FILTERS), registry(), { unsafe: true }).run({ adapter: { value: "x" } }), { adapter: { output: "X" } }));
test("test_from_dict_allows_unsafe_when_loading_unsafe", async () => {
  const doc = new Document({ content: "d" });
  const pipeline = loadPipelineYaml(yaml("      unsafe: true\n").replace("value | custom_filter", "documents[0]"), registry(), { unsafe: true });
  // Native values, as Haystack's NativeEnvironment: the Document itself, not its text.
  const out = ((await pipeline.run({ adapter: { documents: [doc] } })).adapter as { output: unknown }).output;
  assert.instance(out, Document);
  assert.equal((out as Document).toDict(), doc.toDict());
});
test("test_variables_correct_with_assignment", () => {
  const template = "{% if control == 'something' %}\n    {% set output = 1 %}\n{% else %}\n    {% set output = 3 %}\n{% endif %}\n{{ output }}\n";
  const adapter = new OutputAdapter({ template, output_type: "int" });
  assert.equal(Object.keys(adapter.inputSockets), ["control"]);
  assert.is(adapter.run({ control: "something" }).output, 1);
});

test.run();
