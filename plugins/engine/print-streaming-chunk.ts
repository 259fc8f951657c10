/**
 * @module printStreamingChunk: Haystack's `haystack.components.generators.utils.print_streaming_chunk`
 * — writes each chunk to stdout as it arrives: `[ASSISTANT]`, `[REASONING]`, `[TOOL CALL]` and
 * `[TOOL RESULT]` headers at the start of a block, blank lines between blocks and after a reply.
 * YAML that names the Python callback by its import path gets this one.
 */
import type { StreamingChunk } from "./dataclasses/streaming-chunk.js";

export const PRINT_STREAMING_CHUNK = "haystack.components.generators.utils.print_streaming_chunk";

export function printStreamingChunk(chunk: StreamingChunk, write: (text: string) => void = (t) => void process.stdout.write(t)): void {
  if (chunk.start && chunk.index && chunk.index > 0) write("\n\n");
  for (const call of chunk.tool_calls ?? []) {
    if (chunk.start) {
      if (chunk.index && call.index > chunk.index) write("\n\n");
      write(`[TOOL CALL]\nTool: ${call.tool_name} \nArguments: `);
    }
    if (call.arguments) write(call.arguments);
  }
  if (chunk.tool_call_result) write(`[TOOL RESULT]\n${chunk.tool_call_result.result}`);
  if (chunk.content) {
    if (chunk.start) write("[ASSISTANT]\n");
    write(chunk.content);
  }
  if (chunk.reasoning) {
    if (chunk.start) write("[REASONING]\n");
    write(chunk.reasoning.reasoning_text);
  }
  if (chunk.finish_reason !== null) write("\n\n");
}
