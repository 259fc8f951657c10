import { test } from "uvu";
import * as assert from "uvu/assert";
import * as v from "valibot";
import { bindSignalSpan } from "svc/internal";
import { Component, output, socket } from "../../../plugins/engine/component.js";
import { BranchJoiner } from "../../../plugins/engine/components/branch-joiner.js";
import { AddFixedValue, Double, Hello, Parity, Repeat, StringJoiner, Subtract, Sum, Threshold } from "../../../plugins/engine/components/sample-components.js";
import { ChatMessage } from "../../../plugins/engine/dataclasses/chat-message.js";
import {
  PipelineComponentsBlockedError,
  PipelineConnectError,
  PipelineInputError,
  PipelineMaxComponentRuns,
  PipelineRuntimeError,
} from "../../../plugins/engine/pipeline/errors.js";
import { Pipeline } from "../../../plugins/engine/pipeline/pipeline.js";

async function rejects(p: Promise<unknown>, cls: Function, pattern: RegExp) {
  try {
    await p;
    assert.unreachable("expected a rejection");
  } catch (error) {
    assert.instance(error, cls);
    assert.match((error as Error).message, pattern);
  }
}

test("linear: add_one → double → add_two", async () => {
  const p = new Pipeline()
    .addComponent("add_one", new AddFixedValue({ add: 1 }))
    .addComponent("double", new Double())
    .addComponent("add_two", new AddFixedValue({ add: 2 }))
    .connect("add_one.result", "double.value")
    .connect("double", "add_two.value");
  assert.equal(await p.run({ add_one: { value: 1 } }), { add_two: { result: 6 } });
  assert.equal(await p.run({ value: 1 }), { add_two: { result: 6 } }, "flat input goes to open sockets named value");
  assert.equal(await p.run({ add_one: { value: 1 } }, { includeOutputsFrom: ["double"] }), { double: { value: 4 }, add_two: { result: 6 } });
});

test("branching through a router: only the branch taken runs", async () => {
  const build = () =>
    new Pipeline()
      .addComponent("parity", new Parity())
      .addComponent("add_ten", new AddFixedValue({ add: 10 }))
      .addComponent("double", new Double())
      .connect("parity.even", "add_ten.value")
      .connect("parity.odd", "double.value");
  assert.equal(await build().run({ parity: { value: 2 } }), { add_ten: { result: 12 } });
  assert.equal(await build().run({ parity: { value: 3 } }), { double: { value: 6 } });
});

test("joining router branches with BranchJoiner", async () => {
  const p = new Pipeline()
    .addComponent("parity", new Parity())
    .addComponent("add_one", new AddFixedValue())
    .addComponent("double", new Double())
    .addComponent("joiner", new BranchJoiner({ type_: "int" }))
    .addComponent("final", new AddFixedValue({ add: 100 }))
    .connect("parity.even", "add_one.value")
    .connect("parity.odd", "double.value")
    .connect("add_one.result", "joiner.value")
    .connect("double.value", "joiner.value")
    .connect("joiner.value", "final.value");
  assert.equal(await p.run({ parity: { value: 4 } }), { final: { result: 105 } });
  assert.equal(await p.run({ parity: { value: 5 } }), { final: { result: 110 } });
});

test("lazy variadic: Sum waits for every sender, also when a router sends nothing", async () => {
  const p = new Pipeline()
    .addComponent("first", new AddFixedValue({ add: 1 }))
    .addComponent("second", new AddFixedValue({ add: 2 }))
    .addComponent("parity", new Parity())
    .addComponent("sum", new Sum())
    .connect("first.result", "sum.values")
    .connect("second.result", "sum.values")
    .connect("parity.even", "sum.values");
  assert.equal(await p.run({ first: { value: 1 }, second: { value: 1 }, parity: { value: 3 } }), { sum: { total: 5 }, parity: { odd: 3 } });
  assert.equal(await p.run({ first: { value: 1 }, second: { value: 1 }, parity: { value: 4 } }), { sum: { total: 9 } });
});

test("a loop bounded by its exit condition, built from BranchJoiner and Threshold", async () => {
  const p = new Pipeline({ maxRunsPerComponent: 10 })
    .addComponent("joiner", new BranchJoiner({ type_: "int" }))
    .addComponent("add_one", new AddFixedValue({ add: 1 }))
    .addComponent("threshold", new Threshold({ threshold: 5 }))
    .connect("joiner.value", "add_one.value")
    .connect("add_one.result", "threshold.value")
    .connect("threshold.below", "joiner.value");
  assert.equal(await p.run({ joiner: { value: 1 } }), { threshold: { above: 5 } });
});

