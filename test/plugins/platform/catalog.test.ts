import { test } from "uvu";
import * as assert from "uvu/assert";
import { mkdtemp, rm, writeFile, mkdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ToolServer } from "svc/mcp";
import { MemoryBackend, ObjectStore } from "svc/object-store";
import { configureMcpServer } from "svc/platform";
import { captureLogger } from "../../helpers/kernel.js";
import { startPlatformFixture, type PlatformFixture } from "../../fixtures/platform-server.js";
import { harness, sent } from "./harness.js";

let platform: PlatformFixture;
test.before(async () => {
  platform = await startPlatformFixture();
});
test.after(() => platform.close());
const { tool, call, stored, since } = harness(() => platform);

test("get_models: the workspace id first, then one page; provider and model filters page locally", async () => {
  const wsId = platform.workspace("alice-key", "default").workspace_id;
  let mark = platform.requests.length;
  const page = await stored("get_models", { limit: 2, page_number: 2 });
  assert.equal(since(mark).map(sent), [
    { method: "GET", path: "v1/workspaces/default", query: {}, body: null },
    { method: "GET", path: `v2/workspaces/${wsId}/models`, query: { limit: "2", page_number: "2" }, body: null },
  ]);
  assert.equal([page.data.map((m: any) => m.name), page.has_more, page.total], [["Claude Sonnet", "Gemini Flash"], true, 6]);
  await stored("get_models", { connected: false });
  assert.is(platform.requests.at(-1)!.query.connected, "false");
  mark = platform.requests.length;
  const openai = await stored("get_models", { provider: "OpenAI", limit: 2 });
  assert.equal(since(mark).at(-1)!.query, { limit: "100", page_number: "1" }, "filters fetch whole pages");
  assert.equal([openai.data.map((m: any) => m.name), openai.has_more, openai.total], [["GPT-4o", "GPT-4o mini"], true, 3]);
  const custom = await stored("get_models", { model: "HOUSE" });
  assert.equal(custom.data.map((m: any) => [m.name, m.model, m.origin, m.connected]), [["house-gpt", "house-gpt", "WORKSPACE", true]], "model read from chat_generator_config");
  assert.equal(await call(tool("get_models", { workspace: "nope" })), { text: "There is no workspace named 'nope'. Did you mean to configure it?", isError: true });
  // get_models shows deep configurations: its previews are not cut at 4 levels.
  assert.match((await call(tool("get_models"), { model: "gpt-4o-mini" })).text, /"temperature": \{\n/);
});

test("search_templates ranks the type's templates by name and description (BM25)", async () => {
  const mark = platform.requests.length;
  const found = await stored("search_templates", { query: "summarize long documents" });
  assert.equal(since(mark).map(sent), [
    { method: "GET", path: "v1/workspaces/default/pipeline_templates", query: { limit: "100", field: "created_at", order: "DESC", filter: "pipeline_type eq 'query'" }, body: null },
  ]);
  assert.is(found.results[0].template.name, "summarize-documents");
  assert.ok(found.results[0].similarity_score > 0);
  assert.not.ok("query_yaml" in found.results[0].template);
  assert.is(found.total_found, found.results.length);
  assert.ok(found.results.every((r: any) => r.template.pipeline_type === "query"));
  const indexing = await stored("search_templates", { query: "index text files", pipeline_type: "indexing", top_k: 1 });
  assert.equal(indexing.results.map((r: any) => r.template.name), ["index-text"]);
  assert.equal((await stored("search_templates", { query: "zebra" })).results, [], "nothing in common, nothing found");
  platform.failNext(/pipeline_templates$/, 502, { message: "bad gateway" });
  assert.equal(await call(tool("search_templates"), { query: "x" }), { text: "Failed to retrieve pipeline templates: bad gateway (Status Code: 502)", isError: true });
});

test("search_component_definitions ranks components and returns their definitions", async () => {
  const found = await stored("search_component_definitions", { query: "prompt builder template", top_k: 2 });
  assert.is(found.results[0].component.component_type, "haystack.components.builders.prompt_builder.PromptBuilder");
  assert.ok(found.results[0].component.input_schema, "with its input and output schema");
  assert.ok(found.results.length <= 2);
  assert.ok(platform.requests.some((r) => r.path === "v1/haystack/components" && r.body?.domain === "deepset-cloud"));
  platform.failNext(/haystack\/components$/, 500, { message: "down" });
  assert.equal(await call(tool("search_component_definitions"), { query: "x" }), { text: "Failed to retrieve component schemas: down (Status Code: 500)", isError: true });
});

test("run_component posts the type, init parameters and inputs, and returns the outputs", async () => {
  const mark = platform.requests.length;
  const out = await stored("run_component", {
    component_type: "haystack.components.builders.prompt_builder.PromptBuilder",
    init_params: { template: "Hello {{ name }}!" },
    input_data: { name: "svc" },
  });
  assert.equal(since(mark).map(sent), [
    { method: "POST", path: "v1/haystack/components/run", query: {}, body: { component_type: "haystack.components.builders.prompt_builder.PromptBuilder", init_params: { template: "Hello {{ name }}!" }, input: { name: "svc" } } },
  ]);
  assert.equal(out, { prompt: "Hello svc!" });
  await stored("run_component", { component_type: "haystack.components.builders.prompt_builder.PromptBuilder", init_params: '{"template": "{{ d }}"}', input_data: { d: "x" }, input_types: { d: "str" } });
  assert.equal(platform.requests.at(-1)!.body.input_types, { d: "str" });
  assert.equal(platform.requests.at(-1)!.body.init_params, { template: "{{ d }}" }, "JSON text is accepted for an object");
  assert.equal(await call(tool("run_component"), { component_type: "x.Y" }), { text: "Failed to run component: Unknown component type 'x.Y' (Status Code: 422)", isError: true });
});

test("custom component installations: paged with `before`, installers named, a vanished user left out; the latest logs as text", async () => {
  const mark = platform.requests.length;
  const page = await stored("list_custom_component_installations", { limit: 2 });
  const calls = since(mark).map(sent);
  assert.equal(calls[0], { method: "GET", path: "v2/custom_components", query: { limit: "2", field: "created_at", order: "DESC" }, body: null });
  assert.ok(calls.slice(1).every((c) => c.method === "GET" && c.path.startsWith("v1/users/")));
  assert.equal(page.data.map((i: any) => [i.version, i.user_info?.given_name]), [["0.3.1", "Alice"], ["0.3.0", "Carol"]]);
  const rest = await stored("list_custom_component_installations", { limit: 2, after: page.next_cursor });
  assert.is(platform.requests.find((r) => r.path === "v2/custom_components" && r.query.before)!.query.before, page.next_cursor);
  assert.equal(rest.data.map((i: any) => [i.version, "user_info" in i]), [["0.2.0", false]]);
  const logs = await call(tool("get_latest_custom_component_installation_logs"));
  assert.match(logs.text, /^@obj_\w+ → string[^\n]*\n\nCollecting acme_components==0\.3\.1\nSuccessfully installed/);
  assert.is(platform.requests.at(-1)!.path, "v2/custom_components/logs");
  const bobs = await call(tool("get_latest_custom_component_installation_logs", { apiKey: "bob-key", workspace: "bobs" }));
  assert.match(bobs.text, /\n\nNo installation logs found\.$/);
  platform.failNext(/custom_components$/, 500, { message: "down" });
  assert.equal(await call(tool("list_custom_component_installations")), { text: "Failed to retrieve custom component installations: down (Status Code: 500)", isError: true });
});

test("create_workspace posts the name; the platform's refusals come back readable", async () => {
  const mark = platform.requests.length;
  const made = await stored("create_workspace", { name: "research" });
  assert.equal(since(mark).map(sent), [{ method: "POST", path: "v1/workspaces", query: {}, body: { name: "research" } }]);
  assert.equal(made, { success: true, message: "Workspace created successfully." });
  assert.ok(platform.orgs["alice-key"]!.workspaces.some((w) => w.name === "research"));
  assert.equal(await call(tool("create_workspace"), { name: "research" }), { text: "Failed to create workspace 'research': Workspace 'research' already exists (Status Code: 409)", isError: true });
  assert.match((await call(tool("create_workspace"), { name: "Bad Name!" })).text, /^Failed to create workspace 'Bad Name!': .*\(Status Code: 422\)$/);
});

test("load_skill lists the bundled skills in its prompt and returns one by name", async () => {
  const skill = tool("load_skill");
  assert.match(skill.description, /Available skills:\n {4}- debug-pipeline: .*\n {4}- edit-pipeline: /);
  const text = (await call(skill, { skill_name: "edit-pipeline" })).text;
  assert.match(text, /^---\nname: edit-pipeline\n/);
  assert.match(text, /update_pipeline/);
  assert.equal(await call(skill, { skill_name: "nope" }), { text: "Error: Skill 'nope' not found. Available skills: debug-pipeline, edit-pipeline", isError: true });
  assert.ok(!("workspace" in tool("load_skill", { workspace: undefined }).parameters), "no workspace, no client");
});

test("search_docs finds passages of the bundled documentation, or of the files it is given", async () => {
  const docs = tool("search_docs");
  const before = platform.requests.length;
  const hit = (await call(docs, { query: "restore_pipeline_version roll back" })).text;
  assert.match(hit, /^[^\n]*edit-pipeline\.md › Deploy and roll back\n/);
  assert.match(hit, /restore_pipeline_version/);
  const fromDocs = (await call(docs, { query: "wrapper contract setup without parameters" })).text;
  assert.match(fromDocs, /^wrappers\.md › The wrapper contract\n/m, "the docs/ pages are searched with the README");
  assert.is(platform.requests.length, before, "no platform call");
  assert.equal(await call(docs, { query: "qwxzv" }), { text: "No documentation found for 'qwxzv'.", isError: false });

  const dir = await mkdtemp(join(tmpdir(), "svc-docs-"));
  try {
    await mkdir(join(dir, "guides"));
    await writeFile(join(dir, "guides", "indexes.md"), "# Indexes\n\nAn index turns files into documents.\n\n## Reindexing\n\nReindex after changing the embedder model.\n");
    await writeFile(join(dir, "notes.txt"), "Unrelated notes about lunch.\n");
    await writeFile(join(dir, "image.png"), "not text");
    const server = new ToolServer({ name: "t", version: "1", logger: captureLogger().logger });
    await configureMcpServer(server, { platformApiKey: "k", toolsToRegister: ["search_docs"], docsPaths: [dir], objectStore: new ObjectStore(new MemoryBackend()) });
    const result: any = await server.callTool("search_docs", { query: "reindex embedder" }, { signal: new AbortController().signal, headers: {}, requestId: 1, transport: "stdio" });
    assert.is(result.content[0].text, "guides/indexes.md › Reindexing\nReindex after changing the embedder model.");
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test.run();
