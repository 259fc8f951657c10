/**
 * Haystack's type syntax tests (haystack test/core/pipeline/test_type_syntax_compatibility.py):
 * `Optional[str]` / `str | None` and `Union[str, list[str]]` / `str | list[str]` are the same
 * type. In svc both spellings are valibot schemas (`nullable(x)` and `union([x, null])`), which
 * must connect to each other and load from YAML.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import * as v from "valibot";
import { Component, Pipeline, createRegistry, loadPipelineYaml, output, socket } from "svc/engine";

const str = v.string();
/** Python's str() of the value: a list prints as `['a', 'b', 'c']`. */
const py = (x: unknown) => (Array.isArray(x) ? `[${x.map((i) => `'${i}'`).join(", ")}]` : String(x));

const spellings = {
  nonPep604: { value: v.nullable(str), items: v.union([str, v.array(str)]) },
  pep604: { value: v.union([str, v.null()]), items: v.union([str, v.array(str)]) },
};

function producer(kind: keyof typeof spellings) {
  return class Producer extends Component {
    static override readonly type = `test.core.pipeline.test_type_syntax_compatibility.${kind === "pep604" ? "Pep604" : "NonPep604"}Producer`;
    protected inputSpecs() {
      return { text: socket(str) };
    }
    protected outputSpecs() {
      return { value: output(spellings[kind].value), items: output(spellings[kind].items) };
    }
    run(inputs: { text: string }) {
      return { value: inputs.text, items: ["a", "b", "c"] };
    }
  };
}
function consumer(kind: keyof typeof spellings) {
  return class Consumer extends Component {
    static override readonly type = `test.core.pipeline.test_type_syntax_compatibility.${kind === "pep604" ? "Pep604" : "NonPep604"}Consumer`;
    protected inputSpecs() {
      return { value: socket(spellings[kind].value), items: socket(spellings[kind].items) };
    }
    protected outputSpecs() {
      return { result: output(str) };
    }
    run(inputs: { value: string | null; items: string | string[] }) {
      return { result: `${inputs.value}: ${py(inputs.items)}` };
    }
  };
}

for (const [p, c] of [["nonPep604", "pep604"], ["pep604", "nonPep604"]] as const) {
  test(`test_type_syntax_compatibility[${p} producer, ${c} consumer]`, async () => {
    const Producer = producer(p);
    const Consumer = consumer(c);
    const pipe = new Pipeline().addComponent("producer", new Producer()).addComponent("consumer", new Consumer());
    pipe.connect("producer.value", "consumer.value").connect("producer.items", "consumer.items");
    const result = await pipe.run({ producer: { text: "hello" } });
    assert.is(result.consumer!.result, "hello: ['a', 'b', 'c']");
  });
}

test("test_non_pep604_pipeline", async () => {
  const registry = createRegistry();
  registry.components.register(producer("nonPep604") as never, consumer("nonPep604") as never);
  const pipe = loadPipelineYaml(
    `
components:
  producer:
    init_parameters: {}
    type: test.core.pipeline.test_type_syntax_compatibility.NonPep604Producer
  consumer:
    init_parameters: {}
    type: test.core.pipeline.test_type_syntax_compatibility.NonPep604Consumer
connection_type_validation: true
connections:
- receiver: consumer.value
  sender: producer.value
- receiver: consumer.items
  sender: producer.items
max_runs_per_component: 100
metadata: {}
`,
    registry,
  );
  const result = await pipe.run({ producer: { text: "test" } });
  assert.is(result.consumer!.result, "test: ['a', 'b', 'c']");
});

test.run();
