/**
 * Haystack's Pipeline tests (haystack test/core/pipeline/test_pipeline.py), ported value for value.
 * Haystack's sync `Pipeline.run` is svc's run one component at a time (`concurrencyLimit: 1`): its
 * order of variadic values is the order components ran (by name when all are ready). Tests that
 * call Haystack's private `_run_component` / `_consume_component_inputs` run the same component
 * in a pipeline instead. caplog is a recording logger given as the run's `log`.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import * as v from "valibot";
import { Agent, BranchJoiner, ChatMessage, Document, Pipeline, PipelineConnectError, PipelineRuntimeError, socket } from "svc/engine";
import { componentOf } from "./harness.js";
import { recordingLog, rejects, spyingTracer, waiting, emptyDictPipeline, EMPTY_DICT_EXPECTED, EMPTY_DICT_INPUT, extraKeys, correctKeys, misconfiguredPipeline, deepCopyPipeline, corruptPipeline, unwrapPipeline } from "./pipeline-fixtures.js";

const str = v.string();
const msg = v.instance(ChatMessage);
const doc = v.instance(Document);
const one = { concurrencyLimit: 1 };

const stringProducer = (value = "Hello") => componentOf({}, { text: str }, () => ({ text: value }));
const listStrProducer = (values = ["Hello", "Hi"]) => componentOf({}, { texts: v.array(str) }, () => ({ texts: values }));
const chatMessageProducer = (value = "Hello") => componentOf({}, { message: msg }, () => ({ message: ChatMessage.fromUser(value) }));
const listChatMessageProducer = (values = ["Hello", "Hi"]) => componentOf({}, { messages: v.array(msg) }, () => ({ messages: values.map((x) => ChatMessage.fromUser(x)) }));
const listStrAcceptor = () => componentOf({ texts: socket(v.array(str)) }, { result: v.array(str) }, (i) => ({ result: i.texts }));
const listChatMessageAcceptor = () => componentOf({ messages: socket(v.array(msg)) }, { result: v.array(msg) }, (i) => ({ result: i.messages }));

test("test_pipeline_thread_safety: two runs at once of one pipeline count their own visits", async () => {
  const { tracer, spans } = spyingTracer();
  const p = new Pipeline().addComponent("wait", waiting());
  const results = await Promise.all([{ wait_for: 0.001 }, { wait_for: 0.002 }].map((data) => p.run(data, { tracer, concurrencyLimit: 1 })));
  assert.equal(results, [{ wait: { waited_for: 0.001 } }, { wait: { waited_for: 0.002 } }]);
  const componentSpans = spans.filter((s) => s.name === "haystack.component.run");
  assert.is(componentSpans.length, 2);
  for (const s of componentSpans) assert.is(s.tags["haystack.component.visits"], 1);
});

test("test_prepare_component_inputs: a greedy socket's user input is consumed once (BranchJoiner runs once)", async () => {
  const { tracer, spans } = spyingTracer();
  const p = new Pipeline().addComponent("joiner_1", new BranchJoiner({ type_: "str" })).addComponent("joiner_2", new BranchJoiner({ type_: "str" })).connect("joiner_1", "joiner_2");
  assert.equal(await p.run({ joiner_1: { value: "test_value" } }, { tracer, ...one }), { joiner_2: { value: "test_value" } });
  assert.equal(spans.filter((s) => s.name === "haystack.component.run").map((s) => s.tags["haystack.component.name"]), ["joiner_1", "joiner_2"]);
});

test("test__run_component_success: BranchJoiner given ['test_value'] outputs 'test_value'", async () => {
  const p = new Pipeline().addComponent("joiner_1", new BranchJoiner({ type_: "str" })).addComponent("joiner_2", new BranchJoiner({ type_: "str" })).connect("joiner_1", "joiner_2");
  assert.equal(await p.run({ joiner_1: { value: "test_value" } }, { includeOutputsFrom: ["joiner_1"], ...one }), { joiner_1: { value: "test_value" }, joiner_2: { value: "test_value" } });
});

test("test__run_component_fail: a component returning a non-dict is a PipelineRuntimeError", async () => {
  const p = new Pipeline().addComponent("wrong", componentOf({ value: socket(str) }, { output: str }, () => "not_a_dict"));
  await rejects(p.run({ wrong: { value: "test_value" } }), PipelineRuntimeError, /Expected a dict/);
});

test("test_run_component_error: a failing component's error names it", async () => {
  const p = new Pipeline().addComponent("erroring_component", componentOf({}, { output: str }, () => {
    throw new Error("Test error");
  }));
  await rejects(p.run({}), PipelineRuntimeError, /Component name: 'erroring_component'[\s\S]*Test error/);
});

test("test_component_with_empty_dict_as_output_appears_in_results", async () => {
  const result = await emptyDictPipeline().run(EMPTY_DICT_INPUT, { includeOutputsFrom: ["producer_a", "empty_processor", "combiner"], ...one });
  assert.equal(result, EMPTY_DICT_EXPECTED);
});

test("test__run_component_warns_on_extra_output_keys", async () => {
  const { log, warnings } = recordingLog();
  await new Pipeline().addComponent("extra", extraKeys()).run({ extra: { value: "test" } }, { log, ...one });
  const text = warnings.join("\n");
  assert.match(text, "returned output keys");
  assert.match(text, "extra_key");
  assert.match(text, "not declared");
});

test("test__run_component_no_warning_on_correct_output_keys", async () => {
  const { log, warnings } = recordingLog();
  assert.equal(await new Pipeline().addComponent("correct", correctKeys()).run({ correct: { value: "test" } }, { log, ...one }), { correct: { output: "test" } });
  assert.not.match(warnings.join("\n"), "returned output keys");
  assert.not.match(warnings.join("\n"), "did not produce output keys");
});

test("test_pipeline_is_possibly_blocked_warning_message", async () => {
  const { log, warnings } = recordingLog();
  assert.equal(await misconfiguredPipeline().run({ first: { required_input: "test" } }, { log, ...one }), {});
  const text = warnings.join("\n");
  assert.match(text, "Cannot run pipeline - the pipeline appears to be blocked.");
  assert.match(text, " - 'second' (SimpleComponentTwoInputs)");
});

test("test_pipeline_ensure_inputs_are_deep_copied", async () => {
  const result = await deepCopyPipeline().run({ first: { document: new Document({ content: "original" }) } }, one);
  assert.is((result.modifier!.output as Document).content, "modified");
  assert.is((result.second!.output as Document).content, "original");
});

test("test_pipeline_does_not_corrupt_outputs", async () => {
  const result = await corruptPipeline().run({}, { includeOutputsFrom: ["producer"], ...one });
  assert.is((result.producer!.doc as Document).content, "original");
  assert.is((result.mutator!.doc as Document).content, "mutated");
});

test("test_auto_variadic_connection_to_agent: two message lists joined into the Agent's messages", async () => {
  // Haystack's MockChatGenerator("Hello, world!"): answers every call with that text.
  const mockChat = componentOf({ messages: socket(v.array(msg)), tools: socket(v.any(), { default: null }), streaming_callback: socket(v.any(), { default: null }), generation_kwargs: socket(v.any(), { default: null }) }, { replies: v.array(msg) }, () => ({ replies: [ChatMessage.fromAssistant("Hello, world!")] }));
  const producer = () => componentOf({}, { messages: v.array(msg) }, () => ({ messages: [ChatMessage.fromUser("Hello, world!")] }));
  const p = new Pipeline()
    .addComponent("message_producer", producer())
    .addComponent("message_producer2", producer())
    .addComponent("agent", new Agent({ chat_generator: mockChat as never }))
    .connect("message_producer", "agent.messages")
    .connect("message_producer2", "agent.messages");
  const messages = (await p.run({})).agent!.messages as ChatMessage[];
  assert.equal(messages.slice(0, 2).map((m) => [m.role, m.text]), [["user", "Hello, world!"], ["user", "Hello, world!"]]);
  assert.equal([messages[2]!.role, messages[2]!.text], ["assistant", "Hello, world!"]);
});

const autoVariadic: [string, () => Pipeline, string[]][] = [
  ["test_run_auto_variadic_str_to_list_str", () => new Pipeline().addComponent("producer1", stringProducer("hello")).addComponent("producer2", stringProducer("world")).addComponent("receiver", listStrAcceptor()).connect("producer1.text", "receiver.texts").connect("producer2.text", "receiver.texts"), ["hello", "world"]],
  ["test_run_auto_variadic_str_and_list_str_to_list_str", () => new Pipeline().addComponent("str_producer", stringProducer("hello")).addComponent("list_producer", listStrProducer(["world", "!"])).addComponent("receiver", listStrAcceptor()).connect("str_producer.text", "receiver.texts").connect("list_producer.texts", "receiver.texts"), ["world", "!", "hello"]],
  ["test_run_auto_variadic_chat_message_to_list_str", () => new Pipeline().addComponent("producer1", chatMessageProducer("hello")).addComponent("producer2", chatMessageProducer("world")).addComponent("receiver", listStrAcceptor()).connect("producer1.message", "receiver.texts").connect("producer2.message", "receiver.texts"), ["hello", "world"]],
  ["test_run_auto_variadic_str_and_chat_message_to_list_str", () => new Pipeline().addComponent("str_producer", stringProducer("hello")).addComponent("chat_producer", chatMessageProducer("world")).addComponent("receiver", listStrAcceptor()).connect("str_producer.text", "receiver.texts").connect("chat_producer.message", "receiver.texts"), ["world", "hello"]],
  ["test_run_auto_variadic_chat_message_to_list_chat_message", () => new Pipeline().addComponent("producer1", chatMessageProducer("hello")).addComponent("producer2", chatMessageProducer("world")).addComponent("receiver", listChatMessageAcceptor()).connect("producer1.message", "receiver.messages").connect("producer2.message", "receiver.messages"), ["hello", "world"]],
  ["test_run_auto_variadic_str_to_list_chat_message", () => new Pipeline().addComponent("producer1", stringProducer("hello")).addComponent("producer2", stringProducer("world")).addComponent("receiver", listChatMessageAcceptor()).connect("producer1.text", "receiver.messages").connect("producer2.text", "receiver.messages"), ["hello", "world"]],
  ["test_run_auto_variadic_str_and_chat_message_to_list_chat_message", () => new Pipeline().addComponent("str_producer", stringProducer("hello")).addComponent("chat_producer", chatMessageProducer("world")).addComponent("receiver", listChatMessageAcceptor()).connect("str_producer.text", "receiver.messages").connect("chat_producer.message", "receiver.messages"), ["world", "hello"]],
  ["test_run_auto_variadic_chat_message_and_list_chat_message_to_list_chat_message", () => new Pipeline().addComponent("chat_producer", chatMessageProducer("hello")).addComponent("list_producer", listChatMessageProducer(["world", "!"])).addComponent("receiver", listChatMessageAcceptor()).connect("chat_producer.message", "receiver.messages").connect("list_producer.messages", "receiver.messages"), ["hello", "world", "!"]],
];
for (const [name, build, expected] of autoVariadic) {
  test(name, async () => {
    const texts = (out: unknown[]) => out.map((x) => (x instanceof ChatMessage ? x.text : x));
    assert.equal(texts((await build().run({}, one)).receiver!.result as unknown[]), expected, "one at a time: in the order the senders ran");
    assert.equal(texts((await build().run({})).receiver!.result as unknown[]).sort(), [...expected].sort(), "concurrently: the same values");
  });
}

test("test_connect_rejects_list_of_documents_to_single_document", () => {
  const p = new Pipeline()
    .addComponent("producer", componentOf({}, { docs: v.array(doc) }, () => ({ docs: ["a", "b", "c"].map((content) => new Document({ content })) })))
    .addComponent("consumer", componentOf({ doc: socket(doc) }, { out: doc }, (i) => ({ out: i.doc })));
  assert.throws(() => p.connect("producer.docs", "consumer.doc"), (e: Error) => e instanceof PipelineConnectError);
});

test("test_run_raises_when_multi_element_list_is_unwrapped_at_runtime", async () => {
  await rejects(unwrapPipeline(["first", "second", "third"]).run({}, one), PipelineRuntimeError, /Cannot unwrap a list of 3 items/);
});

test("test_run_single_element_list_unwrap_still_works", async () => {
  assert.equal(await unwrapPipeline(["only-one"]).run({}, one), { consumer: { out: "only-one" } });
});

test.run();
