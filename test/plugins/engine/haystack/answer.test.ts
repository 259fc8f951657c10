/**
 * Haystack's test/dataclasses/test_answer.py, TestExtractedAnswer and TestGeneratedAnswer, ported
 * value for value. Skipped, Python-only: `test_protocol` (`isinstance` against the Answer protocol)
 * and the `dataclasses.replace` mutation warnings and their no-warning twins (Span's too).
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { ChatMessage, Document, ExtractedAnswer, GeneratedAnswer } from "svc/engine";

const DOCS = () => [new Document({ id: "1", content: "The answer is 42." }), new Document({ id: "2", content: "I believe the answer is 42." }), new Document({ id: "3", content: "42 is definitely the answer." })];
const DOC_DICTS = [{ id: "1", content: "The answer is 42." }, { id: "2", content: "I believe the answer is 42." }, { id: "3", content: "42 is definitely the answer." }];
const Q = "What is the answer?";
const legacy = (init_parameters: Record<string, unknown>) => ({ type: "haystack.dataclasses.answer.GeneratedAnswer", init_parameters });
const sameDocs = (a: Document[], b: Document[]) => assert.equal(a.map((d) => d.toDict(false)), b.map((d) => d.toDict(false)));

// TestExtractedAnswer
const TEXT = "I thought a lot about this. The answer is 42.";
const TEXT_ID = "8f800a524b139484fc719ecc35f971a080de87618319bc4836b784d69baca57f";
const EXTRACTED = () => ({ data: "42", query: Q, document: new Document({ content: TEXT }), context: "The answer is 42.", score: 1.0, document_offset: { start: 42, end: 44 }, context_offset: { start: 14, end: 16 }, meta: { meta_key: "meta_value" } });
const EXTRACTED_DICT = () => ({ data: "42", query: Q, document: { id: TEXT_ID, content: TEXT }, context: "The answer is 42.", score: 1.0, document_offset: { start: 42, end: 44 }, context_offset: { start: 14, end: 16 }, meta: { meta_key: "meta_value" } });
function checkExtracted(answer: ExtractedAnswer) {
  assert.equal([answer.data, answer.query, answer.context, answer.score, answer.meta], ["42", Q, "The answer is 42.", 1.0, { meta_key: "meta_value" }]);
  assert.ok(answer.document!.equals(new Document({ id: TEXT_ID, content: TEXT })));
  assert.equal([answer.document_offset, answer.context_offset], [{ start: 42, end: 44 }, { start: 14, end: 16 }]);
}

test("TestExtractedAnswer: test_init", () => checkExtracted(new ExtractedAnswer(EXTRACTED())));

test("TestExtractedAnswer: test_to_dict", () => {
  const fields = EXTRACTED();
  assert.equal(new ExtractedAnswer(fields).toDict(), { ...EXTRACTED_DICT(), document: fields.document.toDict(false) });
});

test("TestExtractedAnswer: test_from_dict", () => checkExtracted(ExtractedAnswer.fromDict(EXTRACTED_DICT())));
test("TestExtractedAnswer: test_from_dict_legacy", () => checkExtracted(ExtractedAnswer.fromDict({ type: "haystack.dataclasses.answer.ExtractedAnswer", init_parameters: EXTRACTED_DICT() })));

test("TestExtractedAnswer: test_from_dict_does_not_mutate_input", () => {
  const data = EXTRACTED_DICT();
  const first = ExtractedAnswer.fromDict(data);
  assert.equal(data, EXTRACTED_DICT());
  assert.equal(ExtractedAnswer.fromDict(data).toDict(), first.toDict());
});

test("test_init", () => {
  const answer = new GeneratedAnswer("42", Q, DOCS(), { meta_key: "meta_value" });
  assert.equal([answer.data, answer.query, answer.meta], ["42", Q, { meta_key: "meta_value" }]);
  sameDocs(answer.documents, DOCS());
});

test("test_to_dict, test_to_dict_with_meta, test_to_dict_with_chat_message_in_meta", () => {
  assert.equal(new GeneratedAnswer("42", Q, []).toDict(), { data: "42", query: Q, documents: [], meta: {} });
  assert.equal(new GeneratedAnswer("42", Q, [], { meta_key: "meta_value", all_messages: [Q] }).toDict(), { data: "42", query: Q, documents: [], meta: { meta_key: "meta_value", all_messages: [Q] } });
  assert.equal(new GeneratedAnswer("42", Q, DOCS(), { meta_key: "meta_value", all_messages: [ChatMessage.fromUser(Q)] }).toDict(), {
    data: "42",
    query: Q,
    documents: DOCS().map((d) => d.toDict(false)),
    meta: { meta_key: "meta_value", all_messages: [ChatMessage.fromUser(Q).toDict()] },
  });
});

for (const [name, wrap] of [["", (d: Record<string, unknown>) => d], ["_legacy", legacy]] as const) {
  test(`test_from_dict${name}, test_from_dict_with_meta${name}, test_from_dict_with_chat_message_in_meta${name}, test_from_dict_with_empty_all_messages${name}`, () => {
    const plain = GeneratedAnswer.fromDict(wrap({ data: "42", query: Q, documents: [], meta: {} }));
    assert.equal([plain.data, plain.query, plain.documents, plain.meta], ["42", Q, [], {}]);
    const withMeta = GeneratedAnswer.fromDict(wrap({ data: "42", query: Q, documents: [], meta: { meta_key: "meta_value", all_messages: [Q] } }));
    assert.equal([withMeta.meta.meta_key, withMeta.meta.all_messages], ["meta_value", [Q]]);
    const withMessages = GeneratedAnswer.fromDict(wrap({ data: "42", query: Q, documents: DOC_DICTS, meta: { meta_key: "meta_value", all_messages: [ChatMessage.fromUser(Q).toDict()] } }));
    sameDocs(withMessages.documents, DOCS());
    const messages = withMessages.meta.all_messages as ChatMessage[];
    assert.instance(messages[0], ChatMessage);
    assert.equal(messages.map((m) => m.toDict()), [ChatMessage.fromUser(Q).toDict()]);
    assert.equal(GeneratedAnswer.fromDict(wrap({ data: "42", query: Q, documents: [], meta: { all_messages: [] } })).meta.all_messages, []);
  });
}

test("test_from_dict_does_not_mutate_input, test_to_dict_from_dict_round_trip_with_empty_all_messages", () => {
  const data = { data: "42", query: Q, documents: DOC_DICTS.slice(0, 2), meta: { meta_key: "meta_value", all_messages: [ChatMessage.fromUser(Q).toDict()] } };
  const snapshot = structuredClone(data);
  const first = GeneratedAnswer.fromDict(data);
  assert.equal(data, snapshot);
  assert.equal(GeneratedAnswer.fromDict(data).toDict(), first.toDict());
  const answer = new GeneratedAnswer("42", Q, [], { all_messages: [] });
  assert.equal(GeneratedAnswer.fromDict(answer.toDict()).toDict(), answer.toDict());
});

test.run();
