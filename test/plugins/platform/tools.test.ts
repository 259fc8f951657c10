import { test } from "uvu";
import * as assert from "uvu/assert";
import { MemoryBackend, ObjectStore } from "svc/object-store";
import { TOOL_REGISTRY, buildTool, type BuildToolOptions, type PlatformTool, type ToolConfig } from "svc/platform";
import { startPlatformFixture, type PlatformFixture } from "../../fixtures/platform-server.js";
import { QA_YAML } from "../../fixtures/platform-data.js";

let platform: PlatformFixture;
let store: ObjectStore;
test.before(async () => {
  platform = await startPlatformFixture();
  store = new ObjectStore(new MemoryBackend());
});
test.after(() => platform.close());

function tool(name: string, options: BuildToolOptions = {}, config: Partial<ToolConfig> = {}): PlatformTool {
  const entry = TOOL_REGISTRY.get(name)!;
  return buildTool(entry.base, { ...entry.config, ...config, customArgs: { ...entry.config.customArgs, ...config.customArgs } }, {
    apiKey: "alice-key",
    workspace: "default",
    baseUrl: platform.url,
    useRequestContext: false,
    objectStore: store,
    ...options,
  });
}

interface Outcome {
  text: string;
  isError: boolean;
}
async function call(t: PlatformTool, args: Record<string, unknown> = {}, headers: Record<string, string> = {}): Promise<Outcome> {
  const r: any = await t.handler(args, { headers });
  return typeof r === "string" ? { text: r, isError: false } : { text: r.content[0].text, isError: r.isError === true };
}
const refOf = (text: string) => /^(@obj_\w+)/.exec(text)![1]!;

