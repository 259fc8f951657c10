/**
 * More of Haystack's pipeline building tests (haystack test/core/pipeline/test_pipeline_base.py):
 * remove_component, describe_input / describe_output, to_dict, and the blocked-pipeline diagnosis
 * (`_is_pipeline_possibly_blocked`, `_find_components_blocking_pipeline`) seen through the warning a
 * run logs. Socket `senders`/`receivers` lists are the pipeline's edges in svc.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import * as v from "valibot";
import { AddFixedValue, Double, Pipeline, ValueError, greedyVariadic, parseYaml, dumpPipelineYaml, socket, variadic } from "svc/engine";
import { componentOf } from "./harness.js";
import { recordingLog } from "./pipeline-fixtures.js";

const int = v.pipe(v.number(), v.integer());
const str = v.string();
/** svc's type names have no `int`: a number socket is `float` (Haystack's describe says `int` here). */
const INT = "float";
const senders = (p: Pipeline, c: string, s: string) => p.sendersOf(c, s).map((e) => e.sender);
const receivers = (p: Pipeline, c: string, s: string) => p.receiversOf(c).filter((e) => e.senderSocket === s).map((e) => e.receiver);
/** Haystack's `component_class(name, input_types, output_types)`. */
const made = (inputs: Record<string, v.GenericSchema>, outputs: Record<string, v.GenericSchema>) =>
  componentOf(Object.fromEntries(Object.entries(inputs).map(([k, s]) => [k, socket(s)])), outputs, () => ({}));
const some = () => made({ value: int }, { value: int });

test("test_remove_component_raises_if_invalid_component_name", () => {
  const p = new Pipeline().addComponent("1", some());
  assert.throws(() => p.removeComponent("2"), (e: Error) => e instanceof ValueError && /There is no component named '2' in the pipeline. The valid component names are: 1/.test(e.message));
});

test("test_remove_component_removes_component_and_its_edges", () => {
  const isolated = some();
  const p = new Pipeline().addComponent("1", some()).addComponent("2", some()).addComponent("3", some()).addComponent("4", some()).addComponent("isolated", isolated);
  p.connect("1", "2").connect("2", "3").connect("3", "4");
  p.removeComponent("2");
  assert.is(p.removeComponent("isolated"), isolated);
  assert.equal(p.componentNames.sort(), ["1", "3", "4"]);
  assert.equal(p.edges.map((e) => [e.sender, e.receiver]), [["3", "4"]]);
  new Pipeline().addComponent("again", isolated); // no longer owned by a pipeline
});

test("test_remove_component_middle_of_chain_removal", async () => {
  const p = new Pipeline().addComponent("producer", made({}, { value: int })).addComponent("middle", made({ value: int }, { value: int })).addComponent("consumer", componentOf({ value: socket(int) }, {}, (i) => ({ got: i.value })));
  p.connect("producer.value", "middle.value").connect("middle.value", "consumer.value");
  p.removeComponent("middle");
  assert.equal(receivers(p, "producer", "value"), []);
  assert.equal(senders(p, "consumer", "value"), []);
  assert.equal(p.inputs(), { consumer: { value: { type: INT, isMandatory: true } } });
  await p.run({ consumer: { value: 5 } }); // no "already connected" error
});

test("test_remove_component_fan_out", () => {
  const p = new Pipeline().addComponent("producer", made({}, { value: int })).addComponent("consumer_a", made({ value: int }, {})).addComponent("consumer_b", made({ value: int }, {}));
  p.connect("producer.value", "consumer_a.value").connect("producer.value", "consumer_b.value");
  p.removeComponent("producer");
  assert.equal([senders(p, "consumer_a", "value"), senders(p, "consumer_b", "value")], [[], []]);
});

test("test_remove_component_fan_in", () => {
  const p = new Pipeline().addComponent("producer_a", made({}, { value: int })).addComponent("producer_b", made({}, { value: int })).addComponent("consumer", made({ value: v.array(int) }, {}));
  p.connect("producer_a.value", "consumer.value").connect("producer_b.value", "consumer.value");
  p.removeComponent("consumer");
  assert.equal([receivers(p, "producer_a", "value"), receivers(p, "producer_b", "value")], [[], []]);
});

test("test_remove_component_variadic_multi_sender", () => {
  const consumer = made({ value: v.array(int) }, {});
  const p = new Pipeline().addComponent("producer_a", made({}, { value: int })).addComponent("producer_b", made({}, { value: int })).addComponent("consumer", consumer);
  p.connect("producer_a.value", "consumer.value").connect("producer_b.value", "consumer.value");
  assert.is(consumer.inputSockets.value!.kind, "lazyVariadic");
  assert.equal(senders(p, "consumer", "value").sort(), ["producer_a", "producer_b"]);
  p.removeComponent("producer_a");
  assert.equal(senders(p, "consumer", "value"), ["producer_b"]);
});

