/**
 * @module Port of Haystack's test/components/routers/test_conditional_router.py (values, not Python).
 * Python types are written as svc's type strings ("list[int]"); from_dict is `new ConditionalRouter(to_dict().init_parameters)`.
 * Skipped, each with its reason in docs/haystack-parity.md.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { ChatMessage, createRegistry, loadPipelineYaml, Pipeline } from "svc/engine";
import { ConditionalRouter, NoRouteSelectedException } from "../../../../plugins/engine/components/conditional-router.js";

const throws = (fn: () => unknown, pattern: RegExp = /./) => assert.throws(fn, (e: Error) => pattern.test(e.message));
const areaCode = (value: unknown) => parseInt(String(value).split("-")[0]!, 10);
const reload = (r: ConditionalRouter) => new ConditionalRouter(r.toDict().init_parameters);
const TWO = [
  { condition: "{{streams|length < 2}}", output: "{{query}}", output_type: "str", output_name: "query" },
  { condition: "{{streams|length >= 2}}", output: "{{streams}}", output_type: "list[int]", output_name: "streams" },
];
const MESSAGE_OR_STREAMS = [
  { condition: "{{streams|length < 2}}", output: "{{message}}", output_type: "ChatMessage", output_name: "message" },
  { condition: "{{streams|length >= 2}}", output: "{{streams}}", output_type: "list[int]", output_name: "streams" },
];

test("test_missing_mandatory_fields", () =>
  throws(() => new ConditionalRouter({ routes: [{ condition: "{{streams|length < 2}}", output: "{{query}}" }, { condition: "{{streams|length < 2}}", output_type: "str" }] })));
test("test_invalid_condition_field", () =>
  throws(() => new ConditionalRouter({ routes: [{ condition: "{{streams|length < 2", output: "query", output_type: "str", output_name: "test" }] }), /Invalid template/));
test("test_invalid_output_template_non_string", () => {
  const r = [{ condition: '{{ flag == "double" }}', output: 2, output_name: "num_additional_outputs", output_type: "int" }];
  throws(() => new ConditionalRouter({ routes: r }), /Invalid template for output.*2.*string.*Jinja2 template/);
});
test("test_invalid_output_template_non_string_list", () => {
  const r = [{ condition: '{{ flag == "double" }}', output: ["{{streams}}", 2], output_name: ["streams", "num"], output_type: ["list[int]", "int"] }];
  throws(() => new ConditionalRouter({ routes: r }), /Invalid template for output.*string.*Jinja2 template/);
});
test("test_no_vars_in_output_route_but_with_output_name", () => {
  const router = new ConditionalRouter({ routes: [{ condition: "{{streams|length > 2}}", output: "This is a constant", output_name: "enough_streams", output_type: "str" }] });
  assert.equal(router.run({ streams: [1, 2, 3], query: "Haystack" }), { enough_streams: "This is a constant" });
});
test("test_mandatory_and_optional_fields_with_extra_fields", () =>
  throws(() => new ConditionalRouter({ routes: [{ ...TWO[0], bla: "bla" }, { condition: "{{streams|length < 2}}", output: "{{query}}", output_type: "str" }] })));
test("test_router_initialized", () => {
  const router = new ConditionalRouter({ routes: TWO });
  assert.equal(router.initParameters.routes, TWO);
  assert.equal(Object.keys(router.inputSockets).sort(), ["query", "streams"]);
  assert.equal(Object.keys(router.outputSockets).sort(), ["query", "streams"]);
});
test("test_router_evaluate_condition_expressions", () => {
  const router = new ConditionalRouter({ routes: TWO });
  assert.equal(router.run({ streams: [1, 2, 3], query: "test" }), { streams: [1, 2, 3] });
  assert.equal(router.run({ streams: [1], query: "test" }), { query: "test" });
});
test("test_router_evaluate_condition_expressions_using_output_slot", () => {
  const router = new ConditionalRouter({
    routes: [
      { condition: "{{streams|length > 2}}", output: "{{streams}}", output_name: "enough_streams", output_type: "list[int]" },
      { condition: "{{streams|length <= 2}}", output: "{{streams}}", output_name: "insufficient_streams", output_type: "list[int]" },
    ],
  });
  assert.equal(router.run({ streams: [1, 2, 3], query: "Haystack" }), { enough_streams: [1, 2, 3] });
});
test("test_complex_condition", () => {
  const router = new ConditionalRouter({
    routes: [
      { condition: "{{messages[-1].meta.finish_reason == 'function_call'}}", output: "{{streams}}", output_type: "list[int]", output_name: "streams" },
      { condition: "{{True}}", output: "{{query}}", output_type: "str", output_name: "query" },
    ],
  });
  // Haystack uses a MagicMock; an object with the same attribute path stands in for it.
  assert.equal(router.run({ messages: [{ meta: { finish_reason: "function_call" } }], streams: [1, 2, 3], query: "my query" }), { streams: [1, 2, 3] });
});
test("test_router_no_route", () => {
  const router = new ConditionalRouter({ routes: [TWO[0], { ...TWO[1], condition: "{{streams|length >= 5}}" }] });
  assert.throws(() => router.run({ streams: [1, 2, 3], query: "test" }), (e: Error) => e instanceof NoRouteSelectedException);
});
test("test_router_raises_value_error_if_route_not_dictionary", () => throws(() => new ConditionalRouter({ routes: [TWO[0], ["{{streams|length >= 2}}", "streams", "list[int]"]] })));
test("test_router_raises_value_error_if_route_missing_keys", () =>
  throws(() => new ConditionalRouter({ routes: [{ condition: "{{streams|length < 2}}", output: "{{query}}" }, { condition: "{{streams|length < 2}}", output_type: "str" }] })));
test("test_router_de_serialization", () => {
  const router = new ConditionalRouter({ routes: TWO });
  const dict = router.toDict();
  for (const route of dict.init_parameters.routes as Record<string, unknown>[]) for (const value of Object.values(route)) assert.type(value, "string");
  const again = reload(router);
  assert.equal(again.initParameters.routes, router.initParameters.routes);
  const kwargs = { streams: [1, 2, 3], query: "Haystack" };
  assert.equal(router.run(kwargs), again.run(kwargs));
  assert.equal(router.run(kwargs), { streams: [1, 2, 3] });
});
test("test_router_de_serialization_with_none_argument", () => {
  const router = new ConditionalRouter({ routes: TWO, custom_filters: null, unsafe: false });
  assert.equal(router.run({ streams: [1, 2, 3], query: "Haystack" }), { streams: [1, 2, 3] });
});
test("test_router_serialization_idempotence", () => {
  const router = new ConditionalRouter({ routes: MESSAGE_OR_STREAMS });
  const first = structuredClone(router.toDict());
  assert.equal(router.toDict(), first);
});
test("test_custom_filter", () => {
  const router = new ConditionalRouter({
    routes: [
      { condition: "{{phone_num|get_area_code == 123}}", output: "Phone number has a 123 area code", output_name: "good_phone_num", output_type: "str" },
      { condition: "{{phone_num|get_area_code != 123}}", output: "Phone number does not have 123 area code", output_name: "bad_phone_num", output_type: "str" },
    ],
    custom_filters: { get_area_code: areaCode },
  });
  assert.equal(router.run({ phone_num: "123-456-7890" }), { good_phone_num: "Phone number has a 123 area code" });
  assert.equal(router.run({ phone_num: "321-456-7890" }), { bad_phone_num: "Phone number does not have 123 area code" });
});
test("test_sede_with_custom_filter", () => {
  const filters = { custom_filter_to_sede: areaCode };
  const routes = [{ condition: "{{ test|custom_filter_to_sede == 123 }}", output: "123", output_name: "test", output_type: "int" }];
  const router = new ConditionalRouter({ routes, custom_filters: filters });
  const result = router.run({ test: "123-456-789" });
  assert.equal(result, { test: 123 });
  // The dict names the function; loading resolves the name through the registry, as here.
  assert.equal(router.toDict().init_parameters.custom_filters, { custom_filter_to_sede: "areaCode" });
  const again = new ConditionalRouter({ ...router.toDict().init_parameters, custom_filters: filters });
  assert.equal(again.run({ test: "123-456-789" }), result);
});
test("test_unsafe", () => {
  const message = ChatMessage.fromUser("This is a message");
  assert.equal(new ConditionalRouter({ routes: MESSAGE_OR_STREAMS, unsafe: true }).run({ streams: [1], message }), { message });
});
test("test_validate_output_type_without_unsafe", () => {
  const router = new ConditionalRouter({ routes: MESSAGE_OR_STREAMS, validate_output_type: true });
  throws(() => router.run({ streams: [1], message: ChatMessage.fromUser("This is a message") }), /Route 'message' type doesn't match expected type/);
});
test("test_validate_output_type_with_unsafe", () => {
  const router = new ConditionalRouter({ routes: MESSAGE_OR_STREAMS, unsafe: true, validate_output_type: true });
  const message = ChatMessage.fromUser("This is a message");
  assert.instance(router.run({ streams: [1], message }).message, ChatMessage);
  throws(() => router.run({ streams: ["1", "2", "3", "4"], message }), /Route 'streams' type doesn't match expected type/);
});
test("test_validate_output_type_with_pep604", () => {
  const router = new ConditionalRouter({ routes: [{ condition: "{{True}}", output: "{{value}}", output_type: "list[str] | dict[str, int] | None", output_name: "result" }], validate_output_type: true });
  assert.equal(router.run({ value: ["a", "b"] }), { result: ["a", "b"] });
  assert.equal(router.run({ value: { key: 1 } }), { result: { key: 1 } });
  assert.equal(router.run({ value: null }), { result: null });
  throws(() => router.run({ value: 42 }), /Route 'result' type doesn't match expected type/);
});
test("test_str_not_matching_list_str", () => {
  const router = new ConditionalRouter({ routes: [{ condition: "{{True}}", output: "{{value}}", output_type: "list[str]", output_name: "result" }], validate_output_type: true });
  assert.equal(router.run({ value: ["a", "b"] }), { result: ["a", "b"] });
  throws(() => router.run({ value: "hello" }), /Route 'result' type doesn't match expected type/);
});
test("test_router_with_optional_parameters", async () => {
  const q = (condition: string, output_name: string) => ({ condition, output: "{{question}}", output_name, output_type: "str" });
  const routes = [q('{{path == "rag"}}', "normal"), q('{{path == "followup_short"}}', "followup_short"), q('{{path == "followup_elaborate"}}', "followup_elaborate"), { ...q("{{ True }}", "fallback"), output: "{{ question }}" }];
  const router = new ConditionalRouter({ routes, optional_variables: ["path"] });
  assert.equal(router.run({ question: "What?" }), { fallback: "What?" });
  assert.equal(router.run({ question: "What?", path: "rag" }), { normal: "What?" });
  const pipe = new Pipeline();
  pipe.addComponent("router", router);
  assert.equal((await pipe.run({ router: { question: "What?" } })).router, { fallback: "What?" });
  assert.equal((await pipe.run({ router: { question: "What?", path: "followup_short" } })).router, { followup_short: "What?" });
});
test("test_router_with_multiple_optional_parameters", async () => {
  const q = (condition: string, output_name: string) => ({ condition, output: "{{question}}", output_name, output_type: "str" });
  const routes = [
    q('{{mode == "chat" and language == "en" and source == "doc"}}', "en_doc_chat"),
    q('{{mode == "qa" and source == "web"}}', "web_qa"),
    q('{{mode == "qa" and source == "doc"}}', "doc_qa"),
    q('{{mode == "chat" and language == "en"}}', "en_chat"),
    q('{{mode == "chat"}}', "default_chat"),
    q("{{ True }}", "fallback"),
  ];
  const router = new ConditionalRouter({ routes, optional_variables: ["source", "language"] });
  assert.equal(router.run({ question: "What?", mode: "chat" }), { default_chat: "What?" });
  assert.equal(router.run({ question: "What?", mode: "chat", language: "en", source: "doc" }), { en_doc_chat: "What?" });
  assert.equal(router.run({ question: "What?", mode: "qa", source: "web" }), { web_qa: "What?" });
  assert.equal(router.run({ question: "What?", mode: "qa" }), { fallback: "What?" });
  const pipe = new Pipeline();
  pipe.addComponent("router", router);
  assert.equal((await pipe.run({ router: { question: "What?", mode: "chat" } })).router, { default_chat: "What?" });
  assert.equal((await pipe.run({ router: { question: "What?", mode: "qa", source: "doc" } })).router, { doc_qa: "What?" });
  assert.equal((await pipe.run({ router: { question: "What?", mode: "chat", language: "en", source: "doc" } })).router, { en_doc_chat: "What?" });
});
test("test_router_to_dict_does_not_mutate_routes", () => {
  const router = new ConditionalRouter({ routes: [TWO[0]] });
  const before = structuredClone(router.initParameters.routes);
  assert.type((router.toDict().init_parameters.routes as Record<string, unknown>[])[0]!.output_type, "string");
  assert.equal(router.initParameters.routes, before);
  assert.equal(router.run({ streams: [1], query: "test" }), { query: "test" });
  assert.equal(reload(router).initParameters.routes, router.initParameters.routes);
});
test("test_multiple_outputs_per_route", () => {
  const router = new ConditionalRouter({
    routes: [
      { condition: "{{streams|length >= 2}}", output: ["{{streams}}", "{{query}}"], output_type: ["list[int]", "str"], output_name: ["streams", "query"] },
      { condition: "{{streams|length < 2}}", output: ["{{streams}}", "{{custom_error_message}}"], output_type: ["list[int]", "str"], output_name: ["streams", "custom_error_message"] },
    ],
  });
  assert.equal(router.run({ streams: [1, 2, 3], query: "test_1", custom_error_message: "Not enough streams" }), { streams: [1, 2, 3], query: "test_1" });
  assert.equal(router.run({ streams: [1], query: "test_2", custom_error_message: "Not enough streams" }), { streams: [1], custom_error_message: "Not enough streams" });
});
test("test_multiple_outputs_validation", () =>
  throws(() => new ConditionalRouter({ routes: [{ condition: "{{streams|length >= 2}}", output: ["{{streams}}", "{{query}}"], output_type: ["list[int]"], output_name: ["streams"] }] }), /must have same length/));
test("test_sede_multiple_outputs", () => {
  const out = { output: ["{{phone_num}}", "{{phone_num|get_area_code}}"], output_name: ["phone_num", "area_code"], output_type: ["str", "int"] };
  const routes = [{ condition: "{{phone_num|get_area_code == 123}}", ...out }, { condition: "{{phone_num|get_area_code != 123}}", ...out }];
  const router = new ConditionalRouter({ routes, custom_filters: { get_area_code: areaCode } });
  const again = new ConditionalRouter({ ...router.toDict().init_parameters, custom_filters: { get_area_code: areaCode } });
  assert.equal(again.initParameters.routes, router.initParameters.routes);
  assert.equal(again.run({ phone_num: "123-456-7890" }), { phone_num: "123-456-7890", area_code: 123 });
});
test("test_extract_variables_correct_with_assignment", () => {
  const condition = "{%- if control == 'something' -%}\n{% set streams = 1 %}\n{%- else -%}\n{% set streams = 2 %}\n{%- endif -%}\n{{streams == 1}}";
  const router = new ConditionalRouter({ routes: [{ condition, output: "{{query}}", output_name: "q", output_type: "str" }] });
  assert.equal([...router.variables].sort(), ["control", "query"]);
});
const pass = (condition: string, output: unknown, output_name: unknown, output_type: unknown) => ({ condition, output, output_name, output_type, output_passthrough: true });
test("test_conditional_router_passthrough_serialization_roundtrip", () => {
  const router = new ConditionalRouter({ routes: [pass("{{flag}}", "value", "matched", "str"), pass("{{not flag}}", "value", "unmatched", "str")] });
  const again = reload(router);
  assert.equal(again.initParameters.routes, router.initParameters.routes);
  assert.is((again.initParameters.routes as Record<string, unknown>[])[1]!.output_passthrough, true);
  assert.equal(again.run({ flag: true, value: "hello" }), { matched: "hello" });
  assert.equal(again.run({ flag: false, value: "hello" }), { unmatched: "hello" });
});
test("test_conditional_router_passthrough_with_custom_type", () => {
  class CustomDocument {
    constructor(readonly content: string, readonly metadata: Record<string, unknown>) {}
  }
  const router = new ConditionalRouter({ routes: [pass("{{is_important}}", "document", "important", "CustomDocument"), pass("{{not is_important}}", "document", "regular", "CustomDocument")] });
  const doc = new CustomDocument("Important", { priority: "high" });
  assert.is(router.run({ is_important: true, document: doc }).important, doc);
  assert.is(router.run({ is_important: false, document: doc }).regular, doc);
});
test("test_conditional_router_passthrough_missing_variable", () =>
  throws(() => new ConditionalRouter({ routes: [pass("{{True}}", "missing_var", "out", "str")] }).run({ other_var: "value" }), /Variable 'missing_var' not found in inputs/));
test("test_conditional_router_passthrough_mixed", () => {
  const router = new ConditionalRouter({ routes: [pass("{{mode == 'direct'}}", "data", "direct_route", "list"), { condition: "{{mode == 'transform'}}", output: "{{data | reverse | list}}", output_name: "transformed_route", output_type: "list" }] });
  const data = [1, 2, 3];
  assert.is(router.run({ mode: "direct", data }).direct_route, data);
  assert.equal(router.run({ mode: "transform", data }).transformed_route, [3, 2, 1]);
});
test("test_conditional_router_passthrough_multi_output", () => {
  const p = { body: "test" };
  const result = new ConditionalRouter({ routes: [pass("{{flag}}", ["label", "payload"], ["out_label", "out_payload"], ["str", "Payload"])] }).run({ flag: true, label: "hello", payload: p });
  assert.equal(result, { out_label: "hello", out_payload: p });
  assert.is(result.out_payload, p);
});
test("test_conditional_router_passthrough_validate_output_type_mismatch", () =>
  throws(() => new ConditionalRouter({ routes: [pass("{{True}}", "value", "out", "int")], validate_output_type: true }).run({ value: "not_an_int" }), /type doesn't match/));
test("test_conditional_router_passthrough_optional_variable_routes_none", () =>
  assert.equal(new ConditionalRouter({ routes: [pass("{{True}}", "maybe_value", "out", "str")], optional_variables: ["maybe_value"] }).run({ maybe_value: null }), { out: null }));
test("test_conditional_router_passthrough_skips_output_template_validation", () =>
  assert.equal(new ConditionalRouter({ routes: [pass("{{True}}", "{{unclosed", "out", "str")] }).run({ "{{unclosed": "value" }), { out: "value" }));

test("test_router_de_serialization_with_callable_output_type", () => {
  const routes = [{ condition: "{{True}}", output: "{{callback}}", output_type: "collections.abc.Callable[[int, str], bool]", output_name: "callback" }];
  const router = new ConditionalRouter({ routes });
  assert.is((router.toDict().init_parameters.routes as Record<string, unknown>[])[0]!.output_type, "collections.abc.Callable[[int, str], bool]");
  assert.equal(reload(router).initParameters.routes, router.initParameters.routes);
});
test("test_warns_on_unused_optional_variables", () => {
  const warn = console.warn;
  const warnings: string[] = [];
  console.warn = (m: string) => void warnings.push(m);
  try {
    const routes = [
      { condition: '{{mode == "chat"}}', output: "{{question}}", output_name: "chat", output_type: "str" },
      { condition: "{{ True }}", output: "{{question}}", output_name: "fallback", output_type: "str" },
    ];
    const router = new ConditionalRouter({ routes, optional_variables: ["unused_var1", "unused_var2"] });
    assert.match(warnings[0] ?? "", /optional variables.*'unused_var1', 'unused_var2'/);
    assert.equal(router.run({ question: "What?", mode: "chat" }), { chat: "What?" });
  } finally {
    console.warn = warn;
  }
});

// from_dict in safe and unsafe mode: through YAML, where svc's loading modes live.
const yaml = (extra: string) => `components:
  router:
    type: haystack.components.routers.conditional_router.ConditionalRouter
    init_parameters:
      routes:
        - condition: "{{ value | custom_filter_to_sede == 123 }}"
          output: "{{ value }}"
          output_type: str
          output_name: value
${extra}`;
const FILTERS = "      custom_filters:\n        custom_filter_to_sede: my.custom_filter_to_sede\n";
const registry = () => createRegistry().registerFunction("my.custom_filter_to_sede", areaCode);
const refused = (text: string, pattern: RegExp) => assert.throws(() => loadPipelineYaml(text, registry()), (e: Error) => e.name === "DeserializationError" && pattern.test(e.message));
test("test_from_dict_rejects_unsafe_in_safe_mode", () => refused(yaml("      unsafe: true\n"), /unsafe=True while loading in safe mode/));
test("test_from_dict_allows_unsafe_when_loading_unsafe", async () => {
  const pipeline = loadPipelineYaml(yaml("      unsafe: true\n").replace("value | custom_filter_to_sede == 123", "value == 'x'"), registry(), { unsafe: true });
  assert.equal(await pipeline.run({ router: { value: "x" } }), { router: { value: "x" } });
});
test("test_from_dict_rejects_custom_filters_in_safe_mode", () => refused(yaml(FILTERS), /custom filters while loading in safe mode/));
test("test_from_dict_allows_custom_filters_when_loading_unsafe", async () => {
  const pipeline = loadPipelineYaml(yaml(FILTERS), registry(), { unsafe: true });
  assert.equal(await pipeline.run({ router: { value: "123-4" } }), { router: { value: "123-4" } });
});

test.run();
