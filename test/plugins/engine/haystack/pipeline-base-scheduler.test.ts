/**
 * Haystack's tests of its scheduler's private helpers (haystack test/core/pipeline/
 * test_pipeline_base.py, TestPipelineBase), against svc's equivalents where they exist:
 * `_calculate_priority` → `priorityOf`, `_consume_component_inputs` and `_add_missing_input_defaults`
 * → `consume`, `_write_component_outputs` → `deliver` (one receiver's socket), `_convert_to_internal_format`
 * → `distributeInput`, `_prepare_component_input_data` → `inputsByComponent`, `_find_receivers_from` →
 * `receiversOf`, `_tiebreak_waiting_components` → `topologicalRanks`, `_make_socket_auto_variadic` →
 * `makeAutoVariadic`. svc's run loop keeps no priority queue (it ranks every candidate each step), so
 * `_fill_queue`, `_get_next_runnable_component` and output pruning are ported as runs.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import * as v from "valibot";
import { ChatMessage, Pipeline, PipelineConnectError, PipelineMaxComponentRuns, PipelineRuntimeError, socket, variadic, type InputSocket } from "svc/engine";
import { consume, deliver, NO_OUTPUT, priorityOf, Priority, type InputRecord, type Inputs, type Node } from "../../../../plugins/engine/pipeline/run-state.js";
import { distributeInput, inputsByComponent } from "../../../../plugins/engine/pipeline/run-input.js";
import { topologicalRanks } from "../../../../plugins/engine/pipeline/topology.js";
import { makeAutoVariadic } from "../../../../plugins/engine/pipeline/connections.js";
import { componentOf } from "./harness.js";
import { recordingLog } from "./pipeline-fixtures.js";

const int = v.pipe(v.number(), v.integer());
const str = v.string();

// ---- sockets and nodes as Haystack's tests write them: InputSocket(name, type, default_value, senders) ----

type Kind = InputSocket["kind"];
interface SocketSpec {
  kind?: Kind;
  default?: unknown;
  senders?: string[];
}
function node(specs: Record<string, SocketSpec>, visits = 0): Node {
  const sockets = Object.entries(specs).map(([name, s]) => ({ name, type: { kind: "any" }, schema: v.any(), kind: s.kind ?? "normal", mandatory: !("default" in s), default: s.default }) as InputSocket);
  return { name: "test_component", component: {} as never, sockets, senders: new Map(Object.entries(specs).map(([n, s]) => [n, s.senders ?? []])), receivers: [], visits };
}
const inputsOf = (records: Record<string, InputRecord[]>): Inputs => new Map(Object.entries(records).map(([k, r]) => [k, [...r]]));
const rec = (sender: string | null, value: unknown): InputRecord => ({ sender, value });
/** Haystack drops a socket's key once nothing is left in it; svc keeps an empty list. */
const remaining = (inputs: Inputs) => Object.fromEntries([...inputs].filter(([, r]) => r.length > 0));

