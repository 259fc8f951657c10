/**
 * @module Port of Haystack's test/components/builders/test_answer_builder.py (values, not Python).
 * Haystack's caplog warnings are read from the component context's logger.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { ChatMessage, Document } from "svc/engine";
import { AnswerBuilder } from "../../../../plugins/engine/components/answer-builder.js";
import { GeneratedAnswer } from "../../../../plugins/engine/dataclasses/generated-answer.js";
import { loggedContext } from "../../../helpers/env.js";

type Answer = GeneratedAnswer;
const answersOf = (out: { answers: Answer[] }) => out.answers;
/** Haystack's _check_metadata_excluding_all_messages plus the checks every case repeats. */
function checkAnswer(a: Answer | undefined, data: string, query: string, meta: Record<string, unknown>, documents?: string[]) {
  assert.ok(a instanceof GeneratedAnswer);
  assert.is(a.data, data);
  const { all_messages, ...rest } = a.meta;
  assert.equal(rest, meta);
  assert.ok("all_messages" in a.meta && all_messages !== undefined);
  assert.is(a.query, query);
  if (documents) assert.equal(a.documents.map((d) => d.content), documents);
}
const logged = () => loggedContext("answer_builder");
const docs = (...contents: string[]) => contents.map((content) => new Document({ content }));
const numbered = (n: number, prefix = "doc ") => Array.from({ length: n }, (_, i) => new Document({ content: `${prefix}${i + 1}` }));
const MESSAGE_META = { model: "gpt-4o-mini", index: 0, finish_reason: "stop", usage: { prompt_tokens: 32, completion_tokens: 153, total_tokens: 185 } };

test("test_run_unmatching_input_len", () => assert.throws(() => new AnswerBuilder().run({ query: "query", replies: ["reply1"], meta: [{ test: "meta" }, { test: "meta2" }] })));
test("test_run_without_meta", () => checkAnswer(answersOf(new AnswerBuilder().run({ query: "query", replies: ["reply1"] }))[0], "reply1", "query", {}, []));
test("test_run_meta_is_an_empty_list", () => checkAnswer(answersOf(new AnswerBuilder().run({ query: "query", replies: ["reply1"], meta: [] }))[0], "reply1", "query", {}, []));
test("test_run_with_meta", () => {
  const [a] = answersOf(new AnswerBuilder().run({ query: "query", replies: ["reply1"], meta: [{ test: "meta" }] }));
  checkAnswer(a, "reply1", "query", { test: "meta" }, []);
  assert.equal(a!.meta.all_messages, ["reply1"]);
});
test("test_run_without_pattern", () => {
  const answers = answersOf(new AnswerBuilder().run({ query: "test query", replies: ["Answer: AnswerString"], meta: [{}] }));
  assert.is(answers.length, 1);
  checkAnswer(answers[0], "Answer: AnswerString", "test query", {}, []);
});
test("test_run_with_pattern_with_capturing_group", () => {
  const answers = answersOf(new AnswerBuilder({ pattern: "Answer: (.*)" }).run({ query: "test query", replies: ["Answer: AnswerString"], meta: [{}] }));
  assert.is(answers.length, 1);
  checkAnswer(answers[0], "AnswerString", "test query", {}, []);
});
test("test_run_with_pattern_without_capturing_group", () => {
  const answers = answersOf(new AnswerBuilder({ pattern: "'.*'" }).run({ query: "test query", replies: ["Answer: 'AnswerString'"], meta: [{}] }));
  assert.is(answers.length, 1);
  checkAnswer(answers[0], "'AnswerString'", "test query", {}, []);
});
test("test_run_with_pattern_with_more_than_one_capturing_group", () =>
  assert.throws(() => new AnswerBuilder({ pattern: "Answer: (.*), (.*)" }), (e: Error) => /contains multiple capture groups/.test(e.message)));
