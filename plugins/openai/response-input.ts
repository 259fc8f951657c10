/**
 * @module The Responses request's `input`: its normalisation into an item list, and the helpers a
 * wrapper's `runResponse` uses to read it: the last user text, the attached files, and the whole
 * conversation as engine ChatMessages (function calls and their outputs included).
 */
import { ChatMessage, type ToolCall } from "svc/engine";
import { newId } from "svc/plugin";

/** One Responses input item, as the client sent it. */
export type ResponseInputItem = Record<string, unknown>;

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === "object" && !Array.isArray(value);

/** A string is one user message; null or absent is no items; a list passes through. */
export function normalizeResponseInput(input: unknown): ResponseInputItem[] {
  if (typeof input === "string") return [{ type: "message", role: "user", content: input }];
  if (Array.isArray(input)) return input as ResponseInputItem[];
  return [];
}

const isUserMessage = (item: unknown): item is ResponseInputItem =>
  isObject(item) && item.role === "user" && (item.type === undefined || item.type === null || item.type === "message");

/**
 * The text of the last user message: a string content as is; for a list of parts, the text of its
 * last `input_text` part (a message without one is passed over). Undefined when there is none.
 */
export function getLastUserInputText(items: readonly unknown[] | null | undefined): string | undefined {
  if (!Array.isArray(items)) return undefined;
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i];
    if (!isUserMessage(item)) continue;
    if (typeof item.content === "string") return item.content;
    if (!Array.isArray(item.content)) continue;
    for (let j = item.content.length - 1; j >= 0; j--) {
      const part = item.content[j];
      if (isObject(part) && part.type === "input_text" && typeof part.text === "string") return part.text;
    }
  }
  return undefined;
}

/** Every `input_file` part with a `file_id` in the user messages, in order, with all its keys. */
export function getInputFiles(items: readonly unknown[] | null | undefined): ResponseInputItem[] {
  const files: ResponseInputItem[] = [];
  if (!Array.isArray(items)) return files;
  for (const item of items) {
    if (!isObject(item) || item.role !== "user" || !Array.isArray(item.content)) continue;
    for (const part of item.content) if (isObject(part) && part.type === "input_file" && part.file_id) files.push(part);
  }
  return files;
}

function flatten(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .filter((part): part is { text: string } => isObject(part) && typeof part.text === "string" && part.text !== "")
    .map((part) => part.text)
    .join("\n");
}

function parseArgs(raw: unknown): Record<string, unknown> {
  if (isObject(raw)) return raw;
  if (typeof raw !== "string") return {};
  try {
    const parsed: unknown = JSON.parse(raw);
    return isObject(parsed) ? parsed : {};
  } catch {
    return {};
  }
}

const ROLES: Record<string, "user" | "system" | "assistant"> = { user: "user", system: "system", developer: "system", assistant: "assistant" };

/**
 * The input items as engine ChatMessages: `user` → user, `system`/`developer` → system, `assistant`
 * → assistant (list content flattened, parts' text joined with newlines; empty messages skipped);
 * `function_call` → an assistant tool call (consecutive calls share one assistant message, as chat
 * APIs require); `function_call_output` → a tool message whose origin is the call with that id, or
 * a placeholder. Other item types (reasoning, references) are skipped.
 */
export function chatMessagesFromOpenAIResponse(items: readonly unknown[] | null | undefined): ChatMessage[] {
  const messages: ChatMessage[] = [];
  if (!Array.isArray(items)) return messages;
  const calls = new Map<string, ToolCall>();
  let pending: ToolCall[] = [];
  const flush = () => {
    if (pending.length) messages.push(ChatMessage.fromAssistant(null, { toolCalls: pending }));
    pending = [];
  };
  for (const item of items) {
    if (!isObject(item)) continue;
    if (item.type === "function_call") {
      const id = (typeof item.call_id === "string" && item.call_id) || (typeof item.id === "string" && item.id) || newId("call_", 12);
      const call: ToolCall = { tool_name: typeof item.name === "string" && item.name ? item.name : "function", arguments: parseArgs(item.arguments), id };
      calls.set(id, call);
      pending.push(call);
      continue;
    }
    flush();
    if (item.type === "function_call_output") {
      const id = typeof item.call_id === "string" ? item.call_id : typeof item.id === "string" ? item.id : null;
      const origin = (id !== null && calls.get(id)) || { tool_name: "function", arguments: {}, id };
      const output = typeof item.output === "string" ? item.output : JSON.stringify(item.output ?? null);
      messages.push(ChatMessage.fromTool(output, origin));
      continue;
    }
    if (item.type !== undefined && item.type !== null && item.type !== "message") continue;
    const role = ROLES[String(item.role)];
    const text = flatten(item.content);
    if (!role || text === "") continue;
    if (role === "user") messages.push(ChatMessage.fromUser(text));
    else if (role === "system") messages.push(ChatMessage.fromSystem(text));
    else messages.push(ChatMessage.fromAssistant(text));
  }
  flush();
  return messages;
}