const PRIORITY_CASES: [string, Node, Record<string, InputRecord[]>, Priority][] = [
  ["BLOCKED: a mandatory input is missing", node({ mandatory_input: {}, optional_input: { default: "default", senders: ["previous_component"] } }), { optional_input: [rec("previous_component", "test")] }, Priority.BLOCKED],
  ["BLOCKED: no new trigger after the first visit", node({ mandatory_input: {}, optional_input: { default: "default" } }, 1), { mandatory_input: [rec(null, 42)] }, Priority.BLOCKED],
  ["HIGHEST: a greedy socket has input", node({ greedy_input: { kind: "greedyVariadic", senders: ["component1"] }, normal_input: { senders: ["component2"] } }), { greedy_input: [rec("component1", 42)], normal_input: [rec("component2", "test")] }, Priority.HIGHEST],
  ["DEFER: greedy socket ready, an expected optional input missing", node({ greedy_input: { kind: "greedyVariadic", senders: ["component1"] }, optional_input: { default: "test", senders: ["component2"] } }), { greedy_input: [rec("component1", 42)] }, Priority.DEFER],
  ["READY: all predecessors executed", node({ mandatory_input: { senders: ["previous_component"] }, optional_input: { default: "default", senders: ["another_component"] } }), { mandatory_input: [rec("previous_component", 42)], optional_input: [rec("another_component", "test")] }, Priority.READY],
  ["DEFER: lazy variadic resolved, an optional input missing", node({ variadic_input: { kind: "lazyVariadic", senders: ["component1", "component2"] }, normal_input: { senders: ["component3"] }, optional_input: { default: "default", senders: ["component4"] } }), { variadic_input: [rec("component1", "test"), rec("component2", NO_OUTPUT)], normal_input: [rec("component3", "test")] }, Priority.DEFER],
  ["DEFER: not every variadic sender produced", node({ variadic_input: { kind: "lazyVariadic", senders: ["component1", "component2"] }, normal_input: {} }), { variadic_input: [rec("component1", 42)], normal_input: [rec("component3", "test")] }, Priority.DEFER],
  ["READY: no connected sockets, first visit", node({ optional_input: { default: "default" } }), {}, Priority.READY],
  ["BLOCKED: no connected sockets, a later visit", node({ optional_input: { default: "default" } }, 1), {}, Priority.BLOCKED],
];
for (const [description, n, records, expected] of PRIORITY_CASES) {
  test(`test__calculate_priority[${description}]`, () => {
    assert.is(Priority[priorityOf(n, inputsOf(records))], Priority[expected]);
  });
}

const CONSUME_CASES: [string, Record<string, SocketSpec>, Record<string, InputRecord[]>, Record<string, unknown>, Record<string, InputRecord[]>][] = [
  ["regular-socket", { input1: {} }, { input1: [rec("comp1", 42), rec("comp2", 24)] }, { input1: 42 }, {}],
  ["regular-with-user-input", { input1: {} }, { input1: [rec("comp1", 42), rec(null, 24)] }, { input1: 42 }, { input1: [rec(null, 24)] }],
  ["greedy-variadic", { greedy: { kind: "greedyVariadic" } }, { greedy: [rec("comp1", 42), rec(null, 24), rec("comp2", 33)] }, { greedy: [42] }, {}],
  ["lazy-variadic", { lazy: { kind: "lazyVariadic" } }, { lazy: [rec("comp1", 42), rec("comp2", 24), rec(null, 33)] }, { lazy: [42, 24, 33] }, { lazy: [rec(null, 33)] }],
  [
    "mixed-sockets",
    { regular: {}, greedy: { kind: "greedyVariadic" }, lazy: { kind: "lazyVariadic" } },
    { regular: [rec("comp1", 42), rec(null, 24)], greedy: [rec("comp2", 33), rec(null, 15)], lazy: [rec("comp3", 55), rec("comp4", 66)] },
    { regular: 42, greedy: [33], lazy: [55, 66] },
    { regular: [rec(null, 24)] },
  ],
  ["no-output-filtering", { input1: {} }, { input1: [rec("comp1", NO_OUTPUT), rec("comp2", 42), rec("comp2", NO_OUTPUT)] }, { input1: 42 }, {}],
];
for (const [id, sockets, records, consumed, left] of CONSUME_CASES) {
  test(`test__consume_component_inputs[${id}]`, () => {
    const inputs = inputsOf(records);
    assert.equal(consume(node(sockets), inputs), consumed);
    assert.equal(remaining(inputs), left);
  });
}

const DEFAULT_CASES: [string, Record<string, SocketSpec>, Record<string, InputRecord[]>, Record<string, unknown>][] = [
  ["no-defaults", { mandatory: {} }, { mandatory: [rec(null, 1)] }, { mandatory: 1 }],
  ["only-default", { optional: { default: "test" } }, {}, { optional: "test" }],
  ["mixed-default", { mandatory: {}, optional: { default: "test" } }, { mandatory: [rec(null, 1)] }, { mandatory: 1, optional: "test" }],
  ["variadic-default", { optional_variadic: { kind: "lazyVariadic", default: "test" } }, {}, { optional_variadic: ["test"] }],
  ["multiple_defaults", { optional_1: { default: 1 }, optional_2: { default: 2 } }, {}, { optional_1: 1, optional_2: 2 }],
];
for (const [id, sockets, records, expected] of DEFAULT_CASES) {
  test(`test__add_missing_defaults[${id}]`, () => {
    assert.equal(consume(node(sockets), inputsOf(records)), expected);
  });
}

