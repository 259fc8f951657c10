/**
 * @module Haystack 3's safe loading (ConditionalRouter.from_dict / OutputAdapter.from_dict, release
 * note "Require unsafe mode for serialized Jinja custom filters"): YAML setting `unsafe: true` or
 * naming `custom_filters` is refused unless the pipeline is loaded unsafely; then filters name
 * registered functions.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { createRegistry, dumpPipelineYaml, loadPipelineYaml } from "svc/engine";

const ROUTER = (extra: string) => `components:
  router:
    type: haystack.components.routers.conditional_router.ConditionalRouter
    init_parameters:
      routes:
        - condition: "{{ (query|shout) == 'HI' }}"
          output: "{{ query|shout }}"
          output_name: loud
          output_type: str
        - condition: "{{ true }}"
          output: "{{ query }}"
          output_name: quiet
          output_type: str
${extra}`;
const ADAPTER = (extra: string) => `components:
  adapter:
    type: haystack.components.converters.output_adapter.OutputAdapter
    init_parameters:
      template: "{{ x }}"
      output_type: str
${extra}`;
const FILTERS = "      custom_filters:\n        shout: my_filters.shout\n";

const refused = (yaml: string, pattern: RegExp) =>
  assert.throws(() => loadPipelineYaml(yaml, createRegistry()), (e: Error) => e.name === "DeserializationError" && pattern.test(e.message) && /Pipeline\.load\(\.\.\., unsafe=True\)/.test(e.message));

test("safe mode refuses unsafe=True and custom filters with Haystack's DeserializationError", () => {
  refused(ROUTER(FILTERS), /^Refusing to deserialize a ConditionalRouter with custom filters while loading in safe mode\. Custom filters are arbitrary callables/);
  refused(ROUTER("      unsafe: true\n"), /^Refusing to deserialize a ConditionalRouter with unsafe=True while loading in safe mode\./);
  refused(ADAPTER(FILTERS), /^Refusing to deserialize an OutputAdapter with custom filters/);
  refused(ADAPTER("      unsafe: true\n"), /^Refusing to deserialize an OutputAdapter with unsafe=True/);
  // Empty filters and unsafe: false load in safe mode, as in Haystack.
  loadPipelineYaml(ADAPTER("      custom_filters: {}\n      unsafe: false\n"), createRegistry());
});

test("unsafe loading: custom filters name registered functions, and dump back to those names", async () => {
  const registry = createRegistry().registerFunction("my_filters.shout", (s: unknown) => String(s).toUpperCase());
  const pipeline = loadPipelineYaml(ROUTER(FILTERS + "      unsafe: true\n"), registry, { unsafe: true });
  assert.equal(await pipeline.run({ router: { query: "hi" } }), { router: { loud: "HI" } });
  assert.equal(await pipeline.run({ router: { query: "yo" } }), { router: { quiet: "yo" } });
  assert.match(dumpPipelineYaml(pipeline), /shout: my_filters\.shout/);
  assert.throws(() => loadPipelineYaml(ROUTER("      custom_filters:\n        shout: not.registered\n"), registry, { unsafe: true }), /Unknown function 'not\.registered'/);
});

test.run();
