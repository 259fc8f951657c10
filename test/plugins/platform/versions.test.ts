import { test } from "uvu";
import * as assert from "uvu/assert";
import { parse as parseYaml } from "yaml";
import { startPlatformFixture, type PlatformFixture } from "../../fixtures/platform-server.js";
import { INDEX_YAML, QA_YAML, latestYaml } from "../../fixtures/platform-data.js";
import { harness, refOf, sent } from "./harness.js";

let platform: PlatformFixture;
test.before(async () => {
  platform = await startPlatformFixture();
});
test.after(() => platform.close());
const { store, tool, call, stored, since } = harness(() => platform);
const P = "v1/workspaces/default/pipelines";
const pipelineOf = (name: string) => platform.workspace("alice-key", "default").pipelines.find((p) => p.name === name)!;

test("list_pipeline_versions: newest first, YAML left out, paged by version_id", async () => {
  const mark = platform.requests.length;
  const page = await stored("list_pipeline_versions", { pipeline_name: "rag-qa" });
  assert.equal(since(mark).map(sent), [{ method: "GET", path: `${P}/rag-qa/versions`, query: { limit: "100", order: "DESC", field: "version_number" }, body: null }]);
  assert.equal(page.data.map((v: any) => [v.version_number, v.config_yaml]), [[1, null]]);
  assert.is(page.has_more, false);
  await stored("list_pipeline_versions", { pipeline_name: "rag-qa", after: "v-cursor" });
  assert.is(platform.requests.at(-1)!.query.after, "v-cursor");
  assert.equal(await call(tool("list_pipeline_versions"), { pipeline_name: "ghost" }), { text: "There is no pipeline named 'ghost' in workspace 'default'.", isError: true });
  platform.failNext(/\/versions$/, 500, { message: "boom" });
  assert.equal(await call(tool("list_pipeline_versions"), { pipeline_name: "rag-qa" }), { text: "Failed to list versions for pipeline 'rag-qa': boom (Status Code: 500)", isError: true });
});

test("create_pipeline_version: checks the YAML, posts it, and a second draft finalises the first", async () => {
  const create = tool("create_pipeline_version");
  assert.equal(await call(create, { pipeline_name: "chat", yaml_configuration: " " }), { text: "You need to provide a YAML configuration to create a version.", isError: true });
  assert.match((await call(create, { pipeline_name: "chat", yaml_configuration: "a: [1" })).text, /^Invalid YAML provided: /);
  const mark = platform.requests.length;
  const v2 = await stored("create_pipeline_version", { pipeline_name: "chat", yaml_configuration: QA_YAML.replace("top_k: 5", "top_k: 7"), description: "More documents" });
  assert.equal(since(mark).map(sent), [{ method: "POST", path: `${P}/chat/versions`, query: {}, body: { config_yaml: QA_YAML.replace("top_k: 5", "top_k: 7"), is_draft: false, description: "More documents" } }]);
  assert.equal([v2.version_number, v2.is_draft, v2.description, v2.config_yaml], [2, false, "More documents", null]);
  const draft = await stored("create_pipeline_version", { pipeline_name: "chat", yaml_configuration: QA_YAML, is_draft: true });
  assert.equal(platform.requests.at(-1)!.body, { config_yaml: QA_YAML, is_draft: true });
  assert.is(pipelineOf("chat").draft_version_id, draft.version_id);
  const second = await stored("create_pipeline_version", { pipeline_name: "chat", yaml_configuration: QA_YAML.replace("top_k: 5", "top_k: 9"), is_draft: "true" });
  const versions = pipelineOf("chat").versions.map((v) => [v.version_number, v.is_draft]);
  assert.equal(versions, [[1, false], [2, false], [4, false], [5, true]], "the old draft became version 4");
  assert.is(pipelineOf("chat").draft_version_id, second.version_id);
  assert.equal(await call(create, { pipeline_name: "ghost", yaml_configuration: QA_YAML }), { text: "There is no pipeline named 'ghost' in workspace 'default'.", isError: true });
});

