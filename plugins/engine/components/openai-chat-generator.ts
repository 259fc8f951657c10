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

const chatInitSchema = v.object({
  ...openAIBaseEntries,
  /** Tool specs `{name, description, parameters}`, objects with a `toolSpec`, or toolsets of them. */
  tools: v.nullish(v.array(v.unknown())),
  tools_strict: v.optional(v.boolean(), false),
});

export type OpenAIChatGeneratorParams = v.InferOutput<typeof chatInitSchema>;

export interface OpenAIChatGeneratorInputs {
  messages: ChatMessage[];
  streaming_callback?: unknown;
  generation_kwargs?: Record<string, unknown> | null;
  tools?: unknown[] | null;
  tools_strict?: boolean | null;
}

export class OpenAIChatGenerator extends OpenAIBase<OpenAIChatGeneratorParams> {
  static override readonly type = "haystack.components.generators.chat.openai.OpenAIChatGenerator";
  static override readonly aliases = ["OpenAIChatGenerator"];
  static override readonly initSchema = chatInitSchema;

  constructor(init: unknown = {}) {
    super(init);
    // Bad or duplicate tools are a configuration error: report them when the component is made.
    openAITools(this.initParameters.tools, this.initParameters.tools_strict);
  }

  protected inputSpecs(): Record<string, InputSocketSpec> {
    return chatGeneratorInputs({ toolsStrict: true });
  }

  protected outputSpecs(): Record<string, OutputSocketSpec> {
    return chatGeneratorOutputs();
  }

  async run(inputs: OpenAIChatGeneratorInputs, ctx: ComponentContext): Promise<{ replies: ChatMessage[] }> {
    const init = this.initParameters;
    // Haystack answers an empty conversation with no replies rather than a request OpenAI rejects.
    if (!inputs.messages?.length) return { replies: [] };
    // Run-time values win over init values; generation kwargs merge key by key.
    const tools = openAITools(inputs.tools ?? init.tools, inputs.tools_strict ?? init.tools_strict);
    const request: ChatRequest = {
      ...init.generation_kwargs,
      ...inputs.generation_kwargs,
      messages: inputs.messages.map((m) => m.toOpenAI()) as unknown as ChatRequest["messages"],
      ...(tools ? { tools } : {}),
    };
    const callback = selectStreamingCallback(init.streaming_callback, inputs.streaming_callback);
    return { replies: await this.chat(request, ctx, callback) };
  }
}
