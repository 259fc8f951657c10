/**
 * Haystack's pipeline behaviour scenarios (haystack test/core/pipeline/features/test_run.py and
 * pipeline_run.feature), ported value for value: same graphs, inputs, expected outputs and the
 * inputs each component is called with, run one at a time and concurrently.
 */
import { test } from "uvu";
import * as v from "valibot";
import { AddFixedValue, BranchJoiner, ChatMessage, ConditionalRouter, Document, Double, Hello, Parity, Pipeline, Repeat, Subtract, Sum, Threshold, socket } from "svc/engine";
import { Accumulate, FString, Greet, Remainder, StringListJoiner, TextSplitter, check, checkRaises, componentOf } from "./harness.js";

test("that has no components", () => check(() => new Pipeline({ maxRunsPerComponent: 1 }), [{ inputs: {}, expectedOutputs: {} }]));

test("that is linear", () =>
  check(
    () =>
      new Pipeline({ maxRunsPerComponent: 1 })
        .addComponent("first_addition", new AddFixedValue({ add: 2 }))
        .addComponent("second_addition", new AddFixedValue())
        .addComponent("double", new Double())
        .connect("first_addition", "double")
        .connect("double", "second_addition"),
    [
      {
        inputs: { first_addition: { value: 1 } },
        expectedOutputs: { second_addition: { result: 7 } },
        expectedCalls: { "first_addition#1": { value: 1, add: null }, "double#1": { value: 3 }, "second_addition#1": { value: 6, add: null } },
      },
    ],
  ));

const ROUTES = [
  { condition: "{{number > 2}}", output: "{{number}}", output_name: "big_number", output_type: "int" },
  { condition: "{{number <= 2}}", output: "{{number + 2}}", output_name: "small_number", output_type: "int" },
];

test("that has an infinite loop → PipelineMaxComponentRuns", () =>
  checkRaises(
    () =>
      new Pipeline({ maxRunsPerComponent: 1 })
        .addComponent("main_input", new BranchJoiner({ type_: "int" }))
        .addComponent("first_router", new ConditionalRouter({ routes: ROUTES }))
        .addComponent("second_router", new ConditionalRouter({ routes: ROUTES }))
        .connect("main_input", "first_router.number")
        .connect("first_router.big_number", "second_router.number")
        .connect("second_router.big_number", "main_input"),
    { main_input: { value: 3 } },
    "PipelineMaxComponentRuns",
  ));