test("test_run_with_pattern_set_at_runtime", () => {
  const answers = answersOf(new AnswerBuilder({ pattern: "unused pattern" }).run({ query: "test query", replies: ["Answer: AnswerString"], meta: [{}], pattern: "Answer: (.*)" }));
  assert.is(answers.length, 1);
  checkAnswer(answers[0], "AnswerString", "test query", {}, []);
});
test("test_run_with_documents_without_reference_pattern", () => {
  const answers = answersOf(new AnswerBuilder().run({ query: "test query", replies: ["Answer: AnswerString"], meta: [{}], documents: docs("test doc 1", "test doc 2") }));
  assert.is(answers.length, 1);
  checkAnswer(answers[0], "Answer: AnswerString", "test query", {}, ["test doc 1", "test doc 2"]);
});
test("test_run_with_documents_with_reference_pattern", () => {
  const answers = answersOf(new AnswerBuilder({ reference_pattern: "\\[(\\d+)\\]" }).run({ query: "test query", replies: ["Answer: AnswerString[2]"], meta: [{}], documents: docs("test doc 1", "test doc 2") }));
  assert.is(answers.length, 1);
  checkAnswer(answers[0], "Answer: AnswerString[2]", "test query", {}, ["test doc 2"]);
  assert.is(answers[0]!.documents[0]!.meta.referenced, true);
  assert.is(answers[0]!.documents[0]!.meta.source_index, 2);
});
test("test_run_returns_referenced_documents_in_source_order", () => {
  const out = new AnswerBuilder({ reference_pattern: "\\[(\\d+)\\]", return_only_referenced_documents: true }).run({ query: "test query", replies: ["First [3], then [10], and finally [50]."], documents: numbered(50, "doc") });
  assert.equal(out.answers[0]!.documents.map((d) => d.meta.source_index), [3, 10, 50]);
});
test("test_run_with_documents_with_reference_pattern_return_all_documents", () => {
  const answers = answersOf(
    new AnswerBuilder({ reference_pattern: "\\[(\\d+)\\]", return_only_referenced_documents: false }).run({ query: "test query", replies: ["Answer: AnswerString[2]"], meta: [{}], documents: docs("test doc 1", "test doc 2") }),
  );
  assert.is(answers.length, 1);
  checkAnswer(answers[0], "Answer: AnswerString[2]", "test query", {}, ["test doc 1", "test doc 2"]);
  assert.equal(answers[0]!.documents.map((d) => [d.meta.referenced, d.meta.source_index]), [[false, 1], [true, 2]]);
});
test("test_run_with_documents_with_reference_pattern_and_no_match", () => {
  const { ctx, warnings } = logged();
  const answers = answersOf(new AnswerBuilder({ reference_pattern: "\\[(\\d+)\\]" }).run({ query: "test query", replies: ["Answer: AnswerString[3]"], meta: [{}], documents: docs("test doc 1", "test doc 2") }, ctx));
  assert.is(answers.length, 1);
  checkAnswer(answers[0], "Answer: AnswerString[3]", "test query", {}, []);
  assert.ok(warnings.join("\n").includes("Document index '3' referenced in Generator output is out of range."));
});
test("test_run_with_documents_with_zero_reference", () => {
  const { ctx, warnings } = logged();
  const answers = answersOf(new AnswerBuilder({ reference_pattern: "\\[(\\d+)\\]" }).run({ query: "test query", replies: ["Answer: AnswerString[0]"], meta: [{}], documents: docs("test doc 1", "test doc 2") }, ctx));
  assert.is(answers.length, 1);
  assert.is(answers[0]!.documents.length, 0);
  assert.ok(warnings.join("\n").includes("Document index '0' referenced in Generator output is out of range."));
});
test("test_run_with_zero_reference_in_expanded_range", () => {
  const { ctx, warnings } = logged();
  const b = new AnswerBuilder({ reference_pattern: "\\[([\\d\\s,-]+)\\]", expand_reference_ranges: true });
  const answers = answersOf(b.run({ query: "test query", replies: ["Answer: AnswerString[0-1]"], meta: [{}], documents: docs("test doc 1", "test doc 2") }, ctx));
  assert.is(answers.length, 1);
  assert.equal(answers[0]!.documents.map((d) => d.content), ["test doc 1"]);
  assert.is(answers[0]!.documents[0]!.meta.referenced, true);
  assert.ok(warnings.join("\n").includes("Document index '0' referenced in Generator output is out of range."));
});
test("test_run_with_reference_pattern_set_at_runtime", () => {
  const answers = answersOf(
    new AnswerBuilder({ reference_pattern: "unused pattern" }).run({ query: "test query", replies: ["Answer: AnswerString[2][3]"], meta: [{}], documents: docs("test doc 1", "test doc 2", "test doc 3"), reference_pattern: "\\[(\\d+)\\]" }),
  );
  assert.is(answers.length, 1);
  checkAnswer(answers[0], "Answer: AnswerString[2][3]", "test query", {}, ["test doc 2", "test doc 3"]);
});
test("test_run_with_chat_message_replies_without_pattern", () => {
  const answers = answersOf(new AnswerBuilder().run({ query: "test query", replies: [ChatMessage.fromAssistant("Answer: AnswerString", { meta: MESSAGE_META })], meta: [{}] }));
  assert.is(answers.length, 1);
  checkAnswer(answers[0], "Answer: AnswerString", "test query", MESSAGE_META, []);
});
test("test_run_with_chat_message_replies_with_pattern", () => {
  const answers = answersOf(new AnswerBuilder({ pattern: "Answer: (.*)" }).run({ query: "test query", replies: [ChatMessage.fromAssistant("Answer: AnswerString", { meta: MESSAGE_META })], meta: [{}] }));
  assert.is(answers.length, 1);
  checkAnswer(answers[0], "AnswerString", "test query", MESSAGE_META, []);
});
test("test_run_with_chat_message_replies_with_documents", () => {
  const replies = [ChatMessage.fromAssistant("Answer: AnswerString[2]", { meta: MESSAGE_META })];
  const answers = answersOf(new AnswerBuilder({ reference_pattern: "\\[(\\d+)\\]" }).run({ query: "test query", replies, meta: [{}], documents: docs("test doc 1", "test doc 2") }));
  assert.is(answers.length, 1);
  checkAnswer(answers[0], "Answer: AnswerString[2]", "test query", MESSAGE_META, ["test doc 2"]);
  assert.equal(answers[0]!.meta.all_messages, [ChatMessage.fromAssistant("Answer: AnswerString[2]", { meta: MESSAGE_META })]);
});
test("test_run_with_chat_message_replies_with_pattern_set_at_runtime", () => {
  const replies = [ChatMessage.fromAssistant("Answer: AnswerString", { meta: MESSAGE_META })];
  const answers = answersOf(new AnswerBuilder({ pattern: "unused pattern" }).run({ query: "test query", replies, meta: [{}], pattern: "Answer: (.*)" }));
  assert.is(answers.length, 1);
  checkAnswer(answers[0], "AnswerString", "test query", MESSAGE_META, []);
});
test("test_run_with_chat_message_replies_with_meta_set_at_run_time", () => {
  const answers = answersOf(new AnswerBuilder().run({ query: "test query", replies: [ChatMessage.fromAssistant("AnswerString", { meta: MESSAGE_META })], meta: [{ test: "meta" }] }));
  assert.is(answers.length, 1);
  checkAnswer(answers[0], "AnswerString", "test query", { ...MESSAGE_META, test: "meta" }, []);
});
test("test_run_with_chat_message_no_meta_with_meta_set_at_run_time", () => {
  const answers = answersOf(new AnswerBuilder().run({ query: "test query", replies: [ChatMessage.fromAssistant("AnswerString")], meta: [{ test: "meta" }] }));
  assert.is(answers.length, 1);
  checkAnswer(answers[0], "AnswerString", "test query", { test: "meta" }, []);
});
const conversation = () => [ChatMessage.fromUser("What is Haystack?"), ChatMessage.fromAssistant("Haystack is a framework for building LLM applications.")];
test("test_conversation_history_with_last_message_only_false", () => {
  let replies = conversation();
  let answers = answersOf(new AnswerBuilder({ last_message_only: false }).run({ query: "test query", replies }));
  assert.equal(answers.map((a) => a.data), ["What is Haystack?", "Haystack is a framework for building LLM applications."]);
  for (const a of answers) assert.equal(a.meta.all_messages, replies);
  replies = [ChatMessage.fromUser("What is Haystack?")];
  answers = answersOf(new AnswerBuilder({ last_message_only: false }).run({ query: "test query", replies }));
  assert.equal(answers.map((a) => a.data), ["What is Haystack?"]);
  assert.equal(answers[0]!.meta.all_messages, replies);
});
test("test_conversation_history_with_last_message_only_true", () => {
  let replies = conversation();
  let answers = answersOf(new AnswerBuilder({ last_message_only: true }).run({ query: "test query", replies }));
  assert.equal(answers.map((a) => a.data), ["Haystack is a framework for building LLM applications."]);
  assert.equal(answers[0]!.meta.all_messages, replies);
  replies = [ChatMessage.fromUser("What is Haystack?")];
  answers = answersOf(new AnswerBuilder({ last_message_only: true }).run({ query: "test query", replies }));
  assert.equal(answers.map((a) => a.data), ["What is Haystack?"]);
  assert.equal(answers[0]!.meta.all_messages, replies);
});
test("test_run_does_not_mutate_input_documents_meta", () => {
  const doc = new Document({ content: "Paris is the capital of France.", meta: { source: "wiki" } });
  new AnswerBuilder().run({ query: "Capital of France?", replies: ["Paris."], documents: [doc] });
  assert.equal(doc.meta, { source: "wiki" });
});
test("test_run_does_not_mutate_input_documents_meta_with_reference_pattern", () => {
  const doc = new Document({ content: "Paris is the capital of France.", meta: { source: "wiki" } });
  new AnswerBuilder({ reference_pattern: "\\[(\\d+)\\]", return_only_referenced_documents: false }).run({ query: "Capital?", replies: ["Paris [1]."], documents: [doc] });
  assert.equal(doc.meta, { source: "wiki" });
});
test("test_run_does_not_mutate_document_with_empty_meta", () => {
  const doc = new Document({ content: "Paris is the capital of France." });
  new AnswerBuilder().run({ query: "Capital of France?", replies: ["Paris."], documents: [doc] });
  assert.equal(doc.meta, {});
});
const referencedIndexes = (init: Record<string, unknown>, reply: string, n: number) =>
  new AnswerBuilder({ reference_pattern: "\\[(\\d+)\\]", ...init }).run({ query: "test query", replies: [reply], documents: numbered(n) }).answers[0]!.documents.filter((d) => d.meta.referenced).map((d) => d.meta.source_index);
