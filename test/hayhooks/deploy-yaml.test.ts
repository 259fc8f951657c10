/**
 * Hayhooks' YAML deploy tests (deepset-ai/hayhooks 051d5a8: tests/test_it_deploy_yaml_route.py,
 * test_it_deploy.py, test_it_handling_deploy_exceptions.py and the YAMLs under
 * tests/test_files/yaml), ported as values: statuses, saved files and error texts. The run
 * result's shape is test/plugins/engine's (SERVICE_YAML_RESULT_SHAPE). Deliberate difference
 * (docs/moving-from-hayhooks.md): a component that cannot be loaded is a 422, not a 500.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import enginePlugin from "svc/engine";
import { withPipelineKernel, type PipelineKernel } from "../helpers/pipelines.js";

const SAMPLE_CALC = `components:
  first_addition:
    init_parameters:
      add: 2
    type: haystack.testing.sample_components.add_value.AddFixedValue
  double:
    init_parameters: {}
    type: haystack.testing.sample_components.double.Double
connections:
- receiver: double.value
  sender: first_addition.result

metadata: {}

inputs:
  value: first_addition.value

outputs:
  result: double.value
`;

const DUPLICATE_INPUT_TARGET = `components:
  chat_summary_prompt_builder:
    type: haystack.components.builders.chat_prompt_builder.ChatPromptBuilder
    init_parameters:
      template: |
        {% message role="user" %}
        Normalized: {{ query }}
        {% endmessage %}
      required_variables:
        - query
  chat_summary_generator:
    type: haystack.components.generators.chat.openai.OpenAIChatGenerator
    init_parameters:
      model: gpt-4o-mini
      generation_kwargs: {}
  answer_builder:
    type: haystack.components.builders.answer_builder.AnswerBuilder
    init_parameters: {}
connections:
  - sender: chat_summary_prompt_builder.prompt
    receiver: chat_summary_generator.messages
  - sender: chat_summary_generator.replies
    receiver: answer_builder.replies
max_runs_per_component: 100
metadata: {}
inputs:
  query:
    - chat_summary_prompt_builder.query
    - answer_builder.query
  another_input:
    - chat_summary_prompt_builder.query
outputs:
  answers: answer_builder.answers
`;

const BROKEN_RAG = `components:
  llm:
    init_parameters:
      api_base_url: null
      api_key:
        env_vars:
        # Missing OPENAI_API_KEY - should raise an exception
        strict: true
        type: env_var
      generation_kwargs: {}
      model: gpt-4o-mini
      organization: null
      streaming_callback: null
    type: haystack.components.generators.chat.openai.OpenAIChatGenerator
  prompt_builder:
    init_parameters:
      required_variables: "*"
      template: |
        {% message role="user" %}
        {{ question }}
        {% endmessage %}
      variables: null
    type: haystack.components.builders.chat_prompt_builder.ChatPromptBuilder
connections:
- receiver: llm.messages
  sender: prompt_builder.prompt
max_runs_per_component: 100
metadata: {}

inputs:
  question: prompt_builder.question

outputs:
  answer: llm.replies
`;

const deployYaml = (k: PipelineKernel, body: Record<string, unknown>) =>
  fetch(`${k.url}/deploy-yaml`, { method: "POST", body: JSON.stringify(body) }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));

test("deploy-yaml: deploy, status, docs, run; save_file writes <name>.yml as sent (test_deploy_yaml_route_and_run_ok, test_deploy_yaml_saves_file)", () =>
  withPipelineKernel(
    async (k) => {
      const res = await deployYaml(k, { name: "calc", source_code: SAMPLE_CALC.trim() });
      assert.is(res.status, 200);
      assert.equal(res.body, { status: "success", message: "Pipeline 'calc' successfully deployed", name: "calc" });
      assert.equal(await (await fetch(`${k.url}/status/calc`)).json(), { status: "Up!", pipeline: "calc" });
      const run = await k.run("calc", { value: 3 });
      assert.is(run.status, 200);
      assert.match(JSON.stringify(run.body.result), "10", "(3 + 2) * 2");

      const saved = await deployYaml(k, { name: "save_me", source_code: SAMPLE_CALC.trim(), overwrite: true, save_file: true });
      assert.is(saved.status, 200);
      assert.is(readFileSync(join(k.dir, "save_me.yml"), "utf8"), SAMPLE_CALC.trim());
    },
    { plugins: [enginePlugin()] },
  ));

test("a YAML without inputs or outputs, or with one target claimed twice, is a 422 with Hayhooks' text (test_deploy_yaml_missing_io_returns_422)", () =>
  withPipelineKernel(
    async (k) => {
      const noIo = await deployYaml(k, { name: "no_io", source_code: SAMPLE_CALC.split("inputs:")[0], overwrite: true });
      assert.is(noIo.status, 422);
      assert.is(noIo.body.error.message, "YAML pipeline must declare at least one of 'inputs' or 'outputs'.");
      const twice = await deployYaml(k, { name: "duplicate_input_target", source_code: DUPLICATE_INPUT_TARGET });
      assert.is(twice.status, 422);
      assert.is(
        twice.body.error.message,
        "Declared input 'another_input' targets 'chat_summary_prompt_builder.query'; 'chat_summary_prompt_builder.query' already targeted by declared input 'query'. Each pipeline input target may be declared only once.",
      );
      assert.not.ok(existsSync(join(k.dir, "no_io.yml")) || existsSync(join(k.dir, "duplicate_input_target.yml")), "nothing saved");
    },
    { plugins: [enginePlugin()] },
  ));

test("a component that cannot be deserialized is a 422 naming it (test_gracefully_handle_deploy_exception; Hayhooks: 500)", () =>
  withPipelineKernel(
    async (k) => {
      const res = await deployYaml(k, { name: "broken_rag_pipeline", source_code: BROKEN_RAG });
      assert.is(res.status, 422);
      assert.match(res.body.error.message, "Couldn't deserialize component 'llm'");
    },
    { plugins: [enginePlugin()] },
  ));

test("undeploy a YAML pipeline, then status is 404; unknown names 404 (test_undeploy_yaml_pipeline, test_undeploy_non_existent_yaml_pipeline)", () =>
  withPipelineKernel(
    async (k) => {
      assert.is((await deployYaml(k, { name: "sample_calc_pipeline", source_code: SAMPLE_CALC })).status, 200);
      assert.is((await fetch(`${k.url}/undeploy/sample_calc_pipeline`, { method: "POST" })).status, 200);
      assert.is((await fetch(`${k.url}/status/sample_calc_pipeline`)).status, 404);
      assert.not.ok(existsSync(join(k.dir, "sample_calc_pipeline.yml")));
      assert.is((await fetch(`${k.url}/undeploy/non_existent_pipeline`, { method: "POST" })).status, 404);
    },
    { plugins: [enginePlugin()] },
  ));

test.run();
