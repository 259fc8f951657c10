/**
 * @module Answering a run: a file, an SSE stream, a chunked text stream, or `{"result": …}`.
 * Streams go through the kernel's `stream` hook, are flushed per chunk, wait while the client is
 * not reading, and stop (closing the wrapper's iterator) when the client goes away.
 */
import { once } from "node:events";
import { FileResult, SseStream, isStreamable, streamItemText, untilAborted, type PluginApi, type RequestContext } from "svc";

export async function respond(kernel: PluginApi, c: RequestContext, pipeline: string, result: unknown): Promise<void> {
  if (result instanceof FileResult) {
    const headers: Record<string, string | number> = { "content-type": result.contentType, "content-length": result.data.length };
    if (result.filename) headers["content-disposition"] = contentDisposition(result.filename);
    c.res.writeHead(200, headers).end(result.data);
    return;
  }
  const sse = result instanceof SseStream;
  const source = sse ? result.source : isStreamable(result) ? result : undefined;
  if (!source) {
    c.send(200, { result: result === undefined ? null : result });
    return;
  }
  let warned = false;
  const warn = (message: string) => {
    if (!warned) c.log.warn(message, { pipeline });
    warned = true;
  };
  const items = untilAborted(kernel.stream({ pipeline, transport: "rest", kind: "run.item", requestId: c.id }, source), c.signal);
  if (sse) {
    const writer = c.sse();
    for await (const item of items) {
      const text = streamItemText(item, warn);
      if (text !== undefined) await writer.send({ data: text.toString() });
    }
    endStream(c, () => writer.end());
    return;
  }
  c.res.writeHead(200, { "content-type": "text/plain; charset=utf-8", "cache-control": "no-cache", "x-accel-buffering": "no" });
  c.res.socket?.setNoDelay(true);
  for await (const item of items) {
    const text = streamItemText(item, warn);
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
