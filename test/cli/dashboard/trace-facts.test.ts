import { test } from "uvu";
import * as assert from "uvu/assert";
import { parseSnapshot } from "../../../cli/dashboard/snapshot.js";
import { sampleStats } from "../../../cli/dashboard/stats.js";
import { errorMessage, isStreaming, searchText, slowComponent, traceKind, traceState } from "../../../cli/dashboard/trace-facts.js";
import { componentSpan, sample, spanOf, traceOf } from "./trace-fixtures.js";

test("state: failed on an error type or success=false (any span), running while the root runs, else ok", () => {
  const [ok, slow, failed, running] = sample();
  assert.is(traceState(ok!), "ok");
  assert.is(traceState(slow!), "ok");
  assert.is(traceState(failed!), "failed");
  assert.is(traceState(running!), "running");
  assert.is(traceState(traceOf({ id: "x", tags: { "svc.success": "false" } })), "failed");
  const nested = traceOf({ id: "y", running: true, children: [spanOf("c", "haystack.component.run", { tags: { "haystack.error.type": "Boom" } })] });
  assert.is(traceState(nested), "failed", "a failed span beats a running root");
  assert.is(errorMessage(failed!), "bad input");
});

test("kind comes from the root span's name; streaming from the stream tags", () => {
  const kinds = ["svc.pipeline.run", "svc.openai.chat_completion", "svc.mcp.call_tool", "svc.deploy", "svc.startup.deploy", "svc.undeploy", "something"].map((root) => traceKind(traceOf({ id: root, root })));
  assert.equal(kinds, ["run", "openai", "mcp", "deploy", "deploy", "undeploy", "other"]);
  assert.is(isStreaming(sample()[3]!), true);
  assert.is(isStreaming(sample()[0]!), false);
  assert.is(isStreaming(traceOf({ id: "r", tags: { "svc.response.streaming": "true" } })), true);
});

test("slow component: the slowest finished component strictly above the threshold; ties go to the smaller name", () => {
  const slow = sample()[1]!;
  assert.is(slowComponent(slow, 1000)?.span_id, "b-c2");
  assert.is(slowComponent(slow, 2400), undefined, "equal to the threshold is not slow");
  assert.is(slowComponent(slow, 2399)?.span_id, "b-c2");
  const tie = traceOf({ id: "t", children: [componentSpan("z", "zeta", 1500), componentSpan("a", "alpha", 1500)] });
  assert.is(slowComponent(tie, 1000)?.span_id, "a");
  const running = traceOf({ id: "r", children: [spanOf("c", "haystack.component.run", { duration: 5000, running: true })] });
  assert.is(slowComponent(running, 1000), undefined, "running components are not judged");
});

test("what the server derived (state, kind, slow component) wins over the viewer's own rules", () => {
  const base = sample()[1]!;
  const server = { ...base, state: "failed", kind: "mcp", slow_component: { span_id: "b-c1", name: "retriever", duration_ms: 400 } };
  assert.is(traceState(server), "failed");
  assert.is(traceKind(server), "mcp");
  assert.equal(slowComponent(server, 1000), { span_id: "b-c1", name: "retriever", duration_ms: 400 });
  assert.is(slowComponent({ ...base, slow_component: null }, 1000), undefined, "null: the server found none");
  assert.equal(slowComponent(base, 1000), { span_id: "b-c2", name: "llm", duration_ms: 2400 }, "absent: derived");
  assert.is(traceKind({ ...base, kind: "teleport" }), "run", "an unknown value falls back to the rules");
});

test("search text holds the trace id and every key=value of the trace and its spans", () => {
  const text = searchText(sample()[1]!);
  assert.ok(text.includes("bbbb2222"));
  assert.ok(text.includes("svc.pipeline.name=rag"));
  assert.ok(text.includes("haystack.component.name=llm"));
});

test("statistics describe the given sample: states, streaming, percentiles of finished traces, slow components", () => {
  const stats = sampleStats(sample(), 1000);
  assert.equal(
    { total: stats.total, ok: stats.ok, failed: stats.failed, running: stats.running, streaming: stats.streaming, slow: stats.slow },
    { total: 5, ok: 3, failed: 1, running: 1, streaming: 1, slow: 1 },
  );
  // Finished durations 50, 200, 700, 3000 (the running trace is left out).
  assert.is(stats.p50, 200);
  assert.is(stats.p95, 3000);
  assert.is(stats.max, 3000);
  const empty = sampleStats([], 1000);
  assert.is(empty.total, 0);
  assert.is(empty.p50, undefined);
});

test("parseSnapshot reads the wire form, tags given as an object, and fills missing fields", () => {
  const parsed = parseSnapshot({
    traces: [
      {
        trace_id: "abc",
        start_time_ms: 1,
        duration_ms: 2,
        entrypoint: "chat",
        tags: [{ key: "svc.success", value: "true" }],
        span_count: 2,
        root_span: { span_id: "r", name: "svc.pipeline.run", start_time_ms: 1, duration_ms: 2, running: false, tags: { n: 3, ok: true, o: { b: 1 } }, children: [{ span_id: 7, name: "x" }] },
      },
      { trace_id: "def" },
    ],
    has_more: true,
    config: { buffer_capacity: 200, fetch_limit: 25, slow_component_ms: 500, scope: "process" },
  });
  assert.ok("snapshot" in parsed);
  if (!("snapshot" in parsed)) return;
  const [a, b] = parsed.snapshot.traces;
  assert.equal(a!.root_span!.tags, [
    { key: "n", value: "3" },
    { key: "ok", value: "true" },
    { key: "o", value: '{"b":1}' },
  ]);
  assert.is(a!.root_span!.children[0]!.span_id, "7");
  assert.is(a!.root_span!.children[0]!.duration_ms, 0);
  assert.is(b!.root_span, null);
  assert.is(b!.entrypoint, null);
  assert.is(parsed.snapshot.config.slow_component_ms, 500);
  assert.is(parsed.snapshot.has_more, true);
  const wrong = parseSnapshot({ items: [] });
  assert.ok("error" in wrong && /traces/.test(wrong.error));
});

test.run();
