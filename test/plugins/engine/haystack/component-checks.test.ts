/**
 * Haystack's scheduler-predicate tests (haystack test/core/pipeline/test_component_checks.py),
 * ported value for value against svc's own predicates (plugins/engine/pipeline/component-checks.ts),
 * which the run loop's `priorityOf` is built from. Haystack's component dicts are ComponentStates:
 * its sockets, the senders of each socket (Haystack's `InputSocket.senders`) and its visits;
 * `_NoOutputProduced()` is NO_OUTPUT.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import * as v from "valibot";
import { greedyVariadic, socket, variadic, type InputSocket } from "svc/engine";
import { componentOf } from "./harness.js";
import {
  allPredecessorsExecuted,
  allSocketPredecessorsExecuted,
  anyPredecessorsProvidedInput,
  anySocketInputReceived,
  anySocketValueFromPredecessorReceived,
  areAllSocketsReady,
  canComponentRun,
  canNotReceiveInputsFromPipeline,
  hasAnyTrigger,
  hasLazyVariadicSocketReceivedAllInputs,
  hasSocketReceivedAllInputs,
  hasUserInput,
  isAnyGreedySocketReady,
  NO_OUTPUT,
  type ComponentState,
  type InputRecord,
  type Inputs,
} from "../../../../plugins/engine/pipeline/component-checks.js";

type Spec = ReturnType<typeof socket>;
/** A socket as a component declares it, with the components connected to it. */
interface Declared {
  socket: InputSocket;
  senders: string[];
}

function declare(name: string, spec: Spec, senders: string[] = []): Declared {
  return { socket: componentOf({ [name]: spec }, {}, () => ({})).inputSockets[name]!, senders };
}

function component(sockets: Declared[], visits = 0): ComponentState & { visits: number } {
  return { sockets: sockets.map((d) => d.socket), senders: new Map(sockets.map((d) => [d.socket.name, d.senders])), visits };
}

const inputsOf = (data: Record<string, InputRecord[]>): Inputs => new Map(Object.entries(data));
const rec = (sender: string | null, value: unknown): InputRecord => ({ sender, value });

const int = v.number();
const str = v.string();

// ---- Haystack's fixtures ----
const basicComponent = () =>
  component([declare("mandatory_input", socket(int), ["previous_component"]), declare("optional_input", socket(str, { default: "default" }))]);
const variadicComponent = () =>
  component([declare("variadic_input", variadic(int), ["previous_component"]), declare("normal_input", socket(str), ["another_component"])]);
const greedyVariadicComponent = () =>
  component([declare("greedy_input", greedyVariadic(int), ["previous_component", "other_component"]), declare("normal_input", socket(str))]);
const inputSocketWithSender = () => declare("test_input", socket(int), ["component1"]);
const variadicSocketWithSenders = () => declare("test_variadic", variadic(int), ["component1", "component2"]);
const componentWithMultipleSockets = () => {
  const s1 = inputSocketWithSender();
  const s2 = variadicSocketWithSenders();
  return component([
    { socket: { ...s1.socket, name: "socket1" }, senders: s1.senders },
    { socket: { ...s2.socket, name: "socket2" }, senders: s2.senders },
    declare("socket3", socket(str)),
  ]);
};
const regularSocket = () => declare("regular", socket(int), ["component1"]);
const lazyVariadicSocket = () => declare("lazy_variadic", variadic(int), ["component1", "component2"]);
const greedyVariadicSocket = () => declare("greedy_variadic", greedyVariadic(int), ["component1", "component2", "component3"]);
const complexComponent = () => {
  const lazy = lazyVariadicSocket();
  const greedy = greedyVariadicSocket();
  return component([regularSocket(), { socket: { ...lazy.socket, name: "lazy_var" }, senders: lazy.senders }, { socket: { ...greedy.socket, name: "greedy_var" }, senders: greedy.senders }]);
};

// ---- TestCanComponentRun ----
test("test_component_with_all_mandatory_inputs_and_trigger", () => {
  assert.is(canComponentRun(basicComponent(), inputsOf({ mandatory_input: [rec("previous_component", 42)] })), true);
});

test("test_component_missing_mandatory_input", () => {
  assert.is(canComponentRun(basicComponent(), inputsOf({ optional_input: [rec("previous_component", "test")] })), false);
});

