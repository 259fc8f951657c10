/**
 * Haystack's ListJoiner and StringJoiner tests (test/components/joiners/test_list_joiner.py,
 * test_string_joiner.py), ported value for value. A Python type (`list[ChatMessage]`,
 * `typing.List[ChatMessage]`) is its type string; `from_dict` is building the component from
 * `init_parameters`; `joiner.list_type_ == list[ChatMessage]` is the sockets' type.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import {
  AnswerBuilder, ChatMessage, ChatPromptBuilder, Document, GeneratedAnswer, ListJoiner, OpenAIChatGenerator, OpenAITextEmbedder, Pipeline, PipelineConnectError, Secret, StringJoiner, typeName,
} from "svc/engine";

const TYPE = "haystack.components.joiners.list_joiner.ListJoiner";
const LIST_MESSAGES = "list[haystack.dataclasses.chat_message.ChatMessage]";
const TYPING_LIST_MESSAGES = "typing.List[haystack.dataclasses.chat_message.ChatMessage]";
const socketTypes = (j: ListJoiner) => [typeName(j.inputSockets.values!.type), typeName(j.outputSockets.values!.type)];
const join = (j: ListJoiner, values: unknown[][]) => j.run({ values }).values;
const llm = () => new OpenAIChatGenerator({ api_key: Secret.fromToken("test-api-key") });

for (const [name, type] of [["test_init", LIST_MESSAGES], ["test_init_typing_list", TYPING_LIST_MESSAGES]]) {
  test(name, () => {
    const joiner = new ListJoiner({ list_type_: type });
    assert.instance(joiner, ListJoiner);
    assert.equal(socketTypes(joiner), ["list[ChatMessage]", "list[ChatMessage]"]);
  });
}

test("test_to_dict_defaults", () => assert.equal(new ListJoiner().toDict(), { type: TYPE, init_parameters: { list_type_: null } }));
test("test_to_dict_non_default", () => assert.equal(new ListJoiner({ list_type_: LIST_MESSAGES }).toDict(), { type: TYPE, init_parameters: { list_type_: LIST_MESSAGES } }));
test("test_to_dict_non_default_typing_list", () => assert.equal(new ListJoiner({ list_type_: TYPING_LIST_MESSAGES }).toDict(), { type: TYPE, init_parameters: { list_type_: TYPING_LIST_MESSAGES } }));

test("test_from_dict_default", () => {
  const joiner = new ListJoiner({ list_type_: null });
  assert.is(joiner.initParameters.list_type_, null);
  assert.equal(socketTypes(joiner), ["list[Any]", "list[Any]"]);
});
for (const [name, type] of [["test_from_dict_non_default", LIST_MESSAGES], ["test_from_dict_non_default_typing_list", TYPING_LIST_MESSAGES]]) {
  test(name, () => assert.equal(socketTypes(new ListJoiner({ list_type_: type })), ["list[ChatMessage]", "list[ChatMessage]"]));
}

test("test_empty_list", () => assert.equal(join(new ListJoiner({ list_type_: LIST_MESSAGES }), []), []));
test("test_list_of_empty_lists", () => assert.equal(join(new ListJoiner({ list_type_: LIST_MESSAGES }), [[], []]), []));

test("test_single_list_of_chat_messages", () => {
  const messages = [ChatMessage.fromUser("Hello"), ChatMessage.fromAssistant("Hi there")];
  assert.equal(join(new ListJoiner({ list_type_: LIST_MESSAGES }), [messages]), messages);
});

test("test_multiple_lists_of_chat_messages", () => {
  const lists = [[ChatMessage.fromUser("Hello")], [ChatMessage.fromAssistant("Hi there")], [ChatMessage.fromSystem("System message")]];
  assert.equal(join(new ListJoiner({ list_type_: LIST_MESSAGES }), lists), lists.flat());
});

test("test_list_of_generated_answers", () => {
  const lists = [[new GeneratedAnswer("a1", "q1", [new Document({ content: "d1" })], {})], [new GeneratedAnswer("a2", "q2", [new Document({ content: "d2" })], {})]];
  assert.equal(join(new ListJoiner({ list_type_: "list[haystack.dataclasses.answer.GeneratedAnswer]" }), lists), lists.flat());
});

test("test_list_two_different_types", () => assert.equal(join(new ListJoiner(), [["a", "b"], [1, 2]]), ["a", "b", 1, 2]));

test("test_mixed_empty_and_non_empty_lists", () => {
  const messages = [ChatMessage.fromUser("Hello")];
  assert.equal(join(new ListJoiner({ list_type_: LIST_MESSAGES }), [messages, [], messages]), [...messages, ...messages]);
});

test("test_pipeline_connection_validation", () => {
  const pipe = new Pipeline().addComponent("joiner", new ListJoiner()).addComponent("llm", llm());
  assert.throws(() => pipe.connect("joiner.values", "llm.messages"), (e: Error) => e instanceof PipelineConnectError);
});

test("test_pipeline_connection_validation_list_chatmessage", () => {
  const pipe = new Pipeline().addComponent("joiner", new ListJoiner({ list_type_: LIST_MESSAGES })).addComponent("llm", llm());
  pipe.connect("joiner", "llm.messages");
  assert.not.ok("messages" in (pipe.inputs().llm ?? {}), "llm.messages is connected");
});

test("test_pipeline_bad_connection", () => {
  const pipe = new Pipeline().addComponent("joiner", new ListJoiner()).addComponent("query_embedder", new OpenAITextEmbedder({ api_key: Secret.fromToken("test-api-key") }));
  assert.throws(() => pipe.connect("joiner.values", "query_embedder.text"), (e: Error) => e instanceof PipelineConnectError);
});

test("test_pipeline_bad_connection_different_list_types", () => {
  const pipe = new Pipeline().addComponent("joiner", new ListJoiner({ list_type_: "list[int]" })).addComponent("llm", llm());
  assert.throws(() => pipe.connect("joiner.values", "llm.messages"), (e: Error) => e instanceof PipelineConnectError);
});

test("test_result_two_different_types", async () => {
  const pipe = new Pipeline()
    .addComponent("answer_builder", new AnswerBuilder())
    .addComponent("chat_prompt_builder", new ChatPromptBuilder())
    .addComponent("joiner", new ListJoiner())
    .connect("answer_builder", "joiner.values")
    .connect("chat_prompt_builder", "joiner.values");
  const result = await pipe.run({ answer_builder: { query: "What is nuclear physics?", replies: ["This is an answer."] }, chat_prompt_builder: { template: [ChatMessage.fromUser("Hello")] } });
  const values = (result.joiner as { values: unknown[] }).values;
  assert.instance(values[0], GeneratedAnswer);
  assert.instance(values[1], ChatMessage);
});

// test_string_joiner.py
test("StringJoiner: test_init", () => assert.instance(new StringJoiner(), StringJoiner));
test("StringJoiner: test_to_dict", () => assert.equal(new StringJoiner().toDict(), { type: "haystack.components.joiners.string_joiner.StringJoiner", init_parameters: {} }));
test("StringJoiner: test_from_dict", () => assert.instance(new StringJoiner({}), StringJoiner));
test("StringJoiner: test_empty_list", () => assert.equal(new StringJoiner().run({ strings: [] }), { strings: [] }));
test("StringJoiner: test_single_string", () => assert.equal(new StringJoiner().run({ strings: ["a"] }), { strings: ["a"] }));
test("StringJoiner: test_two_strings", () => assert.equal(new StringJoiner().run({ strings: ["a", "b"] }), { strings: ["a", "b"] }));

test.run();
