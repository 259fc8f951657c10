import { test } from "uvu";
import * as assert from "uvu/assert";
import { ChatMessage } from "svc/engine";
import { chatMessagesFromOpenAIResponse, getInputFiles, getLastUserInputText, normalizeResponseInput } from "../../../plugins/openai/response-input.js";

test("normalizeResponseInput: a string is one user message, null or absent is [], a list passes through", () => {
  assert.equal(normalizeResponseInput("hi"), [{ type: "message", role: "user", content: "hi" }]);
  assert.equal(normalizeResponseInput(null), []);
  assert.equal(normalizeResponseInput(undefined), []);
  const items = [{ role: "user", content: "x" }];
  assert.is(normalizeResponseInput(items), items);
});

test("getLastUserInputText: the last user text, string or last input_text part", () => {
  assert.is(getLastUserInputText([{ role: "user", type: "message", content: "first" }, { role: "assistant", content: "reply" }]), "first");
  assert.is(
    getLastUserInputText([
      { role: "user", content: "older" },
      { role: "user", type: "message", content: [{ type: "input_text", text: "a" }, { type: "input_file", file_id: "f" }, { type: "input_text", text: "b" }] },
    ]),
    "b",
  );
  // A user message without text parts is passed over; non-message items and non-objects are skipped.
  assert.is(
    getLastUserInputText([
      { role: "user", content: [{ type: "input_text", text: "earlier" }] },
      "noise",
      { role: "user", type: "function_call_output", content: "not a message" },
      { role: "user", content: [{ type: "input_file", file_id: "f" }] },
    ]),
    "earlier",
  );
  assert.is(getLastUserInputText([{ role: "assistant", content: "x" }]), undefined);
  assert.is(getLastUserInputText([]), undefined);
  assert.is(getLastUserInputText(null), undefined);
});

test("getInputFiles: input_file parts with a file_id from user messages, keys preserved, in order", () => {
  const a = { type: "input_file", file_id: "file-1", filename: "a.pdf" };
  const b = { type: "input_file", file_id: "file-2" };
  assert.equal(
    getInputFiles([
      { role: "user", content: [{ type: "input_text", text: "x" }, a, { type: "input_file", file_id: "" }] },
      { role: "assistant", content: [{ type: "input_file", file_id: "file-x" }] },
      { role: "user", content: "plain" },
      { role: "user", content: [b] },
    ]),
    [a, b],
  );
  assert.equal(getInputFiles(undefined), []);
});

test("chatMessagesFromOpenAIResponse: roles, flattened content, function calls and their outputs", () => {
  const messages = chatMessagesFromOpenAIResponse([
    { role: "developer", content: "Be brief." },
    { role: "system", type: "message", content: [{ type: "input_text", text: "Use tools." }] },
    { role: "user", type: "message", content: [{ type: "input_text", text: "Weather" }, { type: "input_file", file_id: "f" }, { type: "input_text", text: "in Paris?" }] },
    { role: "user", content: [] },
    { type: "reasoning", summary: [] },
    { type: "function_call", call_id: "call_1", name: "weather", arguments: '{"city":"Paris"}' },
    { type: "function_call", id: "fc_2", arguments: { tz: "CET" } },
    { type: "function_call_output", call_id: "call_1", output: "sunny" },
    { type: "function_call_output", call_id: "fc_2", output: { time: "12:00" } },
    { type: "function_call_output", call_id: "unknown", output: "orphan" },
    { role: "assistant", content: [{ type: "output_text", text: "Sunny at noon." }] },
    "not an item",
  ]);
  assert.ok(messages.every((m) => m instanceof ChatMessage));
  assert.equal(messages.map((m) => m.role), ["system", "system", "user", "assistant", "tool", "tool", "tool", "assistant"]);
  assert.is(messages[0]!.text, "Be brief.");
  assert.is(messages[2]!.text, "Weather\nin Paris?");
  assert.equal(messages[3]!.toolCalls, [
    { tool_name: "weather", arguments: { city: "Paris" }, id: "call_1" },
    { tool_name: "function", arguments: { tz: "CET" }, id: "fc_2" },
  ]);
  assert.equal(messages[4]!.toolCallResult, { result: "sunny", origin: messages[3]!.toolCalls[0]!, error: false });
  assert.equal(messages[5]!.toolCallResult!.result, '{"time":"12:00"}');
  assert.is(messages[5]!.toolCallResult!.origin.tool_name, "function");
  assert.equal(messages[6]!.toolCallResult!.origin, { tool_name: "function", arguments: {}, id: "unknown" });
  assert.is(messages[7]!.text, "Sunny at noon.");
  // A call without any id gets a generated one; bad arguments become {}.
  const [generated] = chatMessagesFromOpenAIResponse([{ type: "function_call", name: "f", arguments: "{oops" }]);
  assert.match(generated!.toolCalls[0]!.id!, /^call_[0-9a-f]{24}$/);
  assert.equal(generated!.toolCalls[0]!.arguments, {});
  assert.equal(chatMessagesFromOpenAIResponse(undefined), []);
});

test.run();
