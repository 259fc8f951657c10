/**
 * @module ChatMessage and its content parts, in Haystack's field shapes and serialized form
 * (`{role, meta, name, content: [{text} | {tool_call} | {tool_call_result} | {reasoning}]}`),
 * plus conversion to and from OpenAI's message format.
 */

import { ValueError } from "../pipeline/errors.js";
import { readOpenAIDictFormat, toOpenAIDictFormat } from "./openai-dict-format.js";

export type ChatRole = "user" | "system" | "assistant" | "tool";

export interface ToolCall {
  tool_name: string;
  arguments: Record<string, unknown>;
  id?: string | null;
  extra?: Record<string, unknown> | null;
}

export interface ToolCallResult {
  /** A string; Haystack 3 also allows a list of text, image and file parts (kept as parts at run time). */
  result: string;
  origin: ToolCall;
  error: boolean;
}

export interface ReasoningContent {
  reasoning_text: string;
  extra?: Record<string, unknown>;
}

/** Image and file parts are carried as Haystack serializes them (`base64_image` / `base64_data` and their fields). */
export type ContentPart =
  | { text: string }
  | { tool_call: ToolCall }
  | { tool_call_result: ToolCallResult }
  | { reasoning: ReasoningContent }
  | { image: Record<string, unknown> }
  | { file: Record<string, unknown> };

export const CHAT_ROLES: readonly ChatRole[] = ["user", "system", "assistant", "tool"];

const PART_KEYS = ["tool_call", "tool_call_result", "image", "reasoning", "file"] as const;

/** Haystack's `ChatRole.from_str`. */
export function chatRoleFromStr(role: string): ChatRole {
  if (!CHAT_ROLES.includes(role as ChatRole)) throw new ValueError(`Unknown chat role '${role}'. Supported roles are: [${CHAT_ROLES.map((r) => `'${r}'`).join(", ")}]`);
  return role as ChatRole;
}

/** A part's serialization key, or undefined when it is not a content part (Haystack's `_serialize_content_part` check). */
function partKey(part: unknown): string | undefined {
  if (!part || typeof part !== "object" || Array.isArray(part)) return undefined;
  const keys = Object.keys(part);
  return keys.length === 1 && (keys[0] === "text" || (PART_KEYS as readonly string[]).includes(keys[0]!)) ? keys[0] : undefined;
}

/**
 * One serialized content part (Haystack's `_deserialize_content_part`): `{text}`, a part under its
 * key, or the unwrapped form Pydantic's `model_dump` writes, recognised by its required fields.
 */
export function contentPartFromDict(part: unknown): ContentPart {
  if (part && typeof part === "object" && !Array.isArray(part)) {
    const p = part as Record<string, unknown>;
    if ("text" in p) return { text: String(p.text) };
    for (const key of PART_KEYS) {
      if (key in p) {
        const value = p[key] as Record<string, unknown>;
        if (key === "tool_call") return { tool_call: toolCallFromDict(value) };
        if (key === "tool_call_result") return { tool_call_result: toolCallResultFromDict(value) };
        if (key === "reasoning") return { reasoning: { reasoning_text: String(value.reasoning_text), extra: (value.extra as Record<string, unknown>) ?? {} } };
        return { [key]: { ...value } } as ContentPart;
      }
    }
    if ("tool_name" in p && "arguments" in p) return { tool_call: toolCallFromDict(p) };
    if ("result" in p && "origin" in p) return { tool_call_result: toolCallResultFromDict(p) };
    if ("reasoning_text" in p) return { reasoning: { reasoning_text: String(p.reasoning_text), extra: (p.extra as Record<string, unknown>) ?? {} } };
    if ("base64_image" in p) return { image: { ...p } };
    if ("base64_data" in p) return { file: { ...p } };
  }
  // Haystack's verbose message: it guides an LLM that wrote an invalid message during an agent run.
  throw new ValueError(
    `Unsupported content part in the serialized ChatMessage: ${JSON.stringify(part)}. The \`content\` field of the serialized ChatMessage must be a list of dictionaries, where each dictionary contains one of these keys: 'text', 'image', 'file', 'reasoning', 'tool_call', or 'tool_call_result'. ` +
      `Valid formats: [{'text': 'Hello'}, {'image': {'base64_image': '...', ...}}, {'file': {'base64_data': '...', ...}}, {'reasoning': {'reasoning_text': 'I think...', 'extra': {...}}}, {'tool_call': {'tool_name': 'search', 'arguments': {}, 'id': 'call_123'}}, {'tool_call_result': {'result': 'data', 'origin': {...}, 'error': false}}]`,
  );
}