test("test_run_expands_reference_ranges_when_enabled", () =>
  assert.equal(referencedIndexes({ expand_reference_ranges: true, return_only_referenced_documents: false }, "Answer citing sources [6-10].", 10), [6, 7, 8, 9, 10]));
test("test_run_expands_comma_separated_reference_ranges", () =>
  assert.equal(referencedIndexes({ expand_reference_ranges: true, return_only_referenced_documents: false }, "Answer citing sources [1-3,7-9].", 10), [1, 2, 3, 7, 8, 9]));
test("test_run_ignores_invalid_reference_ranges", () =>
  assert.equal(new AnswerBuilder({ reference_pattern: "\\[(\\d+)\\]", expand_reference_ranges: true, return_only_referenced_documents: true }).run({ query: "test query", replies: ["Answer citing sources [3-1]."], documents: numbered(4) }).answers[0]!.documents, []));
test("test_run_clamps_reference_range_to_number_of_documents", () =>
  assert.equal(referencedIndexes({ expand_reference_ranges: true, return_only_referenced_documents: true }, "Answer citing sources [1-100].", 3), [1, 2, 3]));
test("test_run_does_not_expand_reference_ranges_by_default", () =>
  assert.equal(new AnswerBuilder({ reference_pattern: "\\[(\\d+)\\]", return_only_referenced_documents: true }).run({ query: "test query", replies: ["Answer citing sources [6-10]."], documents: numbered(10) }).answers[0]!.documents, []));

test.run();