// ---- _write_component_outputs: what one receiver's socket holds after a sender wrote ----

const regular = node({ input1: { senders: ["sender1"] } }).sockets[0]!;
const lazy = node({ variadic_input: { kind: "lazyVariadic", senders: ["sender1", "sender2"] } }).sockets[0]!;
for (const [id, socketOf, existing, count] of [
  ["regular-new", regular, undefined, 1],
  ["regular-existing", regular, [rec("other", 24)], 1],
  ["variadic-new", lazy, undefined, 1],
  ["variadic-existing", lazy, [rec("other", 24)], 2],
] as const) {
  test(`test__write_component_outputs_different_sockets[${id}]`, () => {
    const written = deliver(42, socketOf, "sender1", existing ? [...existing] : undefined);
    assert.is(written.length, count);
    assert.ok(written.some((r) => r.sender === "sender1" && r.value === 42));
  });
}

for (const [id, value] of [["int", 42], ["none", null], ["no-output", NO_OUTPUT], ["string", "string_value"], ["float", 3.14]] as const) {
  test(`test__write_component_outputs_different_output_values[${id}]`, () => {
    assert.equal(deliver(value, regular, "sender1", undefined), [rec("sender1", value)]);
  });
}

test("test__write_component_outputs_dont_overwrite_with_no_output", () => {
  assert.equal(deliver(NO_OUTPUT, regular, "sender1", [rec("sender1", "keep")]), [rec("sender1", "keep")]);
});

/** sender1 → output1 to each receiver's input1; output2 to nobody. */
function fanOut(receivers: number, outputs: Record<string, unknown>) {
  const p = new Pipeline().addComponent("sender1", componentOf({}, { output1: int, output2: int }, () => outputs));
  for (let i = 0; i < receivers; i++) {
    p.addComponent(`receiver${i}`, componentOf({ input1: socket(int) }, { got: int }, (x) => ({ got: x.input1 }))).connect("sender1.output1", `receiver${i}.input1`);
  }
  return p;
}

for (const [id, outputs, include, expected] of [
  ["prune-consumed", { output1: 42, output2: 24 }, [], { output2: 24 }],
  ["keep-all", { output1: 42, output2: 24 }, ["sender1"], { output1: 42, output2: 24 }],
  ["no-outputs", {}, [], undefined],
] as const) {
  test(`test__write_component_outputs_output_pruning[${id}] (the run's result)`, async () => {
    const result = await fanOut(1, outputs).run({}, { includeOutputsFrom: include });
    assert.equal(result.sender1, expected);
  });
}

for (const [id, count] of [["single-receiver", 1], ["two-receivers", 2], ["three-receivers", 3]] as const) {
  test(`test__write_component_outputs_multiple_receivers[${id}] (through a run)`, async () => {
    const result = await fanOut(count, { output1: 42 }).run({});
    assert.equal(result, Object.fromEntries(Array.from({ length: count }, (_, i) => [`receiver${i}`, { got: 42 }])));
  });
}

test("test__write_component_outputs_conversion_chat_message (through runs)", async () => {
  const toText = new Pipeline()
    .addComponent("sender1", componentOf({}, { output1: v.instance(ChatMessage) }, () => ({ output1: ChatMessage.fromUser("Hello") })))
    .addComponent("receiver1", componentOf({ input1: socket(str) }, { got: str }, (x) => ({ got: x.input1 })))
    .connect("sender1.output1", "receiver1.input1");
  assert.equal(toText.edges[0]!.conversion, ["chatMessageToText"]);
  assert.equal(await toText.run({}), { receiver1: { got: "Hello" } });
  const toMessage = new Pipeline()
    .addComponent("sender1", componentOf({}, { output1: str }, () => ({ output1: "Hello" })))
    .addComponent("receiver1", componentOf({ input1: socket(v.instance(ChatMessage)) }, { got: v.instance(ChatMessage) }, (x) => ({ got: x.input1 })))
    .connect("sender1.output1", "receiver1.input1");
  const got = (await toMessage.run({})).receiver1!.got as ChatMessage;
  assert.equal([got.role, got.text], ["user", "Hello"]);
});