function toolCallFromDict(d: Record<string, unknown>): ToolCall {
  return { tool_name: String(d.tool_name), arguments: (d.arguments as Record<string, unknown>) ?? {}, id: (d.id as string | null | undefined) ?? null, extra: (d.extra as Record<string, unknown> | null | undefined) ?? null };
}

function toolCallResultFromDict(d: Record<string, unknown>): ToolCallResult {
  if (!("result" in d) || !("origin" in d) || !("error" in d)) {
    throw new ValueError(`Fields \`result\`, \`origin\`, \`error\` are required for ToolCallResult deserialization. Received dictionary with keys ${JSON.stringify(Object.keys(d))}`);
  }
  // A list result holds text, image and file parts (Haystack 3's multimodal tool results).
  const result = Array.isArray(d.result) ? (d.result.map(contentPartFromDict) as unknown as string) : (d.result as string);
  return { result, origin: toolCallFromDict(d.origin as Record<string, unknown>), error: Boolean(d.error) };
}

/** ToolCall's `asdict`: every field, in Haystack's order (`json.dumps` of a message reads as Haystack's). */
const serializeToolCall = (c: ToolCall): ToolCall => ({ tool_name: c.tool_name, arguments: structuredClone(c.arguments), id: c.id ?? null, extra: c.extra ? structuredClone(c.extra) : null });

function serializePart(part: ContentPart): ContentPart {
  if ("tool_call" in part) return { tool_call: serializeToolCall(part.tool_call) };
  if ("tool_call_result" in part) {
    const r = part.tool_call_result;
    return { tool_call_result: { result: structuredClone(r.result), origin: serializeToolCall(r.origin), error: r.error } };
  }
  return structuredClone(part);
}

export class ChatMessage {
  static readonly typeName = "ChatMessage";

  constructor(
    readonly role: ChatRole,
    readonly content: readonly ContentPart[],
    readonly name: string | null = null,
    readonly meta: Record<string, unknown> = {},
  ) {}

  /** Text, or `contentParts` (strings, text, image and file parts), exactly one of them (Haystack's `from_user`). */
  static fromUser(text: string | null, meta: Record<string, unknown> = {}, name: string | null = null, contentParts?: readonly (string | ContentPart)[]): ChatMessage {
    if ((text === null || text === undefined) && !contentParts) throw new ValueError("Either text or content_parts must be provided.");
    if (text !== null && text !== undefined && contentParts) throw new ValueError("Only one of text or content_parts can be provided.");
    if (text !== null && text !== undefined) return new ChatMessage("user", [{ text }], name, meta);
    const parts = contentParts!.map((part): ContentPart => {
      if (typeof part === "string") return { text: part };
      const key = partKey(part);
      if (key === "text" || key === "image" || key === "file") return part;
      throw new TypeError(`The user message must contain only text or image parts. Unsupported part: ${JSON.stringify(part)}`);
    });
    if (parts.length === 0) throw new ValueError("The user message must contain at least one content part (text, image, file).");
    return new ChatMessage("user", parts, name, meta);
  }

  static fromSystem(text: string, meta: Record<string, unknown> = {}, name: string | null = null): ChatMessage {
    return new ChatMessage("system", [{ text }], name, meta);
  }