test("test_sockets_with_ambiguous_truth_value: a value that refuses comparison or coercion (Haystack: a DataFrame)", () => {
  // The checks test for the marker by identity and never compare, coerce or read the value itself.
  const ambiguous = new Proxy(
    {},
    {
      get(_, key) {
        throw new Error(`the value was read (${String(key)})`);
      },
    },
  );
  const c = basicComponent();
  const inputs = inputsOf({ mandatory_input: [rec("previous_component", ambiguous)] });
  const records = inputs.get("mandatory_input")!;
  assert.is(areAllSocketsReady(c, inputs, true), true);
  assert.is(anySocketValueFromPredecessorReceived(records), true);
  assert.is(anySocketInputReceived(records), true);
  assert.is(hasLazyVariadicSocketReceivedAllInputs(c.senders.get("mandatory_input")!, records), true);
  const greedy = greedyVariadicSocket();
  assert.is(hasSocketReceivedAllInputs(greedy.socket, greedy.senders, records), true);
  const regular = regularSocket();
  assert.is(hasSocketReceivedAllInputs(regular.socket, regular.senders, records), true);
});

test("test_component_with_no_trigger_but_all_inputs", () => {
  const c = basicComponent();
  c.visits = 1;
  assert.is(canComponentRun(c, inputsOf({ mandatory_input: [rec(null, 42)] })), false);
});

test("test_component_with_multiple_visits", () => {
  const c = basicComponent();
  c.visits = 2;
  assert.is(canComponentRun(c, inputsOf({ mandatory_input: [rec("previous_component", 42)] })), true);
});

test("test_component_with_no_inputs_first_visit", () => {
  assert.is(canComponentRun(component([]), inputsOf({})), true);
});

test("test_component_triggered_on_second_visit_with_new_input", () => {
  const c = basicComponent();
  c.visits = 1;
  assert.is(canComponentRun(c, inputsOf({ mandatory_input: [rec("previous_component", 99)] })), true);
});

// ---- TestHasAnyTrigger ----
test("test_trigger_from_predecessor", () => {
  assert.is(hasAnyTrigger(basicComponent(), inputsOf({ mandatory_input: [rec("previous_component", 42)] })), true);
});

test("test_trigger_from_user_first_visit", () => {
  assert.is(hasAnyTrigger(basicComponent(), inputsOf({ mandatory_input: [rec(null, 42)] })), true);
});

test("test_no_trigger_from_user_after_first_visit", () => {
  const c = basicComponent();
  c.visits = 1;
  assert.is(hasAnyTrigger(c, inputsOf({ mandatory_input: [rec(null, 42)] })), false);
});

test("test_trigger_without_inputs_first_visit", () => {
  assert.is(hasAnyTrigger(component([]), inputsOf({})), true);
});

test("test_no_trigger_without_inputs_after_first_visit", () => {
  assert.is(hasAnyTrigger(component([], 1), inputsOf({})), false);
});

// ---- TestAllMandatorySocketsReady ----
test("test_all_mandatory_sockets_filled", () => {
  assert.is(areAllSocketsReady(basicComponent(), inputsOf({ mandatory_input: [rec("previous_component", 42)] })), true);
});

test("test_missing_mandatory_socket", () => {
  assert.is(areAllSocketsReady(basicComponent(), inputsOf({ optional_input: [rec("previous_component", "test")] })), false);
});

test("test_variadic_socket_with_input", () => {
  const inputs = inputsOf({ variadic_input: [rec("previous_component", 42)], normal_input: [rec("previous_component", "test")] });
  assert.is(areAllSocketsReady(variadicComponent(), inputs), true);
});

test("test_greedy_variadic_socket", () => {
  const inputs = inputsOf({ greedy_input: [rec("previous_component", 42)], normal_input: [rec("previous_component", "test")] });
  assert.is(areAllSocketsReady(greedyVariadicComponent(), inputs), true);
});

test("test_greedy_variadic_socket_and_missing_mandatory", () => {
  assert.is(areAllSocketsReady(greedyVariadicComponent(), inputsOf({ greedy_input: [rec("previous_component", 42)] }), true), false);
});

test("test_variadic_socket_no_input", () => {
  assert.is(areAllSocketsReady(variadicComponent(), inputsOf({ normal_input: [rec("previous_component", "test")] })), false);
});

test("test_mandatory_and_optional_sockets", () => {
  const c = component([declare("mandatory", socket(str), ["previous_component"]), declare("optional", socket(str, { default: "test" }), ["previous_component"])]);
  const inputs = inputsOf({ mandatory: [rec("previous_component", "hello")] });
  assert.is(areAllSocketsReady(c, inputs), false);
  assert.is(areAllSocketsReady(c, inputs, true), true);
});

