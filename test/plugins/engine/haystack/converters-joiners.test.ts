/**
 * Haystack's BranchJoiner tests (test/components/joiners/test_branch_joiner.py), ported value for
 * value. (The HTMLToDocument cases are in html-to-document.test.ts.)
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { BranchJoiner } from "../../../../plugins/engine/components/branch-joiner.js";

test("BranchJoiner: test_one_value, test_one_value_of_wrong_type, test_one_value_of_none_type (no type check at run)", () => {
  const joiner = new BranchJoiner({ type_: "int" });
  assert.equal(joiner.run({ value: [2] }), { value: 2 });
  assert.equal(joiner.run({ value: ["hello"] }), { value: "hello" });
  assert.equal(joiner.run({ value: [null] }), { value: null });
});

test("BranchJoiner: test_more_values_of_expected_type, test_no_values", () => {
  const joiner = new BranchJoiner({ type_: "int" });
  assert.throws(() => joiner.run({ value: [2, 3, 4] }), /BranchJoiner expects only one input, but 3 were received\./);
  assert.throws(() => joiner.run({ value: [] }), /BranchJoiner expects only one input, but 0 were received\./);
});

test("BranchJoiner: to_dict writes type_ (Haystack 3); `type_` is required; svc's older `type` still loads", () => {
  assert.equal(new BranchJoiner({ type_: "list[str]" }).toDict(), { type: "haystack.components.joiners.branch.BranchJoiner", init_parameters: { type_: "list[str]" } });
  assert.equal(new BranchJoiner({ type: "int" }).toDict().init_parameters, { type_: "int" });
  assert.throws(() => new BranchJoiner({}), /type_/);
});

test.run();
