/**
 * @module Cases ported from Haystack 3's own tests (test/components/...): values and error kinds,
 * not Python. Also svc's error-message rules (issue 24 §5): unknown init parameters and unknown
 * types are named, with a did-you-mean, in a short message.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { NOOP_TRACER } from "svc/plugin";
import { createRegistry, loadPipelineYaml } from "svc/engine";
import type { ComponentContext } from "../../../plugins/engine/component.js";
import { ConditionalRouter, RouteConditionException, RouteValueError } from "../../../plugins/engine/components/conditional-router.js";
import { DocumentJoiner } from "../../../plugins/engine/components/document-joiner.js";
import { DocumentSplitter } from "../../../plugins/engine/components/document-splitter.js";
import { OutputAdapter, OutputAdaptationException } from "../../../plugins/engine/components/output-adapter.js";
import { Document } from "../../../plugins/engine/dataclasses/document.js";
import { ChatMessage } from "../../../plugins/engine/dataclasses/chat-message.js";
import { PromptBuilder } from "../../../plugins/engine/components/prompt-builder.js";
import { ChatPromptBuilder } from "../../../plugins/engine/components/chat-prompt-builder.js";

const ctx = (name: string): ComponentContext => ({ name, signal: new AbortController().signal, tracer: NOOP_TRACER });

function throwsMatching(fn: () => unknown, pattern: RegExp, cls: new (...args: any[]) => Error = Error): Error {
  try {
    fn();
  } catch (e) {
    assert.instance(e, cls);
    assert.match((e as Error).message, pattern);
    return e as Error;
  }
  assert.unreachable(`expected an error matching ${pattern}`);
  throw new Error("unreachable");
}

// --- unknown init parameters (Haystack: TypeError from __init__) ---------------------------------

test("every component rejects an unknown init parameter by name, with a did-you-mean", () => {
  throwsMatching(() => new DocumentSplitter({ split_by: "word", split_lenght: 10 }), /unexpected keyword argument 'split_lenght'\. Did you mean 'split_length'\?/, TypeError);
  throwsMatching(() => new DocumentJoiner({ join_mode: "merge", wieghts: [1] }), /'wieghts'\. Did you mean 'weights'\?/, TypeError);
  throwsMatching(() => new OutputAdapter({ template: "{{ x }}", output_type: "str", nonsense_option: 1 }), /unexpected keyword argument 'nonsense_option'\. Known parameters: template, output_type/, TypeError);
  // From YAML every registered component goes through the same check.
  const yaml = "components:\n  s:\n    type: haystack.components.preprocessors.document_splitter.DocumentSplitter\n    init_parameters:\n      split_lenght: 3\nconnections: []\n";
  assert.throws(() => loadPipelineYaml(yaml, createRegistry()), /split_lenght'\. Did you mean 'split_length'/);
});

test("an unknown type: a short message with the closest registered type", () => {
  const registry = createRegistry();
  const yaml = "components:\n  p:\n    type: haystack.components.builders.prompt_builder.PromtBuilder\n    init_parameters: {template: x}\nconnections: []\n";
  const error = throwsMatching(() => loadPipelineYaml(yaml, registry), /Unknown component type 'haystack\.components\.builders\.prompt_builder\.PromtBuilder'\. Did you mean 'haystack\.components\.builders\.prompt_builder\.PromptBuilder'\?/);
  assert.ok(error.message.length < 300, `short message, got ${error.message.length} characters`);
  // A wrong module path with the right class name still finds it.
  assert.match(registry.components.unknownTypeMessage("haystack.components.joiner.DocumentJoiner"), /Did you mean 'haystack\.components\.joiners\.document_joiner\.DocumentJoiner'/);
  assert.not.match(registry.components.unknownTypeMessage("os.system"), /Did you mean/);
});

test("an unknown type nested in a component or a ComponentTool is named", () => {
  const registry = createRegistry();
  const nested = `components:
  agent:
    type: haystack.components.agents.agent.Agent
    init_parameters:
      chat_generator:
        type: haystack.components.generators.chat.openai.OpenAIChatGeneratr
        init_parameters: {}
connections: []
`;
  assert.throws(() => loadPipelineYaml(nested, registry), /Unknown component type 'haystack\.components\.generators\.chat\.openai\.OpenAIChatGeneratr'\. Did you mean 'haystack\.components\.generators\.chat\.openai\.OpenAIChatGenerator'/);
  const tool = `components:
  agent:
    type: haystack.components.agents.agent.Agent
    init_parameters:
      chat_generator:
        type: haystack.components.generators.chat.openai.OpenAIChatGenerator
        init_parameters: {api_key: {type: env_var, env_vars: [OPENAI_API_KEY], strict: false}}
      tools:
        - type: haystack.tools.component_tool.ComponentTool
          data:
            name: search
            description: search
            component:
              type: no.such.Searcher
              init_parameters: {}
connections: []
`;
  const error = throwsMatching(() => loadPipelineYaml(tool, registry), /no\.such\.Searcher/);
  assert.not.match(error.message, /\[object Object\]/);
});

// --- builders: 3.x defaults (test/components/builders/test_prompt_builder.py) ---------------------

test("PromptBuilder / ChatPromptBuilder: required_variables defaults to '*' (3.x); null restores 2.x", () => {
  const pb = new PromptBuilder({ template: "This is a {{ variable }}" });
  assert.is(pb.inputSockets.variable!.mandatory, true);
  throwsMatching(() => pb.run({}, ctx("pb")), /Missing required input variables in PromptBuilder: variable/);
  assert.equal(pb.run({ variable: "test" }, ctx("pb")), { prompt: "This is a test" });
  const optional = new PromptBuilder({ template: "This is a {{ variable }}", required_variables: null });
  assert.equal(optional.run({}, ctx("pb")), { prompt: "This is a " });
  const cpb = new ChatPromptBuilder({ template: [ChatMessage.fromUser("Hi {{ name }}")] });
  assert.is(cpb.inputSockets.name!.mandatory, true);
});

// --- OutputAdapter (test/components/converters/test_output_adapter.py) -----------------------------

test("OutputAdapter: adaptation, custom filters, errors as Haystack's", () => {
  const adapter = new OutputAdapter({ template: "{{ documents[0].content }}", output_type: "str" });
  assert.equal(adapter.run({ documents: [{ content: "Test content" }] }), { output: "Test content" });
  const loads = new OutputAdapter({ template: "{{ documents[0].content|json_loads }}", output_type: "dict", custom_filters: { json_loads: (s: unknown) => JSON.parse(String(s)) } });
  assert.equal(loads.run({ documents: [{ content: '{"key": "value"}' }] }), { output: { key: "value" } });
  const upper = new OutputAdapter({ template: "{{ documents[0].content|custom_filter }}", output_type: "str", custom_filters: { custom_filter: (s: unknown) => String(s).toUpperCase() } });
  assert.equal(upper.run({ documents: [{ content: "test content" }] }), { output: "TEST CONTENT" });
  assert.throws(() => new OutputAdapter({ template: "{{ documents[0].content }", output_type: "str" }), /Invalid Jinja template/);
  throwsMatching(() => adapter.run({}), /No input data provided/);
  // StrictUndefined: a missing field is an adaptation error, not "".
  throwsMatching(() => adapter.run({ documents: [{ title: "Test title" }] }), /Error adapting \{\{ documents\[0\]\.content \}\}/, OutputAdaptationException);
  // ...but a test for definedness or a default still works.
  const guarded = new OutputAdapter({ template: "{{ documents[0].content | default('none') }}", output_type: "str" });
  assert.equal(guarded.run({ documents: [{ title: "t" }] }), { output: "none" });
});

test("OutputAdapter: unsafe returns objects; assigned variables are not inputs", () => {
  const documents = [new Document({ content: "Test document" }), new Document({ content: "Another test document" })];
  const unsafe = new OutputAdapter({ template: "{{ documents[0] }}", output_type: "haystack.dataclasses.document.Document", unsafe: true });
  assert.is(unsafe.run({ documents }).output, documents[0]);
  const whole = new OutputAdapter({ template: "{{ documents }}", output_type: "typing.Any", unsafe: true });
  throwsMatching(() => whole.run({ other: 1 }), /Undefined variable/, OutputAdaptationException);
  const template = "{% if control == 'something' %}\n    {% set output = 1 %}\n{% else %}\n    {% set output = 3 %}\n{% endif %}\n{{ output }}\n";
  const assigned = new OutputAdapter({ template, output_type: "int" });
  assert.equal(Object.keys(assigned.inputSockets), ["control"]);
  assert.equal(assigned.run({ control: "something" }), { output: 1 });
});

// --- DocumentJoiner (test/components/joiners/test_document_joiner.py) ------------------------------

test("DocumentJoiner: weights summing to zero and top_k <= 0 are refused at init", () => {
  throwsMatching(() => new DocumentJoiner({ join_mode: "merge", weights: [0, 0] }), /must not sum to zero/);
  throwsMatching(() => new DocumentJoiner({ join_mode: "merge", weights: [1, -1] }), /must not sum to zero/);
  throwsMatching(() => new DocumentJoiner({ top_k: 0 }), /top_k must be greater than 0/);
  throwsMatching(() => new DocumentJoiner({ top_k: -1 }), /top_k must be greater than 0/);
});

test("DocumentJoiner: run-time top_k 0 returns nothing, negative raises, it beats the init value", () => {
  const docs = [new Document({ content: "a", score: 0.5 }), new Document({ content: "b", score: 0.2 }), new Document({ content: "c", score: 0.9 })];
  const joiner = new DocumentJoiner({ top_k: 2 });
  assert.equal(joiner.run({ documents: [docs], top_k: 0 }).documents, []);
  assert.equal(joiner.run({ documents: [docs] }).documents.map((d) => d.content), ["c", "a"]);
  assert.equal(joiner.run({ documents: [docs], top_k: 3 }).documents.map((d) => d.content), ["c", "a", "b"]);
  throwsMatching(() => joiner.run({ documents: [docs], top_k: -1 }), /top_k must not be negative/);
});

test("DocumentJoiner concatenate: the best-scored duplicate wins; a score of 0 beats no score", () => {
  const unscored = new Document({ id: "1", content: "x" });
  const zero = new Document({ id: "1", content: "x", score: 0 });
  const out = new DocumentJoiner({}).run({ documents: [[unscored], [zero]] }).documents;
  assert.equal(out.map((d) => d.score), [0]);
  const negative = new Document({ id: "2", content: "y", score: -1 });
  const better = new Document({ id: "2", content: "y", score: -0.5 });
  assert.equal(new DocumentJoiner({}).run({ documents: [[negative], [better]] }).documents.map((d) => d.score), [-0.5]);
});

// --- ConditionalRouter (test/components/routers/test_conditional_router.py) ------------------------

const passthrough = (condition: string, output: string | string[], name: string | string[], type: string | string[]) => ({ condition, output, output_name: name, output_type: type, output_passthrough: true });

test("ConditionalRouter output_passthrough: the named input's value, untouched", () => {
  const router = new ConditionalRouter({ routes: [passthrough("{{flag}}", "value", "matched", "str"), passthrough("{{not flag}}", "value", "unmatched", "str")] });
  assert.equal(Object.keys(router.inputSockets).sort(), ["flag", "value"]);
  assert.equal(router.run({ flag: true, value: "hello" }, ctx("r")), { matched: "hello" });
  assert.equal(router.run({ flag: false, value: "hello" }, ctx("r")), { unmatched: "hello" });
  const reloaded = new ConditionalRouter(router.toDict().init_parameters);
  assert.equal(reloaded.run({ flag: true, value: "hello" }, ctx("r")), { matched: "hello" });
  assert.is((reloaded.toDict().init_parameters.routes as { output_passthrough?: boolean }[])[0]!.output_passthrough, true);
  const payload = { body: "test" };
  const multi = new ConditionalRouter({ routes: [passthrough("{{flag}}", ["label", "payload"], ["out_label", "out_payload"], ["str", "typing.Any"])] });
  const result = multi.run({ flag: true, label: "hello", payload }, ctx("r"));
  assert.equal(result, { out_label: "hello", out_payload: payload });
  assert.is(result.out_payload, payload);
});

test("ConditionalRouter: passthrough and Jinja routes mixed", () => {
  const router = new ConditionalRouter({
    routes: [passthrough("{{mode == 'direct'}}", "data", "direct_route", "list"), { condition: "{{mode == 'transform'}}", output: "{{data | reverse | list}}", output_name: "transformed_route", output_type: "list" }],
  });
  const data = [1, 2, 3];
  assert.is(router.run({ mode: "direct", data }, ctx("r")).direct_route, data);
  assert.equal(router.run({ mode: "transform", data }, ctx("r")), { transformed_route: [3, 2, 1] });
});

test("ConditionalRouter: a missing passthrough input and a type mismatch are ValueErrors, not route-condition errors", () => {
  const missing = new ConditionalRouter({ routes: [passthrough("{{True}}", "missing_var", "out", "str")] });
  throwsMatching(() => missing.run({ other_var: "value" }, ctx("r")), /Variable 'missing_var' not found in inputs for passthrough route 'out'/, RouteValueError);
  const typed = new ConditionalRouter({ routes: [passthrough("{{True}}", "value", "out", "int")], validate_output_type: true });
  const e = throwsMatching(() => typed.run({ value: "not_an_int" }, ctx("r")), /Route 'out' type doesn't match expected type/, RouteValueError);
  assert.not.instance(e, RouteConditionException);
  const rendered = new ConditionalRouter({ routes: [{ condition: "{{True}}", output: "{{value}}", output_name: "message", output_type: "int" }], validate_output_type: true });
  throwsMatching(() => rendered.run({ value: "text" }, ctx("r")), /Route 'message' type doesn't match expected type/, RouteValueError);
});

test("ConditionalRouter: a non-string output or condition says to write a template string", () => {
  const e = throwsMatching(() => new ConditionalRouter({ routes: [{ condition: '{{ flag == "double" }}', output: 2, output_name: "n", output_type: "int" }] }), /Invalid template for output: 2 \(type: int\)\. Output must be a string representing a valid Jinja2 template/);
  assert.match(e.message, /use '2' instead of 2/);
  throwsMatching(() => new ConditionalRouter({ routes: [{ condition: '{{ flag == "double" }}', output: ["{{streams}}", 2], output_name: ["streams", "num"], output_type: ["list[int]", "int"] }] }), /Invalid template for output.*Jinja2 template/);
  throwsMatching(() => new ConditionalRouter({ routes: [{ condition: "{{x}}", output: ["{{x}}", "{{x}}"], output_name: ["a"], output_type: ["str"] }] }), /must have same length/);
});

test.run();
