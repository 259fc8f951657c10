/**
 * @module Port of Haystack's test/tools/test_component_tool.py, continued: the parameters schema
 * of data class, Document and dynamically typed inputs, a component already in a pipeline, the
 * Jinja-based component cases and TestComponentToolAsync. A Python dataclass is a valibot object
 * schema titled with `v.title`; a run docstring's `:param x:` is the socket's `v.description`.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import * as v from "valibot";
import { ChatMessage, Component, ComponentTool, OpenAIChatGenerator, output, Pipeline, PromptBuilder, Secret, socket, type ChatMessage as ChatMessageType } from "svc/engine";
import { deepCopy } from "../../../../plugins/engine/pipeline/copy.js";
import { startOpenAIFixture } from "../../../fixtures/openai-server.js";
import { DocumentProcessor, PersonProcessor, SimpleComponent, UserGreeter } from "./component-tool-fixtures.js";

const BYTE_STREAM_SCHEMA = {
  type: "object",
  properties: {
    data: { type: "string", description: "The binary data stored in Bytestream.", format: "binary" },
    meta: { type: "object", default: {}, description: "Additional metadata to be stored with the ByteStream.", additionalProperties: true },
    mime_type: { anyOf: [{ type: "string" }, { type: "null" }], default: null, description: "The mime type of the binary data." },
  },
  required: ["data"],
};
const SPARSE_EMBEDDING_SCHEMA = {
  type: "object",
  properties: {
    indices: { type: "array", description: "List of indices of non-zero elements in the embedding.", items: { type: "integer" } },
    values: { type: "array", description: "List of values of non-zero elements in the embedding.", items: { type: "number" } },
  },
  required: ["indices", "values"],
};
const DOCUMENT_SCHEMA = {
  type: "object",
  properties: {
    id: { type: "string", description: "Unique identifier for the document. When not set, it's generated based on the Document fields' values.", default: "" },
    content: { anyOf: [{ type: "string" }, { type: "null" }], default: null, description: "Text of the document, if the document contains text." },
    blob: { anyOf: [{ $ref: "#/$defs/ByteStream" }, { type: "null" }], default: null, description: "Binary data associated with the document, if the document has any binary data associated with it." },
    meta: { type: "object", description: "Additional custom metadata for the document. Must be JSON-serializable.", default: {}, additionalProperties: true },
    score: { anyOf: [{ type: "number" }, { type: "null" }], default: null, description: "Score of the document. Used for ranking, usually assigned by retrievers." },
    embedding: { anyOf: [{ type: "array", items: { type: "number" } }, { type: "null" }], default: null, description: "dense vector representation of the document." },
    sparse_embedding: { anyOf: [{ $ref: "#/$defs/SparseEmbedding" }, { type: "null" }], default: null, description: "sparse vector representation of the document." },
  },
};

test("TestComponentTool.test_from_component_with_dataclass", async () => {
  const tool = new ComponentTool({ component: new UserGreeter() });
  assert.equal(tool.parameters, {
    $defs: {
      User: {
        properties: {
          name: { description: "Field 'name' of 'User'.", type: "string", default: "Anonymous" },
          age: { description: "Field 'age' of 'User'.", type: "integer", default: 0 },
        },
        type: "object",
      },
    },
    properties: { user: { $ref: "#/$defs/User", description: "The User object to process." } },
    required: ["user"],
    type: "object",
  });
  assert.is(tool.name, "user_greeter");
  assert.equal(await tool.invoke({ user: { name: "Alice", age: 30 } }), { message: "User Alice is 30 years old" });
  // The data class's defaults fill what the LLM left out (pydantic's validation in Haystack).
  assert.equal(await tool.invoke({ user: {} }), { message: "User Anonymous is 0 years old" });
});
test("TestComponentTool.test_from_component_with_nested_dataclass", async () => {
  const tool = new ComponentTool({ component: new PersonProcessor(), name: "person_tool", description: "A tool that processes people" });
  assert.equal(tool.parameters, {
    $defs: {
      Address: {
        properties: { street: { description: "Field 'street' of 'Address'.", type: "string" }, city: { description: "Field 'city' of 'Address'.", type: "string" } },
        required: ["street", "city"],
        type: "object",
      },
      Person: {
        properties: { name: { description: "Field 'name' of 'Person'.", type: "string" }, address: { $ref: "#/$defs/Address", description: "Field 'address' of 'Person'." } },
        required: ["name", "address"],
        type: "object",
      },
    },
    properties: { person: { $ref: "#/$defs/Person", description: "The Person to process." } },
    required: ["person"],
    type: "object",
  });
  assert.equal(await tool.invoke({ person: { name: "Diana", address: { street: "123 Elm Street", city: "Metropolis" } } }), { info: "Diana lives at 123 Elm Street, Metropolis." });
});
test("TestComponentTool.test_from_component_with_list_of_documents", async () => {
  const tool = new ComponentTool({ component: new DocumentProcessor(), name: "document_processor", description: "A tool that concatenates document contents" });
  assert.equal(tool.parameters, {
    $defs: { ByteStream: BYTE_STREAM_SCHEMA, Document: DOCUMENT_SCHEMA, SparseEmbedding: SPARSE_EMBEDDING_SCHEMA },
    properties: {
      documents: { description: "List of Documents whose content will be concatenated", items: { $ref: "#/$defs/Document" }, type: "array" },
      top_k: { description: "The number of top documents to concatenate", type: "integer", default: 5 },
    },
    required: ["documents"],
    type: "object",
  });
  assert.equal(await tool.invoke({ documents: [{ content: "First document" }, { content: "Second document" }] }), { concatenated: "First document\nSecond document" });
});
test("TestComponentTool.test_from_component_with_dynamic_input_types", () => {
  const tool = new ComponentTool({ component: new PromptBuilder({ template: "Hello, {{name}}!" }), name: "prompt_builder_tool" });
  assert.equal(tool.parameters, {
    properties: {
      name: { description: "Input 'name' for the component." },
      template: {
        anyOf: [{ type: "string" }, { type: "null" }],
        default: null,
        description: "An optional string template to overwrite PromptBuilder's default template. If None, the default template\nprovided at initialization is used.",
      },
      template_variables: {
        anyOf: [{ additionalProperties: true, type: "object" }, { type: "null" }],
        default: null,
        description: "An optional dictionary of template variables to overwrite the pipeline variables.",
      },
    },
    required: ["name"],
    type: "object",
  });
});

// ---- TestComponentToolInAgent (the cases without a live model) ----
test("TestComponentToolInAgent.test_pipeline_component_fails", () => {
  const comp = new SimpleComponent();
  new Pipeline().addComponent("simple", comp);
  assert.throws(() => new ComponentTool({ component: comp }), (e: Error) => e.name === "ValueError" && /Component has been added to a pipeline/.test(e.message));
});
test("TestComponentToolInAgent.test_deepcopy_with_jinja_based_component", async () => {
  const tool = new ComponentTool({ component: new PromptBuilder({ template: "{{query}}" }) });
  assert.ok(tool.function);
  const result = (await tool.function!({ query: "Hello" }, { signal: new AbortController().signal })) as { prompt: string };
  const copy = deepCopy(tool) as ComponentTool;
  assert.ok(copy.function);
  const fromCopy = (await copy.function!({ query: "Hello" }, { signal: new AbortController().signal })) as { prompt: string };
  assert.ok("prompt" in fromCopy);
  assert.is(fromCopy.prompt, result.prompt);
});
test("TestComponentToolInAgent.test_jinja_based_component_tool", async () => {
  const openai = await startOpenAIFixture({ apiKey: "test-key" });
  try {
    openai.script({ content: "A response from the model", finishReason: "length" });
    const tool = new ComponentTool({ component: new PromptBuilder({ template: "{{query}}" }) });
    const pipeline = new Pipeline().addComponent("llm", new OpenAIChatGenerator({ api_key: Secret.fromToken("test-key"), api_base_url: openai.url, max_retries: 0 }));
    const result = (await pipeline.run({ llm: { messages: [ChatMessage.fromUser("Hello")], tools: [tool] } })) as { llm: { replies: ChatMessageType[] } };
    assert.is(result.llm.replies[0]!.text, "A response from the model");
    // The tool's schema reached the model: the Jinja template's variable as a parameter.
    assert.equal(openai.requests[0]!.body.tools[0].function.parameters.required, ["query"]);
  } finally {
    await openai.close();
  }
});

// ---- TestComponentToolAsync: svc has one `run`, sync or async; an async run is awaited ----
class SyncOnlyComponent extends Component {
  static override readonly type = "test.SyncOnlyComponent";
  protected inputSpecs() {
    return { text: socket(v.string()) };
  }
  protected outputSpecs() {
    return { reply: output(v.string()) };
  }
  run(inputs: { text: string }) {
    return { reply: `sync:${inputs.text}` };
  }
}
/** Haystack's DualModeComponent's `run_async`: svc's async run. */
class AsyncComponent extends Component {
  static override readonly type = "test.AsyncComponent";
  protected inputSpecs() {
    return { text: socket(v.string()) };
  }
  protected outputSpecs() {
    return { reply: output(v.string()) };
  }
  async run(inputs: { text: string }) {
    await new Promise((resolve) => setImmediate(resolve));
    return { reply: `async:${inputs.text}` };
  }
}
test("TestComponentToolAsync.test_async_function_is_wired_only_when_component_has_run_async", () => {
  const syncTool = new ComponentTool({ component: new SyncOnlyComponent({}) });
  const asyncTool = new ComponentTool({ component: new AsyncComponent({}) });
  assert.ok(syncTool.function);
  assert.is(syncTool.async_function, null);
  assert.ok(asyncTool.function);
  assert.ok(asyncTool.async_function);
});
test("TestComponentToolAsync.test_invoke_async_uses_run_async_when_available", async () => {
  assert.equal(await new ComponentTool({ component: new AsyncComponent({}) }).invoke({ text: "hi" }), { reply: "async:hi" });
});
test("TestComponentToolAsync.test_invoke_async_falls_back_to_run_for_sync_only_component", async () => {
  assert.equal(await new ComponentTool({ component: new SyncOnlyComponent({}) }).invoke({ text: "hi" }), { reply: "sync:hi" });
});

test.run();