test("that is really complex with lots of components, forks, and loops (variadic values in arrival order)", () =>
  check(
    () =>
      new Pipeline({ maxRunsPerComponent: 3 })
        .addComponent("greet_first", new Greet({ message: "Hello, the value is {value}." }))
        .addComponent("accumulate_1", new Accumulate())
        .addComponent("add_two", new AddFixedValue({ add: 2 }))
        .addComponent("parity", new Parity())
        .addComponent("add_one", new AddFixedValue({ add: 1 }))
        .addComponent("accumulate_2", new Accumulate())
        .addComponent("branch_joiner", new BranchJoiner({ type_: "int" }))
        .addComponent("below_10", new Threshold({ threshold: 10 }))
        .addComponent("double", new Double())
        .addComponent("greet_again", new Greet({ message: "Hello again, now the value is {value}." }))
        .addComponent("sum", new Sum())
        .addComponent("greet_enumerator", new Greet({ message: "Hello from enumerator, here the value became {value}." }))
        .addComponent("enumerate", new Repeat({ outputs: ["first", "second"] }))
        .addComponent("add_three", new AddFixedValue({ add: 3 }))
        .addComponent("diff", new Subtract())
        .addComponent("greet_one_last_time", new Greet({ message: "Bye bye! The value here is {value}!" }))
        .addComponent("replicate", new Repeat({ outputs: ["first", "second"] }))
        .addComponent("add_five", new AddFixedValue({ add: 5 }))
        .addComponent("add_four", new AddFixedValue({ add: 4 }))
        .addComponent("accumulate_3", new Accumulate())
        .connect("greet_first", "accumulate_1")
        .connect("accumulate_1", "add_two")
        .connect("add_two", "parity")
        .connect("parity.even", "greet_again")
        .connect("greet_again", "sum.values")
        .connect("sum", "diff.first_value")
        .connect("diff", "greet_one_last_time")
        .connect("greet_one_last_time", "replicate")
        .connect("replicate.first", "add_five.value")
        .connect("replicate.second", "add_four.value")
        .connect("add_four", "accumulate_3")
        .connect("parity.odd", "add_one.value")
        .connect("add_one", "branch_joiner.value")
        .connect("branch_joiner", "below_10")
        .connect("below_10.below", "double")
        .connect("double", "branch_joiner.value")
        .connect("below_10.above", "accumulate_2")
        .connect("accumulate_2", "diff.second_value")
        .connect("greet_enumerator", "enumerate")
        .connect("enumerate.second", "sum.values")
        .connect("enumerate.first", "add_three.value")
        .connect("add_three", "sum.values"),
    [
      {
        inputs: { greet_first: { value: 1 }, greet_enumerator: { value: 1 } },
        expectedOutputs: { accumulate_3: { value: -7 }, add_five: { result: -6 } },
        expectedCalls: {
          "greet_first#1": { value: 1, log_level: null, message: null },
          "greet_enumerator#1": { value: 1, log_level: null, message: null },
          "accumulate_1#1": { value: 1 },
          "add_two#1": { value: 1, add: null },
          "parity#1": { value: 3 },
          "add_one#1": { value: 3, add: null },
          "branch_joiner#1": { value: [4] },
          "below_10#1": { value: 4, threshold: null },
          "double#1": { value: 4 },
          "branch_joiner#2": { value: [8] },
          "below_10#2": { value: 8, threshold: null },
          "double#2": { value: 8 },
          "branch_joiner#3": { value: [16] },
          "below_10#3": { value: 16, threshold: null },
          "accumulate_2#1": { value: 16 },
          "enumerate#1": { value: 1 },
          "add_three#1": { value: 1, add: null },
          "sum#1": { values: [1, 4] },
          "diff#1": { first_value: 5, second_value: 16 },
          "greet_one_last_time#1": { value: -11, log_level: null, message: null },
          "replicate#1": { value: -11 },
          "add_five#1": { value: -11, add: null },
          "add_four#1": { value: -11, add: null },
          "accumulate_3#1": { value: -7 },
        },
      },
    ],
  ));

test("that has a single component with a default input", () =>
  check(
    () => new Pipeline({ maxRunsPerComponent: 1 }).addComponent("with_defaults", componentOf({ a: socket(v.number()), b: socket(v.number(), { default: 2 }) }, { c: v.number() }, (i) => ({ c: i.a + i.b }))),
    [
      { inputs: { with_defaults: { a: 40, b: 30 } }, expectedOutputs: { with_defaults: { c: 70 } }, expectedCalls: { "with_defaults#1": { a: 40, b: 30 } } },
      { inputs: { with_defaults: { a: 40 } }, expectedOutputs: { with_defaults: { c: 42 } }, expectedCalls: { "with_defaults#1": { a: 40, b: 2 } } },
    ],
  ));

const loopRuns = (extra: Record<string, Record<string, unknown>>, five: Record<string, Record<string, unknown>>) => [
  { inputs: { branch_joiner: { value: 0 } }, expectedOutputs: { remainder: { remainder_is_0: 0 } }, expectedCalls: { "branch_joiner#1": { value: [0] }, "remainder#1": { value: 0 } } },
  { inputs: { branch_joiner: { value: 3 } }, expectedOutputs: { remainder: { remainder_is_0: 3 } }, expectedCalls: { "branch_joiner#1": { value: [3] }, "remainder#1": { value: 3 } } },
  {
    inputs: { branch_joiner: { value: 4 } },
    expectedOutputs: { remainder: { remainder_is_0: 6 } },
    expectedCalls: { "branch_joiner#1": { value: [4] }, "remainder#1": { value: 4 }, ...extra, "branch_joiner#2": { value: [6] }, "remainder#2": { value: 6 } },
  },
  {
    inputs: { branch_joiner: { value: 5 } },
    expectedOutputs: { remainder: { remainder_is_0: 6 } },
    expectedCalls: { "branch_joiner#1": { value: [5] }, "remainder#1": { value: 5 }, ...five, "branch_joiner#2": { value: [6] }, "remainder#2": { value: 6 } },
  },
  { inputs: { branch_joiner: { value: 6 } }, expectedOutputs: { remainder: { remainder_is_0: 6 } }, expectedCalls: { "branch_joiner#1": { value: [6] }, "remainder#1": { value: 6 } } },
];

