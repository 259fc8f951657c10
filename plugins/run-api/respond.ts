/**
 * @module Answering a run: a file, an SSE stream, a chunked text stream, or `{"result": …}`.
 * Streams are read through the invocation (the kernel's `stream` hook, stopping when the client
 * goes away), flushed per chunk, and wait while the client is not reading. An agent framework's
 * result object (an AI SDK `streamText()` result, say) is drained to its text and answered as
 * `{"result": "<text>"}`; a LangChain or LangGraph stream streams its text.
 */
import { once } from "node:events";
import { pipelineFailure, streamItemText, type Invocation, type RequestContext, type StreamedSource } from "svc/plugin";

const KIND = "run.item";

/** Answers at once for a value or a file; a stream is answered as it comes (the promise). */
export function respond(c: RequestContext, invocation: Invocation): Promise<void> | undefined {
  const { file, source } = invocation;
  if (file) {
    const headers: Record<string, string | number> = { "content-type": file.contentType, "content-length": file.data.length };
    if (file.filename) headers["content-disposition"] = contentDisposition(file.filename);
    c.res.writeHead(200, headers).end(file.data);
    return undefined;
  }
  if (!source) {
    c.send(200, { result: invocation.result === undefined ? null : invocation.result });
    return undefined;
  }
  return respondStreamed(c, invocation, source);
}

async function respondStreamed(c: RequestContext, invocation: Invocation, source: StreamedSource): Promise<void> {
  let warned = false;
  const warn = (message: string) => {
    if (!warned) c.log.warn(message, { pipeline: invocation.pipeline.name });
    warned = true;
  };
  if (source.whole) {
    let text: string;
    try {
      text = await invocation.text(KIND, warn);
    } catch (error) {
      // Nothing is sent yet: the failure is the answer, as a wrapper's own failure would be.
      throw pipelineFailure(error);
    }
    if (!c.aborted) c.send(200, { result: text });
    return;
  }
  const items = invocation.stream(KIND);
  if (source.sse) {
    const writer = c.sse();
    for await (const item of items) {
      const text = streamItemText(item, warn, true);
      // A chunk with no text (a tool call's, a finish) has nothing to send.
      if (text === undefined || (text === "" && item !== null && typeof item === "object")) continue;
      await writer.send({ data: text.toString() });
    }
    endStream(c, () => writer.end());
    return;
  }
  c.res.writeHead(200, { "content-type": "text/plain; charset=utf-8", "cache-control": "no-cache", "x-accel-buffering": "no" });
  c.res.socket?.setNoDelay(true);
  for await (const item of items) {
    const text = streamItemText(item, warn, true);
    if (text === undefined || text.length === 0) continue;
    if (!c.res.write(text)) await once(c.res, "drain", { signal: c.signal }).catch(() => undefined);
  }
  endStream(c, () => c.res.end());
}

/** A stream that shutdown cut ends with a broken connection, so the client cannot take it as whole. */
function endStream(c: RequestContext, end: () => void): void {
  if (c.shutdown) c.res.destroy();
  else end();
}

function contentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, "_");
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}
