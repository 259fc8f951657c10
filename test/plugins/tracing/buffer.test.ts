import { test } from "uvu";
import * as assert from "uvu/assert";
import { SvcTracer, TraceBuffer, snapshot, normalizeTrace, type WireSpan } from "../../../plugins/tracing/index.js";
import { MAX_TREE_DEPTH, TAGS_PER_SPAN, TAGS_PER_TRACE } from "../../../plugins/tracing/snapshot.js";
import { MAX_TAG_LENGTH } from "../../../plugins/tracing/trace-buffer.js";

function tracer(buffer = new TraceBuffer(200)) {
  return { buffer, tracer: new SvcTracer({ buffer, includeFrameworkSpans: true, excludedSpans: [], showTracebacks: false }) };
}

const depthOf = (span: WireSpan | null): number => (span && span.children.length ? 1 + Math.max(...span.children.map(depthOf)) : 0);

test("running spans are listed with running: true and their elapsed time; the trace state is running", () => {
  const { buffer, tracer: t } = tracer();
  const root = t.startSpan("svc.pipeline.run", { "svc.pipeline.name": "p" });
  const child = t.startSpan("haystack.pipeline.run", {}, root);
  child.end();
  const [trace] = snapshot(buffer.all(), 10, 1000).traces;
  assert.is(trace!.state, "running");
  assert.is(trace!.root_span!.running, true);
  assert.is(trace!.root_span!.children[0]!.running, false);
  assert.ok(trace!.root_span!.duration_ms >= 0);
  root.end();
  assert.is(snapshot(buffer.all(), 10, 1000).traces[0]!.state, "ok");
});

test("the tree is cut below depth 64 (root = 0) while span_count counts every span", () => {
  const { buffer, tracer: t } = tracer();
  let parent = t.startSpan("root");
  const spans = [parent];
  for (let i = 0; i < 99; i++) spans.push((parent = t.startSpan(`level-${i + 1}`, {}, parent)));
  for (const s of spans.reverse()) s.end();
  const [trace] = snapshot(buffer.all(), 10, 1000).traces;
  assert.is(trace!.span_count, 100);
  assert.is(depthOf(trace!.root_span), MAX_TREE_DEPTH);
  let node = trace!.root_span!;
  while (node.children.length) node = node.children[0]!;
  assert.is(node.name, "level-64");
});

test("capacity: the least recently updated trace is evicted; has_more when older traces are left out", () => {
  const { buffer, tracer: t } = tracer(new TraceBuffer(3));
  const first = t.startSpan("first");
  for (const name of ["second", "third"]) t.startSpan(name).end();
  first.setTag("k", "v"); // a tag alone does not count as an update
  first.end(); // ending does: "first" is now the most recently updated
  t.startSpan("fourth").end();
  const names = buffer.all().map((tr) => tr.spans[0]!.name);
  assert.equal(names.sort(), ["first", "fourth", "third"]);
  const snap = snapshot(buffer.all(), 2, 1000);
  assert.is(snap.traces.length, 2);
  assert.is(snap.has_more, true);
  assert.equal(snap.traces.map((tr) => tr.root_span!.name), ["fourth", "third"], "newest start first");
});

test("spans per trace are bounded; further spans are not kept, children of a dropped span neither", () => {
  const { buffer, tracer: t } = tracer(new TraceBuffer(10, 5));
  const root = t.startSpan("root");
  for (let i = 0; i < 10; i++) t.startSpan(`child-${i}`, {}, root).end();
  root.end();
  const [trace] = snapshot(buffer.all(), 10, 1000).traces;
  assert.is(trace!.span_count, 5);
  assert.is(trace!.root_span!.children.length, 4);
});

