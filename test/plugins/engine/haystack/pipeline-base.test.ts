/**
 * Haystack's pipeline building tests (haystack test/core/pipeline/test_pipeline_base.py): adding
 * components, connecting them (errors, auto-variadic sockets, conversions and their priority),
 * run-input validation, ported value for value. Checks on Python internals (networkx graph
 * attributes) are ported as checks on the engine's edges and on run results.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import * as v from "valibot";
import { AddFixedValue, ChatMessage, Double, Pipeline, PipelineConnectError, PipelineError, PipelineValidationError, ValueError, socket } from "svc/engine";
import { componentOf } from "./harness.js";

const str = v.string();
const msg = v.instance(ChatMessage);
const producer = (out: string, schema: v.GenericSchema, value: unknown) => componentOf({}, { [out]: schema }, () => ({ [out]: value }));
const listStrAcceptor = () => componentOf({ texts: socket(v.array(str)) }, { texts: v.array(str) }, (i) => ({ texts: i.texts }));
const listMsgAcceptor = () => componentOf({ messages: socket(v.array(msg)) }, { messages: v.array(msg) }, (i) => ({ messages: i.messages }));
const fake = () => componentOf({ input_: socket(str) }, { value: str }, (i) => ({ value: i.input_ }));
const throwsClass = (fn: () => unknown, cls: new (...a: any[]) => Error, pattern: RegExp) =>
  assert.throws(fn, (e: Error) => e instanceof cls && pattern.test(e.message), `expected ${cls.name} matching ${pattern}`);

test("test_add_invalid_component_name, test_add_component_to_different_pipelines, test_add_same_component_with_same_name_is_no_op, test_add_different_component_with_same_name_raises, test_add_same_component_with_different_name_raises, test_get_component_name, test_get_component_name_not_added_to_pipeline", () => {
  const p = new Pipeline();
  throwsClass(() => p.addComponent("this.is.not.a.valid.name", new Double()), ValueError, /this.is.not.a.valid.name is an invalid component name, cannot contain '.' \(dot\) characters./);
  throwsClass(() => p.addComponent("_debug", new Double()), ValueError, /'_debug' is a reserved name for debug output/);
  const shared = new Double();
  new Pipeline().addComponent("a", shared);
  throwsClass(() => p.addComponent("a", shared), PipelineError, /Component has already been added in another Pipeline/);
  const d = new Double();
  p.addComponent("d", d).addComponent("d", d);
  assert.equal(p.componentNames, ["d"], "re-adding the same instance under the same name does nothing");
  throwsClass(() => p.addComponent("d", new Double()), ValueError, /A component named 'd' already exists in this pipeline: choose another name./);
  throwsClass(() => p.addComponent("other", d), PipelineError, /Component has already been added to this Pipeline under the name 'd'. A component instance can only be added once./);
  throwsClass(() => p.addComponent("x", {} as never), PipelineValidationError, /doesn't seem to be a component/);
  assert.is(p.getComponentName(d), "d");
  assert.is(p.getComponentName(new Double()), "");
  throwsClass(() => p.getComponent("nope"), ValueError, /Component named nope not found in the pipeline./);
});

test("test_add_components_is_idempotent, test_add_components_with_existing_name_does_not_add_new_components, test_add_components_rejects_same_instance_under_different_names", () => {
  const a = new Double();
  const b = new Double();
  const p = new Pipeline().addComponents({ a, b }).addComponents({ a, b });
  assert.equal(p.componentNames, ["a", "b"]);
  const q = new Pipeline().addComponent("a", new Double());
  throwsClass(() => q.addComponents({ fresh: new Double(), a: new Double() }), ValueError, /A component named 'a' already exists/);
  assert.equal(q.componentNames, ["a"], "nothing added");
  const c = new Double();
  throwsClass(() => new Pipeline().addComponents({ one: c, two: c }), PipelineError, /It is mapped to both 'one' and 'two'./);
});

test("test_connect_already_connected, test_connect_with_sender_and_receiver_component_name, test_connect_with_sender_not_in_pipeline, test_connect_with_receiver_not_in_pipeline, test_connect_with_sender_socket_name_not_in_pipeline, test_connect_with_receiver_socket_name_not_in_pipeline, test_connect_same_component_as_sender_and_receiver, test_connect_with_no_matching_types_and_same_names", () => {
  const p = new Pipeline().addComponent("comp1", new AddFixedValue()).addComponent("comp2", new Double());
  p.connect("comp1", "comp2").connect("comp1.result", "comp2.value");
  assert.is(p.edges.length, 1, "connecting twice does nothing");
  throwsClass(() => p.connect("nope.result", "comp2.value"), ValueError, /Component named nope not found in the pipeline./);
  throwsClass(() => p.connect("comp1.result", "nope.value"), ValueError, /Component named nope not found in the pipeline./);
  throwsClass(() => p.connect("comp1.wrong", "comp2.value"), PipelineConnectError, /'comp1.wrong' does not exist/);
  throwsClass(() => p.connect("comp1.result", "comp2.wrong"), PipelineConnectError, /comp2.wrong does not exist/);
  throwsClass(() => p.connect("comp1", "comp1"), PipelineConnectError, /Connecting a Component to itself is not supported./);
  const q = new Pipeline().addComponent("s", producer("text", str, "x")).addComponent("r", new Double());
  throwsClass(() => q.connect("s", "r"), PipelineConnectError, /no matching connections available/);
  throwsClass(() => new Pipeline().addComponent("a", componentOf({}, {}, () => ({}))).addComponent("b", new Double()).connect("a", "b"), PipelineConnectError, /'a' does not have any output connections/);
});

test("connect: several candidate sockets — same names decide, else an error asking for names", () => {
  const two = () => componentOf({}, { first: str, second: str }, () => ({}));
  const p = new Pipeline().addComponent("s", two()).addComponent("r", componentOf({ first: socket(str) }, {}, () => ({})));
  p.connect("s", "r");
  assert.equal([p.edges[0]!.senderSocket, p.edges[0]!.receiverSocket], ["first", "first"]);
  const q = new Pipeline().addComponent("s", two()).addComponent("r", componentOf({ other: socket(str) }, {}, () => ({})));
  throwsClass(() => q.connect("s", "r"), PipelineConnectError, /more than one connection is possible/);
});

test("test_connect_multiple_outputs_to_non_variadic_input, test_connect_auto_variadic_optional_list", async () => {
  const p = new Pipeline().addComponent("a", new AddFixedValue()).addComponent("b", new AddFixedValue()).addComponent("d", new Double()).connect("a.result", "d.value");
  throwsClass(() => p.connect("b.result", "d.value"), PipelineConnectError, /Component 'd' cannot accept multiple inputs to 'value'. It is already connected to component 'a', and it can only accept inputs from multiple senders if its type is list, Optional\[list\], or union of list types./);
  const optional = new Pipeline()
    .addComponent("p1", producer("texts", v.array(str), ["a"]))
    .addComponent("p2", producer("texts", v.array(str), ["b"]))
    .addComponent("r", componentOf({ texts: socket(v.nullable(v.array(str)), { default: null }) }, { texts: v.array(str) }, (i) => ({ texts: i.texts })))
    .connect("p1.texts", "r.texts")
    .connect("p2.texts", "r.texts");
  assert.equal(await optional.run({}), { r: { texts: ["a", "b"] } }, "Optional[list] becomes variadic, lists concatenated");
});

test("test_connect_auto_variadic_with_conversion_str_to_list_str, test_connect_auto_variadic_with_conversion_str_and_list_str_to_list_str, test_connect_auto_variadic_chat_message_to_list_str, test_connect_auto_variadic_str_and_chat_message_to_list_str, test_connect_auto_variadic_str_and_chat_message_to_list_chat_message, test_connect_auto_variadic_chat_message_and_list_chat_message_to_list_chat_message", async () => {
  const cases: [string, () => Pipeline, unknown][] = [
    ["str + str → list[str]", () => new Pipeline().addComponent("p1", producer("text", str, "a")).addComponent("p2", producer("text", str, "b")).addComponent("receiver", listStrAcceptor()).connect("p1.text", "receiver.texts").connect("p2.text", "receiver.texts"), ["a", "b"]],
    ["str + list[str] → list[str]", () => new Pipeline().addComponent("p1", producer("text", str, "a")).addComponent("p2", producer("texts", v.array(str), ["b", "c"])).addComponent("receiver", listStrAcceptor()).connect("p1.text", "receiver.texts").connect("p2.texts", "receiver.texts"), ["a", "b", "c"]],
    ["ChatMessage + ChatMessage → list[str]", () => new Pipeline().addComponent("p1", producer("message", msg, ChatMessage.fromAssistant("a"))).addComponent("p2", producer("message", msg, ChatMessage.fromAssistant("b"))).addComponent("receiver", listStrAcceptor()).connect("p1.message", "receiver.texts").connect("p2.message", "receiver.texts"), ["a", "b"]],
    ["str + ChatMessage → list[str]", () => new Pipeline().addComponent("p1", producer("text", str, "a")).addComponent("p2", producer("message", msg, ChatMessage.fromAssistant("b"))).addComponent("receiver", listStrAcceptor()).connect("p1.text", "receiver.texts").connect("p2.message", "receiver.texts"), ["a", "b"]],
  ];
  for (const [name, build, expected] of cases) assert.equal((await build().run({})).receiver, { texts: expected }, name);
  const toMessages = new Pipeline()
    .addComponent("p1", producer("text", str, "a"))
    .addComponent("p2", producer("message", msg, ChatMessage.fromAssistant("b")))
    .addComponent("p3", producer("messages", v.array(msg), [ChatMessage.fromSystem("c")]))
    .addComponent("receiver", listMsgAcceptor())
    .connect("p1.text", "receiver.messages")
    .connect("p2.message", "receiver.messages")
    .connect("p3.messages", "receiver.messages");
  const out = (await toMessages.run({}, { concurrencyLimit: 1 })).receiver!.messages as ChatMessage[];
  assert.equal(out.map((m) => [m.role, m.text]), [["user", "a"], ["assistant", "b"], ["system", "c"]]);
  assert.equal(toMessages.edges.map((e) => e.conversion ?? null), [["textToChatMessage", "wrapList"], ["wrapList"], null]);
});

test("test_connect_with_conversion_chat_message_to_str, test_connect_with_conversion_list_unwrap, test_connect_with_conversion_wrap, test_connect_prioritizes_strict_connections", async () => {
  const p = new Pipeline().addComponent("s", producer("message", msg, ChatMessage.fromAssistant("hi"))).addComponent("r", componentOf({ text: socket(str) }, { text: str }, (i) => ({ text: i.text }))).connect("s", "r");
  assert.equal(p.edges[0]!.conversion, ["chatMessageToText"]);
  assert.equal(await p.run({}), { r: { text: "hi" } });
  const unwrap = new Pipeline().addComponent("s", producer("texts", v.array(str), ["only"])).addComponent("r", componentOf({ text: socket(str) }, { text: str }, (i) => ({ text: i.text }))).connect("s", "r");
  assert.equal(unwrap.edges[0]!.conversion, ["unwrapList"]);
  assert.equal(await unwrap.run({}), { r: { text: "only" } });
  const wrap = new Pipeline().addComponent("s", producer("text", str, "x")).addComponent("r", listStrAcceptor()).connect("s", "r");
  assert.equal(wrap.edges[0]!.conversion, ["wrapList"]);
  // A strict pair beats a convertible one even when the names differ.
  const strict = new Pipeline()
    .addComponent("s", componentOf({}, { message: msg, text: str }, () => ({ message: ChatMessage.fromAssistant("m"), text: "t" })))
    .addComponent("r", componentOf({ message: socket(str) }, { out: str }, (i) => ({ out: i.message })))
    .connect("s", "r");
  assert.equal([strict.edges[0]!.senderSocket, strict.edges[0]!.conversion], ["text", undefined]);
  const many = new Pipeline().addComponent("s", producer("texts", v.array(str), ["a", "b"])).addComponent("r", componentOf({ text: socket(str) }, { text: str }, (i) => ({ text: i.text }))).connect("s", "r");
  try {
    await many.run({});
    assert.unreachable();
  } catch (error) {
    assert.match((error as Error).message, /Failed to perform conversion between components:[\s\S]*Cannot unwrap a list of 2 items to a single value/);
  }
});

test("test_connect_many, test_connect_many_with_empty_list, test_connect_many_is_idempotent, test_connect_many_stops_after_first_error", () => {
  const p = new Pipeline().addComponent("a", new AddFixedValue()).addComponent("b", new Double()).addComponent("c", new AddFixedValue());
  p.connectMany([]).connectMany([["a.result", "b.value"], ["b.value", "c.value"]]).connectMany([["a.result", "b.value"]]);
  assert.is(p.edges.length, 2);
  const q = new Pipeline().addComponent("a", new AddFixedValue()).addComponent("b", new Double()).addComponent("c", new AddFixedValue());
  assert.throws(() => q.connectMany([["a.result", "b.value"], ["nope.x", "c.value"], ["b.value", "c.value"]]), /nope not found/);
  assert.is(q.edges.length, 1);
});

test("test_validate_wrong_input_name, test_validate_missing_mandatory_input, test_validate_multiple_connections_to_non_variadic_input, test_validate_multiple_connections_to_auto_variadic_input", async () => {
  const p = new Pipeline().addComponent("comp1", fake()).addComponent("comp2", fake()).connect("comp1.value", "comp2.input_");
  const rejects = async (data: Record<string, unknown>, pattern: RegExp) => {
    try {
      await p.run(data);
      assert.unreachable();
    } catch (error) {
      assert.instance(error, ValueError);
      assert.match((error as Error).message, pattern);
    }
  };
  // Deliberate difference: Haystack reads data whose values are all objects as keyed by component
  // and rejects the unknown 'nope'; svc reads it so only when every key names a component (else it
  // is flat input, so `{"filters": {...}}` is not mistaken for a component), and ignores 'nope'.
  await rejects({ comp1: { input_: "x", wrong: 1 } }, /Input 'wrong' not found in component 'comp1'./);
  await rejects({}, /Missing mandatory input 'input_' for component 'comp1'./);
  await rejects(
    { comp1: { input_: "test" }, comp2: { input_: "extra_input" } },
    /Component 'comp2' cannot accept multiple inputs to 'input_'. It is already connected to component 'comp1', and it can only accept inputs from multiple senders if its type is list, Optional\[list\], or union of list types./,
  );
  const list = () => componentOf({ numbers: socket(v.array(v.number())) }, { result: v.array(v.number()) }, (i) => ({ result: i.numbers }));
  const q = new Pipeline().addComponent("comp1", list()).addComponent("comp2", list()).connect("comp1.result", "comp2.numbers");
  assert.equal(await q.run({ comp1: { numbers: [1] }, comp2: { numbers: [2] } }), { comp2: { result: [2, 1] } }, "joined: the user's value first");
  assert.equal(await q.run({ comp1: { numbers: [1] } }), { comp2: { result: [1] } }, "the socket is variadic for that run only");
});

test("inputs() and outputs() describe open sockets (describe_input / describe_output)", () => {
  const p = new Pipeline().addComponent("a", new AddFixedValue()).addComponent("d", new Double()).connect("a.result", "d.value");
  assert.equal(p.inputs(), { a: { value: { type: "float", isMandatory: true }, add: { type: "Optional[float]", isMandatory: false, default: null } } });
  assert.equal(p.outputs(), { d: { value: { type: "float" } } });
  assert.equal(Object.keys(p.inputs(true)), ["a", "d"]);
  assert.equal(Object.keys(p.outputs(true)), ["a", "d"]);
});

test.run();