test("that has two loops of identical lengths", () =>
  check(
    () =>
      new Pipeline({ maxRunsPerComponent: 2 })
        .addComponent("branch_joiner", new BranchJoiner({ type_: "int" }))
        .addComponent("remainder", new Remainder({ divisor: 3 }))
        .addComponent("add_one", new AddFixedValue({ add: 1 }))
        .addComponent("add_two", new AddFixedValue({ add: 2 }))
        .connect("branch_joiner.value", "remainder.value")
        .connect("remainder.remainder_is_1", "add_two.value")
        .connect("remainder.remainder_is_2", "add_one.value")
        .connect("add_two", "branch_joiner.value")
        .connect("add_one", "branch_joiner.value"),
    loopRuns({ "add_two#1": { value: 4, add: null } }, { "add_one#1": { value: 5, add: null } }),
  ));

test("that has two loops of different lengths", () =>
  check(
    () =>
      new Pipeline({ maxRunsPerComponent: 2 })
        .addComponent("branch_joiner", new BranchJoiner({ type_: "int" }))
        .addComponent("remainder", new Remainder({ divisor: 3 }))
        .addComponent("add_one", new AddFixedValue({ add: 1 }))
        .addComponent("add_two_1", new AddFixedValue({ add: 1 }))
        .addComponent("add_two_2", new AddFixedValue({ add: 1 }))
        .connect("branch_joiner.value", "remainder.value")
        .connect("remainder.remainder_is_1", "add_two_1.value")
        .connect("add_two_1", "add_two_2.value")
        .connect("add_two_2", "branch_joiner")
        .connect("remainder.remainder_is_2", "add_one.value")
        .connect("add_one", "branch_joiner"),
    loopRuns({ "add_two_1#1": { value: 4, add: null }, "add_two_2#1": { value: 5, add: null } }, { "add_one#1": { value: 5, add: null } }),
  ));

test("that has a single loop with two conditional branches", () =>
  check(
    () =>
      new Pipeline({ maxRunsPerComponent: 3 })
        .addComponent("add_one", new AddFixedValue({ add: 1 }))
        .addComponent("branch_joiner", new BranchJoiner({ type_: "int" }))
        .addComponent("below_10", new Threshold({ threshold: 10 }))
        .addComponent("below_5", new Threshold({ threshold: 5 }))
        .addComponent("add_three", new AddFixedValue({ add: 3 }))
        .addComponent("accumulator", new Accumulate())
        .addComponent("add_two", new AddFixedValue({ add: 2 }))
        .connect("add_one.result", "branch_joiner")
        .connect("branch_joiner.value", "below_10.value")
        .connect("below_10.below", "accumulator.value")
        .connect("accumulator.value", "below_5.value")
        .connect("below_5.above", "add_three.value")
        .connect("below_5.below", "branch_joiner")
        .connect("add_three.result", "branch_joiner")
        .connect("below_10.above", "add_two.value"),
    [
      {
        inputs: { add_one: { value: 3 } },
        expectedOutputs: { add_two: { result: 13 } },
        expectedCalls: {
          "accumulator#1": { value: 4 },
          "accumulator#2": { value: 4 },
          "add_one#1": { add: null, value: 3 },
          "add_three#1": { add: null, value: 8 },
          "add_two#1": { add: null, value: 11 },
          "below_10#1": { threshold: null, value: 4 },
          "below_10#2": { threshold: null, value: 4 },
          "below_10#3": { threshold: null, value: 11 },
          "below_5#1": { threshold: null, value: 4 },
          "below_5#2": { threshold: null, value: 8 },
          "branch_joiner#1": { value: [4] },
          "branch_joiner#2": { value: [4] },
          "branch_joiner#3": { value: [11] },
        },
      },
    ],
  ));