test("test__write_component_outputs_conversion_chat_message_no_text", async () => {
  const p = new Pipeline()
    .addComponent("sender", componentOf({}, { message: v.instance(ChatMessage) }, () => ({ message: ChatMessage.fromAssistant() })))
    .addComponent("receiver", componentOf({ text: socket(str) }, { text: str }, (x) => ({ text: x.text })))
    .connect("sender.message", "receiver.text");
  try {
    await p.run({});
    assert.unreachable();
  } catch (error) {
    assert.instance(error, PipelineRuntimeError);
    assert.match((error as Error).message, /Failed to perform conversion between components:/);
  }
});

// ---- the queue: _get_next_runnable_component and _fill_queue, through runs ----

test("test__get_next_runnable_component_empty: nothing to run, nothing returned", async () => {
  assert.equal(await new Pipeline().run({}), {});
});

test("test__get_next_runnable_component_max_visits", async () => {
  const loop = new Pipeline({ maxRunsPerComponent: 2 })
    .addComponent("ready_component", componentOf({ value: variadic(int) }, { value: int }, (x) => ({ value: (x.value as number[])[0]! + 1 })))
    .addComponent("other", componentOf({ value: socket(int) }, { value: int }, (x) => ({ value: x.value })))
    .connect("ready_component.value", "other.value")
    .connect("other.value", "ready_component.value");
  try {
    await loop.run({ ready_component: { value: [1] } }, { concurrencyLimit: 1 });
    assert.unreachable();
  } catch (error) {
    assert.instance(error, PipelineMaxComponentRuns);
    assert.match((error as Error).message, "Maximum run count 2 reached for component 'ready_component'");
  }
});

test("test__get_next_runnable_component_max_visits_blocked: a blocked component at its maximum does not raise", async () => {
  const p = new Pipeline({ maxRunsPerComponent: 1 })
    .addComponent("blocked_component", componentOf({ value: socket(int) }, { value: int }, (x) => ({ value: x.value })))
    .addComponent("next", componentOf({ value: socket(int) }, { result: int }, (x) => ({ result: x.value * 2 })))
    .connect("blocked_component.value", "next.value");
  assert.equal(await p.run({ blocked_component: { value: 2 } }, { concurrencyLimit: 1 }), { next: { result: 4 } });
});

test("test__get_next_runnable_component_ready", async () => {
  const p = new Pipeline().addComponent("ready_component", componentOf({ value: socket(int) }, { value: int }, (x) => ({ value: x.value })));
  assert.equal(await p.run({ ready_component: { value: 1 } }), { ready_component: { value: 1 } });
});

test("test_fill_queue: every component ranked by its priority; the best runs first, ties by name", async () => {
  const order: string[] = [];
  const p = new Pipeline()
    // comp1 waits (DEFER) for comp2's optional input although its name sorts first.
    .addComponent("comp1", componentOf({ input1: socket(str), extra: socket(v.nullable(str), { default: null }) }, { out: str }, (x) => ({ out: `${x.input1}+${x.extra}` })))
    .addComponent("comp2", componentOf({ input2: socket(str) }, { extra: str }, (x) => ({ extra: x.input2 })))
    .addComponent("comp0", componentOf({ input0: socket(str) }, { out: str }, (x) => ({ out: x.input0 })))
    .connect("comp2.extra", "comp1.extra");
  const result = await p.run({ comp1: { input1: "value1" }, comp2: { input2: "value2" }, comp0: { input0: "value0" } }, { concurrencyLimit: 1, onComponentStart: (n) => void order.push(n) });
  assert.equal(order, ["comp0", "comp2", "comp1"]);
  assert.equal(result.comp1, { out: "value1+value2" });
});

// ---- input data ----

