import { test } from "uvu";
import * as assert from "uvu/assert";
import { startPlatformFixture, type PlatformFixture } from "../../fixtures/platform-server.js";
import { harness, sent } from "./harness.js";

let platform: PlatformFixture;
test.before(async () => {
  platform = await startPlatformFixture();
});
test.after(() => platform.close());
const { tool, call, stored, since } = harness(() => platform);
const W = "v1/workspaces/default";
const ids = () => {
  const ws = platform.workspace("alice-key", "default");
  return { ws: ws.workspace_id, rag: ws.pipelines.find((p) => p.name === "rag-qa")!.pipeline_id };
};

test("search_pipeline_with_filters and _with_params send filters or params only when given", async () => {
  const filters = { operator: "AND", conditions: [{ field: "meta.lang", operator: "==", value: "en" }] };
  let mark = platform.requests.length;
  const found = await stored("search_pipeline_with_filters", { pipeline_name: "rag-qa", query: "filtered", filters });
  assert.equal(since(mark).map(sent), [
    { method: "GET", path: `${W}/pipelines/rag-qa`, query: {}, body: null },
    { method: "POST", path: `${W}/pipelines/rag-qa/search`, query: {}, body: { queries: ["filtered"], debug: false, view_prompts: false, filters } },
  ]);
  assert.is(found.answers[0].answer, "The answer to 'filtered'");
  await stored("search_pipeline_with_filters", { pipeline_name: "rag-qa", query: "no filters", filters: {} });
  assert.equal(platform.requests.at(-1)!.body, { queries: ["no filters"], debug: false, view_prompts: false });
  const params = { retriever: { top_k: 2 }, filters: { field: "meta.lang", operator: "==", value: "de" } };
  mark = platform.requests.length;
  await stored("search_pipeline_with_params", { pipeline_name: "rag-qa", query: "with params", params });
  assert.equal(since(mark).at(-1)!.body, { queries: ["with params"], debug: false, view_prompts: false, params });
  const idle = await call(tool("search_pipeline_with_params"), { pipeline_name: "chat", query: "x", params });
  assert.match(idle.text, /^Pipeline 'chat' is not deployed \(current status: UNDEPLOYED\)/);
  assert.equal(await call(tool("search_pipeline_with_filters"), { pipeline_name: "ghost", query: "x" }), { text: "There is no pipeline named 'ghost' in workspace 'default'.", isError: true });
});