test("that has a component with dynamic inputs defined in init", () =>
  check(
    () =>
      new Pipeline({ maxRunsPerComponent: 1 })
        .addComponent("hello", new Hello())
        .addComponent("fstring", new FString({ template: "This is the greeting: {greeting}!", variables: ["greeting"] }))
        .addComponent("splitter", new TextSplitter())
        .connect("hello.output", "fstring.greeting")
        .connect("fstring.string", "splitter.sentence"),
    [
      {
        inputs: { hello: { word: "Alice" } },
        expectedOutputs: { splitter: { output: ["This", "is", "the", "greeting:", "Hello,", "Alice!!"] } },
        expectedCalls: { "fstring#1": { greeting: "Hello, Alice!", template: null }, "hello#1": { word: "Alice" }, "splitter#1": { sentence: "This is the greeting: Hello, Alice!!" } },
      },
      {
        inputs: { hello: { word: "Alice" }, fstring: { template: "Received: {greeting}" } },
        expectedOutputs: { splitter: { output: ["Received:", "Hello,", "Alice!"] } },
        expectedCalls: { "fstring#1": { greeting: "Hello, Alice!", template: "Received: {greeting}" }, "hello#1": { word: "Alice" }, "splitter#1": { sentence: "Received: Hello, Alice!" } },
      },
    ],
  ));

test("that has two branches that don't merge", () =>
  check(
    () =>
      new Pipeline({ maxRunsPerComponent: 1 })
        .addComponent("add_one", new AddFixedValue({ add: 1 }))
        .addComponent("parity", new Parity())
        .addComponent("add_ten", new AddFixedValue({ add: 10 }))
        .addComponent("double", new Double())
        .addComponent("add_three", new AddFixedValue({ add: 3 }))
        .connect("add_one.result", "parity.value")
        .connect("parity.even", "add_ten.value")
        .connect("parity.odd", "double.value")
        .connect("add_ten.result", "add_three.value"),
    [
      {
        inputs: { add_one: { value: 1 } },
        expectedOutputs: { add_three: { result: 15 } },
        expectedCalls: { "add_one#1": { add: null, value: 1 }, "add_ten#1": { add: null, value: 2 }, "add_three#1": { add: null, value: 12 }, "parity#1": { value: 2 } },
      },
      { inputs: { add_one: { value: 2 } }, expectedOutputs: { double: { value: 6 } }, expectedCalls: { "add_one#1": { add: null, value: 2 }, "double#1": { value: 3 }, "parity#1": { value: 3 } } },
    ],
  ));

test("that has three branches that don't merge", () =>
  check(
    () =>
      new Pipeline({ maxRunsPerComponent: 1 })
        .addComponent("add_one", new AddFixedValue({ add: 1 }))
        .addComponent("repeat", new Repeat({ outputs: ["first", "second"] }))
        .addComponent("add_ten", new AddFixedValue({ add: 10 }))
        .addComponent("double", new Double())
        .addComponent("add_three", new AddFixedValue({ add: 3 }))
        .addComponent("add_one_again", new AddFixedValue({ add: 1 }))
        .connect("add_one.result", "repeat.value")
        .connect("repeat.first", "add_ten.value")
        .connect("repeat.second", "double.value")
        .connect("repeat.second", "add_three.value")
        .connect("add_three.result", "add_one_again.value"),
    [
      {
        inputs: { add_one: { value: 1 } },
        expectedOutputs: { add_one_again: { result: 6 }, add_ten: { result: 12 }, double: { value: 4 } },
        expectedCalls: {
          "add_one#1": { add: null, value: 1 },
          "add_one_again#1": { add: null, value: 5 },
          "add_ten#1": { add: null, value: 2 },
          "add_three#1": { add: null, value: 2 },
          "double#1": { value: 2 },
          "repeat#1": { value: 2 },
        },
      },
    ],
  ));