  /** Reasoning comes before the text, then tool calls, as in Haystack. */
  static fromAssistant(
    text: string | null = null,
    options: { meta?: Record<string, unknown>; name?: string | null; toolCalls?: ToolCall[]; reasoning?: string | ReasoningContent } = {},
  ): ChatMessage {
    const parts: ContentPart[] = [];
    if (options.reasoning !== undefined && options.reasoning !== null && typeof options.reasoning !== "string" && typeof (options.reasoning as ReasoningContent).reasoning_text !== "string") {
      throw new TypeError(`reasoning must be a string or a ReasoningContent object, got ${typeof options.reasoning}`);
    }
    if (options.reasoning) parts.push({ reasoning: typeof options.reasoning === "string" ? { reasoning_text: options.reasoning, extra: {} } : options.reasoning });
    if (text !== null && text !== undefined) parts.push({ text });
    for (const call of options.toolCalls ?? []) parts.push({ tool_call: call });
    return new ChatMessage("assistant", parts, options.name ?? null, options.meta ?? {});
  }

  static fromTool(result: string | readonly ContentPart[], origin: ToolCall, error = false, meta: Record<string, unknown> = {}): ChatMessage {
    return new ChatMessage("tool", [{ tool_call_result: { result: result as string, origin, error } }], null, meta);
  }

  get texts(): string[] {
    return this.content.flatMap((p) => ("text" in p ? [p.text] : []));
  }

  /** The first text part, or null. */
  get text(): string | null {
    return this.texts[0] ?? null;
  }

  get toolCalls(): ToolCall[] {
    return this.content.flatMap((p) => ("tool_call" in p ? [p.tool_call] : []));
  }

  get toolCall(): ToolCall | null {
    return this.toolCalls[0] ?? null;
  }

  get toolCallResults(): ToolCallResult[] {
    return this.content.flatMap((p) => ("tool_call_result" in p ? [p.tool_call_result] : []));
  }

  get toolCallResult(): ToolCallResult | null {
    return this.toolCallResults[0] ?? null;
  }

  get reasonings(): ReasoningContent[] {
    return this.content.flatMap((p) => ("reasoning" in p ? [p.reasoning] : []));
  }

  get reasoning(): ReasoningContent | null {
    return this.reasonings[0] ?? null;
  }

  get images(): Record<string, unknown>[] {
    return this.content.flatMap((p) => ("image" in p ? [p.image] : []));
  }

  get image(): Record<string, unknown> | null {
    return this.images[0] ?? null;
  }

  get files(): Record<string, unknown>[] {
    return this.content.flatMap((p) => ("file" in p ? [p.file] : []));
  }

  get file(): Record<string, unknown> | null {
    return this.files[0] ?? null;
  }

  /** The number of content parts (Haystack's `len(message)`). */
  get length(): number {
    return this.content.length;
  }

  isFrom(role: ChatRole): boolean {
    return this.role === role;
  }

  /** Haystack's `to_dict`: `{role, meta, name, content: [parts]}`. */
  toDict(): { role: ChatRole; meta: Record<string, unknown>; name: string | null; content: ContentPart[] } {
    for (const part of this.content) if (!partKey(part)) throw new TypeError(`Unsupported type in ChatMessage content: \`${typeof part}\` for \`${JSON.stringify(part)}\`.`);
    return { role: this.role, meta: { ...this.meta }, name: this.name, content: this.content.map(serializePart) };
  }

  toJSON(): Record<string, unknown> {
    return this.toDict();
  }

  /** `toDict` with image and file data replaced by their length, as Haystack's tracer records messages. */
  toTraceDict(): Record<string, unknown> {
    const d = this.toDict();
    const content = d.content.map((part) => {
      if ("image" in part) return { image: { ...part.image, base64_image: `Base64 string (${String(part.image.base64_image).length} characters)` } };
      if ("file" in part) return { file: { ...part.file, base64_data: `Base64 string (${String(part.file.base64_data).length} characters)` } };
      return part;
    });
    return { ...d, content };
  }

  /** Haystack's `to_openai_dict_format` (see openai-dict-format.ts). */
  toOpenAIDictFormat(requireToolCallIds = true): Record<string, unknown> {
    return toOpenAIDictFormat(this, requireToolCallIds);
  }

