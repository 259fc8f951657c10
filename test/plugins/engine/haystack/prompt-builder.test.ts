/**
 * @module Port of Haystack's test/components/builders/test_prompt_builder.py (values, not Python),
 * PromptBuilder called directly and in a Pipeline. Skipped (reason in docs/haystack-parity.md):
 * test_init_with_missing_extension_dependency (Python: arrow not installed). The two caplog tests
 * on the `required_variables=None` warning read svc's build-time console warning.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { warnings } from "./agent-fixtures.js";
import * as v from "valibot";
import { Component, Document, output, Pipeline, socket } from "svc/engine";
import { clock } from "../../../../plugins/engine/jinja-now.js";
import { checkRequired, PromptBuilder } from "../../../../plugins/engine/components/prompt-builder.js";

const throws = (fn: () => unknown, pattern: RegExp) => assert.throws(fn, (e: Error) => pattern.test(e.message));
const inputs = (b: PromptBuilder) => Object.keys(b.inputSockets).sort();

test("test_init", () => {
  const b = new PromptBuilder({ template: "This is a {{ variable }}" });
  assert.is(b.initParameters.required_variables, "*");
  assert.is(b.initParameters.variables, null);
  assert.equal(inputs(b), ["template", "template_variables", "variable"]);
  assert.equal(Object.keys(b.outputSockets), ["prompt"]);
});
test("test_init_with_required_variables", () => {
  const b = new PromptBuilder({ template: "This is a {{ variable }}", required_variables: ["variable"] });
  assert.equal(b.initParameters.required_variables, ["variable"]);
  assert.equal(inputs(b), ["template", "template_variables", "variable"]);
});
test("test_init_with_custom_variables", () => {
  const b = new PromptBuilder({ template: "Hello, {{ var1 }}, {{ var2 }}!", variables: ["var1", "var2", "var3"] });
  assert.equal(b.variables, ["var1", "var2", "var3"]);
  assert.equal(inputs(b), ["template", "template_variables", "var1", "var2", "var3"]);
});
test("test_to_dict", () => {
  const b = new PromptBuilder({ template: "This is a {{ variable }}", variables: ["var1", "var2"], required_variables: ["var1", "var3"] });
  assert.equal(b.toDict(), { type: "haystack.components.builders.prompt_builder.PromptBuilder", init_parameters: { template: "This is a {{ variable }}", variables: ["var1", "var2"], required_variables: ["var1", "var3"] } });
});
test("test_to_dict_without_optional_params", () => {
  assert.equal(new PromptBuilder({ template: "This is a {{ variable }}" }).toDict(), {
    type: "haystack.components.builders.prompt_builder.PromptBuilder",
    init_parameters: { template: "This is a {{ variable }}", variables: null, required_variables: "*" },
  });
});
test("test_run", () => assert.equal(new PromptBuilder({ template: "This is a {{ variable }}" }).run({ variable: "test" }), { prompt: "This is a test" }));
test("test_run_template_variable", () => assert.equal(new PromptBuilder({ template: "This is a {{ variable }}" }).run({ template_variables: { variable: "test" } }), { prompt: "This is a test" }));
test("test_run_template_variable_overrides_variable", () =>
  assert.equal(new PromptBuilder({ template: "This is a {{ variable }}" }).run({ template_variables: { variable: "test_from_template_var" }, variable: "test" }), { prompt: "This is a test_from_template_var" }));
test("test_run_without_input", () => assert.equal(new PromptBuilder({ template: "This is a template without input" }).run({}), { prompt: "This is a template without input" }));
test("test_run_with_missing_optional_input", () => assert.equal(new PromptBuilder({ template: "This is a {{ variable }}", required_variables: null }).run({}), { prompt: "This is a " }));
test("test_run_with_missing_required_input_default", () => throws(() => new PromptBuilder({ template: "This is a {{ variable }}" }).run({}), /variable/));
test("test_run_with_missing_required_input", () => {
  const b = new PromptBuilder({ template: "This is a {{ foo }}, not a {{ bar }}", required_variables: ["foo", "bar"] });
  throws(() => b.run({ bar: "bar" }), /foo/);
  throws(() => b.run({ foo: "foo" }), /bar/);
  throws(() => b.run({}), /foo, bar/);
});
test("test_run_with_missing_required_input_using_star", () => {
  const b = new PromptBuilder({ template: "This is a {{ foo }}, not a {{ bar }}", required_variables: "*" });
  throws(() => b.run({ bar: "bar" }), /foo/);
  throws(() => b.run({ foo: "foo" }), /bar/);
  throws(() => b.run({}), /bar, foo/);
});
test("test_run_with_variables", () => {
  const b = new PromptBuilder({ template: "Hello, {{ name }}! {{ var1 }}", variables: ["var1", "var2", "var3"], required_variables: ["name", "var1"] });
  assert.equal(b.run({ name: "John", var1: "How are you?" }), { prompt: "Hello, John! How are you?" });
});
test("test_run_overwriting_default_template", () =>
  assert.equal(new PromptBuilder({ template: "Hello, {{ name }}!" }).run({ template: "Hello, {{ var1 }}{{ name }}!!", name: "John" }), { prompt: "Hello, John!!" }));
test("test_run_overwriting_default_template_with_template_variables", () =>
  assert.equal(new PromptBuilder({ template: "Hello, {{ name }}!" }).run({ template: "Hello, {{ var1 }} {{ name }}!", var1: "Big", name: "John" }), { prompt: "Hello, Big John!" }));
test("test_run_overwriting_default_template_with_variables", () => {
  const b = new PromptBuilder({ template: "Hello, {{ name }}!", variables: ["var1", "var2", "name"], required_variables: ["name"] });
  assert.equal(b.run({ template: "Hello, {{ var1 }} {{ name }}!", name: "John", var1: "Big" }), { prompt: "Hello, Big John!" });
});
test("test_run_with_invalid_template", () => throws(() => new PromptBuilder({ template: "Hello, {{ name }}!" }).run({ template: "Hello, {{ name }!", template_variables: { name: "John" } }), /syntax error/i));
test("test_init_with_invalid_template", () => throws(() => new PromptBuilder({ template: "Hello, {{ name }!" }), /syntax error/i));
test("test_provided_template_variables", () => {
  const b = new PromptBuilder({ template: "", variables: ["documents"], required_variables: ["city"] });
  const check = (provided: string[]) => checkRequired("PromptBuilder", b.variables, b.initParameters.required_variables, Object.fromEntries(provided.map((k) => [k, 1])));
  check(["name", "city"]);
  check(["name", "city", "age"]);
  throws(() => check(["name"]), /Missing required input variables in PromptBuilder: city/);
});

class DocumentProducer extends Component {
  static override readonly type = "test.DocumentProducer";
  protected inputSpecs() {
    return { doc_input: socket(v.string()) };
  }
  protected outputSpecs() {
    return { documents: output(v.array(v.instance(Document))) };
  }
  run(inputs: { doc_input: string }) {
    return { documents: [new Document({ content: inputs.doc_input })] };
  }
}

test("test_example_in_pipeline", async () => {
  const pipe = new Pipeline();
  pipe.addComponent("doc_producer", new DocumentProducer());
  pipe.addComponent("prompt_builder", new PromptBuilder({ template: "Here is the document: {{documents[0].content}} \\n Answer: {{query}}", variables: ["documents"] }));
  pipe.connect("doc_producer.documents", "prompt_builder.documents");
  const result = await pipe.run({
    doc_producer: { doc_input: "Hello world, I live in Berlin" },
    prompt_builder: { template: "Here is the document: {{documents[0].content}} \n Query: {{query}}", template_variables: { query: "Where does the speaker live?" } },
  });
  assert.equal(result, { prompt_builder: { prompt: "Here is the document: Hello world, I live in Berlin \n Query: Where does the speaker live?" } });
});
test("test_example_in_pipeline_simple", async () => {
  const pipe = new Pipeline();
  pipe.addComponent("prompt_builder", new PromptBuilder({ template: "This is the default prompt:\n Query: {{query}}" }));
  assert.equal(await pipe.run({ query: "Where does the speaker live?" }), { prompt_builder: { prompt: "This is the default prompt:\n Query: Where does the speaker live?" } });
  assert.equal(await pipe.run({ query: "Where does the speaker live?", template: "This is the dynamic prompt:\n Query: {{query}}" }), {
    prompt_builder: { prompt: "This is the dynamic prompt:\n Query: Where does the speaker live?" },
  });
});
test("test_variables_correct_with_assignment", () => {
  const template = `{% if existing_documents is not none %}
{% set existing_doc_len = existing_documents|length %}
{% else %}
{% set existing_doc_len = 0 %}
{% endif %}
{% for doc in docs %}
<document reference="{{loop.index + existing_doc_len}}">
{{ doc.content }}
</document>
{% endfor %}
`;
  const b = new PromptBuilder({ template, required_variables: "*" });
  assert.equal([...b.variables].sort(), ["docs", "existing_documents"]);
});
for (const [name, open, close] of [["tuple", "(", ")"], ["list", "[", "]"]]) {
  test(`test_variables_correct_with_${name}_assignment`, () => {
    const template = `{% if existing_documents is not none -%}
{% set x, y = ${open}existing_documents|length, 1${close} -%}
{% else -%}
{% set x, y = ${open}0, 1${close} -%}
{% endif -%}
x={{ x }}, y={{ y }}
`;
    const b = new PromptBuilder({ template, required_variables: "*" });
    assert.equal(b.variables, ["existing_documents"]);
    assert.equal(b.run({ existing_documents: null }), { prompt: "x=0, y=1" });
  });
}

// TestPromptBuilderWithJinja2TimeExtension: the clock fixed at 1970-01-01 00:00:00 UTC.
const real = clock.now;
const fixed = (fn: () => void) => () => {
  clock.now = () => new Date(Date.UTC(1970, 0, 1));
  try {
    fn();
  } finally {
    clock.now = real;
  }
};
const prompt = (template: string) => new PromptBuilder({ template }).run({}).prompt;
test("test_with_custom_dateformat", fixed(() => assert.is(prompt("Formatted date: {% now 'UTC', '%Y-%m-%d' %}"), "Formatted date: 1970-01-01")));
test("test_with_different_timezone", fixed(() => assert.is(prompt("Current time in New York is: {% now 'America/New_York' %}"), "Current time in New York is: 1969-12-31 19:00:00")));
test("test_date_with_addition_offset", fixed(() => assert.is(prompt("Time after 2 hours is: {% now 'UTC' + 'hours=2' %}"), "Time after 2 hours is: 1970-01-01 02:00:00")));
test("test_date_with_subtraction_offset", fixed(() => assert.is(prompt("Time after 12 days is: {% now 'UTC' - 'days=12' %}"), "Time after 12 days is: 1969-12-20 00:00:00")));
test("test_invalid_timezone (PromptBuilder)", fixed(() => throws(() => prompt("Current time is: {% now 'Invalid/Timezone' %}"), /Invalid timezone/)));
test("test_invalid_offset (PromptBuilder)", fixed(() => throws(() => prompt("Time after invalid offset is: {% now 'UTC' + 'invalid_offset' %}"), /Invalid offset or operator/)));

test("test_warning_when_required_variables_explicitly_none", async () => {
  const seen = await warnings(() => new PromptBuilder({ template: "This is a {{ variable }}", required_variables: null }));
  assert.ok(seen.some((w) => w.includes("PromptBuilder has 1 prompt variables") && w.includes("explicitly set to `None`")), seen.join("\n"));
});
test("test_no_warning_with_default_required_variables", async () => {
  const seen = await warnings(() => new PromptBuilder({ template: "This is a {{ variable }}" }));
  assert.not.ok(seen.some((w) => w.includes("required_variables")), seen.join("\n"));
});

test.run();
