/**
 * @module Pipelines and helpers shared by the ports of Haystack's test_pipeline.py and
 * test_async_pipeline.py (the two files test the same behaviours in Haystack's two run modes).
 */
import * as v from "valibot";
import type { Logger, Span, Tags, Tracer } from "svc/plugin";
import { Component, Document, Pipeline, output, socket } from "svc/engine";
import * as assert from "uvu/assert";
import { componentOf } from "./harness.js";

const str = v.string();
const doc = v.instance(Document);

/** `pytest.raises(cls, match=pattern)`. */
export async function rejects(run: Promise<unknown>, cls: new (...a: any[]) => Error, pattern: RegExp) {
  try {
    await run;
    assert.unreachable("expected an error");
  } catch (error) {
    assert.instance(error, cls, String(error));
    assert.match((error as Error).message, pattern);
  }
}

/** Haystack's caplog: the warnings a run logged. */
export function recordingLog(): { log: Logger; warnings: string[] } {
  const warnings: string[] = [];
  const log = { warn: (m: string) => void warnings.push(m), info: () => undefined, debug: () => undefined, error: () => undefined, child: () => log, enabled: () => true } as unknown as Logger;
  return { log, warnings };
}

/** Haystack's spying tracer, reduced to the component spans' tags. */
export function spyingTracer(): { tracer: Tracer; spans: { name: string; tags: Tags }[] } {
  const spans: { name: string; tags: Tags }[] = [];
  const tracer: Tracer = {
    startSpan(name: string, tags: Tags = {}): Span {
      const entry = { name, tags: { ...tags } };
      spans.push(entry);
      const span: Span = { name, setTag: (k: string, value: unknown) => ((entry.tags as Record<string, unknown>)[k] = value, span), end: () => undefined } as unknown as Span;
      return span;
    },
  };
  return { tracer, spans };
}

/** Haystack's `waiting_component` fixture: waits, then reports how long. */
export const waiting = () =>
  componentOf({ wait_for: socket(v.number()) }, { waited_for: v.number() }, async (i) => {
    await new Promise((r) => setTimeout(r, i.wait_for * 1000));
    return { waited_for: i.wait_for };
  });

/** test_component_with_empty_dict_as_output_appears_in_results (also in test_async_pipeline.py). */
export function emptyDictPipeline(): Pipeline {
  const producer = (prefix: string) => componentOf({ text: socket(v.nullable(str)) }, { value: v.nullable(str) }, (i) => ({ value: `${prefix}: ${i.text}` }));
  return new Pipeline()
    .addComponent("producer_a", producer("A"))
    .addComponent("producer_b", producer("B"))
    .addComponent("empty_processor", componentOf({ sources: socket(v.array(str)) }, {}, () => ({})))
    .addComponent("combiner", componentOf({ input_a: socket(v.nullable(str)), input_b: socket(v.nullable(str)) }, { combined: str }, (i) => ({ combined: `${i.input_a ?? ""} | ${i.input_b ?? ""}` })))
    .connect("producer_a.value", "combiner.input_a")
    .connect("producer_b.value", "combiner.input_b");
}
export const EMPTY_DICT_EXPECTED = { producer_a: { value: "A: hello" }, empty_processor: {}, combiner: { combined: "A: hello | B: world" } };
export const EMPTY_DICT_INPUT = { producer_a: { text: "hello" }, producer_b: { text: "world" }, empty_processor: { sources: [] } };

/** The extra-keys component of test__run_component_warns_on_extra_output_keys. */
export const extraKeys = () => componentOf({ value: socket(str) }, { output: str }, (i) => ({ output: i.value, extra_key: "unexpected" }));
export const correctKeys = () => componentOf({ value: socket(str) }, { output: str }, (i) => ({ output: i.value }));

/** test_pipeline_is_possibly_blocked_warning_message: a declared output the component never returns. */
export function misconfiguredPipeline(): Pipeline {
  class SimpleComponentTwoInputs extends Component {
    protected inputSpecs() {
      return { required_input: socket(str), second_required_input: socket(str) };
    }
    protected outputSpecs() {
      return { output: output(str) };
    }
    run() {
      return { output: "test" };
    }
  }
  return new Pipeline()
    .addComponent("first", componentOf({ required_input: socket(str) }, { output: str, other_output: str }, () => ({ output: "test" })))
    .addComponent("second", new SimpleComponentTwoInputs())
    .connect("first.output", "second.required_input")
    .connect("first.other_output", "second.second_required_input");
}

/** test_pipeline_ensure_inputs_are_deep_copied: a component mutating its input changes no sibling's. */
export function deepCopyPipeline(): Pipeline {
  const simple = () => componentOf({ document: socket(doc) }, { output: doc }, (i) => ({ output: new Document({ content: i.document.content }) }));
  const modifying = componentOf({ document: socket(doc) }, { output: doc }, (i) => {
    i.document.content = "modified";
    return { output: i.document };
  });
  return new Pipeline().addComponent("first", simple()).addComponent("modifier", modifying).addComponent("second", simple()).connect("first.output", "modifier.document").connect("first.output", "second.document");
}

/** test_pipeline_does_not_corrupt_outputs: include_outputs_from keeps the value as produced. */
export function corruptPipeline(): Pipeline {
  return new Pipeline()
    .addComponent("producer", componentOf({}, { doc }, () => ({ doc: new Document({ content: "original" }) })))
    .addComponent("mutator", componentOf({ doc: socket(doc) }, { doc }, (i) => {
      i.doc.content = "mutated";
      return { doc: i.doc };
    }))
    .connect("producer.doc", "mutator.doc");
}

/** The list-unwrap pair of test_run_raises_when_multi_element_list_is_unwrapped_at_runtime. */
export const unwrapPipeline = (texts: string[]) =>
  new Pipeline()
    .addComponent("producer", componentOf({}, { texts: v.array(str) }, () => ({ texts })))
    .addComponent("consumer", componentOf({ text: socket(str) }, { out: str }, (i) => ({ out: i.text })))
    .connect("producer.texts", "consumer.text");
