import { test } from "uvu";
import * as assert from "uvu/assert";
import { Explorer, MemoryBackend, ObjectStore, queryObject, replaceInObject } from "svc/object-store";
import { objectStoreTools } from "svc/platform";
import { rejects } from "../../helpers/rejects.js";

const YAML = `components:
  retriever:
    type: haystack.components.retrievers.in_memory.bm25_retriever.InMemoryBM25Retriever
    init_parameters:
      top_k: 5
  llm:
    type: haystack.components.generators.openai.OpenAIGenerator
    init_parameters:
      model: gpt-4o
`;

function setup() {
  const store = new ObjectStore(new MemoryBackend());
  return { store, explorer: new Explorer(store, { maxStringLength: 40 }) };
}

test("replaceInObject stores the edited text as a new object and leaves the original", async () => {
  const { store, explorer } = setup();
  const id = await store.put({ yaml: YAML });
  const out = await replaceInObject(explorer, `@${id}.yaml`, "top_k: (\\d+)", "top_k: 1$1");
  assert.is(out.split("\n")[0], "Replaced 1 occurrence(s) of 'top_k: (\\d+)' → 'top_k: 1$1'.");
  const newId = /Result stored as @(obj_\d+)\./.exec(out)![1]!;
  assert.match(out, /\n\nPreview \(truncated\):\ncomponents:\n {2}retriever:/);
  assert.match((await store.get(newId)) as string, /top_k: 15/);
  assert.equal(await store.get(id), { yaml: YAML }, "the original is unchanged");
  // Python's group syntax works too, named groups, a count, case sensitivity.
  const py = await replaceInObject(explorer, `@${id}`, "(?<key>model): (gpt)", "\\g<key>: \\2-x", "yaml");
  assert.match((await store.get(/@(obj_\d+)\./.exec(py)![1]!)) as string, /model: gpt-x-4o/);
  const once = await replaceInObject(explorer, `@${id}.yaml`, "TYPE", "kind", "", 1, false);
  assert.match(once, /^Replaced 1 occurrence\(s\)/, "case-insensitive by default, and only the first of two");
  assert.is(await replaceInObject(explorer, `@${id}.yaml`, "TYPE", "kind", "", 0, true), "No matches found for pattern 'TYPE'. Object unchanged.");
  await rejects(() => replaceInObject(explorer, id, "a", "b"), /^Error: Replace is only supported on string objects\. Found object at path ''\.$/);
  await rejects(() => replaceInObject(explorer, `@${id}.yaml`, "(", "b"), /Invalid regex pattern: /);
  await rejects(() => replaceInObject(explorer, `@${id}.yaml`, "top", "$3"), /Invalid replacement: the pattern has no group 3/);
  await rejects(() => replaceInObject(explorer, "@obj_999", "a", "b"), /Object @obj_999 not found or expired\./);
});

test("queryObject runs jq over stored data and over JSON or YAML text, storing the result", async () => {
  const { store, explorer } = setup();
  const page = await store.put({ data: [{ name: "a", status: "DEPLOYED" }, { name: "b", status: "FAILED" }, { name: "c", status: "DEPLOYED" }] });
  const names = await queryObject(explorer, page, '[.data[] | select(.status == "DEPLOYED") | .name]');
  const namesId = /Result stored as @(obj_\d+)\./.exec(names)![1]!;
  assert.match(names, /^Filter '.*' matched 1 value\(s\)\. Result stored as @obj_\d+\.\n\n\[/);
  assert.equal(await store.get(namesId), ["a", "c"]);
  const several = await queryObject(explorer, page, ".data[].name", "", false);
  assert.match(several, /^Filter '\.data\[\]\.name' matched 3 value\(s\):\n\n\[/);
  assert.is(await queryObject(explorer, page, ".data[] | select(.status == \"GONE\")"), "No results for filter '.data[] | select(.status == \"GONE\")'.");

  const yaml = await store.put(YAML);
  const keys = await queryObject(explorer, yaml, ".components | keys", "", false);
  assert.is(keys, "Filter '.components | keys' matched 1 value(s):\n\n- llm\n- retriever\n", "YAML in, YAML out");
  const model = await queryObject(explorer, `@${yaml}`, ".components.llm.init_parameters.model");
  assert.match(model, /Result stored as @obj_\d+\.\n\nPreview:\ngpt-4o$/);
  const json = await store.put(JSON.stringify({ a: { b: [1, 2] } }));
  assert.match(await queryObject(explorer, json, ".a", "", false), /:\n\n\{\n {2}"b": \[\n {4}1,/);

  await rejects(() => queryObject(explorer, page, ".data[ | "), /^Error: Invalid jq filter '\.data\[ \| ': /);
  await rejects(() => queryObject(explorer, page, ".data | .foo"), /^Error: Error evaluating filter '\.data \| \.foo': Cannot index array.*foo/);
});

test("the grep, sed and yq tools (and search_object_store, grep's old name) answer through the explorer", async () => {
  const { store, explorer } = setup();
  const tools = objectStoreTools(explorer);
  const id = await store.put(YAML);
  const text = async (name: keyof typeof tools, args: Record<string, unknown>) => {
    const r: any = await tools[name].handler(args, {});
    return typeof r === "string" ? r : `ERROR ${r.content[0].text}`;
  };
  assert.match(await text("grep_object_store", { object_id: `@${id}`, pattern: "top_k" }), /^Found 1 matches for pattern 'top_k':/);
  assert.is(await text("search_object_store", { object_id: `@${id}`, pattern: "top_k" }), await text("grep_object_store", { object_id: `@${id}`, pattern: "top_k" }));
  assert.match(await text("sed_object_store", { object_id: `@${id}`, pattern: "gpt-4o", replacement: "gpt-4o-mini" }), /^Replaced 1 occurrence\(s\)/);
  assert.match(await text("yq_object_store", { object_id: `@${id}`, filter: ".components.retriever.init_parameters.top_k", store: false }), /matched 1 value\(s\):\n\n5$/);
  assert.is(await text("yq_object_store", { object_id: "@obj_999", filter: "." }), "ERROR Object @obj_999 not found or expired.");
});

test.run();
