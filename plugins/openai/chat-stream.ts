/**
 * @module Answering a chat completion from what the wrapper returned: as SSE chunks (`stream:
 * true`) or as one drained message. Every chunk passes through the kernel's `stream` hook
 * (transport `openai`, kind `chat.chunk`) and iteration stops, closing the wrapper's iterator, as
 * soon as the client goes away.
 *
 * The 200 is committed late: the answer waits for the first chunk (at most one SSE heartbeat
 * interval, after which the stream opens with a `: ping`), so a wrapper that fails before its
 * first chunk still gets the spec's error body with its status. A failure after the first byte is
 * logged and sent as one `data: {"error": {...}}` event (which the OpenAI SDKs raise as an
 * APIError carrying the message), and the stream ends without `data: [DONE]`.
 */
import { HttpError, KernelError, SHUTDOWN_MESSAGE, errorBody, isStreamable, type PluginApi, type RequestContext, type SseWriter } from "svc";
import { ABORTED, AbortableIterator, TIMED_OUT } from "./abortable.js";
import { ChunkBuilder, addUsage, completionBody, isChatCompletion, isChatCompletionChunk, type ChatStreamItem, type Usage } from "./chat-chunks.js";
import { pipelineFailure } from "./invoke.js";

export interface ChatAnswerOptions {
  /** Send Open WebUI events (SERVICE_OPENAI_UI_EVENTS). */
  readonly events: boolean;
  readonly heartbeatMs: number;
  readonly showTracebacks: boolean;
}

const UNSUPPORTED = "Unsupported response type from completion";

function unsupported(result: unknown): HttpError {
  const kind = result === null ? "null" : Array.isArray(result) ? "array" : typeof result;
  return new HttpError(500, `${UNSUPPORTED}: ${kind} (return a string, a ChatCompletion or an (async) iterable of chunks)`);
}

/** An error met while answering, as the HttpError to report. */
function failure(error: unknown): HttpError {
  if (error instanceof KernelError) return new HttpError(500, error.message, { cause: error });
  return pipelineFailure(error);
}

/** The items to stream for a result: an iterable as is, a single value as one item. */
function itemsOf(result: unknown, builder: ChunkBuilder): AsyncIterable<unknown> | Iterable<unknown> {
  if (typeof result === "string") return [result];
  if (isChatCompletion(result)) return [builder.fromCompletion(result)];
  if (isChatCompletionChunk(result)) return [result];
  if (isStreamable(result)) return result;
  if (result && typeof result === "object" && typeof (result as { content?: unknown }).content === "string") return [result];
  throw unsupported(result);
}

async function* chunksOf(source: AsyncIterable<unknown> | Iterable<unknown>, builder: ChunkBuilder, events: boolean, closing: boolean): AsyncGenerator<ChatStreamItem> {
  for await (const item of source) yield* builder.fromItem(item, events);
  if (closing && !builder.finished) yield builder.final();
}

function chunkStream(kernel: PluginApi, c: RequestContext, pipeline: string, source: AsyncIterable<unknown> | Iterable<unknown>, builder: ChunkBuilder, events: boolean, closing: boolean) {
  const info = { pipeline, transport: "openai", kind: "chat.chunk", requestId: c.id };
  return new AbortableIterator(kernel.stream<ChatStreamItem>(info, chunksOf(source, builder, events, closing)), c.signal);
}

/** Streams the result as `chat.completion.chunk` events, then `data: [DONE]`. */
export async function streamChat(kernel: PluginApi, c: RequestContext, pipeline: string, model: string, result: unknown, options: ChatAnswerOptions): Promise<void> {
  const builder = new ChunkBuilder(model);
  const items = chunkStream(kernel, c, pipeline, itemsOf(result, builder), builder, options.events, true);
  let writer: SseWriter | undefined;
  try {
    while (true) {
      const next = await items.next(writer ? undefined : options.heartbeatMs);
      if (next === ABORTED) {
        // Shutdown cut the stream: end it with an error event, never with [DONE].
        if (c.shutdown) throw new HttpError(503, SHUTDOWN_MESSAGE);
        return;
      }
      if (next === TIMED_OUT) {
        writer = c.sse();
        await writer.comment("ping");
        continue;
      }
      if (next.done) break;
      writer ??= c.sse();
      await writer.send({ data: JSON.stringify(next.value) });
      if (writer.closed) return;
    }
    writer ??= c.sse();
    await writer.send({ data: "[DONE]" });
  } catch (error) {
    if (c.signal.aborted && !c.shutdown) return;
    const http = failure(error);
    if (!writer) throw http;
    c.log.error(`Chat stream of '${pipeline}' failed after the first byte: ${http.message}`, http.cause ?? error);
    let message = http.message;
    const origin = http.cause ?? error;
    if (options.showTracebacks && origin instanceof Error && origin.stack) message += `\n${origin.stack}`;
    await writer.send({ data: JSON.stringify(errorBody(http.status, message, http.type)) });
  } finally {
    items.close();
    writer?.end();
  }
}

/**
 * The non-streaming answer: a ChatCompletion passes through; a string, or an iterable drained to
 * its text (events, reasoning and tool calls dropped), becomes the SPEC §2.7 body. Usage is the
 * sum of the usage the chunks carried, zeros when none did. Undefined when the client went away.
 */
export async function completeChat(kernel: PluginApi, c: RequestContext, pipeline: string, model: string, result: unknown): Promise<unknown> {
  if (isChatCompletion(result)) return result;
  const builder = new ChunkBuilder(model);
  const items = chunkStream(kernel, c, pipeline, itemsOf(result, builder), builder, false, false);
  let text = "";
  let usage: Usage | null = null;
  try {
    while (true) {
      const next = await items.next();
      if (next === ABORTED) return undefined;
      if (next === TIMED_OUT || next.done) break;
      if (!("choices" in next.value)) continue;
      const content = next.value.choices[0]?.delta?.content;
      if (typeof content === "string") text += content;
      usage = addUsage(usage, next.value.usage);
    }
  } catch (error) {
    throw failure(error);
  } finally {
    items.close();
  }
  return completionBody(builder, text, usage);
}
