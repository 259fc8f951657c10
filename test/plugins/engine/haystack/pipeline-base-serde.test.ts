/**
 * Haystack's pipeline equality, (de)serialization, repr and walk tests (haystack
 * test/core/pipeline/test_pipeline_base.py, TestPipelineBase and TestPipelineBaseFromDict): `==` is
 * `equals`, `dumps`/`loads` are `dumpPipelineYaml`/`loadPipelineYaml`, `from_dict` is
 * `pipelineFromDict`, `repr` is `toString()`. svc loads only registered types, so Haystack's
 * module-allowlist cases (Python imports) are not ported.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import * as v from "valibot";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AddFixedValue, Component, Double, Pipeline, PipelineError, createRegistry, dumpPipelineYaml, loadPipelineYaml, output, pipelineFromDict, socket } from "svc/engine";

const str = v.string();

/** Haystack's FakeComponent; like it, it does not keep `an_init_param`, so it dumps the default. */
class FakeComponent extends Component<{ an_init_param: string | null }> {
  static override readonly type = "test.core.pipeline.test_pipeline_base.FakeComponent";
  static override readonly initSchema = v.object({ an_init_param: v.optional(v.nullable(v.string()), null) });
  protected inputSpecs() {
    return { input_: socket(str) };
  }
  protected outputSpecs() {
    return { value: output(str) };
  }
  run(inputs: { input_: string }) {
    return { value: inputs.input_ };
  }
}

const registry = () => {
  const r = createRegistry();
  r.components.register(FakeComponent as never);
  return r;
};

/** test/test_files/yaml/test_pipeline.yaml at the reference commit. */
const TEST_PIPELINE_YAML = `components:
  Comp1:
    init_parameters:
      an_init_param: null
    type: test.core.pipeline.test_pipeline_base.FakeComponent
  Comp2:
    init_parameters:
      an_init_param: null
    type: test.core.pipeline.test_pipeline_base.FakeComponent
connection_type_validation: true
connections:
- receiver: Comp2.input_
  sender: Comp1.value
max_runs_per_component: 99
metadata: {}
`;

const testPipeline = () => new Pipeline({ maxRunsPerComponent: 99 }).addComponent("Comp1", new FakeComponent()).addComponent("Comp2", new FakeComponent()).connect("Comp1.value", "Comp2.input_");

const throwsPipelineError = (fn: () => unknown, pattern: RegExp) =>
  assert.throws(fn, (e: Error) => e instanceof PipelineError && pattern.test(e.message), `expected a PipelineError matching ${pattern}`);

test("test_pipeline_equality", () => {
  const one = new Pipeline({ metadata: { test: "data" } }).addComponent("comp1", new FakeComponent());
  const two = new Pipeline({ metadata: { test: "data" } }).addComponent("comp1", new FakeComponent());
  assert.ok(one.equals(two));
  assert.not.ok(one.equals(new Pipeline({ metadata: { test: "other" } }).addComponent("comp1", new FakeComponent())));
});

test("test_pipeline_eq_no_crash_on_non_pipeline_types", () => {
  const p = new Pipeline();
  for (const other of [{}, "not a pipeline", 123, null, undefined]) assert.not.ok(p.equals(other));
});

test("test_pipeline_equality_subclasses", () => {
  class CustomPipeline extends Pipeline {}
  assert.not.ok(new Pipeline().equals(new CustomPipeline()));
  assert.not.ok(new CustomPipeline().equals(new Pipeline()));
});

test("test_pipeline_dumps", () => {
  assert.is(dumpPipelineYaml(testPipeline()), TEST_PIPELINE_YAML);
});

