/**
 * @module Helpers for the ports of Haystack's own tests (test/core/pipeline/features): run a
 * pipeline in Haystack's two modes — one component at a time (its `Pipeline.run`) and
 * concurrently (its `run_async`) — recording each component call's inputs from the
 * `haystack.component.run` spans, as Haystack's feature tests do with their spying tracer.
 */
import * as assert from "uvu/assert";
import * as v from "valibot";
import { Component, output, socket, variadic, type Pipeline, type PipelineResult } from "svc/engine";
import type { Span, Tags, Tracer } from "svc/plugin";

export interface RunData {
  inputs: Record<string, unknown>;
  includeOutputsFrom?: string[];
  expectedOutputs?: Record<string, unknown>;
  /** `"name#visit"` → the inputs of that call. */
  expectedCalls?: Record<string, Record<string, unknown>>;
}

/** Haystack's `AnyOrder`: a list whose order depends on completion order in the concurrent mode. */
export class AnyOrder {
  constructor(readonly items: unknown[]) {}
}

/** Haystack's `ANY` (unittest.mock): an expected value that matches whatever is there. */
export const ANY = Symbol("ANY");

/**
 * Sorts the lists that `expected` marks as AnyOrder, in both values, so that order does not count
 * there; an `ANY` matches any value that is present.
 */
function unorder(expected: unknown, actual: unknown): [unknown, unknown] {
  if (expected === ANY) return ["<ANY>", actual === undefined ? undefined : "<ANY>"];
  if (expected instanceof AnyOrder) {
    const key = (x: unknown) => JSON.stringify(x);
    const sort = (xs: unknown) => (Array.isArray(xs) ? [...xs].sort((a, b) => key(a).localeCompare(key(b))) : xs);
    return [sort(plain(expected.items)), sort(actual)];
  }
  if (expected && typeof expected === "object" && !Array.isArray(expected) && actual && typeof actual === "object" && !Array.isArray(actual)) {
    const e: Record<string, unknown> = {};
    const a: Record<string, unknown> = { ...(actual as Record<string, unknown>) };
    for (const [k, v] of Object.entries(expected)) [e[k], a[k]] = unorder(v, a[k]);
    return [e, a];
  }
  return [expected, actual];
}

/**
 * JSON form: data classes as their to_dict, so expected values can be written as objects.
 * Fractions are rounded to 6 decimals: BM25 scores equal Haystack's to 6 digits, not to the last bit.
 */
const plain = (x: unknown) => JSON.parse(JSON.stringify(x ?? null), (_, value) => (typeof value === "number" && !Number.isInteger(value) ? Math.round(value * 1e6) / 1e6 : value));

export const MODES = [
  { name: "sync", concurrencyLimit: 1 },
  { name: "async", concurrencyLimit: 4 },
] as const;

export async function runRecorded(pipeline: Pipeline, data: RunData, concurrencyLimit: number): Promise<{ outputs: PipelineResult; calls: Record<string, unknown> }> {
  const calls: Record<string, unknown> = {};
  const tracer: Tracer = {
    startSpan(name: string, tags: Tags = {}): Span {
      if (name === "haystack.component.run") calls[`${tags["haystack.component.name"]}#${tags["haystack.component.visits"]}`] = plain(tags["haystack.component.input"]);
      const span: Span = { name, setTag: () => span, end: () => undefined } as unknown as Span;
      return span;
    },
  };
  const outputs = await pipeline.run(data.inputs, { includeOutputsFrom: data.includeOutputsFrom, concurrencyLimit, tracer, contentTracing: true });
  return { outputs, calls };
}

/** Runs every RunData in both modes and checks outputs and component calls. A fresh pipeline per mode. */
export async function check(build: () => Pipeline, runs: RunData[]): Promise<void> {
  for (const mode of MODES) {
    const pipeline = build();
    for (const [i, data] of runs.entries()) {
      const { outputs, calls } = await runRecorded(pipeline, data, mode.concurrencyLimit);
      const [expectedOutputs, actualOutputs] = unorder(data.expectedOutputs ?? {}, plain(outputs));
      assert.equal(actualOutputs, plain(expectedOutputs), `${mode.name} run ${i}: outputs`);
      if (data.expectedCalls) {
        const [expected, actual] = unorder(data.expectedCalls, calls);
        assert.equal(actual, plain(expected), `${mode.name} run ${i}: component calls`);
      }
    }
  }
}