test("that has two branches that merge", () =>
  check(
    () =>
      new Pipeline({ maxRunsPerComponent: 1 })
        .addComponent("first_addition", new AddFixedValue({ add: 2 }))
        .addComponent("second_addition", new AddFixedValue({ add: 2 }))
        .addComponent("third_addition", new AddFixedValue({ add: 2 }))
        .addComponent("diff", new Subtract())
        .addComponent("fourth_addition", new AddFixedValue({ add: 1 }))
        .connect("first_addition.result", "second_addition.value")
        .connect("second_addition.result", "diff.first_value")
        .connect("third_addition.result", "diff.second_value")
        .connect("diff", "fourth_addition.value"),
    [
      {
        inputs: { first_addition: { value: 1 }, third_addition: { value: 1 } },
        expectedOutputs: { fourth_addition: { result: 3 } },
        expectedCalls: {
          "diff#1": { first_value: 5, second_value: 3 },
          "first_addition#1": { add: null, value: 1 },
          "fourth_addition#1": { add: null, value: 2 },
          "second_addition#1": { add: null, value: 3 },
          "third_addition#1": { add: null, value: 1 },
        },
      },
    ],
  ));

test("that has different combinations of branches that merge and do not merge", () =>
  check(
    () =>
      new Pipeline({ maxRunsPerComponent: 1 })
        .addComponent("add_one", new AddFixedValue())
        .addComponent("parity", new Parity())
        .addComponent("add_ten", new AddFixedValue({ add: 10 }))
        .addComponent("double", new Double())
        .addComponent("add_four", new AddFixedValue({ add: 4 }))
        .addComponent("add_two", new AddFixedValue())
        .addComponent("add_two_as_well", new AddFixedValue())
        .addComponent("diff", new Subtract())
        .connect("add_one.result", "parity.value")
        .connect("parity.even", "add_four.value")
        .connect("parity.odd", "double.value")
        .connect("add_ten.result", "diff.first_value")
        .connect("double.value", "diff.second_value")
        .connect("parity.odd", "add_ten.value")
        .connect("add_four.result", "add_two.value")
        .connect("add_four.result", "add_two_as_well.value"),
    [
      {
        inputs: { add_one: { value: 1 }, add_two: { add: 2 }, add_two_as_well: { add: 2 } },
        expectedOutputs: { add_two: { result: 8 }, add_two_as_well: { result: 8 } },
        expectedCalls: {
          "add_four#1": { add: null, value: 2 },
          "add_one#1": { add: null, value: 1 },
          "add_two#1": { add: 2, value: 6 },
          "add_two_as_well#1": { add: 2, value: 6 },
          "parity#1": { value: 2 },
        },
      },
      {
        inputs: { add_one: { value: 2 }, add_two: { add: 2 }, add_two_as_well: { add: 2 } },
        expectedOutputs: { diff: { difference: 7 } },
        expectedCalls: {
          "add_one#1": { add: null, value: 2 },
          "add_ten#1": { add: null, value: 3 },
          "diff#1": { first_value: 13, second_value: 6 },
          "double#1": { value: 3 },
          "parity#1": { value: 3 },
        },
      },
    ],
  ));

test("that has two branches, one of which loops back (user input and a connection into one variadic socket)", () =>
  check(
    () =>
      new Pipeline({ maxRunsPerComponent: 10 })
        .addComponent("add_zero", new AddFixedValue({ add: 0 }))
        .addComponent("branch_joiner", new BranchJoiner({ type_: "int" }))
        .addComponent("sum", new Sum())
        .addComponent("below_10", new Threshold({ threshold: 10 }))
        .addComponent("add_one", new AddFixedValue({ add: 1 }))
        .addComponent("counter", new Accumulate())
        .addComponent("add_two", new AddFixedValue({ add: 2 }))
        .connect("add_zero", "branch_joiner.value")
        .connect("branch_joiner", "below_10.value")
        .connect("below_10.below", "add_one.value")
        .connect("add_one.result", "counter.value")
        .connect("counter.value", "branch_joiner.value")
        .connect("below_10.above", "add_two.value")
        .connect("add_two.result", "sum.values"),
    [
      {
        inputs: { add_zero: { value: 8 }, sum: { values: 2 } },
        expectedOutputs: { sum: { total: 23 } },
        expectedCalls: {
          "add_one#1": { add: null, value: 8 },
          "add_one#2": { add: null, value: 9 },
          "add_two#1": { add: null, value: 19 },
          "add_zero#1": { add: null, value: 8 },
          "below_10#1": { threshold: null, value: 8 },
          "below_10#2": { threshold: null, value: 9 },
          "below_10#3": { threshold: null, value: 19 },
          "branch_joiner#1": { value: [8] },
          "branch_joiner#2": { value: [9] },
          "branch_joiner#3": { value: [19] },
          "counter#1": { value: 9 },
          "counter#2": { value: 10 },
          "sum#1": { values: [2, 21] },
        },
      },
    ],
  ));

