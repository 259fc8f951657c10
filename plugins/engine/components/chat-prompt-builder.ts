/**
 * @module ChatPromptBuilder: renders chat templates into ChatMessages (Haystack's
 * builders.chat_prompt_builder.ChatPromptBuilder). A template is either a list of ChatMessages
 * whose user and system texts are Jinja2 templates, or one string template made of
 * `{% message role="user" name=… meta=… %}…{% endmessage %}` blocks (see chat-string-template.ts).
 */
import * as v from "valibot";
import { Component, output, socket, type ComponentContext, type InputSocketSpec, type OutputSocketSpec } from "../component.js";
import { ChatMessage } from "../dataclasses/chat-message.js";
import { compileTemplate, pythonRepr } from "../jinja.js";
import { ChatStringTemplate } from "./chat-string-template.js";
import { checkRequired, HAYSTACK_EXTENSIONS, warnAllOptional, renderVariables, requiredVariablesSchema, templateVariablesSocket, variableSockets, variablesSchema, type RequiredVariables } from "./prompt-builder.js";

const ROLES = ["user", "system", "assistant", "tool"] as const;
const messageDict = v.looseObject({ role: v.picklist(ROLES) });
// List items are checked by toMessages, which explains what a message must look like.
const templateSchema = v.union([v.string(), v.array(v.unknown())]);
const EMPTY_TEMPLATE =
  "The ChatPromptBuilder requires a non-empty list of ChatMessage instances. Please provide a valid list of ChatMessage instances to render the prompt.";

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

const FILTER_NOT_ALLOWED =
  "The templatize_part filter cannot be used with a template containing a list ofChatMessage objects. Use a string template or remove the templatize_part filter from the template.";

/** The text of a user or system message is its template (Haystack's rules: it must have one, without templatize_part). */
function messageText(m: ChatMessage): string {
  if (m.text === null) throw new Error(`ChatMessages from ${m.role} role must contain text. Received ChatMessage with no text: ${pythonRepr(m.toDict())}`);
  if (m.text.includes("templatize_part")) throw new Error(FILTER_NOT_ALLOWED);
  return m.text;
}
const compileText = (m: ChatMessage) => compileTemplate(messageText(m), [], HAYSTACK_EXTENSIONS);

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

  /** The init template: messages, or the compiled string template. */
  private readonly template: readonly ChatMessage[] | ChatStringTemplate | null;
  readonly variables: readonly string[];

  constructor(init: unknown = {}) {
    super(init);
    const { template, variables } = this.initParameters;
    // Compile now so template errors surface when the pipeline is built; collect variables in first-use order.
    this.template = typeof template === "string" ? new ChatStringTemplate(template) : template ? toMessages(template) : null;
    const found = this.template instanceof ChatStringTemplate ? this.template.variables : (this.template ?? []).filter(templated).flatMap((m) => compileText(m).variables);
    this.variables = variables ?? [...new Set(found)];
    warnAllOptional("ChatPromptBuilder", this.variables, this.initParameters.required_variables);
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
    const template = override === null || override === undefined ? this.template : typeof override === "string" ? new ChatStringTemplate(override) : toMessages(v.parse(v.array(v.unknown()), override));
    if (!template || (Array.isArray(template) && template.length === 0)) throw new Error(EMPTY_TEMPLATE);
    checkRequired("ChatPromptBuilder", this.variables, this.initParameters.required_variables, variables);
    if (template instanceof ChatStringTemplate) return { prompt: template.render(variables) };
    // As Haystack 3: a user or system message becomes its rendered text (other parts are dropped);
    // assistant and tool messages pass through unchanged.
    const compiled = (template as readonly ChatMessage[]).map((m) => (templated(m) ? compileText(m) : null));
    return {
      prompt: (template as readonly ChatMessage[]).map((m, i) => (compiled[i] ? new ChatMessage(m.role, [{ text: compiled[i]!.render(variables) }], m.name, { ...m.meta }) : m)),
    };
  }
}
