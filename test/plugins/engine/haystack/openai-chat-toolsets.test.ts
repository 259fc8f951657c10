/**
 * @module Port of the Toolset cases of Haystack's test/components/generators/chat/test_openai.py:
 * an OpenAIChatGenerator keeps a Toolset (or a list of Toolsets) as given, dumps it as
 * `haystack.tools.toolset.Toolset` and loads it back as one. `from_dict` is a pipeline document's
 * component.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { ComponentTool, OpenAIChatGenerator, Tool, Toolset } from "svc/engine";
import { pipelineFromDocument, readPipelineDocument } from "../../../../plugins/engine/yaml.js";
import { withEnv } from "../../../helpers/env.js";
import { tools, toolsRegistry } from "./openai-chat-tools.js";

const fromDict = (data: Record<string, unknown>) =>
  pipelineFromDocument(readPipelineDocument({ components: { llm: data }, connections: [] }), toolsRegistry()).getComponent("llm") as OpenAIChatGenerator;
const env = { OPENAI_API_KEY: "test-api-key" };

test("test_openai_chat_generator_with_toolset_initialization", () =>
  withEnv(env, () => {
    const toolset = new Toolset(tools());
    const generator = new OpenAIChatGenerator({ tools: toolset });
    assert.is(generator.initParameters.tools, toolset);
  }));

test("test_from_dict_with_toolset", () =>
  withEnv(env, () => {
    const component = new OpenAIChatGenerator({ tools: new Toolset(tools()) });
    const data = component.toDict();
    const deserialized = fromDict(data);
    const loaded = deserialized.initParameters.tools;
    assert.ok(loaded instanceof Toolset);
    assert.is(loaded.length, 2);
    assert.ok([...loaded].every((t) => t instanceof Tool));
    assert.ok(loaded.at(1) instanceof ComponentTool);
    // And it round-trips: the same dict again.
    assert.equal(deserialized.toDict(), data);
  }));

test("test_init_with_list_of_toolsets", () =>
  withEnv(env, () => {
    const [weather, extractor] = tools();
    const toolset1 = new Toolset([weather]);
    const toolset2 = new Toolset([extractor]);
    const component = new OpenAIChatGenerator({ tools: [toolset1, toolset2] });
    const kept = component.initParameters.tools as unknown[];
    assert.ok(Array.isArray(kept));
    assert.is(kept.length, 2);
    assert.is(kept[0], toolset1);
    assert.is(kept[1], toolset2);
  }));

test("test_serde_with_list_of_toolsets", () =>
  withEnv(env, () => {
    const [weather, extractor] = tools();
    const component = new OpenAIChatGenerator({ tools: [new Toolset([weather]), new Toolset([extractor])] });
    const data = component.toDict();
    const toolsData = data.init_parameters.tools as Record<string, unknown>[];
    assert.ok(Array.isArray(toolsData));
    assert.is(toolsData.length, 2);
    assert.equal(toolsData.map((t) => t.type), ["haystack.tools.toolset.Toolset", "haystack.tools.toolset.Toolset"]);
    assert.equal((toolsData[0]!.data as { tools: { data: { name: string } }[] }).tools.map((t) => t.data.name), ["weather"]);
    const deserialized = fromDict(data).initParameters.tools as unknown[];
    assert.ok(Array.isArray(deserialized));
    assert.is(deserialized.length, 2);
    assert.ok(deserialized.every((ts) => ts instanceof Toolset));
  }));

test.run();
