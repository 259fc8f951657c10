/**
 * Haystack's pipeline tracing tests (haystack test/core/pipeline/test_tracing.py): the
 * `haystack.pipeline.run` and `haystack.component.run` spans and their tags, value for value.
 * Haystack's `run` is a run one component at a time (`concurrencyLimit: 1`), its `run_async` the
 * concurrent run. Deliberate difference: svc records the pipeline's `input_data` only with content
 * tracing on, like every other input and output (Haystack records it always).
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import * as v from "valibot";
import type { Span, Tags, Tracer } from "svc/plugin";
import { Component, Document, Pipeline, output, socket } from "svc/engine";
import { withEnv } from "../../../helpers/env.js";

class Hello extends Component {
  static override readonly type = "test.core.pipeline.test_tracing.Hello";
  protected inputSpecs() {
    return { word: socket(v.nullable(v.string())) };
  }
  protected outputSpecs() {
    return { output: output(v.string()) };
  }
  run(inputs: { word: string | null }) {
    return { output: `Hello, ${inputs.word}!` };
  }
}

const pipeline = () => new Pipeline().addComponent("hello", new Hello()).addComponent("hello2", new Hello()).connect("hello.output", "hello2.word");

interface Spied {
  name: string;
  tags: Record<string, unknown>;
  parent?: Spied;
}
/** Haystack's SpyingTracer: every span in creation order, with its tags and parent. */
function spyingTracer(): { tracer: Tracer; spans: Spied[] } {
  const spans: Spied[] = [];
  const tracer: Tracer = {
    startSpan(name: string, tags: Tags = {}, parent?: Span): Span {
      const entry: Spied = { name, tags: { ...tags }, parent: spans.find((s) => (s as unknown as { span: Span }).span === parent) };
      const span = { name, setTag: (k: string, value: unknown) => ((entry.tags[k] = value), span), setTags: (t: Tags) => (Object.assign(entry.tags, t), span), end: () => undefined } as unknown as Span;
      (entry as unknown as { span: Span }).span = span;
      spans.push(entry);
      return span;
    },
  };
  return { tracer, spans };
}

const expectedSpans = (mode: string) => [
  {
    name: "haystack.pipeline.run",
    tags: {
      "haystack.pipeline.input_data": { hello: { word: "world" } },
      "haystack.pipeline.output_data": { hello2: { output: "Hello, Hello, world!!" } },
      "haystack.pipeline.metadata": {},
      "haystack.pipeline.max_runs_per_component": 100,
      "haystack.pipeline.execution_mode": mode,
    },
    parent: undefined,
  },
  ...[
    ["hello", [], ["hello2"], "world", "Hello, world!"],
    ["hello2", ["hello"], [], "Hello, world!", "Hello, Hello, world!!"],
  ].map(([name, senders, receivers, input, out]) => ({
    name: "haystack.component.run",
    tags: {
      "haystack.component.name": name,
      "haystack.component.type": "Hello",
      "haystack.component.fully_qualified_type": "test.core.pipeline.test_tracing.Hello",
      "haystack.component.input_types": { word: "str" },
      "haystack.component.input_spec": { word: { type: "str | None", senders } },
      "haystack.component.input": { word: input },
      "haystack.component.output_spec": { output: { type: "str", receivers } },
      "haystack.component.output": { output: out },
      "haystack.component.visits": 1,
    },
    parent: "haystack.pipeline.run",
  })),
];
const shape = (spans: Spied[]) => spans.map((s) => ({ name: s.name, tags: s.tags, parent: s.parent?.name }));

test("test_with_enabled_tracing (content tracing from HAYSTACK_CONTENT_TRACING_ENABLED)", async () => {
  const { tracer, spans } = spyingTracer();
  await withEnv({ HAYSTACK_CONTENT_TRACING_ENABLED: "true" }, () => pipeline().run({ word: "world" }, { tracer, concurrencyLimit: 1 }));
  assert.is(spans.length, 3);
  assert.equal(shape(spans), expectedSpans("sync"));
});

test("test_with_enabled_content_tracing (the run's contentTracing option)", async () => {
  const { tracer, spans } = spyingTracer();
  await withEnv({ HAYSTACK_CONTENT_TRACING_ENABLED: undefined }, () => pipeline().run({ word: "world" }, { tracer, concurrencyLimit: 1, contentTracing: true }));
  assert.equal(shape(spans), expectedSpans("sync"));
});

for (const runAsync of [false, true]) {
  test(`test_pipeline_output_data_trace_tag[content_tracing=True, run_async=${runAsync}]`, async () => {
    const { tracer, spans } = spyingTracer();
    await pipeline().run({ word: "world" }, { tracer, contentTracing: true, concurrencyLimit: runAsync ? 4 : 1 });
    // Set from the final outputs, not from the still-empty result at span start.
    assert.equal(JSON.parse(JSON.stringify(spans[0]!.tags["haystack.pipeline.input_data"])), { hello: { word: "world" } });
    assert.equal(JSON.parse(JSON.stringify(spans[0]!.tags["haystack.pipeline.output_data"])), { hello2: { output: "Hello, Hello, world!!" } });
  });

  test(`test_pipeline_output_data_trace_tag[content_tracing=False, run_async=${runAsync}]: no output_data (deliberately no input_data either)`, async () => {
    const { tracer, spans } = spyingTracer();
    await withEnv({ HAYSTACK_CONTENT_TRACING_ENABLED: undefined }, () => pipeline().run({ word: "world" }, { tracer, concurrencyLimit: runAsync ? 4 : 1 }));
    assert.not.ok("haystack.pipeline.output_data" in spans[0]!.tags);
    assert.not.ok("haystack.pipeline.input_data" in spans[0]!.tags);
    assert.not.ok("haystack.component.input" in spans[1]!.tags);
  });

  test(`test_span_input_not_affected_by_component_mutation[run_async=${runAsync}]`, async () => {
    class MutatingComponent extends Component {
      protected inputSpecs() {
        return { doc: socket(v.instance(Document)) };
      }
      protected outputSpecs() {
        return { doc: output(v.instance(Document)) };
      }
      run(inputs: { doc: Document }) {
        (inputs.doc as { content: string | null }).content = "mutated"; // harsher than Haystack's `replace`: in place
        return { doc: inputs.doc };
      }
    }
    const { tracer, spans } = spyingTracer();
    const result = await new Pipeline().addComponent("mutator", new MutatingComponent()).run({ mutator: { doc: new Document({ content: "original" }) } }, { tracer, contentTracing: true, concurrencyLimit: runAsync ? 4 : 1 });
    assert.is(spans[0]!.name, "haystack.pipeline.run");
    assert.is(spans[0]!.tags["haystack.pipeline.execution_mode"], runAsync ? "async" : "sync");
    assert.is((spans[1]!.tags["haystack.component.input"] as { doc: Document }).doc.content, "original");
    assert.is((result.mutator!.doc as Document).content, "mutated");
  });
}

test.run();
