/**
 * @module What a wrapper may return besides a JSON value: an SSE stream marker, a file, and the
 * helpers that make them. A plain (async) iterable returned by `runApi` streams as chunked text.
 */

/** Marks an iterable to be streamed as Server-Sent Events rather than plain text. */
export class SseStream<T = unknown> {
  constructor(readonly source: AsyncIterable<T> | Iterable<T>) {}
}

export function sse<T>(source: AsyncIterable<T> | Iterable<T>): SseStream<T> {
  return new SseStream(source);
}

/** A file answer: its bytes, content type and the filename offered to the client. */
export class FileResult {
  readonly data: Buffer;
  constructor(
    data: Buffer | Uint8Array | string,
    readonly contentType = "application/octet-stream",
    readonly filename?: string,
  ) {
    this.data = typeof data === "string" ? Buffer.from(data) : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  }
}

export function fileResponse(options: { data: Buffer | Uint8Array | string; contentType?: string; filename?: string }): FileResult {
  return new FileResult(options.data, options.contentType, options.filename);
}

/** True for a value to stream: an (async) iterable that is not a string, buffer or array. */
export function isStreamable(value: unknown): value is AsyncIterable<unknown> | Iterable<unknown> {
  if (value === null || typeof value !== "object") return false;
  if (Array.isArray(value) || Buffer.isBuffer(value) || ArrayBuffer.isView(value)) return false;
  return Symbol.asyncIterator in value || Symbol.iterator in value;
}

/**
 * The one way a stream item becomes text; undefined skips it. A string is itself, bytes stay
 * bytes, a chunk-like object (`content`, as the engine's StreamingChunk) is its content's text,
 * anything else its JSON. With `reasoning`, a chunk without content streams its reasoning text
 * instead (what `/run` sends for a reasoning model's thinking, as Hayhooks does); answers read to
 * one text (MCP, a framework's result) and chat deltas leave reasoning out. A UI event is skipped
 * with a warning: it belongs to the chat endpoints, which handle it before asking for text.
 */
export function streamItemText(item: unknown, warn: (message: string) => void, reasoning = false): string | Buffer | undefined {
  if (typeof item === "string") return item;
  if (item === null || item === undefined) return "";
  if (Buffer.isBuffer(item)) return item;
  if (item instanceof Uint8Array) return Buffer.from(item);
  if (typeof item !== "object") return String(item);
  const o = item as Record<string, unknown>;
  if (o.event && typeof o.event === "object" && "type" in (o.event as object)) {
    warn("A UI event was emitted in a run stream and skipped; UI events belong to the chat endpoints.");
    return undefined;
  }
  if ("content" in o) {
    if (typeof o.content !== "string" && o.content != null) return streamItemText(o.content, warn, reasoning);
    const content = typeof o.content === "string" ? o.content : "";
    if (content !== "" || !reasoning) return content;
    const thinking = (o.reasoning as { reasoning_text?: unknown } | null | undefined)?.reasoning_text;
    return typeof thinking === "string" ? thinking : "";
  }
  try {
    return JSON.stringify(item);
  } catch {
    return String(item);
  }
}
