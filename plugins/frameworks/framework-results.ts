/**
 * @module Agent frameworks' results as svc chunks, the one place that knows them. A wrapper returns
 * what its framework gives it — the AI SDK's `streamText()`/`generateText()` result, a LangChain
 * model's or runnable's `.stream()`/`.streamEvents()`/`.invoke()`, a LangGraph graph's
 * `.stream()`/`.invoke()` — and each transport asks here for the chunks to encode. Recognition is
 * by shape only: no framework is imported, so svc runs without any of them installed.
 *
 * - `frameworkResult(result)`: a framework's result object (not a plain iterable) as chunks, or
 *   undefined. Transports that answer with one value (`/run`, MCP) drain it to its text.
 * - `frameworkItems(source)`: a stream whose LangChain/LangGraph items become chunks; other items
 *   pass through unchanged, so any iterable may go through it.
 * - `chunkSource(result)`: either of the two, for the chat and Responses encoders.
 */
import { isStreamable } from "svc/plugin";
import { PartReader, aiSdkGenerateChunks, isAiSdkGenerateResult, isAiSdkStreamResult } from "./ai-sdk.js";
import { MappedStream } from "./mapped-stream.js";
import type { AgentItem, ChunkWriterOptions } from "./chunk-writer.js";
import { LangChainReader, isLangChainMessage } from "./langchain.js";

export type { AgentChunk, AgentItem, ChunkUsage, ChunkWriterOptions, ToolCallDeltaChunk } from "./chunk-writer.js";

type Source = AsyncIterable<unknown> | Iterable<unknown>;

/** The final AI message of a LangGraph `invoke()` state (`{messages: [...]}`), if it ends with one. */
function finalGraphMessage(value: object): object | undefined {
  const messages = (value as { messages?: unknown }).messages;
  if (!Array.isArray(messages) || messages.length === 0) return undefined;
  const last = messages[messages.length - 1] as { type?: unknown; _getType?: () => string };
  return isLangChainMessage(last) && (last.type ?? last._getType?.()) === "ai" ? last : undefined;
}

function* messageChunks(message: object, options: ChunkWriterOptions): Generator<AgentItem> {
  const reader = new LangChainReader(options);
  yield* reader.read(message) ?? [];
  yield* reader.end();
}

/** A framework's result object as svc chunks; undefined for anything else. */
export function frameworkResult(result: unknown, options: ChunkWriterOptions = {}): AsyncIterable<AgentItem> | Iterable<AgentItem> | undefined {
  if (result === null || typeof result !== "object") return undefined;
  if (isAiSdkStreamResult(result)) return new MappedStream<AgentItem>(result.fullStream, new PartReader(options)) as AsyncIterable<AgentItem>;
  if (isAiSdkGenerateResult(result)) return aiSdkGenerateChunks(result, options);
  if (isLangChainMessage(result)) return messageChunks(result, options);
  if (!isStreamable(result)) {
    const message = finalGraphMessage(result);
    if (message) return messageChunks(message, options);
  }
  return undefined;
}

/**
 * The items of a stream, LangChain's and LangGraph's read into chunks (closed by one finish chunk
 * with the summed usage), everything else as it is. Closing it closes the source at once.
 */
export function frameworkItems(source: Source, options: ChunkWriterOptions = {}): AsyncIterableIterator<unknown> {
  let reader: LangChainReader | undefined;
  return new MappedStream(source, {
    read: (item) => {
      // Strings and the engine's chunks (string `content`, no `lc_namespace`) are never LangChain's.
      if (item === null || typeof item !== "object") return undefined;
      if (typeof (item as { content?: unknown }).content === "string" && !("lc_namespace" in item)) return undefined;
      return (reader ??= new LangChainReader(options)).read(item);
    },
    end: () => (reader?.used ? reader.end() : []),
  });
}

/** What the chat and Responses encoders iterate: a framework result's chunks, or a stream's items. */
export function chunkSource(result: unknown, options: ChunkWriterOptions = {}): Source | undefined {
  return frameworkResult(result, options) ?? (isStreamable(result) ? frameworkItems(result, options) : undefined);
}
