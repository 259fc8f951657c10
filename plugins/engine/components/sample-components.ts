/**
 * @module Haystack's sample components (haystack.testing.sample_components), used to port its
 * behavioural pipeline tests and its YAML deploy tests one for one.
 */
import * as v from "valibot";
import { Component, output, socket, variadic } from "../component.js";

const T = "haystack.testing.sample_components";
// Python `int`: an integer in request schemas (JSON Schema `integer`), a number for connections.
const int = v.pipe(v.number(), v.integer());

export class AddFixedValue extends Component<{ add: number }> {
  static override readonly type = `${T}.add_value.AddFixedValue`;
  static override readonly aliases = ["AddFixedValue"];
  static override readonly initSchema = v.object({ add: v.optional(v.number(), 1) });
  protected inputSpecs() {
    return { value: socket(int), add: socket(v.nullable(int), { default: null }) };
  }
  protected outputSpecs() {
    return { result: output(int) };
  }
  run(inputs: { value: number; add: number | null }) {
    return { result: inputs.value + (inputs.add ?? this.initParameters.add) };
  }
}

export class Double extends Component {
  static override readonly type = `${T}.double.Double`;
  static override readonly aliases = ["Double"];
  protected inputSpecs() {
    return { value: socket(int) };
  }
  protected outputSpecs() {
    return { value: output(int) };
  }
  run(inputs: { value: number }) {
    return { value: inputs.value * 2 };
  }
}

export class Hello extends Component {
  static override readonly type = "hayhooks.testing.Hello";
  static override readonly aliases = ["Hello"];
  protected inputSpecs() {
    return { word: socket(v.string(), { default: "world" }) };
  }
  protected outputSpecs() {
    return { output: output(v.string()) };
  }
  run(inputs: { word: string }) {
    return { output: `Hello, ${inputs.word}!` };
  }
}

export class Sum extends Component {
  static override readonly type = `${T}.sum.Sum`;
  static override readonly aliases = ["Sum"];
  protected inputSpecs() {
    return { values: variadic(int) };
  }
  protected outputSpecs() {
    return { total: output(int) };
  }
  run(inputs: { values: number[] }) {
    return { total: inputs.values.reduce((a, b) => a + b, 0) };
  }
}

/** A router: only the branch taken gets a value. */
export class Parity extends Component {
  static override readonly type = `${T}.parity.Parity`;
  static override readonly aliases = ["Parity"];
  protected inputSpecs() {
    return { value: socket(int) };
  }
  protected outputSpecs() {
    return { even: output(int), odd: output(int) };
  }
  run(inputs: { value: number }) {
    return inputs.value % 2 === 0 ? { even: inputs.value } : { odd: inputs.value };
  }
}

export class Threshold extends Component<{ threshold: number }> {
  static override readonly type = `${T}.threshold.Threshold`;
  static override readonly aliases = ["Threshold"];
  static override readonly initSchema = v.object({ threshold: v.optional(v.number(), 10) });
  protected inputSpecs() {
    return { value: socket(int), threshold: socket(v.nullable(int), { default: null }) };
  }
  protected outputSpecs() {
    return { above: output(int), below: output(int) };
  }
  run(inputs: { value: number; threshold: number | null }) {
    return inputs.value >= (inputs.threshold ?? this.initParameters.threshold) ? { above: inputs.value } : { below: inputs.value };
  }
}

export class Subtract extends Component {
  static override readonly type = `${T}.subtract.Subtract`;
  static override readonly aliases = ["Subtract"];
  protected inputSpecs() {
    return { first_value: socket(int), second_value: socket(int) };
  }
  protected outputSpecs() {
    return { difference: output(int) };
  }
  run(inputs: { first_value: number; second_value: number }) {
    return { difference: inputs.first_value - inputs.second_value };
  }
}

export class StringJoiner extends Component {
  static override readonly type = `${T}.joiner.StringJoiner`;
  // No short alias: `StringJoiner` names Haystack's real component (components/string-joiner.ts).
  static override readonly aliases = [];
  protected inputSpecs() {
    return { input_str: variadic(v.string()) };
  }
  protected outputSpecs() {
    return { output: output(v.string()) };
  }
  run(inputs: { input_str: string[] }) {
    return { output: inputs.input_str.join(" ") };
  }
}

export class Repeat extends Component<{ outputs: string[] }> {
  static override readonly type = `${T}.repeat.Repeat`;
  static override readonly aliases = ["Repeat"];
  static override readonly initSchema = v.object({ outputs: v.array(v.string()) });
  protected inputSpecs() {
    return { value: socket(int) };
  }
  protected outputSpecs() {
    return Object.fromEntries(this.initParameters.outputs.map((o) => [o, output(int)]));
  }
  run(inputs: { value: number }) {
    return Object.fromEntries(this.initParameters.outputs.map((o) => [o, inputs.value]));
  }
}

export const sampleComponents = [AddFixedValue, Double, Hello, Sum, Parity, Threshold, Subtract, StringJoiner, Repeat];