const mock = (outputs: Record<string, v.GenericSchema> = {}) => componentOf({ x: socket(v.array(str)), y: socket(str) }, outputs, () => ({}));

test("test__prepare_component_input_data", () => {
  const p = new Pipeline().addComponent("first_mock", mock()).addComponent("second_mock", mock());
  const res = inputsByComponent(p, { x: ["some data"], y: "some other data" });
  assert.equal(res, { first_mock: { x: ["some data"], y: "some other data" }, second_mock: { x: ["some data"], y: "some other data" } });
  assert.ok(res.first_mock!.x !== res.second_mock!.x, "each component its own copy");
});

test("test__prepare_component_input_data_with_connected_inputs", () => {
  const p = new Pipeline().addComponent("first_mock", mock({ z: str })).addComponent("second_mock", mock({ z: str })).connect("first_mock.z", "second_mock.y");
  const res = inputsByComponent(p, { x: ["some data"], y: "some other data" });
  assert.equal(res, { first_mock: { x: ["some data"], y: "some other data" }, second_mock: { x: ["some data"] } });
  assert.ok(res.first_mock!.x !== res.second_mock!.x);
});

test("test__prepare_component_input_data_with_non_existing_input", async () => {
  const { log, warnings } = recordingLog();
  assert.equal(inputsByComponent(new Pipeline(), { input_name: 1 }, log), {});
  assert.ok(warnings.includes("Inputs ['input_name'] were not matched to any component inputs, please check your run parameters."), warnings.join("\n"));
  // And so does a run given such a key.
  const run = recordingLog();
  await new Pipeline().addComponent("c", componentOf({ a: socket(int) }, { a: int }, (x) => ({ a: x.a }))).run({ a: 1, typo: 2 }, { log: run.log });
  assert.equal(run.warnings, ["Inputs ['typo'] were not matched to any component inputs, please check your run parameters."]);
});

/** The run state distributeInput builds, as Haystack's internal format. */
function internalFormat(p: Pipeline, data: Record<string, Record<string, unknown>>) {
  const nodes = new Map<string, Node>(p.componentNames.map((name) => {
    const c = p.getComponent(name);
    return [name, { name, component: c, sockets: Object.values(c.inputSockets).map((s) => ({ ...s })), senders: new Map(), receivers: [], visits: 0 }];
  }));
  const state = new Map<string, Inputs>(p.componentNames.map((n) => [n, new Map()]));
  distributeInput(p, nodes, data, state);
  return Object.fromEntries([...state].filter(([, inputs]) => inputs.size > 0).map(([n, inputs]) => [n, Object.fromEntries(inputs)]));
}
const optional = (...names: string[]) => componentOf(Object.fromEntries(names.map((n) => [n, socket(v.unknown(), { default: null })])), {}, () => ({}));

for (const [id, data, expected] of [
  ["empty_input", {}, {}],
  ["single_component_multiple_inputs", { component1: { input1: 42, input2: "test", input3: true } }, { component1: { input1: [rec(null, 42)], input2: [rec(null, "test")], input3: [rec(null, true)] } }],
  [
    "multiple_components",
    { component1: { input1: 42, input2: "test" }, component2: { input3: [1, 2, 3], input4: { key: "value" } } },
    { component1: { input1: [rec(null, 42)], input2: [rec(null, "test")] }, component2: { input3: [rec(null, [1, 2, 3])], input4: [rec(null, { key: "value" })] } },
  ],
] as const) {
  test(`test__convert_to_internal_format[${id}]`, () => {
    const p = new Pipeline().addComponent("component1", optional("input1", "input2", "input3")).addComponent("component2", optional("input3", "input4"));
    assert.equal(internalFormat(p, data as Record<string, Record<string, unknown>>), expected);
  });
}

