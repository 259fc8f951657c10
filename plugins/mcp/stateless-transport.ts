/**
 * @module StatelessTransport: the SDK `Transport` for one stateless Streamable HTTP POST, written
 * straight onto the Node response. The SDK's own Node transport converts every request to a web
 * `Request` and back (through Hono), which made a no-op `tools/call` cost several times a `/run`;
 * this one keeps the protocol's rules for a POST (Accept and Content-Type checks, JSON-RPC
 * validation, batch limit, protocol version header, 202 for notifications only) and answers with
 * one SSE stream or one JSON body. It is used once: a fresh `Server` and transport per request
 * (`check` the request, then `deliver` its messages to the server), or no server at all for a lone
 * `tools/call` (direct-tool-call.ts), whose reply goes out through `send` all the same.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Transport, TransportSendOptions } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  JSONRPCMessageSchema,
  JSONRPCRequestSchema,
  SUPPORTED_PROTOCOL_VERSIONS,
  type JSONRPCMessage,
  type JSONRPCRequest,
  type MessageExtraInfo,
  type RequestId,
} from "@modelcontextprotocol/sdk/types.js";

const MAX_BATCH = 100;

export class HttpRefusal extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

export class StatelessTransport implements Transport {
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  private readonly pending = new Set<RequestId>();
  private readonly replies: JSONRPCMessage[] = [];
  private streaming = false;
  private closed = false;

  constructor(
    private readonly req: IncomingMessage,
    private readonly res: ServerResponse,
    private readonly json: boolean,
  ) {}

  async start(): Promise<void> {}

  /** The request's JSON-RPC messages, checked by the protocol's rules; throws HttpRefusal for a bad one. */
  check(body: unknown): JSONRPCMessage[] {
    const accept = this.req.headers.accept ?? "";
    if (!accept.includes("application/json") || !accept.includes("text/event-stream")) {
      throw new HttpRefusal(406, -32000, "Not Acceptable: Client must accept both application/json and text/event-stream");
    }
    if (!/^application\/json\b/i.test(this.req.headers["content-type"] ?? "")) {
      throw new HttpRefusal(415, -32000, "Unsupported Media Type: Content-Type must be application/json");
    }
    if (Array.isArray(body) && body.length > MAX_BATCH) throw new HttpRefusal(400, -32600, `Invalid Request: Batch must not exceed ${MAX_BATCH} messages`);
    let messages: JSONRPCMessage[];
    try {
      messages = (Array.isArray(body) ? body : [body]).map((m) => schemaFor(m).parse(m));
    } catch {
      throw new HttpRefusal(400, -32700, "Parse error: Invalid JSON-RPC message");
    }
    const version = this.req.headers["mcp-protocol-version"];
    if (typeof version === "string" && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) {
      throw new HttpRefusal(400, -32000, `Bad Request: Unsupported protocol version: ${version} (supported versions: ${SUPPORTED_PROTOCOL_VERSIONS.join(", ")})`);
    }
    for (const m of messages) if (isRequest(m)) this.pending.add(m.id);
    return messages;
  }

  /** Hands checked messages to the connected server; notifications alone are answered 202. */
  deliver(messages: JSONRPCMessage[]): void {
    // Decided before delivery: the SDK may answer a request synchronously (an unknown method), and
    // then `send` has already written and ended the response.
    const expectsReply = this.pending.size > 0;
    const extra: MessageExtraInfo = { requestInfo: { headers: this.req.headers } };
    for (const m of messages) this.onmessage?.(m, extra);
    if (!expectsReply) this.res.writeHead(202).end();
  }

  async send(message: JSONRPCMessage, _options?: TransportSendOptions): Promise<void> {
    if (this.closed || this.res.writableEnded) return;
    // The server's own messages: a reply is one with a result or an error (no schema parse needed).
    const isReply = "result" in message || "error" in message;
    if (isReply) this.pending.delete(message.id as RequestId);
    if (this.json) {
      // One JSON body: notifications the server sends on the way have nowhere to go.
      if (!isReply) return;
      this.replies.push(message);
      if (this.pending.size > 0) return;
      const body = this.replies.length === 1 ? this.replies[0] : this.replies;
      this.res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
      return;
    }
    if (!this.streaming) {
      this.streaming = true;
      this.res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache, no-transform", "x-accel-buffering": "no" });
    }
    const event = `event: message\ndata: ${JSON.stringify(message)}\n\n`;
    if (this.pending.size === 0) this.res.end(event);
    else this.res.write(event);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.onclose?.();
  }
}

/**
 * The schema a message is checked with. Each JSON-RPC message schema is strict, so one with both a
 * `method` and an `id` can only be a request: checking it as one decides as the whole union does,
 * without trying (and failing) the three other kinds first.
 */
function schemaFor(message: unknown) {
  return typeof message === "object" && message !== null && isRequest(message as JSONRPCMessage) ? JSONRPCRequestSchema : JSONRPCMessageSchema;
}

/** A checked message that expects an answer. */
export function isRequest(message: JSONRPCMessage): message is JSONRPCRequest {
  return "method" in message && "id" in message;
}