test("that has a component with mutable input (each receiver gets its own copy of a user list)", () => {
  const mangler = () => componentOf({ input_list: socket(v.array(v.string())) }, { mangled_list: v.array(v.string()) }, (i) => (i.input_list.push("extra_item"), { mangled_list: i.input_list }));
  const inputList = ["foo", "bar"];
  return check(
    () =>
      new Pipeline({ maxRunsPerComponent: 1 })
        .addComponent("mangler1", mangler())
        .addComponent("mangler2", mangler())
        .addComponent("concat1", new StringListJoiner())
        .addComponent("concat2", new StringListJoiner())
        .connect("mangler1", "concat1")
        .connect("mangler2", "concat2"),
    [
      {
        inputs: { mangler1: { input_list: inputList }, mangler2: { input_list: inputList } },
        expectedOutputs: { concat1: { output: ["foo", "bar", "extra_item"] }, concat2: { output: ["foo", "bar", "extra_item"] } },
        expectedCalls: {
          "concat1#1": { inputs: [["foo", "bar", "extra_item"]] },
          "concat2#1": { inputs: [["foo", "bar", "extra_item"]] },
          "mangler1#1": { input_list: ["foo", "bar"] },
          "mangler2#1": { input_list: ["foo", "bar"] },
        },
      },
    ],
  );
});

test("that has a component with mutable output sent to multiple inputs", () => {
  const messages = [ChatMessage.fromSystem("Always respond in English even if some input data is in other languages."), ChatMessage.fromUser("Tell me about Berlin")];
  const params = { metadata: { metadata_key: "metadata_value", meta2: "value2" } };
  const msgs = v.array(v.instance(ChatMessage));
  const merger = () => componentOf({ messages: socket(msgs), metadata: socket(v.nullable(v.record(v.string(), v.unknown())), { default: null }) }, { merged_message: v.string() }, (i) => ({ merged_message: (i.messages as ChatMessage[]).map((m) => m.text ?? "").join("\n") }));
  return check(
    () =>
      new Pipeline({ maxRunsPerComponent: 1 })
        .addComponent("prompt_builder", componentOf({ prompt_source: socket(msgs) }, { prompt: msgs }, (i) => ({ prompt: i.prompt_source })))
        .addComponent("llm", componentOf({ messages: socket(msgs) }, { replies: msgs }, () => ({ replies: [ChatMessage.fromAssistant("Fake message")] })))
        .addComponent("mm1", merger())
        .addComponent("mm2", merger())
        .connect("prompt_builder.prompt", "llm.messages")
        .connect("prompt_builder.prompt", "mm1")
        .connect("llm.replies", "mm2"),
    [
      {
        inputs: { mm1: params, mm2: params, prompt_builder: { prompt_source: messages } },
        expectedOutputs: { mm1: { merged_message: "Always respond in English even if some input data is in other languages.\nTell me about Berlin" }, mm2: { merged_message: "Fake message" } },
        expectedCalls: {
          "llm#1": { messages },
          "mm1#1": { messages, metadata: { meta2: "value2", metadata_key: "metadata_value" } },
          "mm2#1": { messages: [ChatMessage.fromAssistant("Fake message")], metadata: { meta2: "value2", metadata_key: "metadata_value" } },
          "prompt_builder#1": { prompt_source: messages },
        },
      },
    ],
  );
});

test("that has a component that doesn't return a dictionary → PipelineRuntimeError", () =>
  checkRaises(() => new Pipeline({ maxRunsPerComponent: 10 }).addComponent("comp", componentOf({ a: socket(v.number()) }, { b: v.number() }, () => 1)), { comp: { a: 1 } }, "PipelineRuntimeError"));

