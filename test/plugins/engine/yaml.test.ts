import { test } from "uvu";
import * as assert from "uvu/assert";
import { mkdirSync, writeFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import enginePlugin, { createRegistry, dumpPipelineYaml, loadPipelineYaml, PipelineError, Secret, Component, socket, output } from "svc/engine";
import * as v from "valibot";
import { startPipelineKernel, tempDir, withPipelineKernel } from "../../helpers/pipelines.js";
import { repoRoot, runSvc, startSvc } from "../../helpers/cli.js";

const CALC = `components:
  first_addition:
    type: haystack.testing.sample_components.add_value.AddFixedValue
    init_parameters:
      add: 2
  double:
    type: haystack.testing.sample_components.double.Double
    init_parameters: {}
connections:
- sender: first_addition.result
  receiver: double.value
max_runs_per_component: 100
metadata: {}
inputs:
  value: first_addition.value
outputs:
  doubled: double.value
`;

function throwsPipeline(fn: () => unknown, pattern: RegExp) {
  try {
    fn();
    assert.unreachable("expected an error");
  } catch (error) {
    assert.instance(error, PipelineError);
    assert.match((error as Error).message, pattern);
  }
}

test("load, run and dump Haystack YAML; dump → load round-trips", async () => {
  const registry = createRegistry();
  const pipeline = loadPipelineYaml(CALC, registry);
  assert.equal(await pipeline.run({ first_addition: { value: 3 } }), { double: { value: 10 } });
  const dumped = dumpPipelineYaml(pipeline);
  assert.match(dumped, /type: haystack.testing.sample_components.add_value.AddFixedValue/);
  const again = loadPipelineYaml(dumped, registry);
  assert.is(dumpPipelineYaml(again), dumped);
  assert.equal(await again.run({ first_addition: { value: 1 } }), { double: { value: 6 } });
  const aliases = loadPipelineYaml("components:\n  d:\n    type: Double\n", registry);
  assert.equal(await aliases.run({ d: { value: 2 } }), { d: { value: 4 } });
});

test("bad YAML: syntax errors with positions, unknown types listed, bad connections, unsafe tags, alias bombs", () => {
  const registry = createRegistry();
  throwsPipeline(() => loadPipelineYaml("components:\n  a: [1, 2\n", registry), /Invalid YAML: .*line \d+, column \d+/s);
  throwsPipeline(() => loadPipelineYaml("components:\n  x:\n    type: os.system\n", registry), /^Component 'os.system' \(name: 'x'\) not imported. Unknown component type 'os.system'\. \d+ types are registered/);
  throwsPipeline(() => loadPipelineYaml("components:\n  x: !!python/object/apply:os.system ['ls']\n", registry), /Invalid YAML: .*(tag|Unresolved)/i);
  const bomb = "a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\ncomponents: {}\n";
  throwsPipeline(() => loadPipelineYaml(bomb, registry), /Invalid YAML: .*alias/i);
  assert.throws(() => loadPipelineYaml(CALC.replace("double.value\nmax", "double.nope\nmax"), registry), /double.nope does not exist/);
  throwsPipeline(() => loadPipelineYaml("components:\n  a:\n    type: AddFixedValue\n    init_parameters:\n      add: lots\n", registry), /Couldn't deserialize component 'a' of type 'AddFixedValue': Invalid init parameters/);
  throwsPipeline(() => loadPipelineYaml("connections: 3\n", registry), /Invalid pipeline definition: connections/);
  const tuple = loadPipelineYaml("components: {}\nmetadata:\n  pair: !!python/tuple [1, 2]\n", registry);
  assert.equal(tuple.metadata, { pair: [1, 2] });
});

test("secrets and registered nested objects in init parameters", () => {
  class Store {
    static readonly type = "test.Store";
    constructor(readonly index: string) {}
    static fromDict(init: Record<string, unknown>) {
      return new Store(String(init.index));
    }
    toDict() {
      return { type: Store.type, init_parameters: { index: this.index } };
    }
  }
  class UsesStore extends Component<{ store: Store; api_key: Secret }> {
    static override readonly type = "test.UsesStore";
    static override readonly initSchema = v.object({ store: v.instance(Store), api_key: v.instance(Secret) });
    protected inputSpecs() {
      return { q: socket(v.string()) };
    }
    protected outputSpecs() {
      return { out: output(v.string()) };
    }
    run() {
      return { out: `${this.initParameters.store.index}:${this.initParameters.api_key.resolveValue()}` };
    }
  }
  const registry = createRegistry();
  registry.components.register(UsesStore);
  registry.objects.register(Store);
  const yaml = "components:\n  u:\n    type: test.UsesStore\n    init_parameters:\n      store: {type: test.Store, init_parameters: {index: docs}}\n      api_key: {type: env_var, env_vars: [SVC_TEST_KEY], strict: true}\n";
  const p = loadPipelineYaml(yaml, registry);
  process.env.SVC_TEST_KEY = "s3cret";
  return p.run({ u: { q: "x" } }).then((r) => {
    delete process.env.SVC_TEST_KEY;
    assert.equal(r, { u: { out: "docs:s3cret" } });
    assert.match(dumpPipelineYaml(p), /env_vars:\n\s+- SVC_TEST_KEY/);
    assert.not.match(dumpPipelineYaml(p), /s3cret/);
  });
});

test("POST /deploy-yaml: inputs fan out, the result has Hayhooks' shape (raw outputs keyed by component)", () =>
  withPipelineKernel(
    async (k) => {
      const res = await fetch(`${k.url}/deploy-yaml`, { method: "POST", body: JSON.stringify({ name: "calc", source_code: CALC }) });
      assert.equal(await res.json(), { status: "success", message: "Pipeline 'calc' successfully deployed", name: "calc" });
      assert.ok(existsSync(join(k.dir, "calc.yml")));
      assert.equal((await k.run("calc", { value: 3 })).body, { result: { double: { value: 10 } } });
      const missing = await k.run("calc", {});
      assert.is(missing.status, 400);
      assert.match(missing.body.error.message, /value: /);
      const fan = CALC.replace("inputs:\n  value: first_addition.value", "inputs:\n  value: [first_addition.value, first_addition.add]");
      await fetch(`${k.url}/deploy-yaml`, { method: "POST", body: JSON.stringify({ name: "fan", source_code: fan, save_file: false }) });
      assert.equal((await k.run("fan", { value: 3 })).body, { result: { double: { value: 12 } } });
      assert.ok(!existsSync(join(k.dir, "fan.yml")));
      const doc = (await (await fetch(`${k.url}/openapi.json`)).json().catch(() => null)) as unknown;
      assert.ok(doc === null || typeof doc === "object");
    },
    { plugins: [enginePlugin()] },
  ));

test("the Hayhooks shape honours include_outputs_from; SERVICE_YAML_RESULT_SHAPE=outputs answers by declared output names", async () => {
  const inner = CALC.replace("outputs:\n  doubled: double.value", "outputs:\n  doubled: double.value\n  sum: first_addition.result");
  await withPipelineKernel(
    async (k) => {
      // A declared output on an inner component adds that component's outputs (include_outputs_from).
      await fetch(`${k.url}/deploy-yaml`, { method: "POST", body: JSON.stringify({ name: "inner", source_code: inner, save_file: false }) });
      assert.equal((await k.run("inner", { value: 3 })).body, { result: { first_addition: { result: 5 }, double: { value: 10 } } });
      assert.is((await k.run("inner", {})).status, 400, "inputs are still validated");
    },
    { plugins: [enginePlugin()] },
  );
  await withPipelineKernel(
    async (k) => {
      await fetch(`${k.url}/deploy-yaml`, { method: "POST", body: JSON.stringify({ name: "inner", source_code: inner, save_file: false }) });
      assert.equal((await k.run("inner", { value: 3 })).body, { result: { doubled: 10, sum: 5 } });
    },
    { plugins: [enginePlugin()], settings: { yamlResultShape: "outputs" } },
  );
});

test("bad YAML deploys are 422s that name the cause and leave nothing behind", () =>
  withPipelineKernel(
    async (k) => {
      const deploy = async (source: string) => {
        const res = await fetch(`${k.url}/deploy-yaml`, { method: "POST", body: JSON.stringify({ name: "bad", source_code: source }) });
        return { status: res.status, message: ((await res.json()) as { error: { message: string } }).error?.message };
      };
      const noIo = await deploy(CALC.split("inputs:")[0]!);
      assert.equal(noIo, { status: 422, message: "YAML pipeline must declare at least one of 'inputs' or 'outputs'." });
      const twice = await deploy(CALC.replace("inputs:\n  value: first_addition.value", "inputs:\n  value: first_addition.value\n  other: first_addition.value"));
      assert.is(twice.status, 422);
      assert.match(twice.message, /Declared input 'other' targets 'first_addition.value'; 'first_addition.value' already targeted by declared input 'value'/);
      const syntax = await deploy("components: [\n");
      assert.is(syntax.status, 422);
      assert.match(syntax.message, /Invalid YAML pipeline 'bad': Invalid YAML: .*line/s);
      const unknown = await deploy("components:\n  x: {type: Nope}\ninputs: {a: x.a}\n");
      assert.match(unknown.message, /Unknown component type 'Nope'/);
      assert.ok(!existsSync(join(k.dir, "bad.yml")));
    },
    { plugins: [enginePlugin()] },
  ));

test("svc run deploys *.yml at startup and `svc pipeline deploy-yaml` deploys a file", async () => {
  const cwd = tempDir("svc-yaml-");
  mkdirSync(join(cwd, "pipelines"));
  writeFileSync(join(cwd, "pipelines", "calc.yml"), CALC);
  writeFileSync(join(cwd, "other.yaml"), CALC);
  const svc = await startSvc(["run", "--host", "127.0.0.1", "--port", "0"], { cwd });
  try {
    assert.match(svc.output(), /deployed 1\/1 pipelines/);
    const res = await fetch(`${svc.url}/calc/run`, { method: "POST", body: JSON.stringify({ value: 1 }) });
    assert.equal(await res.json(), { result: { double: { value: 6 } } });
    const cli = await runSvc(["pipeline", "deploy-yaml", "other.yaml"], { cwd, env: { SERVICE_HOST: "127.0.0.1", SERVICE_PORT: String(svc.port) } });
    assert.is(cli.code, 0, cli.stderr);
    const other = await fetch(`${svc.url}/other/run`, { method: "POST", body: JSON.stringify({ value: 2 }) });
    assert.equal(await other.json(), { result: { double: { value: 8 } } });
  } finally {
    await svc.stop("SIGKILL");
  }
  assert.ok(repoRoot);
});

test.run();
