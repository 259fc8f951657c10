/**
 * @module Invocation: one pipeline invocation as a transport sees it once the wrapper returned —
 * a value, a file, or a stream — and, for a stream, the one place its items are read from
 * (`stream()`), which settles the run when it ends. A transport that does not read a streamed
 * result calls `close()`; a client that leaves before the stream is opened settles it too.
 */
import type { RunCall } from "../hooks/index.js";
import type { WaterfallHook, StreamInfo } from "../hooks/waterfall-hook.js";
import type { DeployedPipeline } from "../registry.js";
import { FileResult, streamItemText } from "../wrapper/results.js";
import { InvocationStream, stopIterator, type StreamEnd } from "./invocation-stream.js";

/** What a streamed result is, as the transports encode it. */
export interface StreamedSource {
  readonly items: AsyncIterable<unknown> | Iterable<unknown>;
  /** The wrapper asked for Server-Sent Events (`sse(…)`). */
  readonly sse: boolean;
  /** One answer read whole by transports that answer at once (a `result` tap's framework result). */
  readonly whole: boolean;
}

export class Invocation {
  private opened?: InvocationStream;
  private done = false;

  constructor(
    readonly pipeline: DeployedPipeline,
    /** The call as the wrapper got it (with the span of the `run` hook's interceptors). */
    readonly call: RunCall,
    /** What the wrapper (or an interceptor answering in its place) returned; for a stream, its raw result. */
    readonly result: unknown,
    /** Set when the result streams: read it through `stream()`. */
    readonly source: StreamedSource | undefined,
    private readonly hook: WaterfallHook,
    /** Settles the run of a streamed result; a no-op for one already settled. */
    private readonly settle: (end: StreamEnd) => void = settled,
  ) {
    if (source) {
      if (call.signal.aborted) this.close();
      else call.signal.addEventListener("abort", (this.onAbort = () => this.close()), { once: true });
    }
  }

  /** The result is a file to send as it is. */
  get file(): FileResult | undefined {
    return this.result instanceof FileResult ? this.result : undefined;
  }

  /**
   * The items of the result, read once, through the `stream` hook (as `kind` items). A transport
   * that turns the result into other items first (chat chunks) passes them as `items`.
   */
  stream<T = unknown>(kind: string, items: AsyncIterable<unknown> | Iterable<unknown> | undefined = this.source?.items): InvocationStream<T> {
    if (this.opened || this.done) throw new Error("An invocation's stream is read once");
    if (!items) throw new Error("This invocation has no stream: its result is a value");
    if (this.onAbort) this.call.signal.removeEventListener("abort", this.onAbort);
    const call = this.call;
    const info: StreamInfo = { call, pipeline: call.pipeline, transport: call.transport, kind, requestId: call.requestId };
    const stream = new InvocationStream<T>(items, info, this.hook, call.signal, this.source ? this.settle : undefined);
    this.opened = stream as InvocationStream;
    return stream;
  }

  /** The streamed result read to one text, for answers sent at once (`/run` for a framework's result, MCP). */
  async text(kind: string, warn: (message: string) => void): Promise<string> {
    let text = "";
    for await (const item of this.stream(kind)) {
      const part = streamItemText(item, warn);
      if (part !== undefined) text += part.toString();
    }
    return text;
  }

  /** Ends the invocation: stops its stream (or the stream no one opened). Safe to call more than once. */
  close(): void {
    if (this.opened) return this.opened.close();
    if (this.done || !this.source) return;
    this.done = true;
    if (this.onAbort) this.call.signal.removeEventListener("abort", this.onAbort);
    closeQuietly(this.source.items);
    this.settle({ kind: "stopped", stats: { items: 0, durationMs: 0 } });
  }

  /** Closes the invocation when the call is aborted before its stream is read (made for a stream only). */
  private readonly onAbort?: () => void;
}

/** The settling of a run that settled already (its result is a value). */
const settled = (): void => undefined;

/** Closes a source no one iterated: its iterator is made only to be stopped. */
function closeQuietly(source: AsyncIterable<unknown> | Iterable<unknown>): void {
  let iterator;
  try {
    iterator = Symbol.asyncIterator in source ? source[Symbol.asyncIterator]() : source[Symbol.iterator]();
  } catch {
    return; // nothing to close
  }
  stopIterator(iterator);
}