test("test__find_receivers_from", () => {
  const p = new Pipeline()
    .addComponent("sentence_builder", componentOf({ words: socket(v.array(str)) }, { text: str }, () => ({})))
    .addComponent("document_builder", componentOf({ text: socket(str) }, { doc: v.unknown() }, () => ({})))
    .addComponent("document_joiner", componentOf({ docs: variadic(v.unknown()) }, {}, () => ({})))
    .addComponent("conditional_document_builder", componentOf({}, { doc: v.unknown(), noop: v.null() }, () => ({})))
    .connect("sentence_builder.text", "document_builder.text")
    .connect("document_builder.doc", "document_joiner.docs")
    .connect("conditional_document_builder.doc", "document_joiner.docs");
  const receivers = (name: string) => p.receiversOf(name).map((e) => [e.receiver, e.senderSocket, e.receiverSocket, e.conversion ?? null]);
  assert.equal(receivers("sentence_builder"), [["document_builder", "text", "text", null]]);
  assert.equal(receivers("document_builder"), [["document_joiner", "doc", "docs", null]]);
  assert.equal(receivers("document_joiner"), []);
  assert.equal(receivers("conditional_document_builder"), [["document_joiner", "doc", "docs", null]]);
  assert.equal(p.sendersOf("document_joiner", "docs").map((e) => e.sender), ["document_builder", "conditional_document_builder"]);
  assert.equal(p.getComponent("document_joiner").inputSockets.docs!.kind, "lazyVariadic");
});

// ---- tie-breaking deferred components ----

const fake = () => componentOf({ input_: socket(str) }, { value: str }, (x) => ({ value: x.input_ }));

test("test_tiebreak_defer_components", () => {
  const p = new Pipeline().addComponent("comp1", fake()).addComponent("comp2", fake()).connect("comp1", "comp2");
  assert.equal(Object.fromEntries(topologicalRanks(p)), { comp1: 0, comp2: 1 });
});

test("test_tiebreak_defer_components_in_a_loop: members of a cycle rank the same", () => {
  const p = new Pipeline()
    .addComponent("comp1", fake())
    .addComponent("branch_joiner", componentOf({ value: variadic(str) }, { value: str }, (x) => ({ value: x.value[0] })))
    .addComponent("comp3", fake())
    .connect("comp1", "branch_joiner")
    .connect("branch_joiner", "comp3")
    .connect("comp3", "branch_joiner");
  assert.equal(Object.fromEntries(topologicalRanks(p)), { comp1: 0, branch_joiner: 1, comp3: 1 });
});

// ---- TestMakeSocketAutoVariadic ----

const msg = v.instance(ChatMessage);
const socketOf = (schema: v.GenericSchema) => ({ ...componentOf({ input_to_comp3: socket(schema) }, {}, () => ({})).inputSockets.input_to_comp3! });

for (const [id, schema] of [
  ["list[int]", v.array(int)],
  ["list[str] | list[ChatMessage] (from list[str])", v.union([v.array(str), v.array(msg)])],
  ["list[str] | list[ChatMessage] (from list[ChatMessage])", v.union([v.array(str), v.array(msg)])],
  ["list[int] | None", v.nullable(v.array(int))],
] as const) {
  test(`TestMakeSocketAutoVariadic.test_successful[${id}]`, () => {
    const s = socketOf(schema);
    makeAutoVariadic("comp", s, "comp1", PipelineConnectError);
    assert.equal([s.kind, s.autoVariadic], ["lazyVariadic", true], "lazy variadic, values not wrapped in another list");
  });
}

test("TestMakeSocketAutoVariadic.test_raises_error_all_int", () => {
  assert.throws(() => makeAutoVariadic("comp", socketOf(int), "comp1", PipelineConnectError), (e: Error) => e instanceof PipelineConnectError);
});

test("svc: components that tie run in Python's name order (sorted code points: capitals and '_' first), one at a time", async () => {
  const ran: string[] = [];
  const recorder = (name: string) => componentOf({ value: socket(v.number()) }, { value: v.number() }, (i) => (ran.push(name), { value: i.value }));
  const names = ["b", "B", "a_c", "ab", "a"];
  const pipeline = new Pipeline();
  for (const name of names) pipeline.addComponent(name, recorder(name));
  await pipeline.run(Object.fromEntries(names.map((n) => [n, { value: 1 }])), { concurrencyLimit: 1 });
  assert.equal(ran, ["B", "a", "a_c", "ab", "b"]);
});

test.run();