test("test_empty_inputs", () => {
  assert.is(areAllSocketsReady(basicComponent(), inputsOf({})), false);
});

test("test_no_mandatory_sockets", () => {
  const c = component([declare("optional_1", socket(str, { default: "default1" })), declare("optional_2", socket(str, { default: "default2" }))]);
  assert.is(areAllSocketsReady(c, inputsOf({})), true);
});

test("test_multiple_mandatory_sockets", () => {
  const c = component([
    declare("mandatory_1", socket(int), ["previous_component"]),
    declare("mandatory_2", socket(str), ["some other component"]),
    declare("optional", socket(v.boolean(), { default: false })),
  ]);
  assert.is(areAllSocketsReady(c, inputsOf({ mandatory_1: [rec("comp1", 42)], mandatory_2: [rec("comp2", "test")] })), true);
  assert.is(areAllSocketsReady(c, inputsOf({ mandatory_1: [rec("comp1", 42)], optional: [rec("comp3", true)] })), false);
});

// ---- TestPredecessorInputDetection ----
test("test_any_predecessors_provided_input_with_predecessor", () => {
  const inputs = inputsOf({ socket1: [rec("component1", 42)], socket2: [rec(null, "test")] });
  assert.is(anyPredecessorsProvidedInput(componentWithMultipleSockets(), inputs), true);
});

test("test_any_predecessors_provided_input_no_predecessor", () => {
  const inputs = inputsOf({ socket1: [rec(null, 42)], socket2: [rec(null, "test")] });
  assert.is(anyPredecessorsProvidedInput(componentWithMultipleSockets(), inputs), false);
});

test("test_any_predecessors_provided_input_with_no_output", () => {
  const inputs = inputsOf({ socket1: [rec("component1", NO_OUTPUT)], socket2: [rec(null, "test")] });
  assert.is(anyPredecessorsProvidedInput(componentWithMultipleSockets(), inputs), false);
});

test("test_any_predecessors_provided_input_empty_inputs", () => {
  assert.is(anyPredecessorsProvidedInput(componentWithMultipleSockets(), inputsOf({})), false);
});

// ---- TestSocketValueFromPredecessor (parametrized) ----
const valueFromPredecessorCases: [string, InputRecord[], boolean][] = [
  ["valid_input", [rec("component1", 42)], true],
  ["no_output", [rec("component1", NO_OUTPUT)], false],
  ["user_input", [rec(null, 42)], false],
  ["mixed_inputs", [rec(null, 42), rec("component1", NO_OUTPUT), rec("component2", 100)], true],
  ["empty_list", [], false],
];
for (const [id, records, expected] of valueFromPredecessorCases) {
  test(`test_any_socket_value_from_predecessor_received[${id}]`, () => {
    assert.is(anySocketValueFromPredecessorReceived(records), expected);
  });
}

// ---- TestUserInputDetection ----
test("test_has_user_input_with_user_input", () => {
  assert.is(hasUserInput(inputsOf({ socket1: [rec(null, 42)], socket2: [rec("component1", "test")] })), true);
});

test("test_has_user_input_without_user_input", () => {
  assert.is(hasUserInput(inputsOf({ socket1: [rec("component1", 42)], socket2: [rec("component2", "test")] })), false);
});

test("test_has_user_input_empty_inputs", () => {
  assert.is(hasUserInput(inputsOf({})), false);
});

test("test_has_user_input_with_no_output", () => {
  assert.is(hasUserInput(inputsOf({ socket1: [rec(null, NO_OUTPUT)] })), true);
});

// ---- TestPipelineInputCapability ----
test("test_cannot_receive_inputs_no_senders", () => {
  assert.is(canNotReceiveInputsFromPipeline(component([declare("socket1", socket(int)), declare("socket2", socket(str))])), true);
});

test("test_cannot_receive_inputs_with_senders", () => {
  assert.is(canNotReceiveInputsFromPipeline(componentWithMultipleSockets()), false);
});

test("test_cannot_receive_inputs_mixed_senders", () => {
  const withSender = inputSocketWithSender();
  assert.is(canNotReceiveInputsFromPipeline(component([{ socket: { ...withSender.socket, name: "socket1" }, senders: withSender.senders }, declare("socket2", socket(str))])), false);
});

// ---- TestSocketExecutionStatus ----
test("test_regular_socket_predecessor_executed", () => {
  assert.is(allSocketPredecessorsExecuted(inputSocketWithSender().senders, [rec("component1", 42)]), true);
});