/** Both modes must fail with this error class. */
export async function checkRaises(build: () => Pipeline, inputs: Record<string, unknown>, errorName: string): Promise<void> {
  for (const mode of MODES) {
    try {
      await build().run(inputs, { concurrencyLimit: mode.concurrencyLimit });
      assert.unreachable(`${mode.name}: expected ${errorName}`);
    } catch (error) {
      assert.is((error as Error).constructor.name, errorName, `${mode.name}: ${(error as Error).message}`);
    }
  }
}

// ---- Haystack's sample components the engine does not ship (haystack.testing.sample_components) ----

const int = v.pipe(v.number(), v.integer());

export class Accumulate extends Component {
  private state = 0;
  protected inputSpecs() {
    return { value: socket(int) };
  }
  protected outputSpecs() {
    return { value: output(int) };
  }
  run(inputs: { value: number }) {
    this.state += inputs.value;
    return { value: this.state };
  }
}

export class Greet extends Component<{ message?: string }> {
  static override readonly initSchema = v.object({ message: v.optional(v.string()), log_level: v.optional(v.string()) });
  protected inputSpecs() {
    return { value: socket(int), message: socket(v.nullable(v.string()), { default: null }), log_level: socket(v.nullable(v.string()), { default: null }) };
  }
  protected outputSpecs() {
    return { value: output(int) };
  }
  run(inputs: { value: number }) {
    return { value: inputs.value };
  }
}

export class Remainder extends Component<{ divisor: number }> {
  static override readonly initSchema = v.object({ divisor: v.optional(v.number(), 3) });
  protected inputSpecs() {
    return { value: socket(int) };
  }
  protected outputSpecs() {
    return Object.fromEntries(Array.from({ length: this.initParameters.divisor }, (_, i) => [`remainder_is_${i}`, output(int)]));
  }
  run(inputs: { value: number }) {
    return { [`remainder_is_${inputs.value % this.initParameters.divisor}`]: inputs.value };
  }
}

export class FString extends Component<{ template: string; variables: string[] }> {
  static override readonly initSchema = v.object({ template: v.string(), variables: v.optional(v.array(v.string()), []) });
  protected inputSpecs() {
    return { template: socket(v.nullable(v.string()), { default: null }), ...Object.fromEntries(this.initParameters.variables.map((n) => [n, socket()])) };
  }
  protected outputSpecs() {
    return { string: output(v.string()) };
  }
  run(inputs: Record<string, unknown>) {
    const template = (inputs.template as string | null) || this.initParameters.template;
    return { string: template.replace(/\{(\w+)\}/g, (_, k: string) => String(inputs[k])) };
  }
}

export class StringListJoiner extends Component {
  protected inputSpecs() {
    return { inputs: variadic(v.array(v.string())) };
  }
  protected outputSpecs() {
    return { output: output(v.array(v.string())) };
  }
  run(inputs: { inputs: string[][] }) {
    return { output: inputs.inputs.flat() };
  }
}

export class TextSplitter extends Component {
  protected inputSpecs() {
    return { sentence: socket(v.string()) };
  }
  protected outputSpecs() {
    return { output: output(v.array(v.string())) };
  }
  run(inputs: { sentence: string }) {
    return { output: inputs.sentence.split(/\s+/).filter(Boolean) };
  }
}

/** A component made from a run function and socket specs (Haystack's `component_class` factory, and its inline test classes). */
export function componentOf(inputs: Record<string, ReturnType<typeof socket>>, outputs: Record<string, v.GenericSchema | undefined>, run: (inputs: any) => unknown): Component {
  class Made extends Component {
    protected inputSpecs() {
      return inputs;
    }
    protected outputSpecs() {
      return Object.fromEntries(Object.entries(outputs).map(([k, s]) => [k, output(s)]));
    }
    run(i: Record<string, unknown>) {
      return run(i) as Record<string, unknown>;
    }
  }
  return new Made();
}
