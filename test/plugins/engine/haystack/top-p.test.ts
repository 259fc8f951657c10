/**
 * Haystack's TopPSampler tests (test/components/samplers/test_top_p.py), ported value for value;
 * caplog is the component context's logger.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { Document, TopPSampler } from "svc/engine";
import { loggedContext } from "../../../helpers/env.js";

const withScoreField = () => [
  new Document({ content: "Sarajevo", meta: { similarity_score: 0.7 } }),
  new Document({ content: "Belgrade", meta: { similarity_score: 0.01 } }),
  new Document({ content: "Berlin", meta: { similarity_score: 0.001 } }),
];
const withScore = () => [new Document({ content: "Sarajevo", score: 0.7 }), new Document({ content: "Belgrade", score: 0.01 }), new Document({ content: "Berlin", score: 0.001 })];
/** Python's random.shuffle. */
const shuffle = <T>(xs: T[]) => {
  for (let i = xs.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [xs[i], xs[j]] = [xs[j]!, xs[i]!];
  }
  return xs;
};
/** Runs the sampler; returns the documents and the warnings logged (caplog.text). */
const run = (sampler: TopPSampler, documents: Document[], top_p?: number) => {
  const { ctx, warnings } = loggedContext("sampler");
  const out = sampler.run(top_p === undefined ? { documents } : { documents, top_p }, ctx);
  return { docs: out.documents, log: warnings.join("\n") };
};

test("test_init_raises_value_error", () => assert.throws(() => new TopPSampler({ top_p: 2.0 }), /top_p must be between 0 and 1\. Got 2/));

test("test_run_raises_value_error", () => assert.throws(() => run(new TopPSampler({ top_p: 0.95 }), withScore(), 2.0), /top_p must be between 0 and 1/));

test("test_run_score_field", () => {
  const { docs } = run(new TopPSampler({ top_p: 0.95, score_field: "similarity_score" }), withScoreField());
  assert.equal(docs.map((d) => d.content), ["Sarajevo", "Belgrade"]);
});

test("test_run_score_field_missing_scores", () => {
  const input = [
    new Document({ content: "Sarajevo", meta: { similarity_score: 0.7 } }),
    new Document({ content: "Belgrade", meta: { similarity_score: 0.01 } }),
    new Document({ content: "Berlin", meta: { similarity_score: null } }),
  ];
  const { docs, log } = run(new TopPSampler({ top_p: 1.0, score_field: "similarity_score" }), input);
  assert.equal(docs.map((d) => d.content), ["Sarajevo", "Belgrade"]);
  assert.match(log, "Score field");
});

test("test_run", () => {
  const input = shuffle(withScore());
  const sortedScores = input.map((d) => d.score!).sort((a, b) => b - a);
  const { docs } = run(new TopPSampler({ top_p: 0.99 }), input);
  assert.equal(docs.map((d) => d.content), ["Sarajevo", "Belgrade"]);
  assert.equal(docs.map((d) => d.score), sortedScores.slice(0, 2));
});

test("test_run_top_p_1", () => {
  const input = shuffle(withScore());
  const { docs } = run(new TopPSampler({ top_p: 1.0 }), input);
  assert.is(docs.length, input.length);
  assert.is(docs[0]!.content, "Sarajevo");
  assert.equal(docs.map((d) => d.score), input.map((d) => d.score!).sort((a, b) => b - a));
});

test("test_run_top_p_0", () => {
  const { docs, log } = run(new TopPSampler({ top_p: 0.0 }), withScore());
  assert.equal(docs.map((d) => d.content), ["Sarajevo"]);
  assert.match(log, "Top-p sampling with p=");
});

test("test_run_top_p_0_as_run_override", () => {
  const { docs, log } = run(new TopPSampler({ top_p: 1.0 }), withScore(), 0.0);
  assert.equal(docs.map((d) => d.content), ["Sarajevo"]);
  assert.match(log, "Top-p sampling with p=");
});

test("test_run_with_integer_scores", () => {
  const input = [new Document({ content: "Sarajevo", score: 7 }), new Document({ content: "Belgrade", score: 1 }), new Document({ content: "Berlin", score: -5 })];
  const { docs } = run(new TopPSampler({ top_p: 0.99 }), input);
  assert.ok(docs.length < input.length);
  assert.is(docs[0]!.content, "Sarajevo");
});

test("test_run_with_boolean_scores_treated_as_missing", () => {
  const input = [new Document({ content: "Sarajevo", score: true as unknown as number }), new Document({ content: "Belgrade", score: 0.5 })];
  const { docs, log } = run(new TopPSampler({ top_p: 0.95 }), input);
  assert.equal(docs, [input[1]]);
  assert.match(log, "Ensure all documents have a valid score value");
});

test("test_run_returns_empty_list_no_documents", () => assert.equal(run(new TopPSampler(), []).docs, []));

test("test_run_no_score_field", () => {
  const { docs, log } = run(new TopPSampler({ top_p: 0.95, score_field: "similarity_score" }), withScore());
  assert.is(docs.length, 3);
  assert.is(docs[0]!.content, "Sarajevo");
  assert.match(log, "Score field 'similarity_score' not found");
});

test("test_run_missing_scores", () => {
  const input = [new Document({ content: "Sarajevo", score: 0.7 }), new Document({ content: "Belgrade", score: 0.01 }), new Document({ content: "Berlin", score: null })];
  const { docs, log } = run(new TopPSampler({ top_p: 0.95 }), input);
  assert.equal(docs.map((d) => d.content), ["Sarajevo"]);
  assert.match(log, "Ensure all documents have a valid score value");
});

test("test_run_min_top_k", () => {
  const { docs } = run(new TopPSampler({ min_top_k: 2, top_p: 0.2 }), withScore());
  assert.equal(docs.map((d) => d.content), ["Sarajevo", "Belgrade"]);
});

test.run();