test("a loop that never exits stops at max_runs_per_component", async () => {
  const p = new Pipeline({ maxRunsPerComponent: 3 })
    .addComponent("joiner", new BranchJoiner({ type_: "int" }))
    .addComponent("add_one", new AddFixedValue({ add: 1 }))
    .addComponent("threshold", new Threshold({ threshold: 1000 }))
    .connect("joiner.value", "add_one.value")
    .connect("add_one.result", "threshold.value")
    .connect("threshold.below", "joiner.value");
  await rejects(p.run({ joiner: { value: 1 } }), PipelineMaxComponentRuns, /Maximum run count 3 reached for component '(joiner|add_one|threshold)'/);
});

test("defaults: a component with no senders and only optional inputs runs once", async () => {
  const p = new Pipeline().addComponent("hello", new Hello());
  assert.equal(await p.run({}), { hello: { output: "Hello, world!" } });
  assert.equal(await p.run({ hello: { word: "Ada" } }), { hello: { output: "Hello, Ada!" } });
});

test("fan-out to several receivers and dynamic output sockets", async () => {
  const p = new Pipeline()
    .addComponent("repeat", new Repeat({ outputs: ["a", "b"] }))
    .addComponent("add", new AddFixedValue({ add: 1 }))
    .addComponent("double", new Double())
    .addComponent("sub", new Subtract())
    .connect("repeat.a", "add.value")
    .connect("repeat.b", "double.value")
    .connect("add.result", "sub.first_value")
    .connect("double.value", "sub.second_value");
  assert.equal(await p.run({ repeat: { value: 5 } }), { sub: { difference: -4 } });
});

test("variadic values arrive in the order the senders finished (Haystack's run_async); one at a time, in run order", async () => {
  class Slow extends Component<{ word: string; ms: number }> {
    static override readonly initSchema = v.object({ word: v.string(), ms: v.number() });
    protected inputSpecs() {
      return {};
    }
    protected outputSpecs() {
      return { word: output(v.string()) };
    }
    async run() {
      await new Promise((r) => setTimeout(r, this.initParameters.ms));
      return { word: this.initParameters.word };
    }
  }
  const p = new Pipeline()
    .addComponent("a", new Slow({ word: "first", ms: 40 }))
    .addComponent("b", new Slow({ word: "second", ms: 1 }))
    .addComponent("join", new StringJoiner())
    .connect("a.word", "join.input_str")
    .connect("b.word", "join.input_str");
  assert.equal(await p.run({}), { join: { output: "second first" } });
  assert.equal(await p.run({}, { concurrencyLimit: 1 }), { join: { output: "first second" } });
});

test("ready components run concurrently up to the limit", async () => {
  let active = 0;
  let peak = 0;
  class Busy extends Component {
    protected inputSpecs() {
      return { value: socket(v.number()) };
    }
    protected outputSpecs() {
      return { value: output(v.number()) };
    }
    async run(inputs: { value: number }) {
      peak = Math.max(peak, ++active);
      await new Promise((r) => setTimeout(r, 20));
      active--;
      return { value: inputs.value };
    }
  }
  const build = () => {
    const p = new Pipeline().addComponent("sum", new Sum());
    for (const n of ["a", "b", "c", "d", "e", "f"]) p.addComponent(n, new Busy()).connect(`${n}.value`, "sum.values");
    return p;
  };
  const data = Object.fromEntries(["a", "b", "c", "d", "e", "f"].map((n) => [n, { value: 1 }]));
  assert.equal(await build().run(data, { concurrencyLimit: 3 }), { sum: { total: 6 } });
  assert.is(peak, 3);
  peak = 0;
  await build().run(data, { concurrencyLimit: 1 });
  assert.is(peak, 1);
});

test("errors name the component; an aborted signal stops the run", async () => {
  class Boom extends Component {
    static override readonly type = "test.Boom";
    protected inputSpecs() {
      return { value: socket(v.number()) };
    }
    protected outputSpecs() {
      return { value: output(v.number()) };
    }
    run(): never {
      throw new Error("kaboom");
    }
  }
  const p = new Pipeline().addComponent("add", new AddFixedValue()).addComponent("boom", new Boom()).connect("add.result", "boom.value");
  try {
    await p.run({ add: { value: 1 } });
    assert.unreachable();
  } catch (error) {
    assert.instance(error, PipelineRuntimeError);
    assert.is((error as PipelineRuntimeError).componentName, "boom");
    assert.match((error as Error).message, /Component name: 'boom'\nComponent type: 'Boom'\nError: kaboom/);
  }
  const controller = new AbortController();
  controller.abort(new Error("client went away"));
  await rejects(new Pipeline().addComponent("hello", new Hello()).run({}, { signal: controller.signal }), Error, /client went away/);
});

