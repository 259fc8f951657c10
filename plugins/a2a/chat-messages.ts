/**
 * @module From A2A to the wrapper and back. An A2A message becomes an OpenAI-style chat message
 * (text parts joined by newlines, data parts as JSON; files are not passed on), and what
 * `runChatCompletion` returns or streams becomes text: a string, a ChatCompletion's message, a
 * chunk's delta, a StreamingChunk's content. Open WebUI events are for chat UIs and skipped.
 */
import { Role, type Message } from "@a2a-js/sdk";

export interface ChatMessage {
  role: "user" | "assistant";
  content: string;
}

/** The message's text, or undefined when it carries none. */
export function messageText(message: Message): string | undefined {
  const texts: string[] = [];
  for (const part of message.parts) {
    const content = part.content;
    if (content?.$case === "text" && content.value !== "") texts.push(content.value);
    else if (content?.$case === "data") texts.push(JSON.stringify(content.value));
  }
  return texts.length > 0 ? texts.join("\n") : undefined;
}

export function chatMessage(message: Message): ChatMessage | undefined {
  const content = messageText(message);
  return content === undefined ? undefined : { role: message.role === Role.ROLE_AGENT ? "assistant" : "user", content };
}

type Loose = Record<string, unknown>;
const isObject = (value: unknown): value is Loose => value !== null && typeof value === "object";

function choiceText(value: Loose, field: "message" | "delta"): string | undefined {
  const choices = value.choices;
  if (!Array.isArray(choices)) return undefined;
  const first = choices[0] as Loose | undefined;
  const content = isObject(first?.[field]) ? (first![field] as Loose).content : undefined;
  return typeof content === "string" ? content : "";
}

/** The text of one streamed item; undefined for items that carry none (UI events, empty chunks). */
export function itemText(item: unknown): string | undefined {
  if (typeof item === "string") return item || undefined;
  if (Buffer.isBuffer(item) || item instanceof Uint8Array) return Buffer.from(item).toString("utf8") || undefined;
  if (!isObject(item)) return item === null || item === undefined ? undefined : String(item);
  if (isObject(item.event) && "type" in item.event) return undefined;
  const text = Array.isArray(item.choices) ? choiceText(item, "delta") ?? choiceText(item, "message") : typeof item.content === "string" ? item.content : undefined;
  return text || undefined;
}

/**
 * The text of a value `runChatCompletion` returned (not a stream). A value outside the contract
 * (null, a number, an object without text) is an error, so a wrapper bug fails the task instead
 * of completing it with "null".
 */
export function valueText(value: unknown): string {
  if (typeof value === "string") return value;
  if (isObject(value)) {
    if (Array.isArray(value.choices)) return choiceText(value, "message") ?? choiceText(value, "delta") ?? "";
    if (typeof value.content === "string") return value.content;
  }
  const kind = value === null ? "null" : Array.isArray(value) ? "array" : typeof value;
  throw new Error(`Unsupported response type from completion: ${kind} (return a string, a ChatCompletion or an (async) iterable of chunks)`);
}