test("list_pipelines stores the page and returns a preview with its reference", async () => {
  const out = await call(tool("list_pipelines"));
  assert.is(out.isError, false);
  assert.match(out.text, /^@obj_\d{3} → object \(length: 4\)\n\n\{/);
  assert.match(out.text, /"name": "rag-qa"/);
  assert.match(out.text, /"has_more": false/);
  const stored: any = await store.get(refOf(out.text).slice(1));
  assert.equal(stored.data.map((p: any) => p.name), ["rag-qa", "chat", "summarizer"]);
  assert.equal(platform.requests.at(-1)!.query, { limit: "100" });
});

test("the description is the prompt plus the memory note", () => {
  const t = tool("validate_pipeline");
  assert.match(t.description, /^Validates a pipeline YAML configuration/);
  assert.match(t.description, /automatically stored/);
  assert.match(t.description, /accept object references/);
});

test("a 404 workspace and pipeline give the readable messages; other failures name the status", async () => {
  const ws = await call(tool("list_pipelines", { workspace: "nope" }));
  assert.equal(ws, { text: "There is no workspace named 'nope'. Did you mean to configure it?", isError: true });
  const p = await call(tool("get_pipeline"), { pipeline_name: "ghost" });
  assert.equal(p, { text: "There is no pipeline named 'ghost' in workspace 'default'.", isError: true });
  platform.failNext(/\/pipelines$/, 500, { message: "database down" });
  assert.equal(await call(tool("list_pipelines")), { text: "Failed to list pipelines: database down (Status Code: 500)", isError: true });
  platform.slow(/\/pipelines\/chat$/, 500);
  const slow = await call(tool("get_pipeline", { timeoutMs: 50 }), { pipeline_name: "chat" });
  assert.is(slow.isError, true);
  assert.match(slow.text, /^Failed to fetch pipeline 'chat': Request timed out after .* \(limit: 0\.05s\): GET http/);
});

test("validate_pipeline: pre-checks, platform errors, and a YAML passed by reference", async () => {
  const v = tool("validate_pipeline");
  assert.equal(await call(v, { yaml_configuration: "  " }), { text: "You need to provide a YAML configuration to validate.", isError: true });
  assert.match((await call(v, { yaml_configuration: "a: [1" })).text, /^Invalid YAML provided: /);
  const bad = await call(v, { yaml_configuration: "components:\n  x:\n    type: nope.Unknown\n" });
  assert.match(bad.text, /"valid": false/);
  assert.match(bad.text, /UNKNOWN_COMPONENT_TYPE/);
  const yamlRef = refOf((await call(tool("get_pipeline_yaml"), { pipeline_name: "rag-qa" })).text);
  const good = await call(v, { yaml_configuration: yamlRef });
  assert.is(good.isError, false);
  assert.match(good.text, /"valid": true/);
  const nested = await call(v, { yaml_configuration: `${refOf(bad.text)}.yaml_config` });
  assert.match(nested.text, /"valid": false/);
  assert.equal(await call(v, { yaml_configuration: "@obj_999" }), { text: "Parameter 'yaml_configuration': Object @obj_999 not found or expired.", isError: true });
  assert.equal(await call(v, { yaml_configuration: `${yamlRef}.nothing` }), {
    text: `Parameter 'yaml_configuration': Navigation error at nothing: Object '${yamlRef}' does not have a value at path 'nothing'.`,
    isError: true,
  });
});

test("create_pipeline saves, reports validation errors beside the pipeline, and refuses invalid YAML when asked", async () => {
  const c = tool("create_pipeline");
  const made = await call(c, { pipeline_name: "new-qa", yaml_configuration: QA_YAML });
  assert.match(made.text, /"name": "new-qa"/);
  assert.match(made.text, /"status": "UNDEPLOYED"/);
  const broken = "components:\n  x:\n    type: nope.Unknown\n";
  const withErrors = await call(c, { pipeline_name: "half", yaml_configuration: broken });
  assert.match(withErrors.text, /"message": "The operation completed with errors"/);
  const strict = tool("create_pipeline", {}, { customArgs: { skip_validation_errors: false } });
  const refused = await call(strict, { pipeline_name: "never", yaml_configuration: broken });
  assert.equal(refused, { text: "Pipeline validation failed:\nUNKNOWN_COMPONENT_TYPE: Unknown component type 'nope.Unknown' of component 'x'.", isError: true });
  assert.not.ok(platform.workspace("alice-key", "default").pipelines.some((p) => p.name === "never"));
  const dup = await call(c, { pipeline_name: "new-qa", yaml_configuration: QA_YAML });
  assert.equal(dup, { text: "Failed to create pipeline 'new-qa': Pipeline 'new-qa' already exists (Status Code: 409)", isError: true });
});

test("update_pipeline replaces exactly one occurrence of a snippet, validates and saves", async () => {
  const u = tool("update_pipeline");
  const none = await call(u, { pipeline_name: "chat", original_config_snippet: "top_k: 99", replacement_config_snippet: "top_k: 3" });
  assert.equal(none, { text: "No occurrences of the provided configuration snippet were found in the pipeline 'chat'.", isError: true });
  const many = await call(u, { pipeline_name: "chat", original_config_snippet: "type:", replacement_config_snippet: "kind:" });
  assert.match(many.text, /^Multiple occurrences \(2\) of the provided configuration snippet were found in the pipeline 'chat'\./);
  const done = await call(u, { pipeline_name: "chat", original_config_snippet: "top_k: 5", replacement_config_snippet: "top_k: 3" });
  assert.is(done.isError, false);
  assert.match(done.text, /"name": "chat"/);
  assert.match(platform.workspace("alice-key", "default").pipelines.find((p) => p.name === "chat")!.yaml, /top_k: 3/);
  const missing = await call(u, { pipeline_name: "ghost", original_config_snippet: "a", replacement_config_snippet: "b" });
  assert.equal(missing, { text: "There is no pipeline named 'ghost'. Did you mean to create it?", isError: true });
});

test("deploy_pipeline waits for DEPLOYED, reports FAILED and rejected deployments", async () => {
  const fast = { customArgs: { poll_interval: 0.01, timeout_seconds: 5 } };
  const ok = await call(tool("deploy_pipeline", {}, fast), { pipeline_name: "summarizer" });
  assert.match(ok.text, /"valid": true/);
  assert.is(platform.workspace("alice-key", "default").pipelines.find((p) => p.name === "summarizer")!.status, "DEPLOYED");
  const ws = platform.workspace("alice-key", "default");
  ws.pipelines.find((p) => p.name === "chat")!.yaml += "# fail_deploy\n";
  const failed = await call(tool("deploy_pipeline", {}, fast), { pipeline_name: "chat" });
  assert.equal(failed, { text: "Pipeline 'chat' deployment failed. Current status: FAILED.", isError: true });
  const rejected = await call(tool("deploy_pipeline", {}, fast), { pipeline_name: "half" });
  assert.match(rejected.text, /"valid": false/);
  assert.match(rejected.text, /UNKNOWN_COMPONENT_TYPE/);
  assert.equal(await call(tool("deploy_pipeline", {}, fast), { pipeline_name: "ghost" }), { text: "There is no pipeline named 'ghost' in workspace 'default'.", isError: true });
  // The wait is hidden from the model: the registry pins it.
  assert.equal(Object.keys(tool("deploy_pipeline").parameters), ["pipeline_name", "version_id"]);
});

test("search_pipeline answers from a deployed pipeline and explains an undeployed one", async () => {
  const s = tool("search_pipeline");
  const out = await call(s, { pipeline_name: "rag-qa", query: "What is svc?" });
  assert.match(out.text, /"answer": "The answer to 'What is svc\?'"/);
  assert.equal(platform.requests.at(-1)!.body, { queries: ["What is svc?"], debug: false, view_prompts: false });
  const idle = await call(s, { pipeline_name: "new-qa", query: "x" });
  assert.match(idle.text, /^Pipeline 'new-qa' is not deployed \(current status: UNDEPLOYED\)\. Please deploy the pipeline first using the deploy_pipeline tool/);
});

test("get_pipeline_logs filters by level and pages by logged_at", async () => {
  const out = await call(tool("get_pipeline_logs"), { pipeline_name: "rag-qa", level: "error" });
  assert.equal(platform.requests.at(-1)!.query, { limit: "30", filter: "level eq 'error'" });
  assert.match(out.text, /index not found/);
  const page: any = await store.get(refOf(out.text).slice(1));
  assert.is(page.data.length, 1);
  const first = await call(tool("get_pipeline_logs"), { pipeline_name: "rag-qa", limit: 2 });
  const p1: any = await store.get(refOf(first.text).slice(1));
  assert.is(p1.next_cursor, p1.data[1].logged_at);
  const rest = await call(tool("get_pipeline_logs"), { pipeline_name: "rag-qa", limit: 2, after: p1.next_cursor });
  assert.is(((await store.get(refOf(rest.text).slice(1))) as any).data.length, 1);
  const bad = await call(tool("get_pipeline_logs"), { pipeline_name: "rag-qa", level: "debug" });
  assert.is(bad.isError, true);
  assert.match(bad.text, /^Invalid argument 'level': /);
});

test("indexes: list without YAML, get, create, update, validate, deploy", async () => {
  const list: any = await store.get(refOf((await call(tool("list_indexes"))).text).slice(1));
  assert.is(list.data[0].name, "docs-index");
  assert.not.ok("config_yaml" in list.data[0]);
  assert.match((await call(tool("get_index"), { index_name: "docs-index" })).text, /"config_yaml": "components:/);
  assert.equal(await call(tool("get_index"), { index_name: "nope" }), { text: "There is no index named 'nope'. Did you mean to create it?", isError: true });
  const yaml = platform.workspace("alice-key", "default").indexes[0]!.config_yaml;
  assert.match((await call(tool("create_index"), { index_name: "second", yaml_configuration: yaml, description: "Second" })).text, /"message": "Index 'second' created successfully\."/);
  const upd = await call(tool("update_index"), { index_name: "second", original_config_snippet: "receiver: writer.documents", replacement_config_snippet: "receiver: writer.documents # kept" });
  assert.is(upd.isError, false);
  assert.match((await call(tool("validate_index"), { yaml_configuration: yaml })).text, /"valid": true/);
  assert.match((await call(tool("deploy_index"), { index_name: "second" })).text, /Index 'second' deployed successfully\./);
});

test("templates, component schemas, secrets, workspaces and the current user", async () => {
  const templates: any = await store.get(refOf((await call(tool("list_templates"), { pipeline_type: "indexing" })).text).slice(1));
  assert.equal(templates.data.map((t: any) => t.name), ["index-text"]);
  assert.match((await call(tool("get_template"), { template_name: "rag-basic" })).text, /"yaml_config": "components:/);
  assert.equal(await call(tool("get_template"), { template_name: "x" }), { text: "There is no pipeline template named 'x' in workspace 'default'.", isError: true });
  assert.match((await call(tool("list_component_families"))).text, /"name": "builders"[\s\S]*"name": "converters"/);
  const def = await call(tool("get_component_definition"), { component_type: "haystack.components.builders.prompt_builder.PromptBuilder" });
  assert.match(def.text, /"input_schema"/);
  assert.equal(await call(tool("get_component_definition"), { component_type: "x.Y" }), { text: "Component not found: x.Y", isError: true });
  assert.match((await call(tool("get_custom_components"))).text, /acme_components\.shouter\.Shouter/);
  const secrets: any = await store.get(refOf((await call(tool("list_secrets"), { limit: 2 })).text).slice(1));
  assert.equal(secrets.data.map((s: any) => s.name), ["ALICE_SECRET_1", "ALICE_SECRET_2", "OPENAI_API_KEY", "HF_API_TOKEN", "HF_TOKEN"]);
  assert.equal(secrets.data.at(-1).invalid, true);
  assert.is(platform.requests.at(-2)!.query.before, undefined);
  const more: any = await store.get(refOf((await call(tool("list_secrets"), { limit: 2, after: secrets.next_cursor })).text).slice(1));
  assert.equal(more.data.map((s: any) => s.name), ["ALICE_SECRET_3"], "integrations only on the first page");
  assert.is(platform.requests.at(-1)!.query.before, secrets.next_cursor);
  assert.match((await call(tool("get_secret"), { secret_id: secrets.data[0].id })).text, /ALICE_SECRET_1/);
  assert.match((await call(tool("get_secret"), { secret_id: secrets.data[2].id })).text, /"name": "OPENAI_API_KEY"/);
  assert.equal(await call(tool("get_secret"), { secret_id: "nope" }), { text: "Secret with ID 'nope' not found.", isError: true });
  assert.match((await call(tool("list_workspaces"))).text, /"name": "staging"/);
  assert.equal(await call(tool("get_workspace"), { workspace_name: "zzz" }), { text: "There is no workspace named 'zzz'.", isError: true });
  const me = await call(tool("get_current_user"));
  assert.match(me.text, /"given_name": "Alice"/);
  assert.match(me.text, /"email": "alice@example.com"/);
});

test("keys: the request's Bearer header wins over the static key; without a header the call is refused unless the static key is an explicit fallback", async () => {
  const t = tool("get_current_user", { useRequestContext: true, apiKey: undefined });
  assert.match((await call(t, {}, { authorization: "Bearer bob-key" })).text, /"given_name": "Bob"/);
  assert.match((await call(t, {}, { authorization: "bearer   alice-key" })).text, /"given_name": "Alice"/);
  assert.equal(await call(t), { text: "No Authorization header found in the request: send 'Authorization: Bearer <platform API key>'.", isError: true });
  assert.equal(await call(t, {}, { authorization: "Bearer " }), { text: "API key cannot be empty: send 'Authorization: Bearer <platform API key>'.", isError: true });
  const both = tool("get_current_user", { useRequestContext: true, apiKey: "alice-key" });
  assert.match((await call(both, {}, { authorization: "Bearer bob-key" })).text, /Bob/);
  assert.equal(await call(both), { text: "No Authorization header found in the request: send 'Authorization: Bearer <platform API key>'.", isError: true });
  const fallback = tool("get_current_user", { useRequestContext: true, apiKey: "alice-key", apiKeyAsFallback: true });
  assert.match((await call(fallback)).text, /Alice/);
  assert.match((await call(fallback, {}, { authorization: "Bearer bob-key" })).text, /Bob/);
  const staticOnly = tool("get_current_user", { useRequestContext: false });
  assert.match((await call(staticOnly, {}, { authorization: "Bearer bob-key" })).text, /Alice/);
  assert.match((await call(t, {}, { authorization: "Bearer unknown" })).text, /^Failed to fetch the current user: Invalid or missing API key \(Status Code: 401\)$/);
});

test("without a static workspace the tool takes a required workspace argument", async () => {
  const t = tool("list_pipelines", { workspace: undefined });
  assert.equal(Object.keys(t.parameters), ["workspace", "after"]);
  const out = await call(t, { workspace: "staging" });
  assert.match(out.text, /"total": 0/);
  assert.is(platform.requests.at(-1)!.path, "v1/workspaces/staging/pipelines");
  assert.ok(!("workspace" in tool("list_pipelines").parameters));
  assert.ok(!("workspace" in tool("list_workspaces", { workspace: undefined }).parameters), "account tools have no workspace");
});

test.run();
