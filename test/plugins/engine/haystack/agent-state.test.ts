/**
 * @module Port of Haystack's test/components/agents/test_state_class.py (values, not Python).
 * Python types are written as the type strings svc's YAML carries (`list[int]`, `typing.List[str]`,
 * `str | None`); a Python value where a type is expected (42, a function, a module) is the same
 * value in JS, or its name as a string. Handlers are registered functions, named as YAML names them.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { ChatMessage, EngineRegistry, State, isListType, isValidTypeString, mergeLists, schemaFromDict, schemaToDict, validateStateSchema, type StateSchema } from "svc/engine";

const basicSchema = (): StateSchema => ({ numbers: { type: "list" }, metadata: { type: "dict" }, name: { type: "str" } });
const numbersHandler = (current: unknown, incoming: unknown) => [...new Set([...((current as number[] | null) ?? []), ...(incoming as number[])])].sort((a, b) => a - b);
const complexSchema = (): StateSchema => ({ numbers: { type: "list", handler: numbersHandler }, metadata: { type: "dict" }, name: { type: "str" } });
const registry = () => new EngineRegistry().registerFunction("agents.test_state_class.numbers_handler", numbersHandler);
const throws = (fn: () => unknown, pattern: RegExp) => assert.throws(fn, (e: Error) => pattern.test(e.message));

test("test_is_list_type", () => {
  assert.is(isListType("list"), true);
  assert.is(isListType("list[int]"), true);
  assert.is(isListType("list[str]"), true);
  assert.is(isListType("dict"), false);
  assert.is(isListType("int"), false);
  assert.is(isListType("Union[list[int], None]"), false);
  assert.is(isListType("list[int] | None"), false);
});

// ---- TestMergeLists ----
test("TestMergeLists.test_merge_two_lists", () => {
  const current = [1, 2, 3];
  const incoming = [4, 5, 6];
  assert.equal(mergeLists(current, incoming), [1, 2, 3, 4, 5, 6]);
  assert.equal(current, [1, 2, 3]);
  assert.equal(incoming, [4, 5, 6]);
});
test("TestMergeLists.test_append_to_list", () => {
  const current = [1, 2, 3];
  assert.equal(mergeLists(current, 4), [1, 2, 3, 4]);
  assert.equal(current, [1, 2, 3]);
});
test("TestMergeLists.test_create_new_list", () => assert.equal(mergeLists(1, 2), [1, 2]));
test("TestMergeLists.test_replace_with_list", () => assert.equal(mergeLists(1, [2, 3]), [1, 2, 3]));

// ---- TestIsValidType ----
test("TestIsValidType.test_builtin_types", () => {
  for (const t of ["str", "int", "dict", "list", "tuple", "set", "bool", "float"]) assert.is(isValidTypeString(t), true, t);
});
test("TestIsValidType.test_generic_types", () => {
  for (const t of ["list[str]", "List[str]", "dict[str, int]", "Dict[str, int]", "list[dict[str, int]]", "List[Dict[str, int]]", "dict[str, list[int]]", "Dict[str, List[int]]"]) assert.is(isValidTypeString(t), true, t);
});
test("TestIsValidType.test_custom_classes", () => {
  for (const t of ["CustomClass", "GenericCustomClass", "GenericCustomClass[int]", "list[CustomClass]", "List[CustomClass]", "dict[str, CustomClass]", "Dict[str, CustomClass]", "dict[str, GenericCustomClass[int]]", "Dict[str, GenericCustomClass[int]]"]) {
    assert.is(isValidTypeString(t), true, t);
  }
});
test("TestIsValidType.test_invalid_types", () => {
  // Values are not types: numbers, a word that names no type, list and dict literals, booleans, instances, functions.
  for (const t of [42, "string", "[1, 2, 3]", [1, 2, 3], { a: 1 }, true, new (class SampleClass { value = 42; })(), Math.max, (x: unknown) => x, console.log]) assert.is(isValidTypeString(t), false, String(t));
});
test("TestIsValidType.test_union_and_optional_types", () => {
  for (const t of ["Union[str, int]", "Union[str, None]", "Union[list[int], dict[str, str]]", "Optional[str]", "Optional[list[int]]", "Optional[dict[str, list]]", "str | int", "str | None", "list[int] | dict[str, str]", "list[int] | None", "dict[str, list] | None"]) {
    assert.is(isValidTypeString(t), true, t);
  }
  assert.is(isValidTypeString("Union"), false);
  assert.is(isValidTypeString("typing.Union"), false);
});
test("TestIsValidType.test_nested_generic_types", () => {
  for (const t of ["list[list[dict[str, list[int]]]]", "dict[str, list[dict[str, set]]]", "dict[str, Optional[list[int]]]", "list[Union[str, dict[str, list[int]]]]", "dict[str, list[int] | None]", "list[str | dict[str, list[int]]]"]) {
    assert.is(isValidTypeString(t), true, t);
  }
});
test("TestIsValidType.test_edge_cases", () => {
  assert.is(isValidTypeString(null), false);
  assert.is(isValidTypeString("NoneType"), true);
  assert.is(isValidTypeString(function sampleFunc() {}), false);
  assert.is(isValidTypeString("function"), true); // type(sample_func)
  assert.is(isValidTypeString("inspect"), false); // a module
  assert.is(isValidTypeString("type"), true);
});
const parametrized: [unknown, boolean][] = [
  ["str", true],
  ["int", true],
  ["list[int]", true],
  ["dict[str, int]", true],
  ["List[int]", true],
  ["Dict[str, int]", true],
  ["Union[str, int]", true],
  ["Optional[str]", true],
  ["str | int", true],
  ["str | None", true],
  ["list[int] | None", true],
  [42, false],
  ["string", false],
  [[1, 2, 3], false],
  [(x: unknown) => x, false],
];
for (const [input, expected] of parametrized) test(`TestIsValidType.test_parametrized_cases[${typeof input === "function" ? "lambda" : JSON.stringify(input)}]`, () => assert.is(isValidTypeString(input), expected));

// ---- TestState ----
test("test_validate_schema_valid", () => validateStateSchema(basicSchema()));
test("test_validate_schema_invalid_type", () => throws(() => validateStateSchema({ test: { type: "not_a_type" } }), /must be a Python type/));
test("test_validate_schema_missing_type", () => throws(() => validateStateSchema({ test: { handler: (x: number, y: number) => x + y } } as never), /missing a 'type' entry/));
test("test_validate_schema_invalid_handler", () => throws(() => validateStateSchema({ test: { type: "list", handler: "not_callable" } } as never), /must be callable or None/));
test("test_validate_schema_with_messages", () => {
  validateStateSchema({ messages: { type: "List[ChatMessage]" } });
  validateStateSchema({ messages: { type: "typing.List[haystack.dataclasses.chat_message.ChatMessage]" } });
  throws(() => validateStateSchema({ messages: { type: "list[str]" } }), /'messages' must be of type list\[ChatMessage\], got list\[str\]/);
  throws(() => new State({ messages: { type: "dict" } }), /'messages' must be of type list\[ChatMessage\]/);
});
test("test_state_initialization", () => {
  assert.equal(new State(basicSchema()).data, {});
  const state = new State(basicSchema(), { numbers: [1, 2, 3], name: "test" });
  assert.equal(state.data.numbers, [1, 2, 3]);
  assert.is(state.data.name, "test");
});
test("test_state_get", () => {
  const state = new State(basicSchema(), { name: "test" });
  assert.is(state.get("name"), "test");
  assert.is(state.get("non_existent"), undefined);
  assert.is(state.get("non_existent", "default"), "default");
});
test("test_state_set_basic", () => {
  const state = new State(basicSchema());
  state.set("numbers", [1, 2]);
  assert.equal(state.get("numbers"), [1, 2]);
  state.set("numbers", [3, 4]);
  assert.equal(state.get("numbers"), [1, 2, 3, 4]);
});
test("test_state_set_with_handler", () => {
  const state = new State(complexSchema());
  state.set("numbers", [3, 2, 1]);
  assert.equal(state.get("numbers"), [1, 2, 3]);
  state.set("numbers", [6, 5, 4]);
  assert.equal(state.get("numbers"), [1, 2, 3, 4, 5, 6]);
});
test("test_state_set_with_handler_override", () => {
  const state = new State(basicSchema());
  state.set("name", "first");
  state.set("name", "second", (current, incoming) => (current ? `${current}-${incoming}` : incoming));
  assert.is(state.get("name"), "first-second");
});
test("test_state_has", () => {
  const state = new State(basicSchema(), { name: "test" });
  assert.is(state.has("name"), true);
  assert.is(state.has("non_existent"), false);
});
test("test_state_empty_schema", () => {
  const state = new State({});
  assert.equal(state.data, {});
  assert.ok("messages" in state.schema);
  assert.is(state.schema.messages!.type, "list[ChatMessage]");
  assert.type(state.schema.messages!.handler, "function");
  throws(() => state.set("any_key", "value"), /Key 'any_key' not found in schema/);
});
test("test_state_none_values", () => {
  const state = new State(basicSchema());
  state.set("name", null);
  assert.is(state.get("name"), null);
  state.set("name", "value");
  assert.is(state.get("name"), "value");
});
test("test_state_merge_lists", () => {
  const state = new State(basicSchema());
  state.set("numbers", "not_a_list");
  assert.equal(state.get("numbers"), ["not_a_list"]);
  state.set("numbers", [1, 2]);
  assert.equal(state.get("numbers"), ["not_a_list", 1, 2]);
});
test("test_state_nested_structures", () => {
  type Lists = Record<string, number[]>;
  const handler = (current: unknown, incoming: unknown) => {
    const c = current as Lists | null;
    const n = incoming as Lists;
    return c ? Object.fromEntries([...new Set([...Object.keys(c), ...Object.keys(n)])].map((k) => [k, [...(c[k] ?? []), ...(n[k] ?? [])]])) : n;
  };
  const state = new State({ complex: { type: "dict[str, list[int]]", handler } });
  state.set("complex", { a: [1, 2], b: [3, 4] });
  state.set("complex", { b: [5, 6], c: [7, 8] });
  assert.equal(state.get("complex"), { a: [1, 2], b: [3, 4, 5, 6], c: [7, 8] });
});
test("test_schema_to_dict", () => assert.equal(schemaToDict(basicSchema()), { numbers: { type: "list" }, metadata: { type: "dict" }, name: { type: "str" } }));
test("test_schema_to_dict_with_handlers", () =>
  assert.equal(schemaToDict(complexSchema(), registry()), { numbers: { type: "list", handler: "agents.test_state_class.numbers_handler" }, metadata: { type: "dict" }, name: { type: "str" } }));
test("test_schema_from_dict", () => assert.equal(schemaFromDict({ numbers: { type: "list" }, metadata: { type: "dict" }, name: { type: "str" } }), basicSchema()));
test("test_schema_from_dict_with_handlers", () => {
  const result = schemaFromDict({ numbers: { type: "list", handler: "agents.test_state_class.numbers_handler" }, metadata: { type: "dict" }, name: { type: "str" } }, registry());
  assert.equal(result, complexSchema());
  assert.is(result.numbers!.handler, numbersHandler);
});
test("test_state_mutability", () => {
  const state = new State({ my_list: { type: "list" } }, { my_list: [1, 2] });
  (state.get("my_list") as number[]).push(3);
  assert.equal(state.get("my_list"), [1, 2]);
});

const MESSAGE_TYPE = "haystack.dataclasses.chat_message.ChatMessage";
const REPLACE = "haystack.components.agents.state.state_utils.replace_values";
const MERGE = "haystack.components.agents.state.state_utils.merge_lists";
const helloDict = { role: "user", meta: {}, name: null, content: [{ text: "Hello, world!" }] };
const fullData = {
  serialization_schema: {
    type: "object",
    properties: { numbers: { type: "integer" }, messages: { type: "array", items: { type: MESSAGE_TYPE } }, dict_of_lists: { type: "object", properties: { numbers: { type: "array", items: { type: "integer" } } } } },
  },
  serialized_data: { numbers: 1, messages: [helloDict], dict_of_lists: { numbers: [1, 2, 3] } },
};
const stateOf = (messagesType: string) =>
  new State({ numbers: { type: "int" }, messages: { type: messagesType }, dict_of_lists: { type: "dict" } }, { numbers: 1, messages: [ChatMessage.fromUser("Hello, world!")], dict_of_lists: { numbers: [1, 2, 3] } });
const schemaDictOf = (messagesType: string) => ({ numbers: { type: "int", handler: REPLACE }, messages: { type: messagesType, handler: MERGE }, dict_of_lists: { type: "dict", handler: REPLACE } });

test("test_state_to_dict", () => {
  const dict = stateOf(`list[${MESSAGE_TYPE}]`).toDict();
  assert.equal(dict.schema, schemaDictOf(`list[${MESSAGE_TYPE}]`));
  assert.equal(dict.data, fullData);
});
test("test_state_to_dict_skip_keys", () => {
  const state = new State({ numbers: { type: "int" }, messages: { type: `list[${MESSAGE_TYPE}]` } }, { numbers: 1, messages: [ChatMessage.fromUser("Hello, world!")] });
  const dict = state.toDict({ skipKeys: ["numbers"] });
  assert.equal(dict.schema, { messages: { type: `list[${MESSAGE_TYPE}]`, handler: MERGE } });
  assert.equal(dict.data, { serialization_schema: { type: "object", properties: { messages: { type: "array", items: { type: MESSAGE_TYPE } } } }, serialized_data: { messages: [helloDict] } });
});
function checkFromDict(messagesType: string) {
  const state = State.fromDict({ schema: schemaDictOf(messagesType), data: fullData });
  assert.is(state.schema.numbers!.type, "int");
  assert.is(state.schema.dict_of_lists!.type, "dict");
  for (const key of ["numbers", "messages", "dict_of_lists"]) assert.type(state.schema[key]!.handler, "function");
  assert.is(state.data.numbers, 1);
  assert.equal((state.data.messages as ChatMessage[]).map((m) => m.toDict()), [ChatMessage.fromUser("Hello, world!").toDict()]);
  assert.ok((state.data.messages as unknown[])[0] instanceof ChatMessage);
  assert.equal(state.data.dict_of_lists, { numbers: [1, 2, 3] });
}
test("test_state_from_dict", () => checkFromDict(`list[${MESSAGE_TYPE}]`));
test("test_state_to_dict_typing_list", () => {
  const dict = stateOf(`typing.List[${MESSAGE_TYPE}]`).toDict();
  assert.equal(dict.schema, schemaDictOf(`typing.List[${MESSAGE_TYPE}]`));
  assert.equal(dict.data, fullData);
});
test("test_state_to_dict_omits_non_serializable_field", () => {
  const warnings: string[] = [];
  const state = new State({ good: { type: "int" }, bad: { type: "object" } }, { good: 1, bad: new Date(Date.UTC(2024, 0, 1)) });
  const dict = state.toDict({ warn: (m) => void warnings.push(m) });
  assert.equal(dict.data.serialized_data, { good: 1 });
  assert.not.ok("bad" in (dict.data.serialization_schema.properties as object));
  assert.ok(warnings.some((m) => m.includes("Failed to serialize the 'bad' field of the agent's State data")));
});
test("test_state_from_dict_typing_list", () => checkFromDict(`typing.List[${MESSAGE_TYPE}]`));

test.run();
