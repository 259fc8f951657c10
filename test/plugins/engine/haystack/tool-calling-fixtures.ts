/**
 * @module Haystack's test_tool_calling.py fixtures, shared by the port's files: the weather tool,
 * `_run_tool` as a ToolInvoker run, and the state reader / writer / retrieval tools.
 */
import { ChatMessage, Document, State, Tool, ToolInvoker, type ToolCall, type ToolsType } from "svc/engine";
import type { StreamingChunk } from "../../../../plugins/engine/dataclasses/streaming-chunk.js";

export const WEATHER: Record<string, Record<string, unknown>> = {
  Berlin: { weather: "mostly sunny", temperature: 7, unit: "celsius" },
  Paris: { weather: "mostly cloudy", temperature: 8, unit: "celsius" },
  Rome: { weather: "sunny", temperature: 14, unit: "celsius" },
};
export const weatherFunction = (args: Record<string, any>) => WEATHER[args.location] ?? { weather: "unknown", temperature: 0, unit: "celsius" };
export const weatherParameters = { type: "object", properties: { location: { type: "string" } }, required: ["location"] };
export const weatherTool = (extra: Record<string, unknown> = {}) => new Tool({ name: "weather_tool", description: "Provides weather information for a given location.", parameters: weatherParameters, function: weatherFunction, ...extra });
export const faultyTool = () =>
  new Tool({ name: "faulty_tool", description: "A tool that always fails when invoked.", parameters: weatherParameters, function: () => Promise.reject(new Error("This tool always fails.")) });
export const call = (tool_name: string, args: Record<string, unknown> = {}): ToolCall => ({ tool_name, arguments: args });
export const assistant = (...calls: ToolCall[]) => ChatMessage.fromAssistant(null, { toolCalls: calls });
export const ctx = () => ({ name: "tool_invoker", signal: new AbortController().signal }) as never;

/** Haystack's `_run_tool`: the tool messages and the state after one batch. */
export async function runTool(o: { messages: ChatMessage[]; state?: State; tools: ToolsType; raise_on_failure?: boolean; streaming_callback?: (c: StreamingChunk) => void; max_workers?: number }) {
  const invoker = new ToolInvoker({ tools: o.tools, raise_on_failure: o.raise_on_failure ?? true, ...(o.max_workers ? { max_workers: o.max_workers } : {}) });
  const out = await invoker.run({ messages: o.messages, state: o.state ?? new State({}), streaming_callback: o.streaming_callback ?? null }, ctx());
  return [out.tool_messages, out.state] as const;
}
/** Haystack's `_reader_tool`: reads `key` into its `value` parameter; `seen` records what it got. */
export const readerTool = (key = "documents", seen?: unknown[]) =>
  new Tool({ name: "reader_tool", description: "Reads from state.", parameters: { type: "object", properties: {} }, function: (args) => (seen?.push(args.value), { ok: true }), inputs_from_state: { [key]: "value" }, valid_inputs: ["value"] });
/** Haystack's `_writer_tool`: writes `value` to `key`. */
export const writerTool = (key = "documents", value = "written") => new Tool({ name: "writer_tool", description: "Writes to state.", parameters: { type: "object", properties: {} }, function: () => ({ out: value }), outputs_to_state: { [key]: { source: "out" } } });
/** Haystack's `_make_retrieval_tool`: reads and writes `documents`, labelling its document with how many it saw. */
export const retrievalTool = () =>
  new Tool({
    name: "retrieval_tool",
    description: "Retrieves documents.",
    parameters: { type: "object", properties: {} },
    function: (args) => ({ documents: [new Document({ content: `doc-${(args.documents as unknown[] | undefined)?.length ?? 0}` })] }),
    inputs_from_state: { documents: "documents" },
    outputs_to_state: { documents: { source: "documents" } },
    valid_inputs: ["documents"],
  });