test("that has an auto joiner that takes in user inputs", () => {
  const docs = v.array(v.instance(Document));
  const userDoc = new Document({ content: "User document" });
  return check(
    () =>
      new Pipeline({ maxRunsPerComponent: 1 })
        .addComponent("retriever", componentOf({ query: socket(v.string()) }, { documents: docs }, (i) => ({ documents: [new Document({ content: `Document for query: ${i.query}` })] })))
        .addComponent("ranker", componentOf({ documents: socket(docs) }, { documents: docs }, (i) => ({ documents: i.documents })))
        .connect("retriever.documents", "ranker.documents"),
    [
      {
        inputs: { retriever: { query: "test query" }, ranker: { documents: [userDoc] } },
        expectedOutputs: { ranker: { documents: [userDoc, new Document({ content: "Document for query: test query" })] } },
        expectedCalls: { "retriever#1": { query: "test query" }, "ranker#1": { documents: [userDoc, new Document({ content: "Document for query: test query" })] } },
      },
    ],
  );
});

const msgs = v.array(v.instance(ChatMessage));
const docs = v.array(v.instance(Document));

test("that performs automatic conversion between list of ChatMessage and str", () => {
  const userQuery = "Rephrase the following question for a search engine: how tall is the tower of Pisa?";
  return check(
    () =>
      new Pipeline({ maxRunsPerComponent: 1 })
        .addComponent("chat_generator", componentOf({ messages: socket(msgs) }, { replies: msgs }, () => ({ replies: [ChatMessage.fromAssistant("Pisa tower height")] })))
        .addComponent("retriever", componentOf({ query: socket(v.string()) }, { documents: docs }, () => ({ documents: [new Document({ content: "Pisa tower height is 55 meters" })] })))
        .connect("chat_generator", "retriever"),
    [
      {
        inputs: { chat_generator: { messages: [ChatMessage.fromUser(userQuery)] } },
        expectedOutputs: { retriever: { documents: [new Document({ content: "Pisa tower height is 55 meters" })] } },
        expectedCalls: { "chat_generator#1": { messages: [ChatMessage.fromUser(userQuery)] }, "retriever#1": { query: "Pisa tower height" } },
      },
    ],
  );
});

test("that performs automatic conversion wrapping ChatMessage for a Union receiver", () => {
  const userQuery = "How tall is the tower of Pisa?";
  const messages = [ChatMessage.fromUser(userQuery)];
  return check(
    () =>
      new Pipeline({ maxRunsPerComponent: 1 })
        .addComponent("agent", componentOf({ messages: socket(msgs) }, { last_message: v.instance(ChatMessage) }, () => ({ last_message: ChatMessage.fromAssistant("Pisa tower is 55 meters tall") })))
        .addComponent(
          "answer_builder",
          componentOf({ query: socket(v.string()), replies: socket(v.union([v.array(v.string()), msgs])) }, { answers: v.array(v.string()) }, (i) => ({
            answers: (i.replies as (string | ChatMessage)[]).map((r) => (r instanceof ChatMessage ? (r.text ?? "") : r)),
          })),
        )
        .connect("agent.last_message", "answer_builder.replies"),
    [
      {
        inputs: { agent: { messages }, answer_builder: { query: userQuery } },
        expectedOutputs: { answer_builder: { answers: ["Pisa tower is 55 meters tall"] } },
        expectedCalls: { "agent#1": { messages }, "answer_builder#1": { query: userQuery, replies: [ChatMessage.fromAssistant("Pisa tower is 55 meters tall")] } },
      },
    ],
  );
});

test("that fails automatic conversion between list of ChatMessage and str → PipelineRuntimeError", () =>
  checkRaises(
    () =>
      new Pipeline({ maxRunsPerComponent: 1 })
        .addComponent("chat_generator", componentOf({ messages: socket(msgs) }, { replies: msgs }, () => ({ replies: [ChatMessage.fromAssistant()] })))
        .addComponent("retriever", componentOf({ query: socket(v.string()) }, { documents: docs }, () => ({ documents: [new Document({ content: "A relevant document" })] })))
        .connect("chat_generator", "retriever"),
    { chat_generator: { messages: [ChatMessage.fromUser("Find info on Milano Cortina Olympic Winter Games")] } },
    "PipelineRuntimeError",
  ));

test.run();