test("test_regular_socket_predecessor_not_executed", () => {
  assert.is(allSocketPredecessorsExecuted(inputSocketWithSender().senders, []), false);
});

test("test_regular_socket_with_wrong_predecessor", () => {
  assert.is(allSocketPredecessorsExecuted(inputSocketWithSender().senders, [rec("component2", 42)]), false);
});

test("test_variadic_socket_all_predecessors_executed", () => {
  assert.is(allSocketPredecessorsExecuted(variadicSocketWithSenders().senders, [rec("component1", 42), rec("component2", 43)]), true);
});

test("test_variadic_socket_partial_execution", () => {
  assert.is(allSocketPredecessorsExecuted(variadicSocketWithSenders().senders, [rec("component1", 42)]), false);
});

test("test_variadic_socket_with_user_input", () => {
  assert.is(allSocketPredecessorsExecuted(variadicSocketWithSenders().senders, [rec("component1", 42), rec(null, 43), rec("component2", 44)]), true);
});

test("test_variadic_socket_no_execution", () => {
  assert.is(allSocketPredecessorsExecuted(variadicSocketWithSenders().senders, []), false);
});

// ---- TestSocketInputReceived ----
test("test_any_socket_input_received_with_value", () => {
  assert.is(anySocketInputReceived([rec("component1", 42)]), true);
});

test("test_any_socket_input_received_with_no_output", () => {
  assert.is(anySocketInputReceived([rec("component1", NO_OUTPUT)]), false);
});

test("test_any_socket_input_received_mixed_inputs", () => {
  assert.is(anySocketInputReceived([rec("component1", NO_OUTPUT), rec("component2", 42)]), true);
});

test("test_any_socket_input_received_empty_list", () => {
  assert.is(anySocketInputReceived([]), false);
});

// ---- TestNoOutputProduced ----
test("test_markers_are_interchangeable: one marker value, equal to itself and one member of a set", () => {
  const again = NO_OUTPUT;
  assert.ok(again === NO_OUTPUT);
  assert.is(new Set([NO_OUTPUT, again]).size, 1);
  // A value that merely looks like a marker is a value.
  assert.is(anySocketInputReceived([rec("c", Symbol("svc.engine.noOutputProduced"))]), true);
});

// ---- TestLazyVariadicSocket ----
test("test_lazy_variadic_all_inputs_received", () => {
  assert.is(hasLazyVariadicSocketReceivedAllInputs(variadicSocketWithSenders().senders, [rec("component1", 42), rec("component2", 43)]), true);
});

test("test_lazy_variadic_partial_inputs", () => {
  assert.is(hasLazyVariadicSocketReceivedAllInputs(variadicSocketWithSenders().senders, [rec("component1", 42)]), false);
});

test("test_lazy_variadic_with_no_output", () => {
  assert.is(hasLazyVariadicSocketReceivedAllInputs(variadicSocketWithSenders().senders, [rec("component1", NO_OUTPUT), rec("component2", 42)]), false);
});

test("test_lazy_variadic_with_user_input", () => {
  assert.is(hasLazyVariadicSocketReceivedAllInputs(variadicSocketWithSenders().senders, [rec("component1", 42), rec(null, 43), rec("component2", 44)]), true);
});

test("test_lazy_variadic_empty_inputs", () => {
  assert.is(hasLazyVariadicSocketReceivedAllInputs(variadicSocketWithSenders().senders, []), false);
});

// ---- TestSocketTypeDetection: svc's socket kind ----
test("test_is_socket_lazy_variadic_with_lazy_socket", () => {
  assert.is(lazyVariadicSocket().socket.kind, "lazyVariadic");
});

test("test_is_socket_lazy_variadic_with_greedy_socket", () => {
  assert.is(greedyVariadicSocket().socket.kind, "greedyVariadic");
});

test("test_is_socket_lazy_variadic_with_regular_socket", () => {
  assert.is(regularSocket().socket.kind, "normal");
});

// ---- TestSocketInputCompletion ----
const complete = (d: Declared, records: InputRecord[]) => hasSocketReceivedAllInputs(d.socket, d.senders, records);

test("test_regular_socket_complete", () => {
  assert.is(complete(regularSocket(), [rec("component1", 42)]), true);
});

test("test_regular_socket_incomplete", () => {
  assert.is(complete(regularSocket(), [rec("component1", NO_OUTPUT)]), false);
});

test("test_regular_socket_no_inputs", () => {
  assert.is(complete(regularSocket(), []), false);
});

