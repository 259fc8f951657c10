/**
 * @module ChatMessage and its content parts, in Haystack's field shapes and serialized form
 * (`{role, meta, name, content: [{text} | {tool_call} | {tool_call_result} | {reasoning}]}`),
 * plus conversion to and from OpenAI's message format.
 */

export type ChatRole = "user" | "system" | "assistant" | "tool";

export interface ToolCall {
  tool_name: string;
  arguments: Record<string, unknown>;
  id?: string | null;
  extra?: Record<string, unknown> | null;
}

export interface ToolCallResult {
  result: string;
  origin: ToolCall;
  error: boolean;
}

export interface ReasoningContent {
  reasoning_text: string;
  extra?: Record<string, unknown>;
}

export type ContentPart = { text: string } | { tool_call: ToolCall } | { tool_call_result: ToolCallResult } | { reasoning: ReasoningContent };

export class ChatMessage {
  static readonly typeName = "ChatMessage";

  constructor(
    readonly role: ChatRole,
    readonly content: readonly ContentPart[],
    readonly name: string | null = null,
    readonly meta: Record<string, unknown> = {},
  ) {}

  static fromUser(text: string, meta: Record<string, unknown> = {}, name: string | null = null): ChatMessage {
    return new ChatMessage("user", [{ text }], name, meta);
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
    if (options.reasoning) parts.push({ reasoning: typeof options.reasoning === "string" ? { reasoning_text: options.reasoning, extra: {} } : options.reasoning });
    if (text !== null && text !== undefined) parts.push({ text });
    for (const call of options.toolCalls ?? []) parts.push({ tool_call: call });
    return new ChatMessage("assistant", parts, options.name ?? null, options.meta ?? {});
  }

  static fromTool(result: string, origin: ToolCall, error = false, meta: Record<string, unknown> = {}): ChatMessage {
    return new ChatMessage("tool", [{ tool_call_result: { result, origin, error } }], null, meta);
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

  get reasoning(): ReasoningContent | null {
    for (const p of this.content) if ("reasoning" in p) return p.reasoning;
    return null;
  }

  isFrom(role: ChatRole): boolean {
    return this.role === role;
  }

  toDict(): { role: ChatRole; meta: Record<string, unknown>; name: string | null; content: ContentPart[] } {
    return { role: this.role, meta: { ...this.meta }, name: this.name, content: this.content.map((p) => structuredClone(p)) };
  }

  static fromDict(data: { role: ChatRole; content?: ContentPart[]; name?: string | null; meta?: Record<string, unknown>; text?: string }): ChatMessage {
    // Older dumps use a flat `content: "text"`; accept it.
    const content = Array.isArray(data.content) ? data.content : typeof data.content === "string" ? [{ text: data.content as string }] : data.text !== undefined ? [{ text: data.text }] : [];
    return new ChatMessage(data.role, content, data.name ?? null, data.meta ?? {});
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
