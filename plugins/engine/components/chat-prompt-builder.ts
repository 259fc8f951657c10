/**
 * @module ChatPromptBuilder: renders chat templates into ChatMessages (Haystack's
 * builders.chat_prompt_builder.ChatPromptBuilder). A template is either a list of ChatMessages
 * whose user and system texts are Jinja2 templates, or one string template made of
 * `{% message role="user" name=… meta=… %}…{% endmessage %}` blocks.
 */
import { randomBytes } from "node:crypto";
import * as v from "valibot";
import { Component, output, socket, type ComponentContext, type InputSocketSpec, type OutputSocketSpec } from "../component.js";
import { ChatMessage, type ChatRole } from "../dataclasses/chat-message.js";
import { compileTemplate, pythonRepr, TemplateError } from "../jinja.js";
import { checkRequired, renderVariables, requiredVariablesSchema, templateVariablesSocket, variableSockets, variablesSchema, type RequiredVariables } from "./prompt-builder.js";

const ROLES = ["user", "system", "assistant", "tool"] as const;
const messageDict = v.looseObject({ role: v.picklist(ROLES) });
// List items are checked by toMessages, which explains what a message must look like.
const templateSchema = v.union([v.string(), v.array(v.unknown())]);
const EMPTY_TEMPLATE =
  "The ChatPromptBuilder requires a non-empty list of ChatMessage instances. Please provide a valid list of ChatMessage instances to render the prompt.";

/**
 * The `{% message %}` tag is rewritten into output that brackets each message with a marker. The
 * marker holds a per-process random nonce, so rendered variable values cannot forge a message
 * boundary (and with it, say, a system message).
 */
const NONCE = randomBytes(12).toString("hex");
const MARK = `\u0000${NONCE}`;
const MARK_LITERAL = `\\u0000${NONCE}`;
const ATTRIBUTE = /\s*(\w+)\s*=(?!=)/y;

/** `role="user" name=n meta={...}` → a Jinja dict literal of the attribute expressions. */
function attributeDict(source: string): string {
  const attrs: Record<string, string> = { name: "none", meta: "{}" };
  let i = 0;
  while (source.slice(i).trim()) {
    ATTRIBUTE.lastIndex = i;
    const key = ATTRIBUTE.exec(source)?.[1];
    if (!key || !["role", "name", "meta"].includes(key)) throw new TemplateError(`Invalid {% message %} attributes '${source.trim()}': expected role=…, and optionally name=… and meta=…`);
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
    i = j;
  }
  if (!attrs.role) throw new TemplateError("A {% message %} tag needs a role, e.g. {% message role=\"user\" %}");
  return `{${Object.entries(attrs).map(([k, expr]) => `"${k}": (${expr})`).join(", ")}}`;
}

/** Rewrites `{% message %}` / `{% endmessage %}` (keeping `-` whitespace control) into marker output. */
function rewriteMessageTags(source: string): string {
  return source
    .replace(/\{%(-?)\s*message\b([\s\S]*?)(-?)%\}/g, (_, l, attrs, r) => `{{${l} "${MARK_LITERAL}<" ~ (${attributeDict(attrs)})|tojson ~ "${MARK_LITERAL}" ${r}}}`)
    .replace(/\{%(-?)\s*endmessage\s*(-?)%\}/g, (_, l, r) => `{{${l} "${MARK_LITERAL}>${MARK_LITERAL}" ${r}}}`);
}

/** One message from a rendered block, with Haystack's rules per role (texts are stripped). */
function buildMessage(attrs: { role: unknown; name: unknown; meta: unknown }, body: string): ChatMessage {
  const text = body.trim();
  if (!text) throw new Error(`Message template produced content that couldn't be parsed into any message parts. Content: ${pythonRepr(body)}`);
  const name = attrs.name === null ? null : String(attrs.name);
  const meta = attrs.meta && typeof attrs.meta === "object" && !Array.isArray(attrs.meta) ? (attrs.meta as Record<string, unknown>) : {};
  if (attrs.role === "user") return ChatMessage.fromUser(text, meta, name);
  if (attrs.role === "system") return ChatMessage.fromSystem(text, meta, name);
  if (attrs.role === "assistant") return ChatMessage.fromAssistant(text, { meta, name });
  throw new Error(`Unsupported role in {% message %}: ${pythonRepr(attrs.role)} (use user, system or assistant)`);
}

/** Splits the rendered string template at the markers into messages. */
function splitMessages(rendered: string): ChatMessage[] {
  const pieces = rendered.split(MARK);
  const messages: ChatMessage[] = [];
  let open: { attrs: { role: unknown; name: unknown; meta: unknown }; body: string } | null = null;
  pieces.forEach((piece, i) => {
    if (i % 2 === 0) {
      if (open) open.body += piece;
      else if (piece.trim()) throw new Error(`A ChatPromptBuilder string template must put all text inside {% message %} blocks; found ${pythonRepr(piece.trim().slice(0, 80))}`);
    } else if (piece.startsWith("<")) {
      if (open) throw new Error("{% message %} blocks cannot be nested");
      open = { attrs: JSON.parse(piece.slice(1)), body: "" };
    } else {
      messages.push(buildMessage(open!.attrs, open!.body));
      open = null;
    }
  });
  if (open) throw new Error("A {% message %} block is not closed with {% endmessage %}");
  return messages;
}

