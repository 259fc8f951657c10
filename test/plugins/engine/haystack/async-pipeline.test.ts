/**
 * Haystack's AsyncPipeline tests (haystack test/core/pipeline/test_async_pipeline.py), ported value
 * for value: Haystack's `run_async` is svc's run with components concurrently (the default limit).
 * The cases on its private `_run_component_in_isolation` are run-level here: a greedy component runs
 * alone after the components in flight, consumed outputs are pruned, include_outputs_from keeps them.
 * Abandoning `run_async_generator` is aborting the run's signal.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import * as v from "valibot";
import { BranchJoiner, Pipeline, PipelineRuntimeError, ValueError, socket } from "svc/engine";
import { componentOf } from "./harness.js";
import { EMPTY_DICT_EXPECTED, EMPTY_DICT_INPUT, corruptPipeline, rejects, correctKeys, deepCopyPipeline, emptyDictPipeline, extraKeys, misconfiguredPipeline, recordingLog, spyingTracer, unwrapPipeline, waiting } from "./pipeline-fixtures.js";
import * as componentKit from "svc/engine";
import type { Document } from "svc/engine";

const int = v.number();
const doubler = () => componentOf({ value: socket(int) }, { value: int }, (i) => ({ value: i.value * 2 }));

/** A component that runs until its signal aborts (Haystack's task cancellation) or 5 s pass. */
function abortable(onStart: () => void, state: { cancelled: boolean }) {
  const { Component, output } = componentKit;
  class Slow extends Component {
    protected inputSpecs() {
      return { text: socket(v.string()) };
    }
    protected outputSpecs() {
      return { value: output(v.string()) };
    }
    async run(i: { text: string }, ctx: { signal: AbortSignal }) {
      onStart();
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 5000);
        ctx.signal.addEventListener("abort", () => {
          state.cancelled = true;
          clearTimeout(timer);
          resolve();
        });
      });
      if (ctx.signal.aborted) throw ctx.signal.reason;
      return { value: i.text };
    }
  }
  return new Slow();
}

test("test_async_pipeline_reentrance: concurrent runs of one pipeline, one visit each", async () => {
  const { tracer, spans } = spyingTracer();
  const p = new Pipeline().addComponent("wait", waiting());
  await Promise.all([{ wait_for: 0.001 }, { wait_for: 0.002 }].map((data) => p.run(data, { tracer })));
  const componentSpans = spans.filter((s) => s.name === "haystack.component.run");
  assert.is(componentSpans.length, 2);
  for (const s of componentSpans) assert.is(s.tags["haystack.component.visits"], 1);
});

test("test_run_in_sync_context", async () => {
  assert.equal(await new Pipeline().addComponent("wait", waiting()).run({ wait_for: 0.001 }), { wait: { waited_for: 0.001 } });
});

test("test_run_async_with_invalid_concurrency_limit", async () => {
  await rejects(new Pipeline().run({}, { concurrencyLimit: 0 }), ValueError, /concurrency_limit must be greater than or equal to 1/);
});

test("test_component_with_empty_dict_as_output_appears_in_results", async () => {
  assert.equal(await emptyDictPipeline().run(EMPTY_DICT_INPUT, { includeOutputsFrom: ["producer_a", "empty_processor", "combiner"] }), EMPTY_DICT_EXPECTED);
});

test("test__run_component_async_warns_on_extra_output_keys", async () => {
  const { log, warnings } = recordingLog();
  await new Pipeline().addComponent("extra", extraKeys()).run({ extra: { value: "test" } }, { log });
  assert.match(warnings.join("\n"), /returned output keys[\s\S]*extra_key[\s\S]*not declared/);
});

test("test__run_component_async_no_warning_on_correct_output_keys", async () => {
  const { log, warnings } = recordingLog();
  await new Pipeline().addComponent("correct", correctKeys()).run({ correct: { value: "test" } }, { log });
  assert.equal(warnings, []);
});

test("test_async_pipeline_is_possibly_blocked_warning_message", async () => {
  const { log, warnings } = recordingLog();
  await misconfiguredPipeline().run({ first: { required_input: "test" } }, { log });
  assert.match(warnings.join("\n"), "Cannot run pipeline - the pipeline appears to be blocked.");
  assert.match(warnings.join("\n"), " - 'second' (SimpleComponentTwoInputs)");
});

test("test_async_pipeline_ensure_inputs_are_deep_copied", async () => {
  const { Document } = componentKit;
  const result = await deepCopyPipeline().run({ first: { document: new Document({ content: "original" }) } });
  assert.is((result.modifier!.output as Document).content, "modified");
  assert.is((result.second!.output as Document).content, "original");
});

