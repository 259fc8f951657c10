/**
 * Haystack's MetaFieldGroupingRanker tests (test/components/rankers/test_meta_field_grouping_ranker.py),
 * ported value for value. Each `test` names the Haystack case(s) it ports.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { NOOP_TRACER } from "svc/plugin";
import { Document, MetaFieldGroupingRanker, Pipeline, createRegistry, dumpPipelineYaml, loadPipelineYaml } from "svc/engine";

const ctx = () => ({ name: "ranker", signal: new AbortController().signal, tracer: NOOP_TRACER });
const d = (content: string, meta: Record<string, unknown>, id?: string) => new Document({ content, meta, ...(id ? { id } : {}) });
const DOC_LIST = [
  d("Javascript is a popular language", { group: "42", split_id: 7, subgroup: "subB" }),
  d("A chromosome is a package of DNA", { group: "314", split_id: 2, subgroup: "subC" }),
  d("DNA carries genetic information", { group: "314", split_id: 1, subgroup: "subE" }),
  d("Blue whales have a big heart", { group: "11", split_id: 8, subgroup: "subF" }),
  d("Python is a popular  language", { group: "42", split_id: 4, subgroup: "subB" }),
  d("bla bla bla bla", { split_id: 8, subgroup: "subG" }),
  d("Java is a popular programming language", { group: "42", split_id: 3, subgroup: "subB" }),
  d("An octopus has three hearts", { group: "11", split_id: 2, subgroup: "subD" }),
  d("without split id", { group: "11" }),
  d("without split id2", { group: "22", subgroup: "subI" }),
  d("without split id3", { group: "11" }),
  d("list values", { value_list: ["11"], split_id: 8, sub_value_list: ["subF"] }),
  d("list values2", { value_list: ["12"], split_id: 3, sub_value_list: ["subX"] }),
  d("list values3", { value_list: ["12"], split_id: 8, sub_value_list: ["subX"] }),
];
const rank = (init: Record<string, unknown>, documents: Document[]) => new MetaFieldGroupingRanker(init).run({ documents }, ctx()).documents;
const field = (docs: Document[], ...keys: string[]) => docs.map((doc) => keys.map((k) => (k === "content" ? doc.content : doc.meta[k])));

test("test_init_default, test_run_empty_input", () => {
  assert.equal(new MetaFieldGroupingRanker({ group_by: "group", sort_docs_by: null }).run({ documents: [] }, ctx()), { documents: [] });
  assert.equal(rank({ group_by: "group" }, []), []);
});

test("test_run_group_by_only", () => {
  const out = rank({ group_by: "group" }, DOC_LIST);
  assert.is(out.length, DOC_LIST.length);
  assert.equal(field(out.slice(0, 7), "split_id", "group"), [[7, "42"], [4, "42"], [3, "42"], [2, "314"], [1, "314"], [8, "11"], [2, "11"]]);
  assert.equal(field(out.slice(7, 11), "content"), [["without split id"], ["without split id3"], ["without split id2"], ["bla bla bla bla"]]);
});

test("test_with_group_subgroup_and_sorting", () => {
  const out = rank({ group_by: "group", subgroup_by: "subgroup", sort_docs_by: "split_id" }, DOC_LIST);
  assert.is(out.length, DOC_LIST.length);
  assert.equal(field(out.slice(0, 7), "subgroup", "group"), [["subB", "42"], ["subB", "42"], ["subB", "42"], ["subC", "314"], ["subE", "314"], ["subF", "11"], ["subD", "11"]]);
  assert.equal(field(out.slice(0, 3), "split_id"), [[3], [4], [7]]);
  assert.equal(field(out.slice(7, 11), "content"), [["without split id"], ["without split id3"], ["without split id2"], ["bla bla bla bla"]]);
});

test("test_run_with_lists", () => {
  const out = rank({ group_by: "value_list", subgroup_by: "sub_value_list", sort_docs_by: "split_id" }, DOC_LIST);
  assert.is(out.length, DOC_LIST.length);
  assert.equal(field(out.slice(0, 3), "content", "value_list"), [["list values", ["11"]], ["list values2", ["12"]], ["list values3", ["12"]]]);
});

test("test_run_missing_metadata_keys", () => {
  const out = rank({ group_by: "group", subgroup_by: "subgroup", sort_docs_by: "split_id" }, [
    d("Document without group", { split_id: 1, subgroup: "subA" }),
    d("Document without subgroup", { group: "42", split_id: 2 }),
    d("Document with all keys", { group: "42", split_id: 3, subgroup: "subB" }),
  ]);
  assert.is(out.length, 3);
  assert.equal([out[0]!.meta.group, out[1]!.meta.group, out[2]!.content], ["42", "42", "Document without group"]);
});

test("test_run_sort_docs_by_non_numeric_field_with_missing_values, test_run_sort_docs_by_field_present_but_none", () => {
  const missing = rank({ group_by: "group", sort_docs_by: "date" }, [d("newest", { group: "42", date: "2023-03-01" }), d("missing date", { group: "42" }), d("oldest", { group: "42", date: "2023-01-01" })]);
  assert.equal(field(missing, "content"), [["oldest"], ["newest"], ["missing date"]]);
  const none = rank({ group_by: "group", sort_docs_by: "date" }, [d("present", { group: "42", date: "2023-01-01" }), d("none value", { group: "42", date: null }), d("missing", { group: "42" })]);
  assert.equal(field(none, "content"), [["present"], ["none value"], ["missing"]]);
});

test("test_run_metadata_with_different_data_types, test_run_sort_docs_by_mixed_uncomparable_types", () => {
  const mixed = rank({ group_by: "group", subgroup_by: "subgroup", sort_docs_by: "split_id" }, [
    d("Document with string group", { group: "42", split_id: 1, subgroup: "subA" }),
    d("Document with number group", { group: 42, split_id: 2, subgroup: "subB" }),
    d("Document with boolean group", { group: true, split_id: 3, subgroup: "subC" }),
  ]);
  assert.equal(field(mixed, "group"), [["42"], [42], [true]]);
  const uncomparable = rank({ group_by: "group", sort_docs_by: "split_id" }, [d("int value", { group: "g1", split_id: 3 }), d("str value", { group: "g1", split_id: "10" })]);
  assert.equal(field(uncomparable, "content"), [["int value"], ["str value"]]);
});

test("test_run_deduplicates_documents", () => {
  const out = rank({ group_by: "group", subgroup_by: "subgroup", sort_docs_by: "split_id" }, [
    d("keep me", { group: "42", split_id: 1, subgroup: "subA" }, "duplicate"),
    d("drop me", { group: "42", split_id: 1, subgroup: "subA" }, "duplicate"),
    d("unique", { group: "42", split_id: 2, subgroup: "subB" }, "unique"),
    d("unique2", { group: "42", split_id: 2, subgroup: "subA" }, "unique2"),
  ]);
  assert.equal(field(out, "content"), [["keep me"], ["unique2"], ["unique"]]);
});

test("test_run_in_pipeline_dumps_and_loads", async () => {
  const ranker = new MetaFieldGroupingRanker({ group_by: "group", sort_docs_by: "split_id" });
  const single = ranker.run({ documents: DOC_LIST }, ctx());
  const reloaded = loadPipelineYaml(dumpPipelineYaml(new Pipeline().addComponent("ranker", ranker)), createRegistry());
  const result = (await reloaded.run({ documents: DOC_LIST })) as { ranker: { documents: Document[] } };
  assert.equal(result.ranker.documents.map((doc) => doc.id), single.documents.map((doc) => doc.id));
});

test.run();
