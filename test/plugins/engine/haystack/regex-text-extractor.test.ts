/**
 * Haystack's RegexTextExtractor tests (test/components/extractors/test_regex_text_extractor.py),
 * ported value for value; `from_dict` is building the component from `init_parameters`, caplog the
 * component's warnings.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { ChatMessage, Pipeline, RegexTextExtractor } from "svc/engine";
import { warnings } from "./agent-fixtures.js";

const ISSUE = '<issue url="(.+?)">';
const TYPE = "haystack.components.extractors.regex_text_extractor.RegexTextExtractor";
const extract = (pattern: string, text_or_messages: string | unknown[]) => new RegexTextExtractor({ regex_pattern: pattern }).run({ text_or_messages });

test("test_init_with_capture_group", () => assert.is(new RegexTextExtractor({ regex_pattern: ISSUE }).initParameters.regex_pattern, ISSUE));
test("test_init_without_capture_group", async () => {
  const seen = await warnings(() => assert.is(new RegexTextExtractor({ regex_pattern: "<issue>" }).initParameters.regex_pattern, "<issue>"));
  assert.equal(seen, ["The provided regex pattern <issue> doesn't contain any capture groups. The entire match will be returned instead."]);
});
test("test_to_dict", () => assert.equal(new RegexTextExtractor({ regex_pattern: ISSUE }).toDict(), { type: TYPE, init_parameters: { regex_pattern: ISSUE } }));
test("test_from_dict", () => assert.is(new RegexTextExtractor({ regex_pattern: ISSUE }).initParameters.regex_pattern, ISSUE));
test("test_from_dict_with_removed_parameter", async () => {
  let extractor: RegexTextExtractor | undefined;
  const seen = await warnings(() => (extractor = new RegexTextExtractor({ regex_pattern: ISSUE, return_empty_on_no_match: false })));
  assert.equal(extractor!.toDict().init_parameters, { regex_pattern: ISSUE });
  assert.ok(seen.some((w) => w.includes("The `return_empty_on_no_match` init parameter has been removed")));
});

test("test_extract_from_string_with_capture_group", () => assert.equal(extract(ISSUE, '<issue url="github.com/hahahaha">hahahah</issue>'), { captured_text: "github.com/hahahaha" }));
test("test_extract_from_string_without_capture_group", async () => {
  await warnings(() => assert.equal(extract("<issue>", "This is an <issue> tag in the text"), { captured_text: "<issue>" }));
});
test("test_extract_from_string_no_match", () => assert.equal(extract(ISSUE, "This text has no matching pattern"), { captured_text: "" }));
test("test_extract_from_string_empty_input", () => assert.equal(extract(ISSUE, ""), { captured_text: "" }));
test("test_extract_from_chat_messages_single_message", () => assert.equal(extract(ISSUE, [ChatMessage.fromUser('<issue url="github.com/test">test issue</issue>')]), { captured_text: "github.com/test" }));
test("test_extract_from_chat_messages_multiple_messages", () => {
  const messages = ["First message with <issue url=\"first.com\">first</issue>", 'Second message with <issue url="second.com">second</issue>', 'Last message with <issue url="last.com">last</issue>'].map((t) => ChatMessage.fromUser(t));
  assert.equal(extract(ISSUE, messages), { captured_text: "last.com" });
});
test("test_extract_from_chat_messages_no_match_in_last", () => {
  assert.equal(extract(ISSUE, [ChatMessage.fromUser('First message with <issue url="first.com">first</issue>'), ChatMessage.fromUser("Last message with no matching pattern")]), { captured_text: "" });
});
test("test_extract_from_chat_messages_empty_list", async () => {
  const seen = await warnings(() => assert.equal(extract(ISSUE, []), { captured_text: "" }));
  assert.equal(seen, ["Received empty list of messages"]);
});
test("test_extract_from_chat_messages_invalid_type", () => {
  assert.throws(() => extract(ISSUE, ["not a ChatMessage object"]), (e: Error) => e instanceof TypeError && e.message === "Expected ChatMessage object, got <class 'str'>");
});
test("test_extract_from_chat_messages_last_message_no_text", () => assert.equal(extract(ISSUE, [ChatMessage.fromAssistant(null)]), { captured_text: "" }));
test("test_multiple_capture_groups", () => assert.equal(extract(String.raw`(\w+)@(\w+)\.(\w+)`, "Contact us at user@example.com for support"), { captured_text: "user" }));
test("test_special_characters_in_pattern", () => assert.equal(extract(String.raw`\[(\w+)\]`, "This has [special] characters [in] brackets"), { captured_text: "special" }));
test("test_whitespace_handling", () => assert.equal(extract(String.raw`\s+(\w+)\s+`, "word1   word2   word3"), { captured_text: "word2" }));
test("test_nested_capture_groups", () => assert.equal(extract(String.raw`<(\w+)\s+attr="([^"]+)">`, '<div attr="value">content</div>'), { captured_text: "div" }));
test("test_optional_capture_group", () => assert.equal(extract(String.raw`(\w+)(?:@(\w+))?`, "username@domain"), { captured_text: "username" }));
test("test_optional_capture_group_no_match", () => assert.equal(extract(String.raw`(\w+)(?:@(\w+))?`, "username"), { captured_text: "username" }));

for (const [name, input, expected] of [
  ["test_pipeline_integration", '<issue url="github.com/pipeline-test">pipeline test</issue>', "github.com/pipeline-test"],
  ["test_pipeline_integration_with_chat_messages", [ChatMessage.fromUser('<issue url="github.com/chat-test">chat test</issue>')], "github.com/chat-test"],
] as const) {
  test(name, async () => {
    const result = await new Pipeline().addComponent("extractor", new RegexTextExtractor({ regex_pattern: ISSUE })).run({ extractor: { text_or_messages: input } });
    assert.equal(result.extractor, { captured_text: expected });
  });
}

test("test_very_long_text", () => assert.equal(extract(String.raw`(\d+)`, "a".repeat(10000) + "123" + "b".repeat(10000)), { captured_text: "123" }));
test("test_multiple_matches_first_is_captured", () => assert.equal(extract(String.raw`(\d+)`, "First: 123, Second: 456, Third: 789"), { captured_text: "123" }));

test.run();