test("test_lazy_variadic_socket_all_inputs", () => {
  assert.is(complete(lazyVariadicSocket(), [rec("component1", 42), rec("component2", 43)]), true);
});

test("test_lazy_variadic_socket_partial_inputs", () => {
  assert.is(complete(lazyVariadicSocket(), [rec("component1", 42)]), false);
});

test("test_lazy_variadic_socket_with_no_output", () => {
  assert.is(complete(lazyVariadicSocket(), [rec("component1", 42), rec("component2", NO_OUTPUT)]), false);
});

test("test_greedy_variadic_socket_one_input", () => {
  assert.is(complete(greedyVariadicSocket(), [rec("component1", 42)]), true);
});

test("test_greedy_variadic_socket_multiple_inputs", () => {
  assert.is(complete(greedyVariadicSocket(), [rec("component1", 42), rec("component2", 43)]), true);
});

test("test_greedy_variadic_socket_no_valid_inputs", () => {
  assert.is(complete(greedyVariadicSocket(), [rec("component1", NO_OUTPUT)]), false);
});

// ---- TestPredecessorExecution ----
test("test_all_predecessors_executed_complete", () => {
  const inputs = inputsOf({
    regular: [rec("component1", 42)],
    lazy_var: [rec("component1", 42), rec("component2", 43)],
    greedy_var: [rec("component1", 42), rec("component2", 43), rec("component3", 44)],
  });
  assert.is(allPredecessorsExecuted(complexComponent(), inputs), true);
});

test("test_all_predecessors_executed_partial", () => {
  const inputs = inputsOf({
    regular: [rec("component1", 42)],
    lazy_var: [rec("component1", 42)],
    greedy_var: [rec("component1", 42), rec("component2", 43)],
  });
  assert.is(allPredecessorsExecuted(complexComponent(), inputs), false);
});

test("test_all_predecessors_executed_with_user_input", () => {
  const inputs = inputsOf({
    regular: [rec("component1", 42)],
    lazy_var: [rec("component1", 42), rec(null, 43)],
    greedy_var: [rec("component1", 42), rec("component2", 43), rec("component3", 44)],
  });
  assert.is(allPredecessorsExecuted(complexComponent(), inputs), false);
});

// ---- TestGreedySocketReadiness ----
test("test_greedy_socket_ready", () => {
  assert.is(isAnyGreedySocketReady(complexComponent(), inputsOf({ greedy_var: [rec("component1", 42)] })), true);
});

test("test_greedy_socket_multiple_inputs_ready", () => {
  assert.is(isAnyGreedySocketReady(complexComponent(), inputsOf({ greedy_var: [rec("component1", 42), rec("component2", 43)] })), true);
});

test("test_greedy_socket_not_ready", () => {
  assert.is(isAnyGreedySocketReady(complexComponent(), inputsOf({ greedy_var: [rec("component1", NO_OUTPUT)] })), false);
});

test("test_greedy_socket_no_inputs", () => {
  assert.is(isAnyGreedySocketReady(complexComponent(), inputsOf({})), false);
});

test("test_greedy_socket_with_user_input", () => {
  assert.is(isAnyGreedySocketReady(complexComponent(), inputsOf({ greedy_var: [rec(null, 42)] })), true);
});

// ---- The run loop uses these predicates as Haystack's `_calculate_priority` does ----
test("priority at run level: a ready greedy socket waits for the component's other connected sockets (HIGHEST needs are_all_sockets_ready's default)", async () => {
  const { Pipeline } = await import("svc/engine");
  for (const concurrencyLimit of [1, 4]) {
    const calls: unknown[] = [];
    const pipeline = new Pipeline()
      .addComponent("a", componentOf({ text: socket(str) }, { value: str }, (i) => ({ value: i.text })))
      .addComponent("c", componentOf({ text: socket(str) }, { value: str }, (i) => ({ value: i.text })))
      .addComponent("g", componentOf({ value: greedyVariadic(str), extra: socket(str, { default: "default" }) }, { out: str }, (i) => {
        calls.push(i);
        return { out: `${i.value.join()}+${i.extra}` };
      }))
      .connect("a.value", "g.value")
      .connect("c.value", "g.extra");
    const result = await pipeline.run({ a: { text: "A" }, c: { text: "C" } }, { concurrencyLimit });
    // Haystack: g is deferred until c ran, then runs once with both; a greedy-first rule would run it with the default.
    assert.equal(calls, [{ value: ["A"], extra: "C" }], `concurrency ${concurrencyLimit}`);
    assert.equal(result, { g: { out: "A+C" } });
  }
});

test.run();
