/**
 * @module From what a tool function returns or throws to an MCP `CallToolResult`: strings as text,
 * a ready `CallToolResult` as it is, anything else as JSON text; a failure as an `isError` result
 * that names the tool and the cause (the stack only when tracebacks are shown).
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { messageOf } from "svc/plugin";

export function textResult(text: string, isError = false): CallToolResult {
  return isError ? { content: [{ type: "text", text }], isError: true } : { content: [{ type: "text", text }] };
}

function isCallToolResult(value: unknown): value is CallToolResult {
  return typeof value === "object" && value !== null && Array.isArray((value as { content?: unknown }).content);
}

export function toToolResult(value: unknown): CallToolResult {
  if (typeof value === "string") return textResult(value);
  if (value === undefined || value === null) return textResult("");
  if (isCallToolResult(value)) return value;
  try {
    return textResult(JSON.stringify(value));
  } catch {
    // BigInts (and only they, among JSON-like values) cannot be stringified as they are.
    return textResult(JSON.stringify(value, (_k, v) => (typeof v === "bigint" ? v.toString() : v)));
  }
}

/** A tool failure the caller can act on: its message is shown as it is, without a stack. */
export class ToolError extends Error {
  override name = "ToolError";
}

export function errorResult(tool: string, error: unknown, showTracebacks: boolean): CallToolResult {
  let text = `Error calling tool '${tool}': ${messageOf(error)}`;
  const stack = error instanceof Error && !(error instanceof ToolError) ? error.stack : undefined;
  if (showTracebacks && stack) text += `\n${stack}`;
  return textResult(text, true);
}