test("test_remove_component_multiple_connections_to_same_neighbor", () => {
  const p = new Pipeline().addComponent("producer", made({}, { first: int, second: int })).addComponent("consumer", made({ first: int, second: int }, {}));
  p.connect("producer.first", "consumer.first").connect("producer.second", "consumer.second");
  p.removeComponent("producer");
  assert.equal([senders(p, "consumer", "first"), senders(p, "consumer", "second")], [[], []]);
  assert.is(p.edges.length, 0);
});

test("test_remove_component_allows_you_to_reuse_the_component", () => {
  const p = new Pipeline().addComponent("component_1", some()).addComponent("component_2", some()).addComponent("component_3", some());
  p.connect("component_1", "component_2").connect("component_2", "component_3");
  const component2 = p.removeComponent("component_2");
  assert.equal(p.edges, []);
  const p2 = new Pipeline().addComponent("component_4", some()).addComponent("component_2", component2).addComponent("component_5", some());
  p2.connect("component_4", "component_2").connect("component_2", "component_5");
  assert.is(p2.getComponentName(component2), "component_2");
  assert.equal(senders(p2, "component_2", "value"), ["component_4"]);
  assert.equal(receivers(p2, "component_2", "value"), ["component_5"]);
});

test("test_remove_component_resets_auto_variadic_socket_mutation", async () => {
  const consumer = componentOf({ values: socket(v.array(int)) }, { values: v.array(int) }, (i) => ({ values: i.values }));
  const producer = (xs: number[]) => componentOf({}, { value: v.array(int) }, () => ({ value: xs }));
  const p = new Pipeline().addComponent("producer_a", producer([1])).addComponent("producer_b", producer([2])).addComponent("consumer", consumer);
  p.connect("producer_a.value", "consumer.values").connect("producer_b.value", "consumer.values");
  const s = consumer.inputSockets.values!;
  assert.equal([s.kind, s.autoVariadic], ["lazyVariadic", true]);
  p.removeComponent("consumer");
  assert.equal([s.kind, !!s.autoVariadic], ["normal", false]);
  const p2 = new Pipeline().addComponent("producer_a", producer([1, 2])).addComponent("consumer", consumer).connect("producer_a.value", "consumer.values");
  assert.is(s.kind, "normal");
  assert.equal(await p2.run({}), { consumer: { values: [1, 2] } }, "the list arrives as it is, not wrapped in another list");
});

for (const [name, spec] of [["Variadic[int]", variadic(int)], ["GreedyVariadic[int]", greedyVariadic(int)]] as const) {
  test(`test_remove_component_preserves_declared_variadic_socket[${name}]`, () => {
    const consumer = componentOf({ values: spec }, {}, () => ({}));
    const kind = consumer.inputSockets.values!.kind;
    new Pipeline().addComponent("consumer", consumer).removeComponent("consumer");
    assert.is(consumer.inputSockets.values!.kind, kind);
  });
}

test("test_to_dict (through the YAML dump): every component's init parameters, defaults included", () => {
  const p = new Pipeline({ metadata: { test: "test" }, maxRunsPerComponent: 42 })
    .addComponent("add_two", new AddFixedValue({ add: 2 }))
    .addComponent("add_default", new AddFixedValue())
    .addComponent("double", new Double())
    .connect("add_two", "double")
    .connect("double", "add_default");
  assert.equal(parseYaml(dumpPipelineYaml(p)), {
    metadata: { test: "test" },
    max_runs_per_component: 42,
    connection_type_validation: true,
    components: {
      add_two: { type: "haystack.testing.sample_components.add_value.AddFixedValue", init_parameters: { add: 2 } },
      add_default: { type: "haystack.testing.sample_components.add_value.AddFixedValue", init_parameters: { add: 1 } },
      double: { type: "haystack.testing.sample_components.double.Double", init_parameters: {} },
    },
    connections: [
      { sender: "add_two.result", receiver: "double.value" },
      { sender: "double.value", receiver: "add_default.value" },
    ],
  });
});

/** The a/b/c pipeline of the describe tests: a.x → c.x, b.y → c.y. */
function abc(a: Record<string, v.GenericSchema>, b: Record<string, v.GenericSchema>, cOut: Record<string, v.GenericSchema> = { z: int }) {
  return new Pipeline().addComponent("a", made(a, { x: int })).addComponent("b", made(b, { y: int })).addComponent("c", made({ x: int, y: int }, cOut)).connect("a.x", "c.x").connect("b.y", "c.y");
}
const connectedC = { c: { x: { type: INT, isMandatory: false }, y: { type: INT, isMandatory: false } } };

test("test_describe_input_only_no_inputs_components", () => {
  const p = abc({}, {});
  assert.equal(p.inputs(), {});
  assert.equal(p.inputs(true), connectedC);
});

test("test_describe_input_some_components_with_no_inputs", () => {
  const p = abc({}, { y: int });
  assert.equal(p.inputs(), { b: { y: { type: INT, isMandatory: true } } });
  assert.equal(p.inputs(true), { b: { y: { type: INT, isMandatory: true } }, ...connectedC });
});

