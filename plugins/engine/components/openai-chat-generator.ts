/**
 * @module OpenAIChatGenerator: Haystack's chat generator over OpenAI's Chat Completions API (or
 * any compatible server through `api_base_url`). ChatMessages in, assistant replies out, with
 * tools and streaming (pipeline-engine.md §4.2, §7.1).
 */
import * as v from "valibot";
import { selectStreamingCallback, type ComponentContext, type InputSocketSpec, type OutputSocketSpec } from "../component.js";
import { ChatMessage } from "../dataclasses/chat-message.js";
import { chatGeneratorInputs, chatGeneratorOutputs } from "./chat-generator-sockets.js";
import { OpenAIBase, openAIBaseEntries, type ChatRequest } from "./openai-base.js";
import { openAITools } from "./openai-conversion.js";
import { Toolset } from "../toolset.js";

const chatInitSchema = v.object({
  ...openAIBaseEntries,
  /**
   * A Toolset, or a list of Tools, Toolsets, tool specs `{name, description, parameters}` and
   * objects with a `toolSpec`. Kept as given (Haystack's `generator.tools`), so a Toolset is
   * dumped back as one; flattened per request.
   */
  tools: v.nullish(v.union([v.instance(Toolset), v.array(v.unknown())])),
  tools_strict: v.optional(v.boolean(), false),
});

export type OpenAIChatGeneratorParams = v.InferOutput<typeof chatInitSchema>;

export interface OpenAIChatGeneratorInputs {
  /** A string is one user message (Haystack's `_normalize_messages`). */
  messages: ChatMessage[] | string;
  streaming_callback?: unknown;
  generation_kwargs?: Record<string, unknown> | null;
  tools?: Toolset | unknown[] | null;
  tools_strict?: boolean | null;
}

export class OpenAIChatGenerator extends OpenAIBase<OpenAIChatGeneratorParams> {
  static override readonly type = "haystack.components.generators.chat.openai.OpenAIChatGenerator";
  static override readonly aliases = ["OpenAIChatGenerator"];
  static override readonly initSchema = chatInitSchema;
  /** A pipeline document's Toolset stays a Toolset here (yaml.ts), as in Haystack. */
  static readonly acceptsToolsets = true;
  /** A non-exhaustive list of chat models this component works with (Haystack's `SUPPORTED_MODELS`). */
  static readonly SUPPORTED_MODELS: readonly string[] = [
    "gpt-5-mini", "gpt-5-nano", "gpt-5", "gpt-5.1", "gpt-5.2", "gpt-5.2-pro", "gpt-5.4", "gpt-5-pro",
    "gpt-4.1", "gpt-4.1-mini", "gpt-4.1-nano", "gpt-4o", "gpt-4o-mini", "gpt-4-turbo", "gpt-4", "gpt-3.5-turbo",
  ];

  constructor(init: unknown = {}) {
    super(init);
    // Bad or duplicate tools are a configuration error: report them when the component is made.
    openAITools(this.initParameters.tools, this.initParameters.tools_strict);
  }

  protected inputSpecs(): Record<string, InputSocketSpec> {
    return chatGeneratorInputs({ stringMessages: true, toolsStrict: true });
  }

  protected outputSpecs(): Record<string, OutputSocketSpec> {
    return chatGeneratorOutputs();
  }

  async run(inputs: OpenAIChatGeneratorInputs, ctx: ComponentContext): Promise<{ replies: ChatMessage[] }> {
    const init = this.initParameters;
    const messages = typeof inputs.messages === "string" ? [ChatMessage.fromUser(inputs.messages)] : inputs.messages;
    // Haystack answers an empty conversation with no replies rather than a request OpenAI rejects.
    if (!messages?.length) return { replies: [] };
    // Run-time values win over init values; generation kwargs merge key by key.
    const tools = openAITools(inputs.tools ?? init.tools, inputs.tools_strict ?? init.tools_strict);
    const request: ChatRequest = {
      ...init.generation_kwargs,
      ...inputs.generation_kwargs,
      messages: messages.map((m) => m.toOpenAIDictFormat()) as unknown as ChatRequest["messages"],
      ...(tools ? { tools } : {}),
    };
    const callback = selectStreamingCallback(init.streaming_callback, inputs.streaming_callback);
    return { replies: await this.chat(request, ctx, callback) };
  }
}
