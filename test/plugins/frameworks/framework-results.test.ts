import { test } from "uvu";
import * as assert from "uvu/assert";
import { AIMessageChunk, ToolMessage } from "@langchain/core/messages";
import { chunkSource, frameworkItems, frameworkResult } from "svc/frameworks";

async function collect(source: AsyncIterable<unknown> | Iterable<unknown>): Promise<unknown[]> {
  const out: unknown[] = [];
  for await (const item of source) out.push(item);
  return out;
}

test("items that are not a framework's pass through unchanged, with nothing added", async () => {
  const items = ["text", { content: "an engine chunk", meta: {} }, { event: { type: "status", data: { description: "x", done: false, hidden: false } } }, { any: "object" }, ["a", "b"], 42, null];
  const out = await collect(frameworkItems(items));
  assert.equal(out, items);
  for (const item of items) assert.is(out[items.indexOf(item)], item, "the same objects");
  assert.is(frameworkResult("text"), undefined);
  assert.is(frameworkResult({ content: "x" }), undefined);
  assert.is(frameworkResult({ messages: [{ role: "user", content: "x" }] }), undefined, "a plain messages object is not a graph state");
  assert.is(chunkSource(42), undefined);
});

test("a failed tool closes its call with a hidden status and an error notification; finish reasons are mapped", async () => {
  const stream = [
    new AIMessageChunk({ content: "", tool_calls: [{ name: "weather", args: { city: "Oslo" }, id: "c1", type: "tool_call" }] }),
    [new ToolMessage({ content: "no such city", tool_call_id: "c1", name: "weather", status: "error" }), {}],
    new AIMessageChunk({ content: "Sorry.", response_metadata: { finish_reason: "length" } }),
  ];
  const out = (await collect(frameworkItems(stream, { events: true }))) as any[];
  const events = out.filter((i) => i.event).map((i) => [i.event.type, i.event.data.description ?? i.event.data.content, i.event.data.hidden ?? i.event.data.type]);
  assert.equal(events, [
    ["status", "Calling 'weather' tool...", false],
    ["status", "Called 'weather' tool", true],
    ["notification", "Error calling 'weather' tool", "error"],
  ]);
  assert.equal(out.at(-1), { content: "", finish_reason: "length" });
  const quiet = (await collect(frameworkItems(stream))) as any[];
  assert.not.ok(quiet.some((i) => i.event), "no UI events unless asked");
});

test("an AI SDK stream that ends without a finish part still closes; an abort part ends it quietly", async () => {
  const fullStream = async function* () {
    yield { type: "text-delta", id: "t", text: "Hi" };
  };
  assert.equal(await collect(frameworkResult({ fullStream: fullStream(), textStream: [] })!), [{ content: "Hi" }, { content: "", finish_reason: "stop" }]);
  const aborted = async function* () {
    yield { type: "text-delta", id: "t", text: "Hi" };
    yield { type: "abort" };
  };
  assert.equal(await collect(frameworkResult({ fullStream: aborted(), textStream: [] })!), [{ content: "Hi" }]);
});

test.run();