test("test_async_pipeline_does_not_corrupt_outputs", async () => {
  const result = await corruptPipeline().run({}, { includeOutputsFrom: ["producer"] });
  assert.is((result.producer!.doc as Document).content, "original");
  assert.is((result.mutator!.doc as Document).content, "mutated");
});

test("test_runs_component_and_yields_output", async () => {
  const { tracer, spans } = spyingTracer();
  assert.equal(await new Pipeline().addComponent("doubler", doubler()).run({ doubler: { value: 3 } }, { tracer }), { doubler: { value: 6 } });
  assert.equal(spans.filter((s) => s.name === "haystack.component.run").map((s) => s.tags["haystack.component.visits"]), [1]);
});

test("test_runs_greedy_component_consuming_single_input: two values queued, the first is taken", async () => {
  const one = componentOf({}, { value: int }, () => ({ value: 1 }));
  const two = componentOf({}, { value: int }, () => ({ value: 2 }));
  const p = new Pipeline().addComponent("a", one).addComponent("b", two).addComponent("joiner", new BranchJoiner({ type_: "int" })).connect("a.value", "joiner.value").connect("b.value", "joiner.value");
  // Both senders in flight at once: their values queue on the greedy socket in arrival order.
  assert.equal(await p.run({}), { joiner: { value: 1 } });
});

test("test_drains_in_flight_tasks_before_running: a greedy component waits for the components in flight", async () => {
  const order: string[] = [];
  const slow = componentOf({}, { value: int }, async () => {
    await new Promise((r) => setTimeout(r, 50));
    order.push("other");
    return { value: 99 };
  });
  const fast = componentOf({}, { value: int }, () => (order.push("fast"), { value: 3 }));
  const greedy = componentOf({ value: componentKit.greedyVariadic(int) }, { value: int }, (i) => (order.push("greedy"), { value: i.value[0] * 2 }));
  const p = new Pipeline().addComponent("other", slow).addComponent("fast", fast).addComponent("doubler", greedy).connect("fast.value", "doubler.value");
  assert.equal(await p.run({}), { other: { value: 99 }, doubler: { value: 6 } });
  assert.equal(order, ["fast", "other", "greedy"]);
});

test("test_distributes_outputs_downstream_and_prunes_consumed", async () => {
  const p = new Pipeline().addComponent("first", doubler()).addComponent("second", doubler()).connect("first.value", "second.value");
  assert.equal(await p.run({ first: { value: 3 } }), { second: { value: 12 } });
});

test("test_include_outputs_from_yields_even_when_consumed", async () => {
  const p = new Pipeline().addComponent("first", doubler()).addComponent("second", doubler()).connect("first.value", "second.value");
  assert.equal(await p.run({ first: { value: 3 } }, { includeOutputsFrom: ["first"] }), { first: { value: 6 }, second: { value: 12 } });
});

test("test_sibling_tasks_cancelled_when_a_component_errors", async () => {
  const state = { cancelled: false };
  let started!: () => void;
  const slowStarted = new Promise<void>((r) => (started = r));
  const failing = componentOf({ text: socket(v.string()) }, { value: v.string() }, async () => {
    await slowStarted;
    throw new Error("boom");
  });
  const p = new Pipeline().addComponent("slow", abortable(started, state)).addComponent("failing", failing);
  await rejects(p.run({ slow: { text: "x" }, failing: { text: "y" } }, { concurrencyLimit: 2 }), PipelineRuntimeError, /boom/);
  assert.ok(state.cancelled);
});

test("test_in_flight_tasks_cancelled_when_generator_iteration_is_abandoned: aborting the run stops components in flight", async () => {
  const state = { cancelled: false };
  const controller = new AbortController();
  const p = new Pipeline()
    .addComponent("fast", componentOf({ text: socket(v.string()) }, { value: v.string() }, (i) => ({ value: i.text })))
    .addComponent("slow", abortable(() => undefined, state));
  const run = p.run({ fast: { text: "x" }, slow: { text: "y" } }, { concurrencyLimit: 2, signal: controller.signal, onComponentEnd: (name) => name === "fast" && controller.abort(new Error("abandoned")) });
  await run.then(
    () => assert.unreachable("the run was aborted"),
    (error: Error) => assert.match(error.message, /abandoned/),
  );
  assert.ok(state.cancelled);
});

test("test_run_async_raises_when_multi_element_list_is_unwrapped_at_runtime", async () => {
  await rejects(unwrapPipeline(["first", "second", "third"]).run({}), PipelineRuntimeError, /Cannot unwrap a list of 3 items/);
});

test.run();
