/**
 * @module Port of Haystack's test/components/builders/test_chat_prompt_builder.py and
 * test/utils/test_jinja2_chat_extension.py (values, not Python). The extension's cases render
 * through ChatPromptBuilder: Haystack's JSON line per message is svc's ChatMessage.toDict().
 * Skipped cases and their reasons are listed in docs/haystack-parity.md.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { warnings } from "./agent-fixtures.js";
import * as v from "valibot";
import { ChatMessage, Component, Document, output, Pipeline, socket } from "svc/engine";
import { checkRequired } from "../../../../plugins/engine/components/prompt-builder.js";
import { clock } from "../../../../plugins/engine/jinja-now.js";
import { ChatPromptBuilder } from "../../../../plugins/engine/components/chat-prompt-builder.js";

const throws = (fn: () => unknown, pattern: RegExp) => assert.throws(fn, (e: Error) => pattern.test(e.message));
const dicts = (messages: readonly ChatMessage[]) => messages.map((m) => m.toDict());
const user = (text: string, meta = {}, name: string | null = null) => ChatMessage.fromUser(text, meta, name);
const run = (template: unknown, vars: Record<string, unknown> = {}, init: Record<string, unknown> = {}) => dicts(new ChatPromptBuilder({ template, ...init }).run(vars).prompt);
const same = (actual: unknown, expected: readonly ChatMessage[]) => assert.equal(actual, dicts(expected));
const inputs = (b: ChatPromptBuilder) => Object.keys(b.inputSockets).sort();

// ---- TestChatPromptBuilder
test("test_init", () => {
  const b = new ChatPromptBuilder({ template: [user("This is a {{ variable }}"), ChatMessage.fromSystem("This is a {{ variable2 }}")] });
  assert.is(b.initParameters.required_variables, "*");
  assert.equal(inputs(b), ["template", "template_variables", "variable", "variable2"]);
  assert.equal(Object.keys(b.outputSockets), ["prompt"]);
});
test("test_init_without_template", () => {
  const b = new ChatPromptBuilder({ variables: ["var1", "var2"] });
  assert.equal(inputs(b), ["template", "template_variables", "var1", "var2"]);
});
test("test_init_with_required_variables", () => {
  const b = new ChatPromptBuilder({ template: [user("This is a {{ variable }}")], required_variables: ["variable"] });
  assert.equal(b.initParameters.required_variables, ["variable"]);
  assert.equal(inputs(b), ["template", "template_variables", "variable"]);
});
test("test_init_with_custom_variables", () => {
  const b = new ChatPromptBuilder({ template: [user("Hello, {{ var1 }}, {{ var2 }}!")], variables: ["var1", "var2", "var3"] });
  assert.equal(inputs(b), ["template", "template_variables", "var1", "var2", "var3"]);
});
test("test_run", () => same(run([user("This is a {{ variable }}")], { variable: "test" }), [user("This is a test")]));
test("test_run_template_variable", () => same(run([user("This is a {{ variable }}")], { template_variables: { variable: "test" } }), [user("This is a test")]));
test("test_run_template_variable_overrides_variable", () =>
  same(run([user("This is a {{ variable }}")], { template_variables: { variable: "test_from_template_var" }, variable: "test" }), [user("This is a test_from_template_var")]));
test("test_run_without_input", () => same(run([user("This is a template without input")]), [user("This is a template without input")]));
test("test_run_with_missing_optional_input", () => same(run([user("This is a {{ variable }}")], {}, { required_variables: null }), [user("This is a ")]));
test("test_run_with_missing_required_input_default", () => throws(() => run([user("This is a {{ variable }}")]), /variable/));
test("test_run_with_missing_required_input", () => {
  const b = new ChatPromptBuilder({ template: [user("This is a {{ foo }}, not a {{ bar }}")], required_variables: ["foo", "bar"] });
  throws(() => b.run({ bar: "bar" }), /foo/);
  throws(() => b.run({ foo: "foo" }), /bar/);
  throws(() => b.run({}), /foo, bar/);
});
test("test_run_with_missing_required_input_using_star", () => {
  const b = new ChatPromptBuilder({ template: [user("This is a {{ foo }}, not a {{ bar }}")], required_variables: "*" });
  throws(() => b.run({ bar: "bar" }), /foo/);
  throws(() => b.run({ foo: "foo" }), /bar/);
  throws(() => b.run({}), /bar, foo/);
});
test("test_run_with_variables", () =>
  same(run([user("Hello, {{ name }}! {{ var1 }}")], { template_variables: { name: "John" }, var1: "How are you?" }, { variables: ["var1", "var2", "var3"], required_variables: null }), [user("Hello, John! How are you?")]));
test("test_run_with_variables_and_runtime_template", () => {
  const b = new ChatPromptBuilder({ variables: ["var1", "var2", "var3"], required_variables: null });
  same(dicts(b.run({ template: [user("Hello, {{ name }}! {{ var1 }}")], template_variables: { name: "John" }, var1: "How are you?" }).prompt), [user("Hello, John! How are you?")]);
});
test("test_run_overwriting_default_template", () => {
  const b = new ChatPromptBuilder({ template: [user("Hello, {{ name }}!")] });
  same(dicts(b.run({ template: [user("Hello, {{ var1 }}{{ name }}!")], name: "John" }).prompt), [user("Hello, John!")]);
});
test("test_run_overwriting_default_template_with_template_variables", () => {
  const b = new ChatPromptBuilder({ template: [user("Hello, {{ name }}!")] });
  same(dicts(b.run({ template: [user("Hello, {{ var1 }} {{ name }}!")], template_variables: { var1: "Big" }, name: "John" }).prompt), [user("Hello, Big John!")]);
});
test("test_run_overwriting_default_template_with_variables", () => {
  const b = new ChatPromptBuilder({ template: [user("Hello, {{ name }}!")], variables: ["var1", "var2", "name"], required_variables: null });
  same(dicts(b.run({ template: [user("Hello, {{ var1 }} {{ name }}!")], name: "John", var1: "Big" }).prompt), [user("Hello, Big John!")]);
});
test("test_run_with_meta", () => same(run([user("This is a {{ variable }}", { meta_field: "meta_value" })], { variable: "test" }), [user("This is a test", { meta_field: "meta_value" })]));
test("test_run_with_invalid_template", () => throws(() => new ChatPromptBuilder({}).run({ template: [user("Hello, {{ name }!")], template_variables: { name: "John" } }), /syntax error/i));
test("test_init_with_invalid_template", () => throws(() => new ChatPromptBuilder({ template: [user("Hello, {{ name }!")] }), /syntax error/i));
test("test_run_without_template", () => throws(() => new ChatPromptBuilder({}).run({}), /requires a non-empty list of ChatMessage instances/));
test("test_run_with_empty_chat_message_list", () => throws(() => new ChatPromptBuilder({ template: [], variables: ["documents"] }).run({}), /requires a non-empty list of ChatMessage instances/));
test("test_chat_message_list_with_mixed_object_list (svc refuses at init)", () => throws(() => new ChatPromptBuilder({ template: [user("Hello"), "there world"], variables: ["documents"] }), /Invalid chat message in template/));
test("test_example_in_pipeline_simple", async () => {
  const pipe = new Pipeline();
  pipe.addComponent("prompt_builder", new ChatPromptBuilder({ template: [user("This is the default prompt:\n Query: {{query}}")] }));
  const r1 = (await pipe.run({ query: "Where does the speaker live?" })) as { prompt_builder: { prompt: ChatMessage[] } };
  same(dicts(r1.prompt_builder.prompt), [user("This is the default prompt:\n Query: Where does the speaker live?")]);
  const r2 = (await pipe.run({ query: "Where does the speaker live?", template: [user("This is the dynamic prompt:\n Query: {{query}}")] })) as { prompt_builder: { prompt: ChatMessage[] } };
  same(dicts(r2.prompt_builder.prompt), [user("This is the dynamic prompt:\n Query: Where does the speaker live?")]);
});

// ---- TestChatPromptBuilderWithJinja2TimeExtension (clock fixed at 1970-01-01 00:00:00 UTC)
const real = clock.now;
const fixed = (fn: () => void) => () => {
  clock.now = () => new Date(Date.UTC(1970, 0, 1));
  try {
    fn();
  } finally {
    clock.now = real;
  }
};
const text = (t: string) => run([user(t)])[0]!.content;
test("test_with_custom_dateformat", fixed(() => assert.equal(text("Formatted date: {% now 'UTC', '%Y-%m-%d' %}"), [{ text: "Formatted date: 1970-01-01" }])));
test("test_with_different_timezone", fixed(() => assert.equal(text("Current time in New York is: {% now 'America/New_York' %}"), [{ text: "Current time in New York is: 1969-12-31 19:00:00" }])));
test("test_date_with_addition_offset", fixed(() => assert.equal(text("Time after 2 hours is: {% now 'UTC' + 'hours=2' %}"), [{ text: "Time after 2 hours is: 1970-01-01 02:00:00" }])));
test("test_date_with_subtraction_offset", fixed(() => assert.equal(text("Time after 12 days is: {% now 'UTC' - 'days=12' %}"), [{ text: "Time after 12 days is: 1969-12-20 00:00:00" }])));
test("test_invalid_timezone", fixed(() => throws(() => text("Current time is: {% now 'Invalid/Timezone' %}"), /Invalid timezone/)));
test("test_invalid_offset", fixed(() => throws(() => text("Time after invalid offset is: {% now 'UTC' + 'invalid_offset' %}"), /Invalid offset or operator/)));
test("test_multiple_messages_with_date_template", fixed(() => {
  same(run([user("Current date is: {% now 'UTC' %}"), ChatMessage.fromAssistant("Thank you for providing the date"), user("Yesterday was: {% now 'UTC' - 'days=1' %}")]), [
    user("Current date is: 1970-01-01 00:00:00"),
    ChatMessage.fromAssistant("Thank you for providing the date"),
    user("Yesterday was: 1969-12-31 00:00:00"),
  ]);
}));
test("test_str_template_with_now_filter", fixed(() => same(run(`
        {% message role="user" %}
        Hello, the date is {% now 'UTC', '%Y-%m-%d'%}!
        {% endmessage %}
        `), [user("Hello, the date is 1970-01-01!")])));

// ---- TestChatPromptBuilderDynamic
test("test_multiple_templated_chat_messages (and _in_place)", () => {
  const messages = [ChatMessage.fromSystem("Write your response in this language:{{language}}"), user("Tell me about {{location}}")];
  same(dicts(new ChatPromptBuilder({}).run({ template_variables: { language: "French", location: "Berlin" }, template: messages }).prompt), [
    ChatMessage.fromSystem("Write your response in this language:French"),
    user("Tell me about Berlin"),
  ]);
  assert.is(messages[0]!.text, "Write your response in this language:{{language}}"); // the template is not changed in place
});
test("test_some_templated_chat_messages", () => {
  const messages = [
    ChatMessage.fromSystem("Please, respond in the following language: {{language}}."),
    user("I would like to learn more about {{location}}."),
    ChatMessage.fromAssistant("Yes, I can help you with that {{subject}}"),
    user("Ok so do so please, be elaborate."),
  ];
  same(dicts(new ChatPromptBuilder({}).run({ template_variables: { language: "English", location: "Paris" }, template: messages }).prompt), [
    ChatMessage.fromSystem("Please, respond in the following language: English."),
    user("I would like to learn more about Paris."),
    ChatMessage.fromAssistant("Yes, I can help you with that {{subject}}"),
    user("Ok so do so please, be elaborate."),
  ]);
});
test("test_to_dict", () => {
  const b = new ChatPromptBuilder({ template: [user("text and {var}"), ChatMessage.fromAssistant("content {required_var}")], variables: ["var", "required_var"], required_variables: ["required_var"] });
  assert.equal(JSON.parse(JSON.stringify(b.toDict())), {
    type: "haystack.components.builders.chat_prompt_builder.ChatPromptBuilder",
    init_parameters: {
      template: [
        { content: [{ text: "text and {var}" }], role: "user", meta: {}, name: null },
        { content: [{ text: "content {required_var}" }], role: "assistant", meta: {}, name: null },
      ],
      variables: ["var", "required_var"],
      required_variables: ["required_var"],
    },
  });
});
test("test_from_dict", () => {
  const b = new ChatPromptBuilder({
    template: [
      { content: [{ text: "text and {var}" }], role: "user", meta: {}, name: null },
      { content: [{ text: "content {required_var}" }], role: "assistant", meta: {}, name: null },
    ],
    variables: ["var", "required_var"],
    required_variables: ["required_var"],
  });
  assert.equal(b.variables, ["var", "required_var"]);
  same(dicts(b.run({ required_var: 1 }).prompt), [user("text and {var}"), ChatMessage.fromAssistant("content {required_var}")]);
});
test("test_from_dict_template_none", () => {
  const b = new ChatPromptBuilder({ template: null });
  assert.equal(b.variables, []);
  assert.is(b.initParameters.required_variables, "*");
});
test("test_chat_message_list_with_templatize_part_init_raises_error", () => throws(() => new ChatPromptBuilder({ template: [user("This is a {{ variable | templatize_part }}")] }), /templatize_part filter cannot be used/));
test("test_chat_message_list_with_templatize_part_run_raises_error", () =>
  throws(() => new ChatPromptBuilder({}).run({ template: [user("This is a {{ variable | templatize_part }}")], variable: "test" }), /templatize_part filter cannot be used/));

test("test_provided_template_variables", () => {
  const b = new ChatPromptBuilder({ variables: ["documents"], required_variables: ["city"] });
  const check = (provided: string[]) => checkRequired("ChatPromptBuilder", b.variables, b.initParameters.required_variables, Object.fromEntries(provided.map((k) => [k, 1])));
  check(["name", "city"]);
  check(["name", "city", "age"]);
  throws(() => check(["name"]), /Missing required input variables in ChatPromptBuilder: city/);
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
class ValueProducer extends Component<{ value_to_produce: string }> {
  static override readonly type = "test.ValueProducer";
  static override readonly initSchema = v.object({ value_to_produce: v.string() });
  protected inputSpecs() {
    return {};
  }
  protected outputSpecs() {
    return { value_output: output(v.string()) };
  }
  run() {
    return { value_output: this.initParameters.value_to_produce };
  }
}
type Prompt = { prompt_builder: { prompt: ChatMessage[] } };
const tourist = ChatMessage.fromSystem("You are a helpful assistant giving out valuable information to tourists.");

test("test_example_in_pipeline (TestChatPromptBuilder)", async () => {
  const pipe = new Pipeline();
  pipe.addComponent("doc_producer", new DocumentProducer());
  pipe.addComponent("prompt_builder", new ChatPromptBuilder({ template: [user("Here is the document: {{documents[0].content}} \\n Answer: {{query}}")], variables: ["documents"] }));
  pipe.connect("doc_producer.documents", "prompt_builder.documents");
  const r = (await pipe.run({
    doc_producer: { doc_input: "Hello world, I live in Berlin" },
    prompt_builder: { template: [user("Here is the document: {{documents[0].content}} \n Query: {{query}}")], template_variables: { query: "Where does the speaker live?" } },
  })) as Prompt;
  same(dicts(r.prompt_builder.prompt), [user("Here is the document: Hello world, I live in Berlin \n Query: Where does the speaker live?")]);
});
test("test_example_in_pipeline (TestChatPromptBuilderDynamic)", async () => {
  const pipe = new Pipeline();
  pipe.addComponent("prompt_builder", new ChatPromptBuilder({}));
  const r1 = (await pipe.run({ prompt_builder: { template_variables: { location: "Berlin" }, template: [tourist, user("Tell me about {{location}}")] } })) as Prompt;
  same(dicts(r1.prompt_builder.prompt), [tourist, user("Tell me about Berlin")]);
  const r2 = (await pipe.run({ prompt_builder: { template_variables: { location: "Berlin", day_count: "5" }, template: [tourist, user("What's the weather forecast for {{location}} in the next {{day_count}} days?")] } })) as Prompt;
  same(dicts(r2.prompt_builder.prompt), [tourist, user("What's the weather forecast for Berlin in the next 5 days?")]);
});
test("test_example_in_pipeline_with_multiple_templated_messages", async () => {
  const pipe = new Pipeline();
  pipe.addComponent("prompt_builder", new ChatPromptBuilder({}));
  const system = ChatMessage.fromSystem("You are a helpful assistant giving out valuable information to tourists in {{language}}.");
  const r = (await pipe.run({ prompt_builder: { template_variables: { location: "Berlin", language: "German" }, template: [system, user("Tell me about {{location}}")] } })) as Prompt;
  same(dicts(r.prompt_builder.prompt), [ChatMessage.fromSystem("You are a helpful assistant giving out valuable information to tourists in German."), user("Tell me about Berlin")]);
});
test("test_pipeline_complex", async () => {
  const pipe = new Pipeline();
  pipe.addComponent("prompt_builder", new ChatPromptBuilder({ variables: ["value_output"] }));
  pipe.addComponent("value_producer", new ValueProducer({ value_to_produce: "Berlin" }));
  pipe.connect("value_producer.value_output", "prompt_builder");
  const r = (await pipe.run({ template: [ChatMessage.fromSystem("You give valuable information to tourists."), user("Tell me about {{value_output}}")] })) as Prompt;
  same(dicts(r.prompt_builder.prompt), [ChatMessage.fromSystem("You give valuable information to tourists."), user("Tell me about Berlin")]);
});

test("test_warning_when_required_variables_explicitly_none", async () => {
  const seen = await warnings(() => new ChatPromptBuilder({ template: [ChatMessage.fromSystem("Write your response in this language:{{language}}"), user("Tell me about {{location}}")], required_variables: null }));
  assert.ok(seen.some((w) => w.includes("ChatPromptBuilder has 2 prompt variables") && w.includes("explicitly set to `None`")), seen.join("\n"));
});
test("test_no_warning_with_default_required_variables", async () => {
  const seen = await warnings(() => new ChatPromptBuilder({ template: [ChatMessage.fromSystem("Write your response in this language:{{language}}"), user("Tell me about {{location}}")] }));
  assert.not.ok(seen.some((w) => w.includes("required_variables")), seen.join("\n"));
});

test.run();