  /**
   * Haystack's `from_dict`: the current form (`content` a list of parts, including Pydantic's
   * unwrapped parts), the pre-2.9 form (`content` a string) and the 2.9–2.11 form (`_role`,
   * `_content`, `_name`, `_meta`). A missing role or content is an error naming what is wrong.
   */
  static fromDict(data: { role?: ChatRole; content?: unknown; name?: string | null; meta?: Record<string, unknown> | null; [key: string]: unknown }): ChatMessage {
    if (!data || typeof data !== "object") throw new TypeError("A serialized ChatMessage must be an object.");
    const role = (data.role ?? data._role) as string | undefined;
    if (role === undefined) {
      throw new ValueError(
        `The \`role\` field is required in the message dictionary. Expected a dictionary with 'role' field containing one of: ${JSON.stringify(CHAT_ROLES)}. Common roles are 'user' (for user messages) and 'assistant' (for AI responses). Received dictionary with keys: ${JSON.stringify(Object.keys(data))}`,
      );
    }
    chatRoleFromStr(role);
    if ("content" in data) {
      const content = data.content;
      const parts = Array.isArray(content) ? content.map(contentPartFromDict) : typeof content === "string" ? [{ text: content }] : undefined;
      if (!parts) throw new TypeError(`Unsupported content type in serialized ChatMessage: \`${JSON.stringify(content)}\``);
      return new ChatMessage(role as ChatRole, parts, data.name ?? null, data.meta ?? {});
    }
    if ("_content" in data && Array.isArray(data._content)) {
      return new ChatMessage(role as ChatRole, data._content.map(contentPartFromDict), (data._name as string | null) ?? null, (data._meta as Record<string, unknown>) ?? {});
    }
    throw new ValueError(`Missing 'content' or '_content' in serialized ChatMessage: \`${JSON.stringify(data)}\``);
  }

  /** Haystack's `from_openai_dict_format`: a message missing what its role needs is a ValueError. */
  static fromOpenAIDictFormat(message: Record<string, unknown>): ChatMessage {
    const m = readOpenAIDictFormat(message);
    if (m.role === "assistant") return ChatMessage.fromAssistant(m.text, { name: m.name, toolCalls: m.toolCalls });
    if (m.role === "tool") return ChatMessage.fromTool(m.toolResult as string | ContentPart[], { id: m.toolCallId, tool_name: "", arguments: {} });
    return new ChatMessage(m.role, [{ text: m.text ?? "" }], m.name);
  }

  /** OpenAI's chat message format. */
  toOpenAI(): Record<string, unknown> {
    const out: Record<string, unknown> = { role: this.role };
    if (this.name) out.name = this.name;
    if (this.role === "tool") {
      const r = this.toolCallResult;
      out.content = r?.result ?? "";
      out.tool_call_id = r?.origin.id ?? undefined;
      return out;
    }
    const text = this.texts.join("");
    out.content = text === "" && this.toolCalls.length ? null : text;
    if (this.toolCalls.length) {
      out.tool_calls = this.toolCalls.map((c) => ({ id: c.id, type: "function", function: { name: c.tool_name, arguments: JSON.stringify(c.arguments) } }));
    }
    return out;
  }

  static fromOpenAI(message: Record<string, unknown>): ChatMessage {
    const role = String(message.role ?? "user") as ChatRole;
    const content = message.content;
    const text = typeof content === "string" ? content : Array.isArray(content) ? content.map((p) => (p && typeof p === "object" && "text" in p ? String((p as { text: unknown }).text) : "")).join("") : null;
    if (role === "tool") return ChatMessage.fromTool(text ?? "", { tool_name: "", arguments: {}, id: (message.tool_call_id as string) ?? null });
    if (role === "assistant") {
      const calls = Array.isArray(message.tool_calls)
        ? (message.tool_calls as { id?: string; function?: { name?: string; arguments?: string } }[]).map((c) => ({
            id: c.id ?? null,
            tool_name: c.function?.name ?? "",
            arguments: parseArguments(c.function?.arguments),
          }))
        : [];
      return ChatMessage.fromAssistant(text, { toolCalls: calls, name: (message.name as string) ?? null });
    }
    return new ChatMessage(role, text === null ? [] : [{ text }], (message.name as string) ?? null);
  }
}

export function parseArguments(raw: string | undefined): Record<string, unknown> {
  if (!raw) return {};
  try {
    const parsed: unknown = JSON.parse(raw);
    return parsed && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
