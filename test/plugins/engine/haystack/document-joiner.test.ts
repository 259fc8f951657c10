/**
 * Haystack's DocumentJoiner tests (test/components/joiners/test_document_joiner.py), ported value
 * for value. Each `test` names the Haystack case(s) it ports.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { NOOP_TRACER } from "svc/plugin";
import { Document } from "../../../../plugins/engine/dataclasses/document.js";
import { DocumentJoiner } from "../../../../plugins/engine/components/document-joiner.js";

const MODES = ["concatenate", "merge", "reciprocal_rank_fusion", "distribution_based_rank_fusion"];
const infos: string[] = [];
const ctx = () => ({ name: "joiner", signal: new AbortController().signal, tracer: NOOP_TRACER, log: { info: (m: string) => void infos.push(m), warn() {}, error() {}, debug() {} } as never });
const join = (joiner: DocumentJoiner, documents: Document[][], top_k?: number) => joiner.run(top_k === undefined ? { documents } : { documents, top_k }, ctx()).documents;
const ids = (docs: Document[]) => docs.map((d) => d.id).sort();
const doc = (content: string, score?: number | null, meta?: Record<string, unknown>) => new Document({ content, ...(score === undefined ? {} : { score }), ...(meta ? { meta } : {}) });

test("test_init, test_init_with_custom_parameters, test_init_with_top_k_none_is_valid, test_init_with_positive_top_k_is_valid (2)", () => {
  assert.equal(new DocumentJoiner().initParameters, { join_mode: "concatenate", weights: null, top_k: null, sort_by_score: true });
  assert.equal(new DocumentJoiner({ join_mode: "merge", weights: [0.4, 0.6], top_k: 5, sort_by_score: false }).initParameters, { join_mode: "merge", weights: [0.4, 0.6], top_k: 5, sort_by_score: false });
  assert.is(new DocumentJoiner({ top_k: null }).initParameters.top_k, null);
  for (const top_k of [1, 5]) assert.is(new DocumentJoiner({ top_k }).initParameters.top_k, top_k);
});

test("test_init_with_zero_sum_weights_raises, test_init_with_non_positive_top_k_raises (2), test_unsupported_join_mode", () => {
  assert.throws(() => new DocumentJoiner({ join_mode: "merge", weights: [0.0, 0.0, 0.0] }), /must not sum to zero/);
  for (const top_k of [0, -1]) assert.throws(() => new DocumentJoiner({ top_k }), /top_k must be greater than 0/);
  assert.throws(() => new DocumentJoiner({ join_mode: "unsupported_mode" }), /Unknown join mode 'unsupported_mode'.*Supported modes in DocumentJoiner are: \[.*\]/);
});

test("test_to_dict, test_to_dict_custom_parameters, test_from_dict, test_from_dict_customs_parameters", () => {
  const type = "haystack.components.joiners.document_joiner.DocumentJoiner";
  assert.equal(new DocumentJoiner().toDict(), { type, init_parameters: { join_mode: "concatenate", sort_by_score: true, top_k: null, weights: null } });
  assert.equal(new DocumentJoiner({ join_mode: "merge", weights: [0.4, 0.6], top_k: 4, sort_by_score: false }).toDict(), { type, init_parameters: { join_mode: "merge", weights: [0.4, 0.6], top_k: 4, sort_by_score: false } });
  assert.equal(new DocumentJoiner({}).initParameters, { join_mode: "concatenate", weights: null, top_k: null, sort_by_score: true });
  assert.equal(new DocumentJoiner({ join_mode: "merge", weights: [0.5, 0.6], top_k: 6, sort_by_score: false }).initParameters, { join_mode: "merge", weights: [0.5, 0.6], top_k: 6, sort_by_score: false });
});

test("test_empty_list, test_list_of_empty_lists, test_list_with_one_empty_list (4 join modes each)", () => {
  for (const join_mode of MODES) {
    assert.equal(join(new DocumentJoiner({ join_mode }), []), [], join_mode);
    assert.equal(join(new DocumentJoiner({ join_mode }), [[], []]), [], join_mode);
    const documents = [doc("a"), doc("b"), doc("c")];
    assert.equal(ids(join(new DocumentJoiner({ join_mode }), [[], documents])), ids(documents), join_mode);
  }
});

test("test_run_with_concatenate_join_mode_and_top_k, test_run_with_concatenate_join_mode_and_duplicate_documents", () => {
  const d1 = [doc("a"), doc("b"), doc("c")];
  const d2 = [doc("d"), doc("e"), doc("f", undefined, { key: "value" }), doc("g")];
  const out = join(new DocumentJoiner({ top_k: 6 }), [d1, d2]);
  assert.is(out.length, 6);
  assert.equal(ids(out), ids([...d1, ...d2.slice(0, -1)]));
  const e1 = [doc("a", 0.3), doc("b"), doc("c")];
  const e2 = [doc("a", 0.2), doc("a"), doc("f", undefined, { key: "value" })];
  const dup = join(new DocumentJoiner(), [e1, e2]);
  assert.is(dup.length, 4);
  assert.equal(ids(dup), ids([...e1, e2[2]!]));
  assert.is(dup.find((d) => d.content === "a")!.score, 0.3);
});

test("test_run_with_concatenate_join_mode_keeps_zero_score_over_{negative,none}_duplicate, test_run_with_merge_join_mode_handles_zero_score", () => {
  assert.equal(join(new DocumentJoiner({ sort_by_score: false }), [[doc("a", 0.0)], [doc("a", -0.5)]]).map((d) => d.score), [0]);
  assert.equal(join(new DocumentJoiner({ sort_by_score: false }), [[doc("a", 0.0)], [doc("a")]]).map((d) => d.score), [0]);
  assert.is(join(new DocumentJoiner({ join_mode: "merge", weights: [0.5, 0.5] }), [[doc("a", 0.0)], [doc("a", 0.0)]])[0]!.score, 0);
});

test("test_run_with_merge_join_mode, test_run_with_reciprocal_rank_fusion_join_mode", () => {
  const merged = join(new DocumentJoiner({ join_mode: "merge", weights: [1.5, 0.5] }), [[doc("a", 1.0), doc("b", 2.0)], [doc("a", 0.5), doc("b", 3.0), doc("f", 4.0, { key: "value" })]]);
  assert.is(merged.length, 3);
  assert.equal(ids(merged), ids([doc("a", 1.25), doc("b", 2.25), doc("f", 4.0, { key: "value" })]));
  const rrf = join(new DocumentJoiner({ join_mode: "reciprocal_rank_fusion" }), [[doc("a"), doc("b"), doc("c")], [doc("b", 1000.0), doc("c"), doc("a"), doc("f", undefined, { key: "value" })]]);
  assert.is(rrf.length, 4);
  assert.equal(ids(rrf), ids([doc("b"), doc("a"), doc("c"), doc("f", undefined, { key: "value" })]));
});

test("test_run_with_distribution_based_rank_fusion_join_mode, _same_scores, _with_none_score", () => {
  const second = [doc("d", 0.5), doc("e", 0.8), doc("f", 1.1, { key: "value" }), doc("g", 0.3), doc("a", 0.3)];
  const expected = ids(["a", "b", "c", "d", "e", "g"].map((c) => doc(c)).concat(doc("f", undefined, { key: "value" })));
  const dbsf = join(new DocumentJoiner({ join_mode: "distribution_based_rank_fusion" }), [[doc("a", 0.6), doc("b", 0.2), doc("c", 0.5)], second]);
  assert.is(dbsf.length, 7);
  assert.equal(ids(dbsf), expected);
  const same = join(new DocumentJoiner({ join_mode: "distribution_based_rank_fusion" }), [[doc("a", 0.2), doc("b", 0.2), doc("c", 0.2)], second]);
  assert.is(same.length, 7);
  assert.equal(ids(same), expected);
  const none = join(new DocumentJoiner({ join_mode: "distribution_based_rank_fusion" }), [[doc("a", 0.6), doc("b", null)], [doc("c", 0.5), doc("d", 0.3)]]);
  assert.is(none.length, 4);
  assert.ok(none.every((d) => d.score !== null && d.score !== undefined));
});

test("test_run_with_top_k_in_run_method, test_run_with_top_k_zero_in_run_method_overrides_init_top_k, test_run_with_negative_top_k_in_run_method_raises", () => {
  const d1 = [doc("a"), doc("b"), doc("c")];
  const d2 = [doc("d"), doc("e"), doc("f")];
  assert.is(join(new DocumentJoiner(), [d1, d2], 4).length, 4);
  assert.is(join(new DocumentJoiner({ top_k: 5 }), [d1, d2], 0).length, 0);
  assert.throws(() => join(new DocumentJoiner({ top_k: 5 }), [d1, d2], -1), /top_k must not be negative/);
});

test("test_sort_by_score_without_scores, test_output_documents_not_sorted_by_score", () => {
  infos.length = 0;
  const documents = [doc("a"), doc("b", 0.5)];
  assert.equal(join(new DocumentJoiner(), [documents]), [...documents].reverse());
  assert.match(infos.join("\n"), /those with score=None were sorted as if they had a score of -infinity/);
  const d1 = [doc("a", 0.1)];
  const d2 = [doc("d", 0.2)];
  assert.equal(join(new DocumentJoiner({ sort_by_score: false }), [d1, d2]), [...d1, ...d2]);
});

test.run();
