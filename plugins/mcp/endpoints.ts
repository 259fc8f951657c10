/**
 * @module McpEndpoints: the MCP transports mounted on a kernel app. Streamable HTTP at `/mcp`:
 * stateless by default (a fresh `Server` and transport per POST), with sessions when `stateful`
 * (ids issued on initialize, 404 for an unknown id, a cap, an idle reaper); requests without a
 * session id are always served statelessly. Legacy SSE at `/sse` with `POST /messages`.
 * Bodies are read by the kernel (size limit → 413); the kernel's Host/Origin guard applies.
 */
import type { ServerResponse } from "node:http";
import { SSEServerTransport } from "@modelcontextprotocol/sdk/server/sse.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isInitializeRequest, type JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import type { PluginApi, RequestContext } from "svc/plugin";
import { randomUuid } from "svc/plugin";
import { SessionTable, type Session } from "./sessions.js";
import { answerToolCall, directToolCall } from "./direct-tool-call.js";
import { HttpRefusal, StatelessTransport } from "./stateless-transport.js";
import { asCaller } from "./task-callers.js";
import type { ToolServer } from "./tool-server.js";

export interface McpEndpointOptions {
  /** Mount `/mcp` (Streamable HTTP). */
  readonly streamableHttp: boolean;
  /** Mount `/sse` and `/messages` (legacy SSE). */
  readonly sse: boolean;
  readonly stateful: boolean;
  readonly jsonResponse: boolean;
  readonly maxSessions: number;
  readonly sessionIdleMs: number;
}

const SESSION_HEADER = "mcp-session-id";

export class McpEndpoints {
  readonly sessions: SessionTable;

  constructor(
    private readonly tools: ToolServer,
    private readonly options: McpEndpointOptions,
  ) {
    this.sessions = new SessionTable(options.maxSessions, options.sessionIdleMs, tools.log);
  }

  mount(api: PluginApi): void {
    const run = { scope: "run" as const, docs: false as const };
    if (this.options.streamableHttp) {
      api.route("POST", "/mcp", (c) => this.post(c), run);
      api.route("GET", "/mcp", (c) => this.stream(c), { ...run, lasting: true });
      api.route("DELETE", "/mcp", (c) => this.terminate(c), run);
    }
    if (this.options.sse) {
      const messages = `${api.settings.rootPath === "/" ? "" : api.settings.rootPath}/messages`;
      api.route("GET", "/sse", (c) => this.openSse(c, messages), { ...run, lasting: true });
      api.route("POST", "/messages", (c) => this.sseMessage(c), run);
    }
  }

  close(): Promise<void> {
    return this.sessions.closeAll();
  }

  private async post(c: RequestContext): Promise<void> {
    const body = await readJsonRpc(c);
    if (body === undefined) return;
    const id = sessionIdOf(c);
    if (id !== undefined) {
      const session = this.sessions.get<StreamableHTTPServerTransport>(id);
      if (!session) return rpcError(c.res, 404, -32001, "Session not found");
      session.busy++;
      c.res.once("close", () => {
        session.busy--;
        if (!c.res.writableFinished) cancelRequests(session, body, "client disconnected");
      });
      return asCaller(c.state.principal, () => session.transport.handleRequest(c.req, c.res, body));
    }
    if (this.options.stateful && isInitializeRequest(body)) return this.openSession(c, body);
    return this.stateless(c, body);
  }

  /**
   * One fresh server and transport for this request only (never reused: SDK #2704, GHSA-345p); a
   * lone `tools/call` is answered without a server (direct-tool-call.ts).
   */
  private async stateless(c: RequestContext, body: unknown): Promise<void> {
    const transport = new StatelessTransport(c.req, c.res, this.options.jsonResponse);
    let messages;
    try {
      messages = transport.check(body);
    } catch (error) {
      if (!(error instanceof HttpRefusal)) throw error;
      return rpcError(c.res, error.status, error.code, error.message);
    }
    const call = directToolCall(messages);
    if (call) {
      // A client that leaves aborts the call through the request's signal, and hears nothing.
      const notify = (message: JSONRPCMessage) => (c.signal.aborted ? Promise.resolve() : transport.send(message));
      const reply = await answerToolCall(this.tools, call, { signal: c.signal, headers: c.req.headers, transport: "streamable-http", notify });
      if (!c.signal.aborted) await transport.send(reply);
      return;
    }
    const server = await this.tools.open(transport, "streamable-http");
    // Closing the server aborts its running handlers: a disconnect cancels the tool call. A finished
    // exchange needs no close: nothing outlives the request.
    c.res.once("close", () => {
      if (!c.res.writableFinished) void server.close().catch(() => undefined);
    });
    asCaller(c.state.principal, () => transport.deliver(messages));
  }

