/**
 * Haystack's connect and add_components cases (haystack test/core/pipeline/test_pipeline_base.py,
 * TestPipelineConnect, TestPipelineAddComponents) not already in pipeline-base.test.ts, one test each.
 * Socket `senders`/`receivers` are the pipeline's edges in svc; Haystack's ConversionStrategy is the
 * edge's `conversion` steps.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import * as v from "valibot";
import { ChatMessage, Pipeline, PipelineConnectError, ValueError, socket, variadic, type Component } from "svc/engine";
import { componentOf } from "./harness.js";

const int = v.pipe(v.number(), v.integer());
const str = v.string();
const msg = v.instance(ChatMessage);
/** Haystack's `component_class(name, input_types, output_types)`. */
const made = (inputs: Record<string, v.GenericSchema>, outputs: Record<string, v.GenericSchema>) =>
  componentOf(Object.fromEntries(Object.entries(inputs).map(([k, s]) => [k, socket(s)])), outputs, () => ({}));
const edges = (p: Pipeline) => p.edges.map((e) => [e.sender, e.receiver, `${e.senderSocket}/${e.receiverSocket}`]);
const senders = (p: Pipeline, c: string, s: string) => p.sendersOf(c, s).map((e) => e.sender);
const comp12 = (outs: Record<string, v.GenericSchema>, ins: Record<string, v.GenericSchema>) => new Pipeline().addComponent("comp1", made({}, outs)).addComponent("comp2", made(ins, {}));
const refused = (fn: () => unknown, pattern = /./) => assert.throws(fn, (e: Error) => e instanceof PipelineConnectError && pattern.test(e.message));

test("test_add_components", () => {
  const [first, second] = [made({}, {}), made({}, {})];
  const p = new Pipeline();
  assert.is(p.addComponents({ first, second }), p);
  assert.equal(p.componentNames, ["first", "second"]);
  assert.is(p.getComponent("first"), first);
  assert.is(p.getComponent("second"), second);
});

test("test_add_components_checks_all_components_before_adding_any", () => {
  const [first, second] = [made({}, {}), made({}, {})];
  const p = new Pipeline();
  assert.throws(() => p.addComponents({ first, "invalid.name": second }), (e: Error) => e instanceof ValueError && /invalid component name/.test(e.message));
  assert.equal(p.componentNames, []);
  new Pipeline().addComponents({ first, second }); // neither was taken by the first pipeline
});

test("test_connect", () => {
  const p = comp12({ value: int }, { value: int });
  assert.is(p.connect("comp1.value", "comp2.value"), p);
  assert.equal(edges(p), [["comp1", "comp2", "value/value"]]);
  assert.equal(senders(p, "comp2", "value"), ["comp1"]);
});

test("test_connect_with_sender_component_name", () => {
  assert.equal(edges(comp12({ value: int }, { value: int }).connect("comp1", "comp2.value")), [["comp1", "comp2", "value/value"]]);
});

test("test_connect_with_receiver_component_name", () => {
  assert.equal(edges(comp12({ value: int }, { value: int }).connect("comp1.value", "comp2")), [["comp1", "comp2", "value/value"]]);
});

test("test_connect_with_multiple_sender_connections_with_same_type_and_differing_name", () => {
  refused(() => comp12({ val1: int, val2: int }, { value: int }).connect("comp1", "comp2"), /more than one connection is possible/);
});

test("test_connect_with_multiple_receiver_connections_with_same_type_and_differing_name", () => {
  refused(() => comp12({ value: int }, { val1: int, val2: int }).connect("comp1", "comp2"), /more than one connection is possible/);
});

test("test_connect_with_multiple_sender_connections_with_same_type_and_same_name", () => {
  assert.equal(edges(comp12({ value: int, other: int }, { value: int }).connect("comp1", "comp2")), [["comp1", "comp2", "value/value"]]);
});

test("test_connect_with_multiple_receiver_connections_with_same_type_and_same_name", () => {
  assert.equal(edges(comp12({ value: int }, { value: int, other: int }).connect("comp1", "comp2")), [["comp1", "comp2", "value/value"]]);
});