test("test_pipeline_loads_invalid_data", () => {
  throwsPipelineError(() => loadPipelineYaml("components:\n  Comp1:\n    type: x\n  Comp2*\n    init_parameters:\n  - [\n", registry()), /^Error while unmarshalling serialized pipeline data/);
  const unknownParameter = TEST_PIPELINE_YAML.replace("an_init_param: null", "unknown: null");
  throwsPipelineError(() => loadPipelineYaml(unknownParameter, registry()), /Couldn't deserialize component 'Comp1'/);
});

test("test_pipeline_dump: written to a file, the same text as Haystack's", () => {
  const dir = mkdtempSync(join(tmpdir(), "svc-dump-"));
  try {
    writeFileSync(join(dir, "out.yaml"), dumpPipelineYaml(testPipeline()));
    assert.is(readFileSync(join(dir, "out.yaml"), "utf8"), TEST_PIPELINE_YAML);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("test_pipeline_load", () => {
  const p = loadPipelineYaml(TEST_PIPELINE_YAML, registry());
  assert.is(p.maxRunsPerComponent, 99);
  assert.instance(p.getComponent("Comp1"), FakeComponent);
  assert.instance(p.getComponent("Comp2"), FakeComponent);
  assert.ok(p.equals(testPipeline()), "loads(dumps(p)) == p");
});

test("test_repr (toString): metadata, components by class name, connections with their types", () => {
  const p = new Pipeline({ metadata: { test: "test" } })
    .addComponent("add_two", new AddFixedValue({ add: 2 }))
    .addComponent("add_default", new AddFixedValue())
    .addComponent("double", new Double())
    .connect("add_two", "double")
    .connect("double", "add_default");
  // Haystack's first line is Python's object repr; svc's names the class. svc's number type is `float`.
  assert.is(
    String(p),
    "Pipeline\n🧱 Metadata\n  - test: test\n🚅 Components\n  - add_two: AddFixedValue\n  - add_default: AddFixedValue\n  - double: Double\n🛤️ Connections\n  - add_two.result -> double.value (float)\n  - double.value -> add_default.value (float)\n",
  );
});

const made = (inputs: Record<string, v.GenericSchema>, outputs: Record<string, v.GenericSchema>) => {
  class Made extends Component {
    protected inputSpecs() {
      return Object.fromEntries(Object.entries(inputs).map(([k, s]) => [k, socket(s)]));
    }
    protected outputSpecs() {
      return Object.fromEntries(Object.entries(outputs).map(([k, s]) => [k, output(s)]));
    }
    run() {
      return {};
    }
  }
  return new Made();
};
const byName = (entries: [string, Component][]) => [...entries].sort((a, b) => a[0].localeCompare(b[0]));

test("test_walk_pipeline_with_no_cycles", () => {
  const hello = () => made({ word: str }, { output: str });
  const [source1, source2, hello3, joiner] = [hello(), hello(), hello(), made({ word1: str, word2: str }, { output: str })];
  const p = new Pipeline().addComponents({ source1, source2, hello3, joiner });
  p.connect("source1", "joiner.word1").connect("source2", "hello3").connect("hello3", "joiner.word2");
  assert.equal(byName(p.walk()), byName([["source1", source1], ["source2", source2], ["joiner", joiner], ["hello3", hello3]]));
});

test("test_walk_pipeline_with_cycles", () => {
  const hello = () => made({ word: str, intermediate: v.nullable(str) }, { intermediate: str, final: str });
  const [a, b] = [hello(), hello()];
  const p = new Pipeline().addComponent("hello", a).addComponent("hello_again", b);
  p.connect("hello.intermediate", "hello_again.intermediate").connect("hello_again.intermediate", "hello.intermediate");
  assert.equal(byName(p.walk()), [["hello", a], ["hello_again", b]]);
});

// ---- TestPipelineBaseFromDict ----

const CALC = {
  metadata: { test: "test" },
  max_runs_per_component: 101,
  components: {
    add_two: { type: "haystack.testing.sample_components.add_value.AddFixedValue", init_parameters: { add: 2 } },
    add_default: { type: "haystack.testing.sample_components.add_value.AddFixedValue", init_parameters: { add: 1 } },
    double: { type: "haystack.testing.sample_components.double.Double", init_parameters: {} },
  },
  connections: [
    { sender: "add_two.result", receiver: "double.value" },
    { sender: "double.value", receiver: "add_default.value" },
  ],
};
const edgesOf = (p: Pipeline) => p.edges.map((e) => [e.sender, e.senderSocket, e.receiver, e.receiverSocket, e.conversion ?? null]);
const socketsOf = (c: Component) => Object.values(c.inputSockets).map((s) => [s.name, s.kind, s.mandatory, s.default ?? null]);

function checkCalc(p: Pipeline, addTwo: Component, addDefault: Component) {
  assert.equal(p.metadata, { test: "test" });
  assert.equal(p.componentNames, ["add_two", "add_default", "double"]);
  assert.is((addTwo as AddFixedValue).initParameters.add, 2);
  assert.is((addDefault as AddFixedValue).initParameters.add, 1);
  assert.equal(socketsOf(addTwo), [["value", "normal", true, null], ["add", "normal", false, null]]);
  assert.equal(p.receiversOf("add_two").map((e) => e.receiver), ["double"]);
  assert.equal(p.sendersOf("add_default", "value").map((e) => e.sender), ["double"]);
  assert.equal(p.receiversOf("add_default"), []);
  assert.equal(edgesOf(p), [["add_two", "result", "double", "value", null], ["double", "value", "add_default", "value", null]]);
}

test("test_from_dict", () => {
  const p = pipelineFromDict(CALC, registry());
  assert.is(p.maxRunsPerComponent, 101);
  checkCalc(p, p.getComponent("add_two"), p.getComponent("add_default"));
});

test("test_from_dict_with_empty_dict", () => {
  assert.ok(new Pipeline().equals(pipelineFromDict({}, registry())));
});

test("test_from_dict_with_components_instances", () => {
  const addTwo = new AddFixedValue({ add: 2 });
  const addDefault = new AddFixedValue();
  const data = { ...CALC, components: { add_two: {}, add_default: {}, double: CALC.components.double } };
  const p = pipelineFromDict(data, registry(), { components: { add_two: addTwo, add_default: addDefault } });
  assert.is(p.getComponent("add_two"), addTwo);
  assert.is(p.getComponent("add_default"), addDefault);
  checkCalc(p, addTwo, addDefault);
});

test("test_from_dict_without_component_type", () => {
  throwsPipelineError(() => pipelineFromDict({ metadata: { test: "test" }, components: { add_two: { init_parameters: { add: 2 } } }, connections: [] }, registry()), /Missing 'type' in component 'add_two'/);
});

const typed = (type: string) => ({ metadata: { test: "test" }, components: { add_two: { type, init_parameters: { add: 2 } } }, connections: [] });

test("test_from_dict_without_registered_component_type", () => {
  throwsPipelineError(() => pipelineFromDict(typed("haystack.does.not.exist.Component"), registry()), /Component .+ not imported./);
});

test("test_from_dict_with_invalid_type", () => {
  throwsPipelineError(() => pipelineFromDict(typed(""), registry()), /^Component '' \(name: 'add_two'\) not imported\./);
});

test("test_from_dict_with_correct_import_but_invalid_type", () => {
  throwsPipelineError(() => pipelineFromDict(typed("haystack.testing.NonExistentComponent"), registry()), /^Component 'haystack.testing.NonExistentComponent' \(name: 'add_two'\) not imported\./);
});

test("test_from_dict_without_connection_sender", () => {
  throwsPipelineError(() => pipelineFromDict({ metadata: { test: "test" }, components: {}, connections: [{ receiver: "some.receiver" }] }, registry()), /Missing sender in connection: \{'receiver': 'some.receiver'\}/);
});

test("test_from_dict_without_connection_receiver", () => {
  throwsPipelineError(() => pipelineFromDict({ metadata: { test: "test" }, components: {}, connections: [{ sender: "some.sender" }] }, registry()), /Missing receiver in connection: \{'sender': 'some.sender'\}/);
});

test.run();
