/**
 * Hayhooks' HTTP-level tests (deepset-ai/hayhooks 051d5a8: tests/test_it_deploy_files.py,
 * test_undeploy.py, test_it_status.py, test_run_api_streaming.py, test_it_file_response.py,
 * test_it_openai.py, test_tracing.py's unknown-model case), ported as values: the same requests,
 * the same statuses and texts. Where svc differs on purpose the assertion says so and
 * docs/moving-from-hayhooks.md lists it: the error body is `{error:{message,type,code}}` (Hayhooks:
 * `{detail}`), deploy and undeploy answer `{status, message, name}` (Hayhooks: `{name, success,
 * endpoint}`), a body that fails its schema is a 400 (Hayhooks: 422). The YAML result shape is
 * test/plugins/engine's.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { flatten, tagsOf, withTracingKernel, type TracingKernel } from "../plugins/tracing/tracing-helpers.js";
import * as W from "./wrappers.js";

const MOCK = "This is a mock response from the pipeline";
const err = (body: any): string => body?.error?.message ?? "";
const post = (k: TracingKernel, path: string, body: unknown) =>
  fetch(`${k.url}${path}`, { method: "POST", body: JSON.stringify(body) }).then(async (r) => ({ status: r.status, headers: r.headers, body: (await r.json().catch(() => null)) as any }));
const chat = (k: TracingKernel, model: string, extra: Record<string, unknown> = {}) =>
  post(k, "/chat/completions", { model, messages: [{ role: "user", content: "what is Redis?" }], ...extra });

test("deploy_files: deploy, status, docs and run (test_deploy_files_ok, both wrappers)", () =>
  withTracingKernel(async (k) => {
    for (const [name, files, body, result] of [
      ["test_pipeline_1", W.CHAT_WITH_WEBSITE, { urls: ["https://www.redis.io"], question: "What is Redis?" }, MOCK],
      ["test_pipeline_2", W.NO_CHAT, { test_param: "test_value" }, "Dummy result with test_value"],
    ] as const) {
      const res = await k.deploy({ name, files });
      assert.is(res.status, 200);
      assert.equal(res.body, { status: "success", message: `Pipeline '${name}' successfully deployed`, name }, "svc's deploy answer (Hayhooks: {name, success, endpoint})");
      assert.equal((await (await fetch(`${k.url}/status/${name}`)).json()) as unknown, { status: "Up!", pipeline: name });
      assert.is((await fetch(`${k.url}/docs`)).status, 200);
      assert.equal((await k.run(name, body)).body, { result });
    }
  }));

test("deploy failures: missing wrapper, invalid code, duplicate, no run method, setup error (test_it_deploy_files)", () =>
  withTracingKernel(async (k) => {
    const missing = await k.deploy({ name: "test_pipeline", files: { "chat_with_website.yml": "x: 1" } });
    assert.is(missing.status, 400, "a request without the wrapper file is malformed: 400 (Hayhooks: 422 from its validator)");
    assert.match(err(missing.body), "Missing required file");

    const invalid = await k.deploy({ name: "test_pipeline", files: { "pipeline_wrapper.ts": "invalid python code" } });
    assert.is(invalid.status, 422);
    assert.match(err(invalid.body), "Failed to load pipeline module");
    assert.is(invalid.body.error.type, "invalid_request_error");
    assert.is(invalid.body.error.code, 422);

    const broken = await k.deploy({ name: "test_pipeline", files: W.BROKEN_IMPORT });
    assert.is(broken.status, 422);
    assert.match(err(broken.body), "Failed to load pipeline module 'test_pipeline'");

    const noMethods = await k.deploy({ name: "test_pipeline", files: W.MISSING_METHODS });
    assert.is(noMethods.status, 422);
    assert.match(err(noMethods.body), "At least one of runApi, runChatCompletion or runResponse must be implemented");

    const setup = await k.deploy({ name: "test_pipeline", files: W.SETUP_ERROR });
    assert.is(setup.status, 422);
    assert.match(err(setup.body), "Failed to call setup() on pipeline wrapper instance: Setup failed!");

    assert.is((await k.deploy({ name: "test_pipeline", files: W.CHAT_WITH_WEBSITE })).status, 200);
    const duplicate = await k.deploy({ name: "test_pipeline", files: W.CHAT_WITH_WEBSITE });
    assert.is(duplicate.status, 409);
    assert.match(err(duplicate.body), "Pipeline 'test_pipeline' already exists");
  }));

test("a failing run_api is a 500 naming the cause (test_pipeline_endpoint_error_handling)", () =>
  withTracingKernel(async (k) => {
    assert.is((await k.deploy({ name: "errored_pipeline", files: W.RUN_API_ERROR })).status, 200);
    const res = await k.run("errored_pipeline", { test_param: "test_value" });
    assert.is(res.status, 500);
    assert.match(err(res.body), "Pipeline execution failed");
    assert.match(err(res.body), "This is a test error");
  }));

test("overwrite swaps methods and code; save_files false writes nothing (test_deploy_files_using_overwrite, _without_saving, _should_update_code)", () =>
  withTracingKernel(async (k) => {
    assert.is((await k.deploy({ name: "test_pipeline", files: W.CHAT_WITH_WEBSITE, overwrite: true, save_files: false })).status, 200);
    assert.not.ok(existsSync(join(k.dir, "test_pipeline")));
    assert.is((await chat(k, "test_pipeline")).status, 200);
    assert.equal((await k.run("test_pipeline", { urls: ["https://www.redis.io"], question: "What is Redis?" })).body, { result: MOCK });

    const updated = { "pipeline_wrapper.ts": W.CHAT_WITH_WEBSITE["pipeline_wrapper.ts"].replaceAll("This is a mock", "This is an updated mock") };
    assert.is((await k.deploy({ name: "test_pipeline", files: updated, overwrite: true, save_files: false })).status, 200);
    assert.equal((await k.run("test_pipeline", { urls: ["https://www.redis.io"], question: "What is Redis?" })).body, { result: "This is an updated mock response from the pipeline" });

    assert.is((await k.deploy({ name: "test_pipeline", files: W.NO_CHAT, overwrite: true, save_files: false })).status, 200);
    assert.not.ok(existsSync(join(k.dir, "test_pipeline")));
    const noChat = await chat(k, "test_pipeline");
    assert.is(noChat.status, 501);
    assert.is(err(noChat.body), "Chat endpoint not implemented for this model");
  }));

test("file upload on run: a URL-encoded form without files, then multipart with one (test_deploy_files_with_file_upload)", () =>
  withTracingKernel(async (k) => {
    assert.is((await k.deploy({ name: "file_upload_pipeline", files: W.UPLOAD_FILES })).status, 200);
    // What Python's requests/httpx send for `data={...}` without files.
    const urlencoded = await fetch(`${k.url}/file_upload_pipeline/run`, { method: "POST", body: new URLSearchParams({ test_param: "test_value" }) });
    assert.is(urlencoded.headers.get("content-type")?.startsWith("application/json"), true);
    assert.equal(await urlencoded.json(), { result: "No files received, param: test_value" });

    const form = new FormData();
    form.set("test_param", "test_value");
    form.append("files", new Blob(["This is a test file"], { type: "text/plain" }), "test_file.txt");
    const multipart = (await (await fetch(`${k.url}/file_upload_pipeline/run`, { method: "POST", body: form })).json()) as any;
    assert.match(multipart.result, "Received files: test_file.txt");
    assert.match(multipart.result, "with param test_value");

    // /deploy-files takes URL-encoded fields too: read as a deploy without files (400 naming that, not 415).
    const deploy = await fetch(`${k.url}/deploy-files`, { method: "POST", body: new URLSearchParams({ name: "nofiles" }) });
    assert.is(deploy.status, 400);
    assert.is(err(await deploy.json()), "No files were given.");
  }));

test("a helper module imported by the wrapper; an overwrite removes stale sibling files (test_deploy_utils)", () =>
  withTracingKernel(async (k) => {
    const withHelper = {
      "helper.ts": `export function greet(name: string) { return "Hello, " + name + "!"; }`,
      "pipeline_wrapper.ts": `import * as v from "valibot";\nimport { BasePipelineWrapper } from "svc";\nimport { greet } from "./helper.js";\nexport class PipelineWrapper extends BasePipelineWrapper {\n  static inputSchema = v.object({ name: v.string() });\n  runApi(input: { name: string }) { return greet(input.name); }\n}\n`,
      "stale.txt": "old",
    };
    assert.is((await k.deploy({ name: "with_helper_module", files: withHelper })).status, 200);
    assert.equal((await k.run("with_helper_module", { name: "World" })).body, { result: "Hello, World!" });
    const { "stale.txt": _stale, ...fresh } = withHelper;
    assert.is((await k.deploy({ name: "with_helper_module", files: { ...fresh, "prompt.txt": "new" }, overwrite: true })).status, 200);
    assert.not.ok(existsSync(join(k.dir, "with_helper_module", "stale.txt")), "the old version's files are gone");
    assert.ok(existsSync(join(k.dir, "with_helper_module", "prompt.txt")));
  }));

test("UTF-8 in code, input and answer (test_deploy_files_with_utf8_characters)", () =>
  withTracingKernel(async (k) => {
    assert.is((await k.deploy({ name: "utf8_pipeline", files: W.UTF8_PIPELINE })).status, 200);
    const { result } = (await k.run("utf8_pipeline", { test_param: "测试参数 🔧" })).body;
    assert.match(result.greeting, "世界");
    assert.match(result.greeting, "🌍");
    assert.match(result.message, "你好世界");
    assert.match(result.message, "мир");
    assert.match(result.result, "测试参数 🔧");
  }));

test("undeploy and status (test_undeploy, test_it_status)", () =>
  withTracingKernel(async (k) => {
    assert.equal((await (await fetch(`${k.url}/status`)).json() as any).pipelines, []);
    assert.is((await k.deploy({ name: "test_undeploy_files", files: W.CHAT_WITH_WEBSITE })).status, 200);
    assert.ok(existsSync(join(k.dir, "test_undeploy_files", "pipeline_wrapper.ts")));
    const undeploy = await post(k, "/undeploy/test_undeploy_files", undefined);
    assert.is(undeploy.status, 200);
    assert.equal(undeploy.body, { status: "success", message: "Pipeline 'test_undeploy_files' successfully undeployed", name: "test_undeploy_files" });
    assert.not.ok(existsSync(join(k.dir, "test_undeploy_files")));
    assert.is((await k.run("test_undeploy_files", { question: "test", urls: [] })).status, 404);
    for (let i = 0; i < 2; i++) {
      const again = await post(k, "/undeploy/nonexistent_pipeline", undefined);
      assert.is(again.status, 404);
      assert.match(err(again.body).toLowerCase(), "not found");
    }
    const unknown = await fetch(`${k.url}/status/non_existent_pipeline`);
    assert.is(unknown.status, 404);
    assert.is(err(await unknown.json()), "Pipeline 'non_existent_pipeline' not found");
  }));

test("run_api streaming: text/plain chunks; a stream of UI events only is empty; reasoning-only chunks stream their reasoning (test_run_api_streaming, test_deploy_utils)", () =>
  withTracingKernel(async (k) => {
    assert.is((await k.deploy({ name: "test_run_api_streaming", files: W.RUN_API_STREAMING })).status, 200);
    const stream = await fetch(`${k.url}/test_run_api_streaming/run`, { method: "POST", body: JSON.stringify({ query: "streaming response" }) });
    assert.is(stream.status, 200);
    assert.is(stream.headers.get("content-type"), "text/plain; charset=utf-8");
    assert.is(await stream.text(), "streaming response ");

    assert.is((await k.deploy({ name: "test_run_api_streaming_event", files: W.RUN_API_EVENTS })).status, 200);
    const events = await fetch(`${k.url}/test_run_api_streaming_event/run`, { method: "POST", body: JSON.stringify({ query: "should fail" }) });
    assert.is(events.status, 200);
    assert.is(events.headers.get("content-type"), "text/plain; charset=utf-8");
    assert.is(await events.text(), "");

    assert.is((await k.deploy({ name: "reasoning", files: W.REASONING_STREAM })).status, 200);
    assert.is(await (await fetch(`${k.url}/reasoning/run`, { method: "POST", body: "{}" })).text(), "Thinking. Answer.");
  }));

test("a file response: image/png with its filename, defaults with {} (test_it_file_response)", () =>
  withTracingKernel(async (k) => {
    assert.is((await k.deploy({ name: "image_pipeline", files: W.FILE_RESPONSE })).status, 200);
    for (const body of [{ width: 16, height: 16 }, {}]) {
      const res = await fetch(`${k.url}/image_pipeline/run`, { method: "POST", body: JSON.stringify(body) });
      assert.is(res.status, 200);
      assert.is(res.headers.get("content-type"), "image/png");
      assert.match(res.headers.get("content-disposition") ?? "", 'filename="random_image.png"');
      assert.equal([...new Uint8Array(await res.arrayBuffer()).subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    }
  }));

test("OpenAI: models, chat (Open WebUI extras), streaming, unknown model, no chat method (test_it_openai)", () =>
  withTracingKernel(async (k) => {
    assert.equal(await (await fetch(`${k.url}/models`)).json(), { object: "list", data: [] });
    assert.is((await k.deploy({ name: "test_pipeline", files: W.CHAT_WITH_WEBSITE })).status, 200);
    const models = (await (await fetch(`${k.url}/models`)).json()) as any;
    const { created, ...model } = models.data[0];
    assert.equal(model, { id: "test_pipeline", name: "test_pipeline", object: "model", owned_by: "svc" }, "owned_by svc (Hayhooks: hayhooks)");
    assert.ok(Number.isInteger(created));

    const extras = { stream: false, features: { web_search: false }, session_id: "_Qtpw_fE4g9dMKVKAAAP", chat_id: "7d436049", id: "b8050e7d", background_tasks: { title_generation: true } };
    const done = await chat(k, "test_pipeline", extras);
    assert.is(done.status, 200);
    assert.is(done.body.object, "chat.completion");
    assert.is(done.body.model, "test_pipeline");
    assert.equal(done.body.choices.map((c: any) => [c.index, c.message.content, c.logprobs]), [[0, MOCK, null]]);

    assert.is((await chat(k, "nonexistent_model")).status, 404);

    assert.is((await k.deploy({ name: "test_pipeline_streaming", files: W.CHAT_WITH_WEBSITE_STREAMING })).status, 200);
    const stream = await fetch(`${k.url}/chat/completions`, { method: "POST", body: JSON.stringify({ model: "test_pipeline_streaming", stream: true, messages: [{ role: "user", content: "what is Redis?" }] }) });
    assert.match(stream.headers.get("content-type") ?? "", /^text\/event-stream/);
    const lines = (await stream.text()).split("\n").filter(Boolean);
    assert.ok(lines.every((l) => l.startsWith("data:")));
    const chunks = lines.filter((l) => l !== "data: [DONE]").map((l) => JSON.parse(l.slice(5)));
    assert.is(chunks[0].object, "chat.completion.chunk");
    assert.ok(chunks.some((c) => c.choices[0].delta.content === "Redis "), "the first word of the Redis answer");
    assert.equal([chunks.at(-1).choices[0].delta.content ?? "", chunks.at(-1).choices[0].finish_reason], ["", "stop"]);

    const collected = await chat(k, "test_pipeline_streaming");
    assert.match(collected.headers.get("content-type") ?? "", /^application\/json/);
    assert.is(collected.body.choices[0].message.content.trim(), "Redis is an in-memory data structure store, used as a database, cache and message broker.");
  }));

test("two streaming chats at once each get their own answer (test_chat_completion_concurrent_requests)", () =>
  withTracingKernel(async (k) => {
    assert.is((await k.deploy({ name: "test_pipeline_streaming", files: W.CHAT_WITH_WEBSITE_STREAMING })).status, 200);
    const streamed = (question: string) =>
      fetch(`${k.url}/chat/completions`, { method: "POST", body: JSON.stringify({ model: "test_pipeline_streaming", stream: true, messages: [{ role: "user", content: question }] }) }).then((r) => r.text());
    const [redis, mongo] = await Promise.all([streamed("what is Redis?"), streamed("what is MongoDB?")]);
    const first = (body: string) => JSON.parse(body.split("\n").find((l) => l.startsWith("data: {"))!.slice(6)).choices[0].delta.content;
    assert.is(first(redis), "Redis ");
    assert.is(first(mongo), "This ");
    assert.not.match(mongo, "Redis");
  }));

test("CORS: closed by default; SERVICE_CORS_ALLOW_ORIGINS='*' answers a preflight as Hayhooks' default does (test_cors)", async () => {
  const preflight = (url: string) =>
    fetch(`${url}/status`, { method: "OPTIONS", headers: { origin: "http://example.com", "access-control-request-method": "POST", "access-control-request-headers": "Content-Type,Authorization" } });
  await withTracingKernel(async (k) => {
    const closed = await preflight(k.url);
    assert.is(closed.headers.get("access-control-allow-origin"), null, "no CORS unless configured (Hayhooks: open)");
  });
  await withTracingKernel(
    async (k) => {
      const open = await preflight(k.url);
      assert.ok(open.status === 204 || open.status === 200, String(open.status));
      assert.is(open.headers.get("access-control-allow-origin"), "*");
      assert.match(open.headers.get("access-control-allow-methods") ?? "", "POST");
      assert.match((open.headers.get("access-control-allow-headers") ?? "").toLowerCase(), "content-type");
      assert.match((open.headers.get("access-control-allow-headers") ?? "").toLowerCase(), "authorization");
    },
    { corsAllowOrigins: ["*"] },
  );
});

test("OpenAI Responses: an answer, named events for stream:true, 404 and 501 (test_it_openai)", () =>
  withTracingKernel(async (k) => {
    assert.is((await k.deploy({ name: "test_pipeline_responses", files: W.RESPONSES_BASIC })).status, 200);
    const input = [{ role: "user", type: "message", content: [{ type: "input_text", text: "what is Redis?" }] }];
    const res = await post(k, "/v1/responses", { model: "test_pipeline_responses", input });
    assert.equal([res.body.object, res.body.model, res.body.status, res.body.output.length], ["response", "test_pipeline_responses", "completed", 1]);
    assert.equal([res.body.output[0].type, res.body.output[0].role, res.body.output[0].content[0].type, res.body.output[0].content[0].text], ["message", "assistant", "output_text", MOCK]);
    const streamed = await (await fetch(`${k.url}/v1/responses`, { method: "POST", body: JSON.stringify({ model: "test_pipeline_responses", input, stream: true }) })).text();
    const names = streamed.split("\n").filter((l) => l.startsWith("event:")).map((l) => l.slice(6).trim());
    for (const name of ["response.created", "response.output_text.delta", "response.completed"]) assert.ok(names.includes(name), name);
    assert.is((await post(k, "/v1/responses", { model: "nonexistent_model", input })).status, 404);
    assert.is((await k.deploy({ name: "test_pipeline_no_response", files: W.NO_CHAT })).status, 200);
    const none = await post(k, "/v1/responses", { model: "test_pipeline_no_response", input });
    assert.is(none.status, 501);
    assert.is(err(none.body), "Responses endpoint not implemented for this model");
  }));

test("Files API: svc's store by default; a wrapper with runFileUpload takes uploads over (test_file_upload_default_handler, _delegated_to_wrapper)", () =>
  withTracingKernel(async (k) => {
    const upload = async (name: string, text: string, purpose: string) => {
      const form = new FormData();
      form.append("file", new Blob([text], { type: "text/plain" }), name);
      form.set("purpose", purpose);
      const res = await fetch(`${k.url}/v1/files`, { method: "POST", body: form });
      return { status: res.status, body: (await res.json()) as any };
    };
    const own = await upload("test_document.txt", "This is a test file for the Files API.", "user_data");
    assert.is(own.status, 200);
    assert.equal([own.body.object, own.body.bytes, own.body.filename, own.body.purpose, own.body.status], ["file", 38, "test_document.txt", "user_data", "processed"]);
    assert.match(own.body.id, /^file-/);

    assert.is((await k.deploy({ name: "test_pipeline_file_upload", files: W.RESPONSES_WITH_FILE_UPLOAD })).status, 200);
    const delegated = await upload("delegated.txt", "File handled by pipeline wrapper.", "assistants");
    assert.is(delegated.status, 200);
    assert.match(delegated.body.id, /^custom-/);
    assert.equal([delegated.body.object, delegated.body.bytes, delegated.body.filename, delegated.body.purpose, delegated.body.status], ["file", 33, "delegated.txt", "assistants", "processed"]);
    assert.is((await fetch(`${k.url}/v1/files/${delegated.body.id}`)).status, 404, "svc's store keeps nothing of it");

    // The wrapper resolves its own ids: a Responses request naming one reaches it (no 404).
    const input = [{ role: "user", type: "message", content: [{ type: "input_file", file_id: delegated.body.id }] }];
    const answer = await post(k, "/v1/responses", { model: "test_pipeline_file_upload", input });
    assert.is(answer.status, 200);
    assert.is(answer.body.output[0].content[0].text, "Files: File handled by pipeline wrapper.");

    // Undeployed, uploads go back to svc's store.
    assert.is((await post(k, "/undeploy/test_pipeline_file_upload", undefined)).status, 200);
    assert.match((await upload("again.txt", "x", "user_data")).body.id, /^file-/);
  }));

test("a chat request for an unknown model leaves a failed span with the status (test_tracing)", () =>
  withTracingKernel(async (k) => {
    assert.is((await chat(k, "non_existent_pipeline")).status, 404);
    const trace = await k.trace("svc.openai.run", (t) => flatten(t.root_span).some((s) => tagsOf(s)["svc.pipeline.name"] === "non_existent_pipeline"));
    const tags = tagsOf(trace.root_span!);
    assert.is(tags["svc.success"], "false");
    assert.is(tags["svc.http.status_code"], "404");
    assert.is(tags["svc.openai.operation"], "run_chat_completion");
  }));

test.run();
