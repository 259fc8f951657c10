/**
 * @module Haystack's `_schedule_tool_calls`: the order in which one step's tool calls run, so a
 * call reading a state key sees what the calls writing it wrote.
 */
import type { ToolCall } from "../dataclasses/chat-message.js";
import type { Tool } from "../tool.js";

/** "Every state key" (Haystack's `_ALL_STATE_KEYS`), for tools that take the live State. */
const ALL_KEYS = "all" as const;
type Keys = Set<string> | typeof ALL_KEYS;
/** Whether two key sets overlap; "every key" overlaps any non-empty set. */
const keysIntersect = (a: Keys, b: Keys): boolean =>
  a === ALL_KEYS ? b === ALL_KEYS || b.size > 0 : b === ALL_KEYS ? a.size > 0 : [...a].some((key) => b.has(key));

/**
 * Haystack's `_schedule_tool_calls`: batches of call indices. A call reading a state key (an
 * `inputs_from_state` parameter the LLM did not send) runs in a later batch than every call
 * writing that key (`outputs_to_state`); calls within a batch run concurrently. A cycle (a tool
 * reading and writing one key, called twice) is broken by call order; write-write needs no order.
 * A tool taking the live State reads and writes every key: a barrier for any call touching state.
 */
export function scheduleToolCalls(calls: readonly ToolCall[], tools: readonly Tool[]): number[][] {
  const io = calls.map((call, i): { reads: Keys; writes: Keys } => {
    const tool = tools[i]!;
    if (tool.stateParameters.length) return { reads: ALL_KEYS, writes: ALL_KEYS };
    const reads = new Set(Object.entries(tool.inputs_from_state ?? {}).filter(([, param]) => !(param in call.arguments)).map(([key]) => key));
    return { reads, writes: new Set(Object.keys(tool.outputs_to_state ?? {})) };
  });
  const deps = io.map((a, j) => new Set(io.flatMap((b, i) => (i !== j && keysIntersect(a.reads, b.writes) ? [i] : []))));
  const done = new Set<number>();
  const batches: number[][] = [];
  while (done.size < calls.length) {
    let ready = calls.map((_, k) => k).filter((k) => !done.has(k) && [...deps[k]!].every((d) => done.has(d)));
    if (!ready.length) ready = [calls.findIndex((_, k) => !done.has(k))];
    for (const k of ready) done.add(k);
    batches.push(ready);
  }
  return batches;
}

