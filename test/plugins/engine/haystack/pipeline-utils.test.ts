/**
 * Haystack's pipeline utility tests (haystack test/core/pipeline/test_utils.py), ported value for
 * value: `parse_connect_string` is the engine's `parseEndpoint`, `FIFOPriorityQueue` the queue the
 * run loop fills each step (Python's `len` and truth value are `length`, its IndexError a
 * RangeError), `_deepcopy_with_exceptions` the run's `deepCopy`.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { ComponentTool, OpenAIChatGenerator, PromptBuilder, Secret } from "svc/engine";
import { parseEndpoint } from "../../../../plugins/engine/pipeline/connections.js";
import { FIFOPriorityQueue } from "../../../../plugins/engine/pipeline/priority-queue.js";
import { deepCopy } from "../../../../plugins/engine/pipeline/copy.js";

test("test_parse_connection", () => {
  assert.equal(parseEndpoint("foobar"), { component: "foobar" });
  assert.equal(parseEndpoint("foo.bar"), { component: "foo", socket: "bar" });
  // Only the first dot separates (Haystack's maxsplit=1).
  assert.equal(parseEndpoint("foo.bar.baz"), { component: "foo", socket: "bar.baz" });
});

const emptyQueue = () => new FIFOPriorityQueue<string>();

test("test_empty_queue_initialization", () => {
  const q = emptyQueue();
  assert.is(q.length, 0);
  assert.not.ok(q.length > 0);
});

test("test_push_single_item", () => {
  const q = emptyQueue();
  q.push("item1", 1);
  assert.is(q.length, 1);
  assert.ok(q.length > 0);
  assert.equal(q.peek(), [1, "item1"]);
});

test("test_push_multiple_items_different_priorities", () => {
  const q = emptyQueue();
  for (const [item, priority] of [["item3", 3], ["item1", 1], ["item2", 2]] as const) q.push(item, priority);
  assert.equal(q.pop(), [1, "item1"]);
  assert.equal(q.pop(), [2, "item2"]);
  assert.equal(q.pop(), [3, "item3"]);
});

test("test_push_multiple_items_same_priority", () => {
  const q = emptyQueue();
  for (const item of ["first", "second", "third"]) q.push(item, 1);
  assert.equal(q.pop(), [1, "first"]);
  assert.equal(q.pop(), [1, "second"]);
  assert.equal(q.pop(), [1, "third"]);
});

test("test_mixed_priority_and_fifo", () => {
  const q = emptyQueue();
  q.push("medium1", 2);
  q.push("high", 1);
  q.push("medium2", 2);
  q.push("low", 3);
  assert.equal(q.pop(), [1, "high"]);
  assert.equal(q.pop(), [2, "medium1"]);
  assert.equal(q.pop(), [2, "medium2"]);
  assert.equal(q.pop(), [3, "low"]);
});

test("test_peek_behavior", () => {
  const q = emptyQueue();
  q.push("item1", 1);
  q.push("item2", 2);
  for (let i = 0; i < 3; i++) {
    assert.equal(q.peek(), [1, "item1"]);
    assert.is(q.length, 2);
  }
});

test("test_get_behavior", () => {
  const q = emptyQueue();
  assert.is(q.get(), null);
  q.push("item1", 1);
  assert.equal(q.get(), [1, "item1"]);
  assert.is(q.get(), null);
});

test("test_pop_empty_queue", () => {
  assert.throws(() => emptyQueue().pop(), (e: Error) => e instanceof RangeError && /pop from empty queue/.test(e.message));
});

test("test_peek_empty_queue", () => {
  assert.throws(() => emptyQueue().peek(), (e: Error) => e instanceof RangeError && /peek at empty queue/.test(e.message));
});

test("test_length_updates", () => {
  const q = emptyQueue();
  assert.is(q.length, 0);
  q.push("item1", 1);
  assert.is(q.length, 1);
  q.push("item2", 2);
  assert.is(q.length, 2);
  q.pop();
  assert.is(q.length, 1);
  q.pop();
  assert.is(q.length, 0);
});

test("test_bool_conversion", () => {
  const q = emptyQueue();
  assert.not.ok(q.length > 0);
  q.push("item", 1);
  assert.ok(q.length > 0);
  q.pop();
  assert.not.ok(q.length > 0);
});

test("test_large_number_of_items", () => {
  const q = emptyQueue();
  for (let i = 0; i < 1000; i++) q.push(`item${i}`, i % 10);
  let lastPriority = -1;
  let lastIndex = -1;
  for (let n = 0; n < 1000; n++) {
    const [priority, item] = q.pop();
    const index = Number(item.slice(4));
    if (priority === lastPriority) assert.ok(index > lastIndex, "FIFO order violated within same priority");
    else assert.ok(priority > lastPriority, "Priority order violated");
    lastPriority = priority;
    lastIndex = index;
  }
  assert.is(q.length, 0);
});

const orderings: [string, [number, string][]][] = [
  ["items0", [[1, "A"], [1, "B"], [1, "C"]]],
  ["items1", [[3, "A"], [2, "B"], [1, "C"]]],
  ["items2", [[2, "A"], [1, "B"], [2, "C"]]],
];
for (const [id, items] of orderings) {
  test(`test_queue_ordering_parametrized[${id}]`, () => {
    const q = emptyQueue();
    for (const [priority, item] of items) q.push(item, priority);
    const sorted = items.map((x, i) => [x, i] as const).sort((a, b) => a[0][0] - b[0][0] || a[1] - b[1]).map(([x]) => x);
    for (const [priority, item] of sorted) assert.equal(q.pop(), [priority, item]);
  });
}

// ---- TestDeepcopyWithFallback: what svc's run copy passes through as is ----
test("test_deepcopy_with_fallback_tool", () => {
  const tool = new ComponentTool({ name: "problematic_tool", description: "This is a problematic tool.", component: new PromptBuilder({ template: "{{query}}" }) });
  const original = { tools: tool };
  const copy = deepCopy(original);
  assert.is.not(copy, original);
  assert.is(copy.tools, original.tools);
});

test("test_deepcopy_with_fallback_component", () => {
  const component = new OpenAIChatGenerator({ api_key: Secret.fromToken("test") });
  const original = { component };
  const copy = deepCopy(original);
  assert.is(copy.component, original.component);
});

test.run();
