/**
 * @module ChatMessage ⇄ OpenAI's Chat Completions message format, as Haystack's
 * `to_openai_dict_format` / `from_openai_dict_format` write and read it.
 */
import { ValueError } from "../pipeline/errors.js";
import type { ChatMessage, ChatRole, ContentPart, ToolCall } from "./chat-message.js";

/** Python's `json.dumps(x, ensure_ascii=False)`: `", "` and `": "` separators, so arguments read as Haystack sends them. */
export function pythonJsonDumps(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(pythonJsonDumps).join(", ")}]`;
  if (value && typeof value === "object") {
    return `{${Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `${JSON.stringify(k)}: ${pythonJsonDumps(v)}`)
      .join(", ")}}`;
  }
  return JSON.stringify(value ?? null);
}

const needsId = (call: ToolCall, required: boolean): string | undefined => {
  if (call.id !== null && call.id !== undefined) return call.id;
  if (required) throw new ValueError("`ToolCall` must have a non-null `id` attribute to be used with OpenAI.");
  return undefined;
};

function userContent(content: readonly ContentPart[]): unknown {
  if (content.length === 1 && "text" in content[0]!) return content[0].text;
  return content.flatMap((part): Record<string, unknown>[] => {
    if ("text" in part) return [{ type: "text", text: part.text }];
    if ("image" in part) {
      // OpenAI tolerates a wrong image type; Haystack defaults to JPEG when none is known.
      const url: Record<string, unknown> = { url: `data:${(part.image.mime_type as string) || "image/jpeg"};base64,${String(part.image.base64_image)}` };
      if (part.image.detail) url.detail = part.image.detail;
      return [{ type: "image_url", image_url: url }];
    }
    if ("file" in part) {
      // Without a filename OpenAI expects an uploaded file's id, so a placeholder name is sent.
      const data = `data:${(part.file.mime_type as string) || "application/pdf"};base64,${String(part.file.base64_data)}`;
      return [{ type: "file", file: { file_data: data, filename: (part.file.filename as string) || "filename" } }];
    }
    return [];
  });
}

export function toOpenAIDictFormat(message: ChatMessage, requireToolCallIds: boolean): Record<string, unknown> {
  const { texts, toolCalls, toolCallResults, images, files } = message;
  if (!texts.length && !toolCalls.length && !toolCallResults.length && !images.length && !files.length) {
    throw new ValueError("A `ChatMessage` must contain at least one `TextContent`, `ToolCall`, `ToolCallResult`, `ImageContent`, or `FileContent`.");
  }
  if (toolCallResults.length && message.content.length > 1) {
    throw new ValueError("For OpenAI compatibility, a `ChatMessage` with a `ToolCallResult` cannot contain any other content.");
  }
  const out: Record<string, unknown> = { role: message.role };
  if (message.name !== null) out.name = message.name;
  if (message.role === "user") return { ...out, content: userContent(message.content) };
  if (toolCallResults.length) {
    const result = toolCallResults[0]!;
    const value = result.result as unknown;
    if (typeof value === "string") out.content = value;
    else if (Array.isArray(value) && value.every((p) => p && typeof p === "object" && "text" in p)) out.content = value.map((p: { text: string }) => ({ type: "text", text: p.text }));
    else throw new ValueError(`Unsupported tool result: ${JSON.stringify(result)}. If you need to pass images in tool results, use OpenAI Responses API instead.`);
    const id = needsId(result.origin, requireToolCallIds);
    if (id !== undefined) out.tool_call_id = id;
    return out;
  }
  // Chat Completions has no reasoning content: it is left out.
  if (texts.length) out.content = texts[0];
  if (toolCalls.length) {
    out.tool_calls = toolCalls.map((call) => {
      const id = needsId(call, requireToolCallIds);
      return { ...(id !== undefined ? { id } : {}), type: "function", function: { name: call.tool_name, arguments: pythonJsonDumps(call.arguments) } };
    });
  }
  return out;
}

/** What an OpenAI message says, checked as Haystack's `_validate_openai_message` checks it. */
export interface OpenAIMessageParts {
  role: ChatRole;
  name: string | null;
  text: string | null;
  toolCalls: ToolCall[];
  toolResult: string | { text: string }[] | null;
  toolCallId: string | null;
}

export function readOpenAIDictFormat(message: Record<string, unknown>): OpenAIMessageParts {
  if (!message || typeof message !== "object" || !("role" in message)) throw new ValueError("The `role` field is required in the message dictionary.");
  const role = message.role as string;
  const content = message.content as unknown;
  const toolCalls = message.tool_calls as Record<string, unknown>[] | undefined;
  if (!["assistant", "user", "system", "developer", "tool"].includes(role)) throw new ValueError(`Unsupported role: ${role}`);
  if (role === "assistant") {
    if (!content && !toolCalls?.length) throw new ValueError("For assistant messages, either `content` or `tool_calls` must be present.");
    for (const call of toolCalls ?? []) if (!call || typeof call !== "object" || !("function" in call)) throw new ValueError("Tool calls must contain the `function` field");
  } else if (!content || (Array.isArray(content) && content.length === 0)) {
    throw new ValueError(`The \`content\` field is required for ${role} messages.`);
  }
  const name = (message.name as string | undefined) ?? null;
  const base = { name, text: null, toolCalls: [], toolResult: null, toolCallId: null };
  if (role === "assistant") {
    const calls = (toolCalls ?? []).map((call) => {
      const fn = call.function as { name: string; arguments?: string | null };
      // Zero-argument calls from OpenAI-compatible servers send "", null or no arguments at all.
      return { id: (call.id as string | undefined) ?? null, tool_name: fn.name, arguments: fn.arguments ? (JSON.parse(fn.arguments) as Record<string, unknown>) : {} };
    });
    return { ...base, role: "assistant", text: (content as string | null | undefined) ?? null, toolCalls: calls };
  }
  if (role === "user") return { ...base, role: "user", text: content as string };
  if (role === "system" || role === "developer") return { ...base, role: "system", text: content as string };
  let result: string | { text: string }[] = content as string;
  if (Array.isArray(content)) {
    if (!content.every((el) => el && typeof el === "object" && "text" in el)) throw new ValueError("To be used with OpenAI, tool results must be a string or a list of TextContent");
    result = content.map((el: { text: unknown }) => ({ text: String(el.text) }));
  }
  return { ...base, role: "tool", toolResult: result, toolCallId: (message.tool_call_id as string | undefined) ?? null };
}
