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
import { ABORTED, HttpError, SHUTDOWN_MESSAGE, TIMED_OUT, errorBody, pipelineFailure, type Invocation, type RequestContext, type SseWriter } from "svc/plugin";
import { ChunkBuilder, MessageAccumulator, isChatCompletion, isChatCompletionChunk, type ChatStreamItem } from "./chat-chunks.js";

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

/** The items a value result stands for: the wrapper's text, completion or chunk as one item. */
function valueItems(result: unknown, builder: ChunkBuilder): unknown[] {
  if (typeof result === "string") return [result];
  if (isChatCompletion(result)) return [builder.fromCompletion(result)];
  if (isChatCompletionChunk(result)) return [result];
  if (result && typeof result === "object" && typeof (result as { content?: unknown }).content === "string") return [result];
  throw unsupported(result);
}

async function* chunksOf(source: AsyncIterable<unknown> | Iterable<unknown>, builder: ChunkBuilder, events: boolean, closing: boolean): AsyncGenerator<ChatStreamItem> {
  for await (const item of source) {
    const chunk = builder.fromItem(item, events);
    if (chunk) yield chunk;
  }
  if (closing && !builder.finished) yield builder.final();
}

/** The invocation's chunks (a stream's, or a value's as one), read through the kernel's `stream` hook. */
function chunkStream(invocation: Invocation, builder: ChunkBuilder, events: boolean, closing: boolean) {
  const source = invocation.source?.items ?? valueItems(invocation.result, builder);
  return invocation.stream<ChatStreamItem>("chat.chunk", chunksOf(source, builder, events, closing));
}

/** Streams the result as `chat.completion.chunk` events, then `data: [DONE]`. */
export async function streamChat(c: RequestContext, invocation: Invocation, model: string, options: ChatAnswerOptions): Promise<void> {
  const builder = new ChunkBuilder(model);
  const items = chunkStream(invocation, builder, options.events, true);
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
    const http = pipelineFailure(error);
    if (!writer) throw http;
    c.log.error(`Chat stream of '${invocation.pipeline.name}' failed after the first byte: ${http.message}`, http.cause ?? error);
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
 * one assistant message (its text, reasoning and tool calls; UI events dropped), becomes the SPEC
 * §2.7 body. Usage is the sum of the usage the chunks carried, zeros when none did. Undefined when
 * the client went away.
 */
export async function completeChat(invocation: Invocation, model: string): Promise<unknown> {
  if (isChatCompletion(invocation.result)) return invocation.result;
  const builder = new ChunkBuilder(model);
  const items = chunkStream(invocation, builder, false, false);
  const message = new MessageAccumulator();
  try {
    while (true) {
      const next = await items.next();
      if (next === ABORTED) return undefined;
      if (next === TIMED_OUT || next.done) break;
      if ("choices" in next.value) message.add(next.value);
    }
  } catch (error) {
    throw pipelineFailure(error);
  } finally {
    items.close();
  }
  return message.body(builder);
}
