/**
 * Haystack's JsonSchemaValidator tests (test/components/validators/test_json_schema.py), ported
 * value for value; its private helpers `_recursive_json_to_object` and
 * `_construct_error_recovery_message` are the module's exported functions.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import * as v from "valibot";
import { ChatMessage, Component, JsonSchemaValidator, Pipeline, constructErrorRecoveryMessage, output, recursiveJsonToObject } from "svc/engine";

const GENUINE_FC_MESSAGE = String.raw`[{"id": "call_NJr1NBz2Th7iUWJpRIJZoJIA", "function": {"arguments": "{\n    \"basehead\": \"main...amzn_chat\",\n    \"owner\": \"deepset-ai\",\n    \"repo\": \"haystack-core-integrations\"\n  }", "name": "compare_branches"}, "type": "function"}]`;

const ARGUMENTS = {
  type: "object",
  properties: {
    basehead: { type: "string", pattern: "^[^\\.]+(\\.{3}).+$", description: "Branch names must be in the format 'base_branch...head_branch'" },
    owner: { type: "string", description: "Owner of the repository" },
    repo: { type: "string", description: "Name of the repository" },
  },
  required: ["basehead", "owner", "repo"],
  description: "Parameters for the function call",
};
const JSON_SCHEMA_GITHUB_COMPARE = {
  type: "object",
  properties: {
    id: { type: "string", description: "A unique identifier for the call" },
    function: {
      type: "object",
      properties: { arguments: ARGUMENTS, name: { type: "string", description: "Name of the function to be called" } },
      required: ["arguments", "name"],
      description: "Details of the function being called",
    },
    type: { type: "string", description: "Type of the call (e.g., 'function')" },
  },
  required: ["function", "type"],
  description: "Structure representing a function call",
};
const JSON_SCHEMA_GITHUB_COMPARE_OPENAI = { name: "compare_branches", description: "Compares two branches in a GitHub repository", parameters: ARGUMENTS };

test("test_validates_message_against_json_schema", () => {
  const message = ChatMessage.fromAssistant(GENUINE_FC_MESSAGE);
  const result = new JsonSchemaValidator().run({ messages: [message], json_schema: JSON_SCHEMA_GITHUB_COMPARE });
  assert.ok("validated" in result);
  assert.is(result.validated!.length, 1);
  assert.is(result.validated![0], message);
});

test("test_recursive_json_to_object", () => {
  assert.type(JSON.parse(GENUINE_FC_MESSAGE)[0].function.arguments, "string");
  const result = recursiveJsonToObject({ key: GENUINE_FC_MESSAGE }) as any;
  assert.is(result.key[0].function.arguments.basehead, "main...amzn_chat");
});

test("test_validates_multiple_messages_against_json_schema", () => {
  const messages = [ChatMessage.fromUser("I'm not being validated, but the message after me is!"), ChatMessage.fromAssistant(GENUINE_FC_MESSAGE)];
  const result = new JsonSchemaValidator().run({ messages, json_schema: JSON_SCHEMA_GITHUB_COMPARE });
  assert.is(result.validated!.length, 1);
  assert.is(result.validated![0], messages[1]);
});

test("test_validates_message_against_openai_function_calling_schema", () => {
  const message = ChatMessage.fromAssistant(GENUINE_FC_MESSAGE);
  const result = new JsonSchemaValidator().run({ messages: [message], json_schema: JSON_SCHEMA_GITHUB_COMPARE_OPENAI });
  assert.is(result.validated!.length, 1);
  assert.is(result.validated![0], message);
});

test("test_validates_multiple_messages_against_openai_function_calling_schema", () => {
  const messages = [ChatMessage.fromSystem("Common use case is that this is for example system message"), ChatMessage.fromAssistant(GENUINE_FC_MESSAGE)];
  const result = new JsonSchemaValidator().run({ messages, json_schema: JSON_SCHEMA_GITHUB_COMPARE_OPENAI });
  assert.is(result.validated!.length, 1);
  assert.is(result.validated![0], messages[1]);
});

test("test_construct_custom_error_recovery_message", () => {
  const template = "Error details:\n- Message: {error_message}\n- Error Path in JSON: {error_path}\n- Schema Path: {error_schema_path}\nPlease match the following schema:\n{json_schema}\nFailing Json: {failing_json}\n";
  const message = constructErrorRecoveryMessage(template, "Error message", "Error path", "Error schema path", { type: "object" }, "Failing Json");
  assert.is(message, "Error details:\n- Message: Error message\n- Error Path in JSON: Error path\n- Schema Path: Error schema path\nPlease match the following schema:\n{'type': 'object'}\nFailing Json: Failing Json\n");
});

/** Haystack's in-test ChatMessageProducer: one assistant message with the given text. */
const producer = (text: string) =>
  new (class ChatMessageProducer extends Component {
    static override readonly type = "test.ChatMessageProducer";
    protected inputSpecs() {
      return {};
    }
    protected outputSpecs() {
      return { messages: output(v.array(v.instance(ChatMessage))) };
    }
    run() {
      return { messages: [ChatMessage.fromAssistant(text)] };
    }
  })();

const runPipeline = async (text: string) => {
  const pipe = new Pipeline()
    .addComponent("schema_validator", new JsonSchemaValidator())
    .addComponent("message_producer", producer(text))
    .connect("message_producer.messages", "schema_validator.messages");
  return (await pipe.run({ schema_validator: { json_schema: JSON_SCHEMA_GITHUB_COMPARE } })) as any;
};

test("test_schema_validator_in_pipeline_validated", async () => {
  const result = await runPipeline(GENUINE_FC_MESSAGE);
  assert.is(result.schema_validator.validated.length, 1);
  assert.is(result.schema_validator.validated[0].text, GENUINE_FC_MESSAGE);
});

test("test_schema_validator_in_pipeline_validation_error", async () => {
  const result = await runPipeline('{"key": "value"}');
  assert.is(result.schema_validator.validation_error.length, 1);
  const text: string = result.schema_validator.validation_error[0].text;
  assert.match(text, "Error details");
  // jsonschema's wording and paths for the first failure.
  assert.match(text, "- Message: 'function' is a required property\n- Error Path in JSON: N/A\n- Schema Path: required\n");
});

test.run();
