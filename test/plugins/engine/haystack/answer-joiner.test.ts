/**
 * Haystack's AnswerJoiner tests (test/components/joiners/test_answer_joiner.py), ported value for
 * value; `from_dict` is building the component from `to_dict()`'s `init_parameters`.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { AnswerJoiner, Document, ExtractedAnswer, GeneratedAnswer } from "svc/engine";

const TYPE = "haystack.components.joiners.answer_joiner.AnswerJoiner";
const generated = (s: string) => new GeneratedAnswer(s, s, [new Document({ content: s })], {});
const extracted = (query: string, score: number | null) => new ExtractedAnswer({ query, score, meta: {}, document: new Document({ content: query }) });
const settings = (j: AnswerJoiner) => j.initParameters;
const run = (j: AnswerJoiner, answers: (GeneratedAnswer | ExtractedAnswer)[][], top_k?: number) => j.run(top_k === undefined ? { answers } : { answers, top_k }).answers;

test("test_init", () => assert.equal(settings(new AnswerJoiner()), { join_mode: "concatenate", top_k: null, sort_by_score: false }));
test("test_init_with_custom_parameters", () => assert.equal(settings(new AnswerJoiner({ join_mode: "concatenate", top_k: 5, sort_by_score: true })), { join_mode: "concatenate", top_k: 5, sort_by_score: true }));
test("test_init_with_top_k_none_is_valid", () => assert.is(new AnswerJoiner({ top_k: null }).initParameters.top_k, null));
for (const top_k of [1, 5]) test(`test_init_with_positive_top_k_is_valid[${top_k}]`, () => assert.is(new AnswerJoiner({ top_k }).initParameters.top_k, top_k));
for (const top_k of [0, -1]) test(`test_init_with_non_positive_top_k_raises[${top_k}]`, () => assert.throws(() => new AnswerJoiner({ top_k }), /top_k must be greater than 0/));

test("test_to_dict", () => assert.equal(new AnswerJoiner().toDict(), { type: TYPE, init_parameters: { join_mode: "concatenate", top_k: null, sort_by_score: false } }));

test("test_to_from_dict_custom_parameters", () => {
  const data = new AnswerJoiner({ join_mode: "concatenate", top_k: 5, sort_by_score: true }).toDict();
  assert.equal(data, { type: TYPE, init_parameters: { join_mode: "concatenate", top_k: 5, sort_by_score: true } });
  assert.equal(settings(new AnswerJoiner(data.init_parameters)), { join_mode: "concatenate", top_k: 5, sort_by_score: true });
});

test("test_from_dict", () => assert.equal(settings(new AnswerJoiner({})), { join_mode: "concatenate", top_k: null, sort_by_score: false }));
test("test_from_dict_customs_parameters", () => assert.equal(settings(new AnswerJoiner({ join_mode: "concatenate", top_k: 5, sort_by_score: true })), { join_mode: "concatenate", top_k: 5, sort_by_score: true }));

test("test_empty_list", () => assert.equal(run(new AnswerJoiner(), []), []));
test("test_list_of_empty_lists", () => assert.equal(run(new AnswerJoiner(), [[], []]), []));

test("test_list_of_single_answer", () => {
  const answers = [generated("a"), generated("b"), generated("c")];
  assert.equal(run(new AnswerJoiner(), [answers]), answers);
});

test("test_two_lists_of_generated_answers", () => {
  const [a, d] = [generated("a"), generated("d")];
  assert.equal(run(new AnswerJoiner(), [[a], [d]]), [a, d]);
});

test("test_multiple_lists_of_mixed_answers", () => {
  const lists = [[generated("a")], [extracted("d", 0.9)], [generated("f")]];
  assert.equal(run(new AnswerJoiner(), lists), lists.flat());
});

test("test_unsupported_join_mode", () => assert.throws(() => new AnswerJoiner({ join_mode: "unsupported_mode" }), /Unknown join mode 'unsupported_mode'\. Supported modes in AnswerJoiner are: \['concatenate'\]/));

test("test_run_with_top_k_in_run_method_overrides_init_top_k", () => {
  assert.is(run(new AnswerJoiner({ top_k: 5 }), [[generated("a")], [generated("b")], [generated("c")]], 2).length, 2);
});

test("test_run_with_top_k_zero_in_run_method_overrides_init_top_k", () => {
  assert.is(run(new AnswerJoiner({ top_k: 5 }), [[generated("a")], [generated("b")]], 0).length, 0);
});

test("test_run_with_negative_top_k_in_run_method_raises", () => {
  assert.throws(() => run(new AnswerJoiner({ top_k: 5 }), [[generated("a")], [generated("b")]], -1), /top_k must not be negative/);
});

test("test_sort_by_score", () => {
  const answers = run(new AnswerJoiner({ sort_by_score: true }), [[extracted("a", 0.3)], [extracted("b", 0.9)]]);
  assert.equal(answers.map((a) => (a as ExtractedAnswer).score), [0.9, 0.3]);
});

test("test_sort_by_score_with_none_score", () => {
  const answers = run(new AnswerJoiner({ sort_by_score: true }), [[extracted("a", 0.5)], [extracted("b", null)]]) as ExtractedAnswer[];
  assert.equal(answers.map((a) => a.data), [null, null]);
  assert.equal(answers.map((a) => a.score), [0.5, null]);
});

test("test_sort_by_score_with_answers_missing_score_attribute", () => {
  const answers = run(new AnswerJoiner({ sort_by_score: true }), [[generated("a")], [extracted("b", 0.9)]]);
  assert.instance(answers[0], ExtractedAnswer);
  assert.instance(answers[1], GeneratedAnswer);
});

test.run();