test("test_describe_input_all_components_have_inputs", () => {
  const p = abc({ x: v.nullable(int) }, { y: int });
  const open = { a: { x: { type: `Optional[${INT}]`, isMandatory: true } }, b: { y: { type: INT, isMandatory: true } } };
  assert.equal(p.inputs(), open);
  assert.equal(p.inputs(true), { ...open, ...connectedC });
});

test("test_describe_output_multiple_possible", () => {
  const p = new Pipeline().addComponent("a", made({ input_a: str }, { output_a: str, output_b: str })).addComponent("b", made({ input_b: str }, { output_b: str })).connect("a.output_b", "b.input_b");
  assert.equal(p.outputs(), { a: { output_a: { type: "str" } }, b: { output_b: { type: "str" } } });
  assert.equal(p.outputs(true), { a: { output_a: { type: "str" }, output_b: { type: "str" } }, b: { output_b: { type: "str" } } });
});

test("test_describe_output_single", () => {
  const p = abc({ x: v.nullable(int) }, { y: int });
  assert.equal(p.outputs(), { c: { z: { type: INT } } });
  assert.equal(p.outputs(true), { a: { x: { type: INT } }, b: { y: { type: INT } }, c: { z: { type: INT } } });
});

test("test_describe_no_outputs", () => {
  const p = abc({ x: v.nullable(int) }, { y: int }, {});
  assert.equal(p.outputs(), {});
  assert.equal(p.outputs(true), { a: { x: { type: INT } }, b: { y: { type: INT } } });
});

// ---- the blocked-pipeline diagnosis, through the warning a run logs ----

/** Haystack's FakeComponent; `misnamed` returns its output under another key (output_types not matching). */
const fake = (misnamed = false) => componentOf({ input_: socket(str) }, { value: str }, (i) => (misnamed ? { valu: i.input_ } : { value: i.input_ }));
async function blockedWarning(p: Pipeline, data: Record<string, unknown>): Promise<string | undefined> {
  const { log, warnings } = recordingLog();
  await p.run(data, { log, concurrencyLimit: 1 });
  return warnings.find((w) => w.startsWith("Cannot run pipeline - the pipeline appears to be blocked."));
}

test("test_is_pipeline_possibly_blocked_has_expected_outputs: an output produced, no warning", async () => {
  assert.is(await blockedWarning(new Pipeline().addComponent("comp1", fake()), { comp1: { input_: "out" } }), undefined);
});

test("test_is_pipeline_possibly_blocked_missing_expected_outputs: none of the outputs produced, a warning", async () => {
  const silent = componentOf({ input_: socket(str) }, { value: str }, () => ({}));
  assert.match((await blockedWarning(new Pipeline().addComponent("comp1", silent), { comp1: { input_: "out" } })) ?? "", " - 'comp1' (");
});

test("test_is_pipeline_possibly_blocked_no_expected_outputs: a pipeline without outputs is not blocked", async () => {
  assert.is(await blockedWarning(new Pipeline().addComponent("sink", made({ input_: str }, {})), { sink: { input_: "x" } }), undefined);
});

const blockingNames = (w: string | undefined) => [...(w ?? "").matchAll(/ - '([^']+)'/g)].map((m) => m[1]);

test("TestFindComponentsBlockingPipeline.test_missing_input", async () => {
  const p = new Pipeline().addComponent("comp1", fake(true)).addComponent("comp2", fake()).connect("comp1.value", "comp2.input_");
  assert.equal(blockingNames(await blockedWarning(p, { comp1: { input_: "some user input" } })), ["comp2"]);
});

test("TestFindComponentsBlockingPipeline.test_blocked_components_linear: only the component directly blocked", async () => {
  const p = new Pipeline().addComponent("comp1", fake(true)).addComponent("comp2", fake()).addComponent("comp3", fake()).connect("comp1.value", "comp2.input_").connect("comp2.value", "comp3.input_");
  assert.equal(blockingNames(await blockedWarning(p, { comp1: { input_: "some user input" } })), ["comp2"]);
});

test("TestFindComponentsBlockingPipeline.test_blocking_components_from_two_branches", async () => {
  const router = componentOf({ inp: socket(str) }, { route1: str, route2: str }, (i) => ({ [i.inp]: `output from ${i.inp}` }));
  const p = new Pipeline()
    .addComponent("comp1", fake())
    .addComponent("router", router)
    .addComponent("comp2", fake(true))
    .addComponent("blocking_comp", fake())
    .addComponent("a_comp3", fake())
    .connect("comp1.value", "router.inp")
    .connect("router.route1", "comp2.input_")
    .connect("comp2.value", "blocking_comp.input_")
    .connect("router.route2", "a_comp3.input_");
  assert.equal(blockingNames(await blockedWarning(p, { comp1: { input_: "route1" } })), ["a_comp3", "blocking_comp"]);
});

test.run();