/** Template errors name the template as written; they may reach an HTTP client, so they never show the nonce. */
function scrubbed<T>(source: string, fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (e instanceof Error) {
      const excerpt = JSON.stringify(source.length > 80 ? source.slice(0, 77) + "..." : source);
      e.message = e.message.replace(/ \(template: [\s\S]*\)$/, ` (template: ${excerpt})`).split(NONCE).join("");
    }
    throw e;
  }
}

/** ChatMessages, or their dict form from YAML (also Haystack's older `_role`/`_content` form). */
function toMessages(template: readonly unknown[]): ChatMessage[] {
  return template.map((m) => {
    if (m instanceof ChatMessage) return m;
    const d = m as Record<string, unknown> | null;
    const dict = d && typeof d === "object" && "_role" in d ? { role: d._role, content: d._content, name: d._name, meta: d._meta } : d;
    const parsed = v.safeParse(messageDict, dict);
    if (!parsed.success) throw new Error(`Invalid chat message in template (expected {role: user|system|assistant|tool, content: [{text: …}]}): ${pythonRepr(m)}`);
    return ChatMessage.fromDict(parsed.output as Parameters<typeof ChatMessage.fromDict>[0]);
  });
}

const templated = (m: ChatMessage) => m.role === "user" || m.role === "system";

/** The texts of user and system messages are templates; they must have text (Haystack's rule). */
function messageTexts(messages: readonly ChatMessage[]): string[] {
  return messages.filter(templated).flatMap((m) => {
    if (!m.texts.length) throw new Error(`ChatMessages from ${m.role} role must contain text. Received ChatMessage with no text: ${pythonRepr(m.toDict())}`);
    return m.texts;
  });
}

interface ChatPromptBuilderInit {
  template: string | unknown[] | null;
  required_variables: RequiredVariables;
  variables: string[] | null;
}

export class ChatPromptBuilder extends Component<ChatPromptBuilderInit> {
  static override readonly type = "haystack.components.builders.chat_prompt_builder.ChatPromptBuilder";
  static override readonly aliases = ["ChatPromptBuilder"];
  static override readonly initSchema = v.strictObject({
    template: v.optional(v.nullable(templateSchema), null),
    required_variables: requiredVariablesSchema,
    variables: variablesSchema,
  });

  /** The init template: messages, or the string template rewritten for rendering. */
  private readonly template: readonly ChatMessage[] | string | null;
  readonly variables: readonly string[];

  constructor(init: unknown = {}) {
    super(init);
    const { template, variables } = this.initParameters;
    this.template = typeof template === "string" ? rewriteMessageTags(template) : template ? toMessages(template) : null;
    // Compile now so template errors surface when the pipeline is built; collect variables in first-use order.
    const found = typeof template === "string" ? scrubbed(template, () => compileTemplate(this.template as string).variables) : messageTexts((this.template as ChatMessage[] | null) ?? []).flatMap((t) => compileTemplate(t).variables);
    this.variables = variables ?? [...new Set(found)];
  }

  protected inputSpecs(): Record<string, InputSocketSpec> {
    return {
      ...variableSockets(this.variables, this.initParameters.required_variables),
      template: socket(v.nullable(v.union([v.array(v.instance(ChatMessage)), v.string()])), { default: null }),
      template_variables: templateVariablesSocket(),
    };
  }

  protected outputSpecs(): Record<string, OutputSocketSpec> {
    return { prompt: output(v.array(v.instance(ChatMessage))) };
  }

  run(inputs: Record<string, unknown>, _ctx?: ComponentContext): { prompt: ChatMessage[] } {
    const { template: override, variables } = renderVariables(inputs);
    const template = override === null || override === undefined ? this.template : typeof override === "string" ? rewriteMessageTags(override) : toMessages(v.parse(v.array(v.unknown()), override));
    if (!template || template.length === 0) throw new Error(EMPTY_TEMPLATE);
    checkRequired("ChatPromptBuilder", this.variables, this.initParameters.required_variables, variables);
    if (typeof template === "string") return { prompt: scrubbed(String(override ?? this.initParameters.template), () => splitMessages(compileTemplate(template).render(variables))) };
    messageTexts(template);
    return {
      prompt: template.map((m) =>
        // Assistant and tool messages pass through as Haystack passes them; non-text parts are kept.
        templated(m) ? new ChatMessage(m.role as ChatRole, m.content.map((p) => ("text" in p ? { text: compileTemplate(p.text).render(variables) } : p)), m.name, { ...m.meta }) : m,
      ),
    };
  }
}