test("get_pipeline_version has the YAML; patch_pipeline_version sends only what is given", async () => {
  const [first] = pipelineOf("summarizer").versions;
  const got = await stored("get_pipeline_version", { pipeline_name: "summarizer", version_id: first!.version_id });
  assert.is(got.config_yaml, QA_YAML);
  assert.is(platform.requests.at(-1)!.path, `${P}/summarizer/versions/${first!.version_id}`);
  assert.equal(await call(tool("get_pipeline_version"), { pipeline_name: "summarizer", version_id: "nope" }), {
    text: "There is no version 'nope' for pipeline 'summarizer' in workspace 'default'.",
    isError: true,
  });
  const patch = tool("patch_pipeline_version");
  const id = first!.version_id;
  assert.equal(await call(patch, { pipeline_name: "summarizer", version_id: id }), { text: "At least one of yaml_configuration, description, or is_draft must be provided.", isError: true });
  assert.equal(await call(patch, { pipeline_name: "summarizer", version_id: id, yaml_configuration: "  " }), { text: "yaml_configuration cannot be empty.", isError: true });
  const mark = platform.requests.length;
  const patched = await stored("patch_pipeline_version", { pipeline_name: "summarizer", version_id: id, description: "Reviewed" });
  assert.equal(since(mark).map(sent), [{ method: "PATCH", path: `${P}/summarizer/versions/${id}`, query: {}, body: { description: "Reviewed" } }]);
  assert.equal([patched.description, patched.config_yaml], ["Reviewed", null]);
  await stored("patch_pipeline_version", { pipeline_name: "summarizer", version_id: id, yaml_configuration: `${QA_YAML}# patched\n`, is_draft: false });
  assert.equal(platform.requests.at(-1)!.body, { config_yaml: `${QA_YAML}# patched\n`, is_draft: false });
  assert.match(latestYaml(pipelineOf("summarizer")), /# patched/);
  assert.equal(await call(patch, { pipeline_name: "summarizer", version_id: "nope", description: "x" }), {
    text: "There is no version 'nope' for pipeline 'summarizer' in workspace 'default'.",
    isError: true,
  });
});

test("restore_pipeline_version posts without a body and makes the old version the draft", async () => {
  const p = pipelineOf("chat");
  const v1 = p.versions.find((v) => v.version_number === 1)!;
  const mark = platform.requests.length;
  const restored = await stored("restore_pipeline_version", { pipeline_name: "chat", version_id: v1.version_id });
  assert.equal(since(mark).map(sent), [{ method: "POST", path: `${P}/chat/versions/${v1.version_id}/restore`, query: {}, body: null }]);
  assert.equal([restored.is_draft, restored.version_number, restored.config_yaml], [true, 7, null]);
  assert.equal(p.versions.map((v) => [v.version_number, v.is_draft]).slice(-2), [[6, false], [7, true]], "the previous draft was finalised as 6");
  assert.is(latestYaml(p), v1.config_yaml);
  const draft = await call(tool("restore_pipeline_version"), { pipeline_name: "chat", version_id: restored.version_id });
  assert.equal(draft, { text: "Failed to restore version '" + restored.version_id + "' for pipeline 'chat': Only a saved (non-draft) version can be restored (Status Code: 400)", isError: true });
});

test("get_pipeline_yaml and update_pipeline work on the newest version: the draft is patched, else a version is created", async () => {
  // chat's newest version is the draft restored above.
  let mark = platform.requests.length;
  const yaml = (await call(tool("get_pipeline_yaml"), { pipeline_name: "chat" })).text;
  assert.match(yaml, /^@obj_\w+ → string/);
  assert.equal(since(mark).map(sent), [{ method: "GET", path: `${P}/chat/versions`, query: { limit: "1", order: "DESC", field: "version_number" }, body: null }]);
  const draftId = pipelineOf("chat").draft_version_id;
  mark = platform.requests.length;
  const update = await call(tool("update_pipeline"), { pipeline_name: "chat", original_config_snippet: "top_k: 5", replacement_config_snippet: "top_k: 4" });
  assert.is(update.isError, false, update.text);
  const draftWrite = since(mark).map(sent).filter((r) => r.path.includes("/versions/") || r.method !== "GET");
  assert.equal(draftWrite.map((r) => [r.method, r.path]), [["POST", "v1/workspaces/default/pipeline_validations"], ["PATCH", `${P}/chat/versions/${draftId}`]]);
  assert.equal(draftWrite[1]!.body, { config_yaml: latestYaml(pipelineOf("chat")) });
  assert.match(latestYaml(pipelineOf("chat")), /top_k: 4/);
  // rag-qa has no draft: the update is a new saved version, and the old one stays.
  mark = platform.requests.length;
  await call(tool("update_pipeline"), { pipeline_name: "rag-qa", original_config_snippet: "top_k: 5", replacement_config_snippet: "top_k: 6" });
  const create = since(mark).find((r) => r.method === "POST" && r.path.endsWith("/versions"))!;
  assert.equal(create.body, { config_yaml: QA_YAML.replace("top_k: 5", "top_k: 6"), is_draft: false });
  assert.equal(pipelineOf("rag-qa").versions.map((v) => v.config_yaml), [QA_YAML, QA_YAML.replace("top_k: 5", "top_k: 6")]);
  assert.not.ok(platform.requests.some((r) => r.path.endsWith("/yaml")), "the removed …/yaml endpoints are never called");
});

test("create_pipeline makes version 1 with the YAML; deploy_pipeline deploys a chosen version", async () => {
  const mark = platform.requests.length;
  await call(tool("create_pipeline"), { pipeline_name: "fresh", yaml_configuration: QA_YAML });
  assert.equal(since(mark).map((r) => [r.method, r.path, r.body]), [
    ["POST", "v1/workspaces/default/pipeline_validations", { query_yaml: QA_YAML }],
    ["POST", P, { name: "fresh", query_yaml: QA_YAML }],
    ["GET", `${P}/fresh`, null],
  ]);
  assert.equal(pipelineOf("fresh").versions.map((v) => [v.version_number, v.config_yaml]), [[1, QA_YAML]]);
  const v1 = pipelineOf("fresh").versions[0]!.version_id;
  const out = await call(tool("deploy_pipeline", {}, { customArgs: { poll_interval: 0.01, timeout_seconds: 5 } }), { pipeline_name: "fresh", version_id: v1 });
  assert.match(out.text, /"valid": true/);
  assert.ok(platform.requests.some((r) => r.method === "POST" && r.path === `${P}/fresh/deploy` && r.body?.pipeline_version_id === v1));
  assert.is(pipelineOf("fresh").deployed_version_id, v1);
});

test("debug_pipeline: pre-checks, the request body, breakpoints, resuming a snapshot by reference, dry runs", async () => {
  const debug = tool("debug_pipeline");
  const err = async (args: Record<string, unknown>) => (await call(debug, args)).text;
  assert.is(await err({ yaml_configuration: "" }), "You need to provide a YAML configuration to debug.");
  assert.match(await err({ yaml_configuration: "a: [" }), /^Invalid YAML provided: /);
  assert.is(await err({ yaml_configuration: "- a\n- b\n" }), "Invalid YAML provided: expected a mapping at the top level.");
  assert.is(await err({ yaml_configuration: QA_YAML, break_at_component_name: "retriever", resume_from: { x: 1 } }), "break_at_component_name and resume_from cannot be combined. Provide at most one.");
  assert.is(await err({ yaml_configuration: QA_YAML, break_at_visit_count: -1 }), "break_at_visit_count must be 0 or greater.");
  assert.is(await err({ yaml_configuration: QA_YAML, pipeline_version_id: "v" }), "pipeline_version_id requires pipeline_id to be set.");
  const mark = platform.requests.length;
  const plain = await stored("debug_pipeline", { yaml_configuration: QA_YAML, inputs: { query: "hi" } });
  assert.equal(since(mark).map(sent), [{ method: "POST", path: "v1/workspaces/default/haystack/pipelines/debug", query: {}, body: { pipeline_config: parseYaml(QA_YAML), inputs: { query: "hi" }, dry_run: false } }]);
  assert.equal([plain.status, plain.trace.schema_version, plain.trace.traces.length], ["completed", "haystack-trace/v1", 2]);

  const stop = await call(debug, { yaml_configuration: QA_YAML, inputs: { query: "hi" }, break_at_component_name: "prompt_builder", pipeline_id: pipelineOf("rag-qa").pipeline_id });
  assert.equal(platform.requests.at(-1)!.body.break_at, { component_name: "prompt_builder", visit_count: 0 });
  assert.is(platform.requests.at(-1)!.body.pipeline_id, pipelineOf("rag-qa").pipeline_id);
  const stopped: any = await store.get(refOf(stop.text).slice(1));
  assert.equal([stopped.status, stopped.stopped_at], ["stopped_at_breakpoint", { component_name: "prompt_builder", visit_count: 0 }]);
  const resumed = await stored("debug_pipeline", { yaml_configuration: QA_YAML, resume_from: `${refOf(stop.text)}.snapshot` });
  assert.equal(platform.requests.at(-1)!.body.resume_from, stopped.snapshot, "the snapshot resolved from its reference");
  assert.is(resumed.status, "completed");

  const failed = await stored("debug_pipeline", { yaml_configuration: INDEX_YAML });
  assert.equal([failed.status, failed.trace.failure.type], ["failed", "DocumentStoreError"]);
  assert.is((await stored("debug_pipeline", { yaml_configuration: INDEX_YAML, dry_run: true })).status, "completed");
  assert.equal(await call(tool("debug_pipeline", { workspace: "nope" }), { yaml_configuration: QA_YAML }), { text: "There is no workspace named 'nope'. Did you mean to configure it?", isError: true });
  assert.match((await call(debug, { yaml_configuration: "components:\n  x:\n    type: nope.X\n" })).text, /^Failed to debug pipeline: Invalid pipeline \(Status Code: 400\)$/);
});

test.run();