test("tags: rendered as text, blank and null omitted, long values cut, priority keys first, bounded per span and trace", () => {
  const { buffer, tracer: t } = tracer();
  const tags: Record<string, unknown> = { "z.first": "set first", "svc.success": true, blank: "  ", none: null, obj: { b: 2, a: [1, "x"] }, long: "x".repeat(2000) };
  for (let i = 0; i < 40; i++) tags[`extra.${i}`] = i;
  const root = t.startSpan("root", tags as never);
  root.setTag("svc.pipeline.name", "p");
  const child = t.startSpan("child", Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`child.${i}`, i])), root);
  child.end();
  root.end();
  const [trace] = snapshot(buffer.all(), 10, 1000).traces;
  const rootTags = trace!.root_span!.tags;
  assert.is(rootTags.length, TAGS_PER_SPAN);
  assert.equal(rootTags.slice(0, 3).map((x) => x.key), ["svc.pipeline.name", "svc.success", "z.first"]);
  assert.is(rootTags.find((x) => x.key === "svc.success")!.value, "true");
  assert.is(rootTags.find((x) => x.key === "obj")!.value, '{"a":[1,"x"],"b":2}', "sorted-key JSON");
  assert.is(rootTags.find((x) => x.key === "long")!.value.length, MAX_TAG_LENGTH);
  assert.not.ok(rootTags.some((x) => x.key === "blank" || x.key === "none"));
  assert.is(trace!.tags.length, TAGS_PER_TRACE);
  assert.is(trace!.tags[0]!.key, "svc.pipeline.name");
  assert.is(trace!.entrypoint, "p");
});

test("the slowest component strictly above the threshold is highlighted; ties go to the smaller name", () => {
  const { buffer, tracer: t } = tracer();
  const root = t.startSpan("svc.pipeline.run");
  const components = ["b", "a", "c"].map((name) => t.startSpan("haystack.component.run", { "haystack.component.name": name }, root));
  for (const c of components) c.end();
  root.end();
  const [record] = buffer.all();
  const [b, a, c] = record!.spans.slice(1);
  b!.durationMs = 1500;
  a!.durationMs = 1500;
  c!.durationMs = 200;
  const trace = normalizeTrace(record!, 1000, performance.now());
  assert.equal(trace.slow_component, { span_id: a!.spanId, name: "a", duration_ms: 1500 });
  const slow = trace.root_span!.children.filter((s) => s.slow);
  assert.is(slow.length, 1);
  assert.is(slow[0]!.span_id, a!.spanId);
  assert.is(normalizeTrace(record!, 1500, performance.now()).slow_component, null, "equal to the threshold is not above it");
});

test("kind and state from the root span and the tags", () => {
  const { buffer, tracer: t } = tracer();
  const names = ["svc.undeploy", "svc.deploy", "svc.startup.deploy", "svc.openai.run", "svc.mcp.run", "svc.pipeline.run", "custom"];
  for (const name of names) t.startSpan(name).end();
  const failed = t.startSpan("svc.pipeline.run", { marker: "failing" });
  failed.end(new RangeError("out of range"));
  const kinds = Object.fromEntries(snapshot(buffer.all(), 100, 1000).traces.map((tr) => [tr.root_span!.name + (tr.state === "failed" ? "!" : ""), tr.kind]));
  assert.equal(kinds, {
    "svc.undeploy": "undeploy",
    "svc.deploy": "deploy",
    "svc.startup.deploy": "deploy",
    "svc.openai.run": "openai",
    "svc.mcp.run": "mcp",
    "svc.pipeline.run": "run",
    "svc.pipeline.run!": "run",
    custom: "other",
  });
});

test("ids: 32 and 16 hex digits, unique", () => {
  const { tracer: t } = tracer();
  const spans = Array.from({ length: 1000 }, () => t.startSpan("s"));
  assert.ok(spans.every((s) => /^[0-9a-f]{32}$/.test(s.traceId!) && /^[0-9a-f]{16}$/.test(s.spanId!)));
  assert.is(new Set(spans.map((s) => s.traceId)).size, 1000);
  assert.is(new Set(spans.map((s) => s.spanId)).size, 1000);
});

test.run();