test("input validation: unknown names, missing mandatory inputs, inputs already sent", async () => {
  const p = new Pipeline().addComponent("add", new AddFixedValue()).addComponent("double", new Double()).connect("add.result", "double.value");
  await rejects(p.run({ nope: { value: 1 } }), PipelineInputError, /Missing mandatory input 'value' for component 'add'/);
  await rejects(p.run({ add: { value: 1, nope: 2 } }), PipelineInputError, /Input 'nope' not found in component 'add'/);
  await rejects(p.run({ add: { value: 1 }, double: { value: 2 } }), PipelineInputError, /Component 'double' cannot accept multiple inputs to 'value'. It is already connected to component 'add'/);
  await rejects(p.run({}), PipelineInputError, /Missing mandatory input 'value' for component 'add'/);
});

test("a pipeline where nothing can start is blocked", async () => {
  class NeedsTwo extends Component {
    protected inputSpecs() {
      return { a: socket(v.number()), b: socket(v.number()) };
    }
    protected outputSpecs() {
      return { c: output(v.number()) };
    }
    run(i: { a: number; b: number }) {
      return { c: i.a + i.b };
    }
  }
  const p = new Pipeline()
    .addComponent("x", new NeedsTwo())
    .addComponent("y", new NeedsTwo())
    .connect("x.c", "y.a")
    .connect("y.c", "x.a");
  await rejects(p.run({ x: { b: 1 }, y: { b: 1 } }), PipelineComponentsBlockedError, /all components are blocked/);
});

test("connect: names, types, second senders, auto-variadic lists", async () => {
  const p = new Pipeline().addComponent("add", new AddFixedValue()).addComponent("hello", new Hello()).addComponent("double", new Double());
  assert.throws(() => p.connect("add.nope", "double.value"), (e: Error) => e instanceof PipelineConnectError && /'add.nope' does not exist. Output connections of add are: result \(type float\)/.test(e.message));
  assert.throws(() => p.connect("add.result", "hello.word"), (e: Error) => /'add.result': float and 'hello.word': str are not compatible/.test(e.message));
  assert.throws(() => p.connect("ghost", "double"), /Component named ghost not found/);
  assert.throws(() => p.connect("add", "add"), /itself/);
  assert.throws(() => p.addComponent("a.b", new Double()), /cannot contain '.'/);
  const shared = new Double();
  new Pipeline().addComponent("d", shared);
  assert.throws(() => p.addComponent("again", shared), /already been added in another Pipeline/);
  p.connect("add", "double");
  assert.throws(() => p.connect("hello.output", "double.value"), /not compatible/);
  const q = new Pipeline().addComponent("a", new AddFixedValue()).addComponent("b", new AddFixedValue()).addComponent("d", new Double()).connect("a.result", "d.value");
  assert.throws(() => q.connect("b.result", "d.value"), (e: Error) => e instanceof PipelineConnectError && /already connected to component 'a'/.test(e.message));

  class ListOut extends Component<{ items: string[] }> {
    static override readonly initSchema = v.object({ items: v.array(v.string()) });
    protected inputSpecs() {
      return {};
    }
    protected outputSpecs() {
      return { items: output(v.array(v.string())) };
    }
    run() {
      return { items: this.initParameters.items };
    }
  }
  class ListIn extends Component {
    protected inputSpecs() {
      return { items: socket(v.array(v.string())) };
    }
    protected outputSpecs() {
      return { count: output(v.number()), items: output(v.array(v.string())) };
    }
    run(i: { items: string[] }) {
      return { count: i.items.length, items: i.items };
    }
  }
  const lists = new Pipeline()
    .addComponent("one", new ListOut({ items: ["a"] }))
    .addComponent("two", new ListOut({ items: ["b", "c"] }))
    .addComponent("all", new ListIn())
    .connect("one.items", "all.items")
    .connect("two.items", "all.items");
  assert.equal(await lists.run({}), { all: { count: 3, items: ["a", "b", "c"] } });
});