test("test_connect_multiple_outputs_to_variadic_input", () => {
  const p = new Pipeline().addComponent("comp1", made({}, { value: int })).addComponent("comp2", made({}, { value: int })).addComponent("comp3", componentOf({ value: variadic(int) }, {}, () => ({})));
  p.connect("comp1.value", "comp3.value").connect("comp2.value", "comp3.value");
  assert.equal(senders(p, "comp3", "value"), ["comp1", "comp2"]);
  assert.equal(edges(p), [["comp1", "comp3", "value/value"], ["comp2", "comp3", "value/value"]]);
});

test("test_connect_with_nonexistent_output_socket_name", () => {
  refused(() => comp12({ output: int }, { value: int }).connect("comp1.value", "comp2.value"), /'comp1.value' does not exist. Output connections of comp1 are: output \(type float\)/);
});

test("test_connect_with_no_output_sockets", () => {
  refused(() => comp12({}, { value: int }).connect("comp1.value", "comp2.value"), /'comp1' does not have any output connections[\s\S]*@component.output_types/);
});

test("test_connect_pep_604_union_type: list[str] into list[str] | None", async () => {
  const p = new Pipeline()
    .addComponent("producer", componentOf({}, { words: v.array(str) }, () => ({ words: ["apple", "banana", "cherry"] })))
    .addComponent("consumer_opt", componentOf({ words: socket(v.nullable(v.array(str)), { default: null }) }, { count: int }, (i) => ({ count: (i.words ?? []).length })));
  p.connect("producer.words", "consumer_opt.words");
  assert.equal(edges(p), [["producer", "consumer_opt", "words/words"]]);
  assert.equal(await p.run({}), { consumer_opt: { count: 3 } });
});

/** Two senders into a list socket: it becomes lazy variadic, values not wrapped in another list. */
function autoVariadic(receiver: Component, socketName: string) {
  const s = receiver.inputSockets[socketName]!;
  assert.equal([s.kind, s.autoVariadic], ["lazyVariadic", true]);
}

test("test_connect_auto_variadic", async () => {
  const acceptor = () => componentOf({ numbers: socket(v.array(int)) }, { result: v.array(int) }, (i) => ({ result: i.numbers }));
  const receiver = acceptor();
  const p = new Pipeline().addComponent("sender1", acceptor()).addComponent("sender2", acceptor()).addComponent("receiver", receiver);
  p.connect("sender1.result", "receiver.numbers").connect("sender2.result", "receiver.numbers");
  autoVariadic(receiver, "numbers");
  assert.equal(senders(p, "receiver", "numbers"), ["sender1", "sender2"]);
  assert.equal(await p.run({ sender1: { numbers: [1] }, sender2: { numbers: [2, 3] } }, { concurrencyLimit: 1 }), { receiver: { result: [1, 2, 3] } });
});

const listMessages = () => componentOf({ messages: socket(v.array(msg)) }, { result: v.array(msg) }, (i) => ({ result: i.messages }));
const stringProducer = () => componentOf({}, { text: str }, () => ({ text: "Hello" }));
const messageProducer = () => componentOf({}, { message: msg }, () => ({ message: ChatMessage.fromUser("Hello") }));

test("test_connect_auto_variadic_chat_message_to_list_chat_message", async () => {
  const receiver = listMessages();
  const p = new Pipeline().addComponent("producer1", messageProducer()).addComponent("producer2", messageProducer()).addComponent("receiver", receiver);
  p.connect("producer1.message", "receiver.messages").connect("producer2.message", "receiver.messages");
  autoVariadic(receiver, "messages");
  assert.equal(p.edges.map((e) => e.conversion), [["wrapList"], ["wrapList"]]);
  const out = (await p.run({})).receiver!.result as ChatMessage[];
  assert.equal(out.map((m) => [m.role, m.text]), [["user", "Hello"], ["user", "Hello"]]);
});

test("test_connect_auto_variadic_str_to_list_chat_message", async () => {
  const receiver = listMessages();
  const p = new Pipeline().addComponent("producer1", stringProducer()).addComponent("producer2", stringProducer()).addComponent("receiver", receiver);
  p.connect("producer1.text", "receiver.messages").connect("producer2.text", "receiver.messages");
  autoVariadic(receiver, "messages");
  assert.equal(p.edges.map((e) => e.conversion), [["textToChatMessage", "wrapList"], ["textToChatMessage", "wrapList"]]);
  const out = (await p.run({})).receiver!.result as ChatMessage[];
  assert.equal(out.map((m) => [m.role, m.text]), [["user", "Hello"], ["user", "Hello"]]);
});

test.run();
