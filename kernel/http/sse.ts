/**
 * @module SseWriter: Server-Sent Events over a Node response. Each event is written and flushed
 * on its own, `send` waits while the socket is full (back-pressure), a comment heartbeat keeps
 * proxies from timing the stream out, and headers tell proxies not to buffer.
 */
import type { ServerResponse } from "node:http";
import { once } from "node:events";

const WRITTEN: Promise<void> = Promise.resolve();

export interface SseEvent {
  /** The event name (`event:` line); omitted for plain `data:` events. */
  event?: string;
  /** A string is sent as is, anything else as JSON. */
  data: unknown;
  id?: string;
}

export class SseWriter {
  private heartbeat?: NodeJS.Timeout;
  private readonly done = new AbortController();

  constructor(
    private readonly res: ServerResponse,
    heartbeatMs: number,
    headers: Record<string, string> = {},
  ) {
    res.on("close", () => this.stop());
    res.writeHead(200, {
      ...headers,
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache",
      connection: "keep-alive",
      "x-accel-buffering": "no",
    });
    res.flushHeaders();
    // Small writes must leave at once, not wait for Nagle.
    res.socket?.setNoDelay(true);
    this.heartbeat = setInterval(() => void this.write(": ping\n\n"), heartbeatMs);
    this.heartbeat.unref();
  }

  /** True once the stream ended or the client went away. */
  get closed(): boolean {
    return this.done.signal.aborted;
  }

  /** Sends one event; resolves when it is handed to the socket (after a drain if needed). */
  send(event: SseEvent): Promise<void> {
    const data = typeof event.data === "string" ? event.data : JSON.stringify(event.data);
    let frame = "";
    if (event.event) frame += `event: ${event.event}\n`;
    if (event.id) frame += `id: ${event.id}\n`;
    // JSON never holds a raw line break: the common event is one `data:` line, no split needed.
    if (!data.includes("\n") && !data.includes("\r")) frame += `data: ${data}\n`;
    else for (const line of data.split(/\r\n|\r|\n/)) frame += `data: ${line}\n`;
    return this.write(frame + "\n");
  }

  comment(text: string): Promise<void> {
    return this.write(`: ${text.replace(/[\r\n]+/g, " ")}\n\n`);
  }

  end(): void {
    this.stop();
    if (!this.res.writableEnded) this.res.end();
  }

  /** Resolved at once when the socket took the frame (the same promise every time: no allocation per event). */
  private write(frame: string): Promise<void> {
    if (this.closed || this.res.write(frame)) return WRITTEN;
    return this.drain();
  }

  private async drain(): Promise<void> {
    try {
      await once(this.res, "drain", { signal: this.done.signal });
    } catch {
      // closed while waiting: nothing more to send
    }
  }

  private stop(): void {
    clearInterval(this.heartbeat);
    // A plain reason: the default DOMException records a stack trace at the end of every stream.
    this.done.abort("closed");
  }
}
