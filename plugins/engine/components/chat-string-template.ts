/**
 * @module ChatPromptBuilder's string templates (Haystack's utils.jinja2_chat_extension):
 * `{% message role=… name=… meta=… %}…{% endmessage %}` blocks, the `templatize_part` filter that
 * puts an image, file, reasoning, tool call or tool result into a message, and `{% insert expr %}`,
 * which expands a ChatMessage or a list of them in place.
 *
 * The tags are rewritten into output that brackets messages, parts and inserted messages with
 * markers. A marker holds a per-process random nonce, so rendered variable values cannot forge a
 * message boundary or a content part (Haystack uses a per-environment nonce for the same reason).
 */
import { ChatMessage, contentPartFromDict, type ContentPart } from "../dataclasses/chat-message.js";
import { compileTemplate, pythonRepr, TemplateError, type CustomFilter } from "../jinja.js";
import { HAYSTACK_EXTENSIONS } from "./prompt-builder.js";
import { randomHex } from "svc/plugin";

const ROLES = ["user", "system", "assistant", "tool"];
const NONCE = randomHex(12);
const MARK = `\u0000${NONCE}`;
const MARK_LITERAL = `\\u0000${NONCE}`;
const ATTRIBUTE = /\s*(\w+)\s*=(?!=)/y;
const PART_FILTER = "templatize_part";
const INSERT_FILTER = "__haystack_insert";
export const CHAT_FILTERS = [PART_FILTER, INSERT_FILTER];