test("list_search_history: the workspace's searches, sorted and filtered by the platform, cursor `time`", async () => {
  let mark = platform.requests.length;
  const page = await stored("list_search_history", { limit: 2 });
  assert.equal(since(mark).map(sent), [{ method: "GET", path: `${W}/search_history`, query: { limit: "2", field: "created_at", order: "DESC" }, body: null }]);
  assert.equal(page.data.map((e: any) => e.query), ["with params", "no filters"], "newest first, the query taken from request.query");
  assert.is(page.data[0].created_at, page.data[0].time);
  assert.is(page.next_cursor, page.data[1].time);
  const next = await stored("list_search_history", { limit: 2, after: page.next_cursor });
  assert.equal(platform.requests.at(-1)!.query, { limit: "2", field: "created_at", order: "DESC", after: page.next_cursor });
  assert.equal(next.data.map((e: any) => e.query), ["filtered", "Who wrote it?"]);
  mark = platform.requests.length;
  const some = await stored("list_search_history", { query_filter: "status eq 'SUCCESS'", sort_field: "query", sort_order: "ASC" });
  assert.equal(since(mark)[0]!.query, { limit: "10", field: "query", order: "ASC", filter: "status eq 'SUCCESS'" });
  assert.equal(some.data.map((e: any) => e.query).slice(0, 3), ["How do I deploy?", "What is svc?", "Who wrote it?"]);
  const one = await stored("list_search_history", { query_filter: "query eq 'What is svc?'" });
  assert.equal(one.data.map((e: any) => [e.query, e.pipeline.name]), [["What is svc?", "rag-qa"]]);
  assert.match((await call(tool("list_search_history"), { query_filter: "nonsense(" })).text, /^Failed to list search history: Invalid filter: nonsense\( \(Status Code: 400\)$/);
  assert.match((await call(tool("list_search_history"), { sort_field: "size" })).text, /^Invalid argument 'sort_field': /);
  assert.equal(await call(tool("list_search_history", { workspace: "nope" })), { text: "There is no workspace named 'nope'. Did you mean to configure it?", isError: true });
});

test("list_pipeline_search_history reads the pipeline's archive", async () => {
  const mark = platform.requests.length;
  const page = await stored("list_pipeline_search_history", { pipeline_name: "rag-qa", limit: 3, sort_order: "ASC" });
  assert.equal(since(mark).map(sent), [{ method: "GET", path: `${W}/pipelines/rag-qa/search_history_archive`, query: { limit: "3", field: "created_at", order: "ASC" }, body: null }]);
  assert.equal(page.data.map((e: any) => e.query), ["What is svc?", "How do I deploy?", "Who wrote it?"]);
  assert.is(page.has_more, true);
  assert.equal(await call(tool("list_pipeline_search_history"), { pipeline_name: "ghost" }), {
    text: "There is no pipeline named 'ghost' in workspace 'default', or the pipeline has no search history yet (archive is available ~30 min after search).",
    isError: true,
  });
});

test("traces: ids looked up, then the v2 summaries, the export, one span's tags and the logs", async () => {
  const { ws, rag } = ids();
  const V2 = `v2/workspaces/${ws}/pipelines/${rag}/search_history`;
  let mark = platform.requests.length;
  const page = await stored("list_pipeline_traces", { pipeline_name: "rag-qa", limit: 2 });
  const requests = since(mark).map(sent);
  assert.equal(requests.slice(0, 2).map((r) => r.path).sort(), [W, `${W}/pipelines/rag-qa`].sort(), "workspace and pipeline ids, looked up at once");
  assert.equal(requests[2], { method: "GET", path: `${V2}/traces`, query: { limit: "2", field: "created_at", order: "DESC" }, body: null });
  assert.is(page.next_cursor, page.data[1].created_at);
  assert.not.ok("traces" in page.data[0].haystack_trace, "summaries carry no spans");
  const queryId = page.data[0].query_id;

  mark = platform.requests.length;
  const trace = await stored("get_pipeline_trace", { pipeline_name: "rag-qa", query_id: queryId });
  assert.is(since(mark).at(-1)!.path, `${V2}/${queryId}/trace/export`);
  assert.equal(trace.haystack_trace.traces.map((s: any) => s.component), [null, "retriever", "prompt_builder"]);
  const span = trace.haystack_trace.traces[2];
  const tags = await stored("get_pipeline_trace_span_tags", { pipeline_name: "rag-qa", query_id: queryId, span_id: span.span_id });
  assert.is(platform.requests.at(-1)!.path, `${V2}/${queryId}/trace/tags/${span.span_id}`);
  assert.equal(tags, span.tags);
  const logs = await stored("get_pipeline_trace_logs", { pipeline_name: "rag-qa", query_id: queryId });
  assert.is(platform.requests.at(-1)!.path, `${V2}/${queryId}/trace/logs`);
  assert.equal(logs.map((l: any) => l.level), ["INFO"]);

  assert.equal(await call(tool("get_pipeline_trace"), { pipeline_name: "rag-qa", query_id: "nope" }), {
    text: "No trace found for query_id 'nope' in pipeline 'rag-qa' (workspace 'default'). The query may not exist or may not have a stored trace.",
    isError: true,
  });
  assert.equal(await call(tool("get_pipeline_trace_span_tags"), { pipeline_name: "rag-qa", query_id: queryId, span_id: "nope" }), {
    text: `No span 'nope' found for query_id '${queryId}' in pipeline 'rag-qa' (workspace 'default'). The query, trace, or span may not exist.`,
    isError: true,
  });
  assert.equal(await call(tool("list_pipeline_traces"), { pipeline_name: "ghost" }), { text: "There is no pipeline named 'ghost' in workspace 'default', or it has no traces yet.", isError: true });
  platform.failNext(/trace\/logs$/, 503, { message: "busy" });
  assert.equal(await call(tool("get_pipeline_trace_logs"), { pipeline_name: "rag-qa", query_id: queryId }), { text: `Failed to get trace logs for query_id '${queryId}': busy (Status Code: 503)`, isError: true });
});

test("history calls get 70 s, not the client's default time-out", async () => {
  platform.slow(/search_history$/, 150);
  const out = await call(tool("list_search_history", { timeoutMs: 50 }));
  assert.is(out.isError, false, out.text);
});

test.run();
