/**
 * @module svc:frameworks: agent frameworks' results as streamed chunks, through the kernel's
 * `result` hook. A wrapper returns what its framework gives it — the AI SDK's `streamText()` /
 * `generateText()` result, a LangChain model's or runnable's `.stream()` / `.streamEvents()` /
 * `.invoke()`, a LangGraph graph's `.stream()` / `.invoke()` — and every transport encodes it.
 * Recognition is by shape only: no framework is imported. A plain generator is the wrapper's own
 * stream and passes untouched (no adapter on the engine's hot path). Also home of the Open WebUI
 * event helpers (`createStatusEvent`, …) that wrappers import from `svc`.
 */
import { definePlugin, isStreamable, type KernelPlugin, type ResultItems, type ResultInfo } from "svc/plugin";
import { frameworkItems, frameworkResult } from "./framework-results.js";

export { chunkSource, frameworkItems, frameworkResult } from "./framework-results.js";
export type { AgentChunk, AgentItem, ChunkUsage, ChunkWriterOptions, ToolCallDeltaChunk } from "./framework-results.js";
export * from "./ui-events.js";

/** A native (async) generator: a wrapper's own stream, which no framework returns. */
function isGenerator(value: object): boolean {
  const tag = (value as { [Symbol.toStringTag]?: unknown })[Symbol.toStringTag];
  return tag === "Generator" || tag === "AsyncGenerator";
}

/** The `result` tap: a framework's result object, or a framework's stream, as chunks. */
export function frameworkItemsOf(value: object, info: Pick<ResultInfo, "sse" | "events">): ResultItems | undefined {
  const options = { events: info.events };
  if (!info.sse) {
    const whole = frameworkResult(value, options);
    if (whole) return { items: whole, whole: true };
  }
  if (isGenerator(value) || !isStreamable(value)) return undefined;
  return { items: frameworkItems(value, options) };
}

export default function frameworksPlugin(): KernelPlugin {
  return definePlugin({
    name: "svc:frameworks",
    setup(kernel) {
      kernel.hooks.result.tap(frameworkItemsOf);
    },
  });
}
