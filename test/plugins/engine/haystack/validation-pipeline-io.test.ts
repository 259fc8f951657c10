/**
 * Haystack's pipeline input/output validation tests (haystack test/core/pipeline/
 * test_validation_pipeline_io.py), ported value for value. `find_pipeline_inputs/outputs(graph)`
 * are svc's `inputs()` / `outputs()`, which leave out a component without open sockets (Haystack
 * lists it with `[]`). svc's type names have no `int`: a number socket is `float`.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { AddFixedValue, Double, Parity, Pipeline, Sum, ValueError } from "svc/engine";
import { componentOf } from "./harness.js";

const names = (described: Record<string, Record<string, unknown>>) => Object.fromEntries(Object.entries(described).map(([c, sockets]) => [c, Object.keys(sockets)]));
const doubles = () => new Pipeline().addComponent("comp1", new Double()).addComponent("comp2", new Double()).connect("comp1", "comp2");

async function rejectsValueError(run: Promise<unknown>) {
  try {
    await run;
    assert.unreachable("expected a ValueError");
  } catch (error) {
    assert.instance(error, ValueError, String(error));
  }
}

test("test_find_pipeline_input_no_input", () => {
  assert.equal(doubles().connect("comp2", "comp1").inputs(), {});
});

test("test_find_pipeline_input_one_input", () => {
  assert.equal(doubles().inputs(), { comp1: { value: { type: "float", isMandatory: true } } });
});

test("test_find_pipeline_input_two_inputs_same_component", () => {
  const p = new Pipeline().addComponent("comp1", new AddFixedValue()).addComponent("comp2", new Double()).connect("comp1", "comp2");
  assert.equal(p.inputs(), { comp1: { value: { type: "float", isMandatory: true }, add: { type: "Optional[float]", isMandatory: false, default: null } } });
});

test("test_find_pipeline_input_some_inputs_different_components", () => {
  const p = new Pipeline().addComponent("comp1", new AddFixedValue()).addComponent("comp2", new Double()).addComponent("comp3", new AddFixedValue()).connect("comp1.result", "comp3.value").connect("comp2.value", "comp3.add");
  assert.equal(names(p.inputs()), { comp1: ["value", "add"], comp2: ["value"] });
});

test("test_find_pipeline_variable_input_nodes_in_the_pipeline", () => {
  const p = new Pipeline().addComponent("comp1", new AddFixedValue()).addComponent("comp2", new Double()).addComponent("comp3", new Sum());
  assert.equal(names(p.inputs()), { comp1: ["value", "add"], comp2: ["value"], comp3: ["values"] });
});

test("test_find_pipeline_output_no_output", () => {
  assert.equal(doubles().connect("comp2", "comp1").outputs(), {});
});

test("test_find_pipeline_output_one_output", () => {
  assert.equal(doubles().outputs(), { comp2: { value: { type: "float" } } });
});

test("test_find_pipeline_some_outputs_same_component", () => {
  const p = new Pipeline().addComponent("comp1", new Double()).addComponent("comp2", new Parity()).connect("comp1", "comp2");
  assert.equal(names(p.outputs()), { comp2: ["even", "odd"] });
});

test("test_find_pipeline_some_outputs_different_components", () => {
  const p = new Pipeline().addComponent("comp1", new Double()).addComponent("comp2", new Parity()).addComponent("comp3", new Double()).connect("comp1", "comp2").connect("comp1", "comp3");
  assert.equal(names(p.outputs()), { comp2: ["even", "odd"], comp3: ["value"] });
});

test("test_validate_pipeline_input_pipeline_with_no_inputs", async () => {
  assert.equal(await new Pipeline().addComponent("no_inputs", componentOf({}, { value: undefined }, () => ({ value: 10 }))).run({}), { no_inputs: { value: 10 } });
});

test("test_validate_pipeline_input_pipeline_with_no_inputs_no_outputs", async () => {
  assert.equal(await new Pipeline().addComponent("no_inputs", componentOf({}, {}, () => ({}))).run({}), {});
});

test("test_validate_pipeline_input_unknown_component", async () => {
  // svc reads data keyed by an unknown name as flat input (see pipeline-base.test.ts); the run
  // still fails with a ValueError: comp1's mandatory input is missing.
  await rejectsValueError(doubles().run({ test_component: { value: 1 } }));
});

test("test_validate_pipeline_input_all_necessary_input_is_present", async () => {
  await rejectsValueError(doubles().run({}));
});

test("test_validate_pipeline_input_all_necessary_input_is_present_considering_defaults", async () => {
  const p = new Pipeline().addComponent("comp1", new AddFixedValue()).addComponent("comp2", new Double()).connect("comp1", "comp2");
  assert.equal(await p.run({ comp1: { value: 1 } }), { comp2: { value: 4 } });
  assert.equal(await p.run({ comp1: { value: 1, add: 2 } }), { comp2: { value: 6 } });
  await rejectsValueError(p.run({ comp1: { add: 3 } }));
});

test("test_validate_pipeline_input_only_expected_input_is_present", async () => {
  await rejectsValueError(doubles().run({ comp1: { value: 1 }, comp2: { value: 2 } }));
});

test("test_validate_pipeline_input_only_expected_input_is_present_falsy", async () => {
  await rejectsValueError(doubles().run({ comp1: { value: 1 }, comp2: { value: 0 } }));
});

test("test_validate_pipeline_falsy_input_present", async () => {
  assert.equal(await new Pipeline().addComponent("comp", new Double()).run({ comp: { value: 0 } }), { comp: { value: 0 } });
});

test("test_validate_pipeline_falsy_input_missing", async () => {
  await rejectsValueError(new Pipeline().addComponent("comp", new Double()).run({ comp: {} }));
});

test("test_validate_pipeline_input_only_expected_input_is_present_including_unknown_names", async () => {
  await rejectsValueError(doubles().run({ comp1: { value: 1, add: 2 } }));
});

test("test_validate_pipeline_input_only_expected_input_is_present_and_defaults_dont_interfere", async () => {
  const p = new Pipeline().addComponent("comp1", new AddFixedValue({ add: 10 })).addComponent("comp2", new Double()).connect("comp1", "comp2");
  assert.equal(await p.run({ comp1: { value: 1, add: 5 } }), { comp2: { value: 12 } });
});

test.run();