  private async openSession(c: RequestContext, body: unknown): Promise<void> {
    if (this.sessions.full) return rpcError(c.res, 503, -32000, `Too many open MCP sessions (at most ${this.sessions.maxSessions})`);
    let session: Session<StreamableHTTPServerTransport> | undefined;
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: randomUuid,
      enableJsonResponse: this.options.jsonResponse,
      onsessioninitialized: (id) => {
        session = this.sessions.add(id, transport, "streamable-http");
      },
    });
    transport.onclose = () => {
      if (session) this.sessions.delete(session.id);
    };
    const server = await this.tools.connect(transport, "streamable-http");
    await asCaller(c.state.principal, () => transport.handleRequest(c.req, c.res, body));
    // A refused initialize (a wrong Accept header, say) opened no session: let nothing linger.
    if (!session) await server.close().catch(() => undefined);
  }

  /** GET: the session's server-to-client stream (list-changed notifications). */
  private async stream(c: RequestContext): Promise<void> {
    const id = sessionIdOf(c);
    if (id === undefined) return rpcError(c.res, 405, -32000, "Method not allowed: this request has no session (stateless requests use POST)", { allow: "POST" });
    const session = this.sessions.get<StreamableHTTPServerTransport>(id);
    if (!session) return rpcError(c.res, 404, -32001, "Session not found");
    session.busy++;
    c.res.once("close", () => session.busy--);
    c.signal.addEventListener("abort", () => c.res.end(), { once: true });
    await session.transport.handleRequest(c.req, c.res);
  }

  private async terminate(c: RequestContext): Promise<void> {
    const id = sessionIdOf(c);
    if (id === undefined) return rpcError(c.res, 400, -32000, `Bad request: the ${SESSION_HEADER} header is missing`);
    const session = this.sessions.get<StreamableHTTPServerTransport>(id);
    if (!session) return rpcError(c.res, 404, -32001, "Session not found");
    await session.transport.handleRequest(c.req, c.res);
  }

  private async openSse(c: RequestContext, messagesPath: string): Promise<void> {
    if (this.sessions.full) return rpcError(c.res, 503, -32000, `Too many open MCP sessions (at most ${this.sessions.maxSessions})`);
    const transport = new SSEServerTransport(messagesPath, c.res);
    const session = this.sessions.add(transport.sessionId, transport, "sse");
    session.busy = 1; // alive while its stream is open; the stream's end closes it
    transport.onclose = () => this.sessions.delete(transport.sessionId);
    c.res.once("close", () => void transport.close().catch(() => undefined));
    c.signal.addEventListener("abort", () => void transport.close().catch(() => undefined), { once: true });
    await this.tools.connect(transport, "sse");
  }

  private async sseMessage(c: RequestContext): Promise<void> {
    const id = new URL(c.req.url ?? "", "http://x").searchParams.get("sessionId") ?? undefined;
    if (!id) return rpcError(c.res, 400, -32000, "Bad request: the sessionId query parameter is missing");
    const session = this.sessions.get<SSEServerTransport>(id);
    if (!session) return rpcError(c.res, 404, -32001, "Session not found");
    const body = await readJsonRpc(c);
    if (body === undefined) return;
    await asCaller(c.state.principal, () => session.transport.handlePostMessage(c.req, c.res, body));
  }
}

function sessionIdOf(c: RequestContext): string | undefined {
  const value = c.req.headers[SESSION_HEADER];
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** The request's JSON-RPC body; a malformed one is answered here with a parse error. */
async function readJsonRpc(c: RequestContext): Promise<unknown> {
  await c.body(); // a body over the limit (413) or one that stalled (408) is answered as such
  try {
    return await c.json();
  } catch (error) {
    rpcError(c.res, 400, -32700, `Parse error: ${(error as Error).message}`);
    return undefined;
  }
}

function rpcError(res: ServerResponse, status: number, code: number, message: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }));
}

/** As if the client had sent `notifications/cancelled`: the SDK aborts those handlers' signals. */
function cancelRequests(session: Session, body: unknown, reason: string): void {
  const messages = (Array.isArray(body) ? body : [body]) as JSONRPCMessage[];
  for (const m of messages) {
    if (!("method" in m) || !("id" in m)) continue;
    session.transport.onmessage?.({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: m.id, reason } });
  }
}