/** Checks Haystack makes when it parses the tag: a literal role must be known, a literal name a string, meta a dict. */
function checkAttribute(key: string, expr: string): void {
  const literal = /^(['"])(.*)\1$/s.exec(expr);
  if (key === "role" && literal && !ROLES.includes(literal[2]!)) throw new TemplateError(`Template syntax error: Role must be one of: ${ROLES.join(", ")}`);
  if (key === "name" && /^(-?[\d.]+|true|false|none|True|False|None|\[.*\]|\{.*\})$/s.test(expr)) throw new TemplateError("Template syntax error: name must be a string");
  if (key === "meta" && !expr.startsWith("{")) throw new TemplateError("Template syntax error: meta must be a dictionary");
}

/** `role="user" name=n meta={...}` → a Jinja dict literal of the attribute expressions. */
function attributeDict(source: string): string {
  const attrs: Record<string, string> = { name: "none", meta: "{}" };
  let i = 0;
  while (source.slice(i).trim()) {
    ATTRIBUTE.lastIndex = i;
    const key = ATTRIBUTE.exec(source)?.[1];
    if (!key || !["role", "name", "meta"].includes(key)) throw new TemplateError(`Template syntax error: invalid {% message %} attributes '${source.trim()}': expected role=…, and optionally name=… and meta=…`);
    let j = ATTRIBUTE.lastIndex, depth = 0, quote = "";
    // The expression runs to the next top-level `word=` (attributes are separated by spaces only).
    for (; j < source.length; j++) {
      const c = source[j]!;
      if (quote) {
        if (c === "\\") j++;
        else if (c === quote) quote = "";
      } else if (c === "'" || c === '"') quote = c;
      else if ("([{".includes(c)) depth++;
      else if (")]}".includes(c)) depth--;
      else if (depth === 0 && /\s/.test(c) && /^\s+\w+\s*=(?!=)/.test(source.slice(j))) break;
    }
    attrs[key] = source.slice(ATTRIBUTE.lastIndex, j).trim();
    checkAttribute(key, attrs[key]!);
    i = j;
  }
  if (!attrs.role) throw new TemplateError("Template syntax error: expected token 'role' in {% message %}, e.g. {% message role=\"user\" %}");
  return `{${Object.entries(attrs).map(([k, expr]) => `"${k}": (${expr})`).join(", ")}}`;
}

const TAGS = /\{%(-?)\s*(message|endmessage|insert)\b([\s\S]*?)(-?)%\}/g;

/** Rewrites the tags (keeping `-` whitespace control) into marker output; an unbalanced block is a syntax error, as in Jinja2. */
export function rewriteChatTags(source: string): string {
  let depth = 0;
  const out = source.replace(TAGS, (_, l: string, tag: string, rest: string, r: string) => {
    if (tag === "insert") {
      if (!rest.trim()) throw new TemplateError("Template syntax error: The 'insert' tag requires an expression that evaluates to a ChatMessage or a list of ChatMessage objects, for example '{% insert messages %}' or '{% insert messages[-1:] %}'.");
      return `{{${l} (${rest.trim()})|${INSERT_FILTER} ${r}}}`;
    }
    if (tag === "endmessage") {
      if (--depth < 0) throw new TemplateError("Template syntax error: Encountered unknown tag 'endmessage'. Jinja was looking for the following tags: 'message'.");
      return `{{${l} "${MARK_LITERAL}>${MARK_LITERAL}" ${r}}}`;
    }
    if (++depth > 1) throw new TemplateError("Template syntax error: {% message %} blocks cannot be nested");
    return `{{${l} "${MARK_LITERAL}<" ~ (${attributeDict(rest)})|tojson ~ "${MARK_LITERAL}" ${r}}}`;
  });
  if (depth) throw new TemplateError("Template syntax error: Unexpected end of template. Jinja was looking for the following tags: 'endmessage'. The innermost block that needs to be closed is 'message'.");
  return out;
}

const pythonType = (x: unknown) =>
  x === null || x === undefined ? "NoneType" : typeof x === "string" ? "str" : typeof x === "boolean" ? "bool" : typeof x === "number" ? (Number.isInteger(x) ? "int" : "float") : Array.isArray(x) ? "list" : "dict";

/** A content part in Haystack's serialized form, with the defaults its to_dict writes. */
function serializePart(value: unknown): ContentPart {
  let part: ContentPart;
  try {
    if (!value || typeof value !== "object" || Array.isArray(value)) throw new Error();
    part = contentPartFromDict(value);
  } catch {
    throw new TypeError(`Unsupported type in ChatMessage content: \`${pythonType(value)}\` for \`${typeof value === "string" ? value : pythonRepr(value)}\`.`);
  }
  if ("image" in part) return { image: { base64_image: part.image.base64_image, mime_type: part.image.mime_type ?? null, detail: part.image.detail ?? null, meta: part.image.meta ?? {}, validation: part.image.validation ?? true } };
  if ("file" in part) return { file: { base64_data: part.file.base64_data, mime_type: part.file.mime_type ?? null, validation: part.file.validation ?? true, filename: part.file.filename ?? null, extra: part.file.extra ?? {} } };
  if ("tool_call" in part) return { tool_call: { tool_name: part.tool_call.tool_name, arguments: part.tool_call.arguments, id: part.tool_call.id ?? null, extra: part.tool_call.extra ?? null } };
  return part;
}

/** ChatMessages from an `{% insert %}` value: a message, a list of them (or their to_dict form, as JSON clients send). */
function insertedMessages(value: unknown): ChatMessage[] {
  const list = value instanceof ChatMessage ? [value] : value === undefined || value === null || value === "" ? [] : value;
  const ok = Array.isArray(list) && list.every((m) => m instanceof ChatMessage || (m && typeof m === "object" && "role" in m && "content" in m));
  if (!ok) throw new Error(`The '{% insert %}' expression must evaluate to a ChatMessage or a list of ChatMessage objects. Got: ${pythonType(value)}.`);
  return (list as unknown[]).map((m) => (m instanceof ChatMessage ? m : ChatMessage.fromDict(m as Parameters<typeof ChatMessage.fromDict>[0])));
}

/** The filters a string template renders with. */
export const chatFilters: Readonly<Record<string, CustomFilter>> = {
  [PART_FILTER]: (value) => `${MARK}#${JSON.stringify(serializePart(value))}${MARK}`,
  [INSERT_FILTER]: (value) => insertedMessages(value).map((m) => `${MARK}=${JSON.stringify(m.toDict())}${MARK}`).join(""),
};

/** Haystack's `_validate_build_chat_message`: which parts each role may hold. */
function buildMessage(attrs: { role: unknown; name: unknown; meta: unknown }, body: (string | ContentPart)[]): ChatMessage {
  const raw = body.map((b) => (typeof b === "string" ? b : "<part>")).join("");
  if (!raw.trim()) throw new Error(`Message content in template is empty or contains only whitespace characters. Content: ${pythonRepr(raw)}`);
  const parts = body.flatMap((b) => (typeof b !== "string" ? [b] : b.trim() ? [{ text: b.trim() }] : []));
  if (!parts.length) throw new Error(`Message template produced content that couldn't be parsed into any message parts. Content: ${pythonRepr(raw)}`);
  const name = attrs.name === null || attrs.name === undefined ? null : String(attrs.name);
  const meta = attrs.meta && typeof attrs.meta === "object" && !Array.isArray(attrs.meta) ? (attrs.meta as Record<string, unknown>) : {};
  const texts = parts.filter((p) => "text" in p) as { text: string }[];
  switch (attrs.role) {
    case "user":
      if (!parts.every((p) => "text" in p || "image" in p || "file" in p)) throw new Error("User message must contain only TextContent, string, ImageContent or FileContent parts.");
      return new ChatMessage("user", parts, name, meta);
    case "system":
      if (!("text" in parts[0]!)) throw new Error("System message must contain a text part.");
      if (parts.length > 1) throw new Error("System message must contain only one text part.");
      return ChatMessage.fromSystem(texts[0]!.text, meta, name);
    case "assistant": {
      const toolCalls = parts.flatMap((p) => ("tool_call" in p ? [p.tool_call] : []));
      const reasoning = parts.flatMap((p) => ("reasoning" in p ? [p.reasoning] : []));
      if (texts.length > 1) throw new Error("Assistant message must contain one text part at most.");
      if (!texts.length && !toolCalls.length) throw new Error("Assistant message must contain at least one text or tool call part.");
      if (parts.length > texts.length + toolCalls.length + reasoning.length) throw new Error("Assistant message must contain only text, tool call or reasoning parts.");
      return ChatMessage.fromAssistant(texts[0]?.text ?? null, { meta, name, toolCalls, reasoning: reasoning[0] });
    }
    case "tool": {
      const results = parts.flatMap((p) => ("tool_call_result" in p ? [p.tool_call_result] : []));
      if (results.length !== 1 || parts.length > 1) throw new Error("Tool message must contain only one tool call result.");
      return ChatMessage.fromTool(results[0]!.result, results[0]!.origin, results[0]!.error, meta);
    }
    default:
      throw new Error(`Unsupported role: ${String(attrs.role)}`);
  }
}

/** Splits the rendered template at the markers into messages; text outside message blocks is an error. */
function splitMessages(rendered: string): ChatMessage[] {
  const pieces = rendered.split(MARK);
  const messages: ChatMessage[] = [];
  let open: { attrs: { role: unknown; name: unknown; meta: unknown }; body: (string | ContentPart)[] } | null = null;
  pieces.forEach((piece, i) => {
    if (i % 2 === 0) {
      if (open) open.body.push(piece);
      else if (piece.trim()) throw new Error(`A ChatPromptBuilder string template must put all text inside {% message %} blocks; found ${pythonRepr(piece.trim().slice(0, 80))}`);
      return;
    }
    const kind = piece[0], data = piece.slice(1);
    if (kind === "<") open = { attrs: JSON.parse(data), body: [] };
    else if (kind === ">") {
      messages.push(buildMessage(open!.attrs, open!.body));
      open = null;
    } else if (kind === "#") {
      if (!open) throw new Error("The templatize_part filter can only be used inside a {% message %} block.");
      open.body.push(contentPartFromDict(JSON.parse(data)));
    } else {
      if (open) throw new Error("{% insert %} cannot be used inside a {% message %} block.");
      messages.push(ChatMessage.fromDict(JSON.parse(data)));
    }
  });
  return messages;
}

/** Template errors name the template as written; they may reach an HTTP client, so they never show the nonce. */
function scrubbed<T>(source: string, fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (e instanceof Error) {
      const excerpt = JSON.stringify(source.length > 80 ? source.slice(0, 77) + "..." : source);
      e.message = e.message.replace(/ \(template: [\s\S]*\)$/, ` (template: ${excerpt})`).split(MARK).join("").split(NONCE).join("");
    }
    throw e;
  }
}

/** A string template, checked and compiled once: its variables in first-use order. */
export class ChatStringTemplate {
  private readonly rewritten: string;
  readonly variables: readonly string[];

  constructor(readonly source: string) {
    this.rewritten = scrubbed(source, () => rewriteChatTags(source));
    this.variables = scrubbed(source, () => compileTemplate(this.rewritten, CHAT_FILTERS, HAYSTACK_EXTENSIONS).variables);
  }

  render(variables: Record<string, unknown>): ChatMessage[] {
    return scrubbed(this.source, () => splitMessages(compileTemplate(this.rewritten, CHAT_FILTERS, HAYSTACK_EXTENSIONS).render(variables, { filters: chatFilters })));
  }
}
