/**
 * @module A stateless `tools/call` answered without an SDK `Server`. A stateless POST that carries
 * one plain `tools/call` needs no protocol state: building a `Server` for it, registering its
 * handlers and letting it parse the request three times (message kind, request, then again for
 * tools/call) cost more than the call itself. This answers it as the SDK's handler does — the
 * request checked with the SDK's schema, the tool server's `callTool`, the result checked with the
 * SDK's result schema, the reply in the SDK's shape — and leaves everything else (batches,
 * notifications, other methods, a request the schema refuses, a task) to a fresh `Server`, so
 * those keep the SDK's exact answers.
 */
import { CallToolRequestSchema, CallToolResultSchema, ErrorCode, McpError, type JSONRPCMessage, type ProgressToken, type RequestId } from "@modelcontextprotocol/sdk/types.js";
import type { IncomingHttpHeaders } from "node:http";
import { isRequest } from "./stateless-transport.js";
import { headersOf, progressReporter, type McpTransportKind, type ToolServer } from "./tool-server.js";

export interface DirectToolCall {
  readonly id: RequestId;
  readonly name: string;
  readonly arguments?: Record<string, unknown>;
  readonly progressToken?: ProgressToken;
}

/** The one plain `tools/call` among checked messages, or undefined when a `Server` must answer. */
export function directToolCall(messages: readonly JSONRPCMessage[]): DirectToolCall | undefined {
  const [message] = messages;
  if (messages.length !== 1 || !isRequest(message!) || message.method !== "tools/call") return undefined;
  const parsed = CallToolRequestSchema.safeParse(message);
  if (!parsed.success || parsed.data.params.task) return undefined;
  const { name, arguments: args, _meta } = parsed.data.params;
  return { id: message.id, name, arguments: args, progressToken: _meta?.progressToken };
}

/** The reply the SDK's `tools/call` handler would send, in its shape and key order. */
export async function answerToolCall(
  tools: ToolServer,
  call: DirectToolCall,
  caller: { signal: AbortSignal; headers: IncomingHttpHeaders; transport: McpTransportKind; notify: (message: JSONRPCMessage) => Promise<void> },
): Promise<JSONRPCMessage> {
  try {
    const progress = progressReporter(call.progressToken, (n) => caller.notify({ jsonrpc: "2.0", ...n }));
    const result = await tools.callTool(call.name, call.arguments, { signal: caller.signal, headers: headersOf(caller.headers), requestId: call.id, transport: caller.transport, progress });
    const checked = CallToolResultSchema.safeParse(result);
    if (!checked.success) throw new McpError(ErrorCode.InvalidParams, `Invalid tools/call result: ${checked.error.message}`);
    return { result: checked.data, jsonrpc: "2.0", id: call.id };
  } catch (error) {
    const { code, message, data } = error as { code?: unknown; message?: string; data?: unknown };
    const body = { code: Number.isSafeInteger(code) ? (code as number) : ErrorCode.InternalError, message: message ?? "Internal error", ...(data !== undefined && { data }) };
    return { jsonrpc: "2.0", id: call.id, error: body };
  }
}