test("smart connections: ChatMessage → str, str → list[str]", async () => {
  class Reply extends Component {
    protected inputSpecs() {
      return {};
    }
    protected outputSpecs() {
      return { message: output(v.instance(ChatMessage)) };
    }
    run() {
      return { message: ChatMessage.fromAssistant("the answer") };
    }
  }
  class Words extends Component {
    protected inputSpecs() {
      return { texts: socket(v.array(v.string())) };
    }
    protected outputSpecs() {
      return { joined: output(v.string()) };
    }
    run(i: { texts: string[] }) {
      return { joined: i.texts.join("|") };
    }
  }
  const p = new Pipeline().addComponent("llm", new Reply()).addComponent("words", new Words()).connect("llm.message", "words.texts");
  assert.equal(await p.run({}), { words: { joined: "the answer" } });
  assert.throws(() => new Pipeline({ connectionTypeValidation: true }).addComponent("h", new Hello()).addComponent("d", new Double()).connect("h", "d"), (e: Error) => e instanceof PipelineConnectError);
  const loose = new Pipeline({ connectionTypeValidation: false }).addComponent("h", new Hello()).addComponent("d", new Double()).connect("h", "d");
  assert.equal(loose.edges.length, 1);
});

test("inputs() and outputs() list the open sockets", () => {
  const p = new Pipeline().addComponent("add", new AddFixedValue()).addComponent("double", new Double()).connect("add.result", "double.value");
  assert.equal(p.inputs(), { add: { value: { type: "float", isMandatory: true }, add: { type: "Optional[float]", isMandatory: false, default: null } } });
  assert.equal(p.outputs(), { double: { value: { type: "float" } } });
});

test("runs make haystack.pipeline.run and haystack.component.run spans; content only when enabled", async () => {
  const spans: { name: string; tags: Record<string, unknown>; parent?: string; error?: unknown }[] = [];
  const tracer = {
    startSpan(name: string, tags: Record<string, unknown> = {}, parent?: { name: string }) {
      const record = { name, tags: { ...tags }, parent: parent?.name, error: undefined as unknown };
      spans.push(record);
      const span = { name, setTag: (k: string, v: unknown) => ((record.tags[k] = v), span), setTags: (t: Record<string, unknown>) => (Object.assign(record.tags, t), span), end: (e?: unknown) => void (record.error = e) };
      return span;
    },
  };
  const p = new Pipeline().addComponent("add", new AddFixedValue()).addComponent("double", new Double()).connect("add.result", "double.value");
  await p.run({ add: { value: 1 } }, { tracer: tracer as never });
  assert.equal(spans.map((s) => [s.name, s.parent, s.tags["haystack.component.name"]]), [
    ["haystack.pipeline.run", undefined, undefined],
    ["haystack.component.run", "haystack.pipeline.run", "add"],
    ["haystack.component.run", "haystack.pipeline.run", "double"],
  ]);
  assert.is(spans[1]!.tags["haystack.component.type"], "AddFixedValue");
  assert.is(spans[1]!.tags["haystack.component.fully_qualified_type"], AddFixedValue.type);
  assert.not.ok("haystack.component.input" in spans[1]!.tags);
  spans.length = 0;
  await p.run({ add: { value: 1 } }, { tracer: tracer as never, contentTracing: true });
  assert.equal(spans[1]!.tags["haystack.component.input"], { value: 1, add: null });
  assert.equal(spans[2]!.tags["haystack.component.output"], { value: 4 });
});

test("without a tracer given, a run traces with the tracer of the caller's run, found through its signal (per kernel, no process default)", async () => {
  const recorder = () => {
    const names: string[] = [];
    const tracer = {
      startSpan(name: string) {
        names.push(name);
        const span = { name, setTag: () => span, setTags: () => span, end: () => undefined };
        return span;
      },
    };
    return { names, tracer };
  };
  const a = recorder();
  const b = recorder();
  const p = new Pipeline().addComponent("add", new AddFixedValue());
  const signalA = new AbortController().signal;
  const signalB = new AbortController().signal;
  bindSignalSpan(signalA, a.tracer.startSpan("run a"), a.tracer);
  bindSignalSpan(signalB, b.tracer.startSpan("run b"), b.tracer);
  await p.run({ add: { value: 1 } }, { signal: signalA });
  await p.run({ add: { value: 1 } }, { signal: signalB });
  await p.run({ add: { value: 1 } });
  assert.equal(a.names, ["run a", "haystack.pipeline.run", "haystack.component.run"]);
  assert.equal(b.names, ["run b", "haystack.pipeline.run", "haystack.component.run"]);
});

test.run();
