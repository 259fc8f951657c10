/**
 * @module OpenAIGenerator: Haystack's older prompt-in, strings-out generator (removed in Haystack
 * 3, kept for v2 YAML). It is the chat generator's call with the prompt as one user message, after
 * an optional system prompt; replies become their texts plus their meta.
 */
import * as v from "valibot";
import { output, selectStreamingCallback, socket, type ComponentContext, type InputSocketSpec, type OutputSocketSpec } from "../component.js";
import { ChatMessage } from "../dataclasses/chat-message.js";
import { OpenAIBase, openAIBaseEntries, type ChatRequest } from "./openai-base.js";

const generatorInitSchema = v.object({
  ...openAIBaseEntries,
  system_prompt: v.nullish(v.string()),
});

export type OpenAIGeneratorParams = v.InferOutput<typeof generatorInitSchema>;

export interface OpenAIGeneratorInputs {
  prompt: string;
  system_prompt?: string | null;
  streaming_callback?: unknown;
  generation_kwargs?: Record<string, unknown> | null;
}

export class OpenAIGenerator extends OpenAIBase<OpenAIGeneratorParams> {
  static override readonly type = "haystack.components.generators.openai.OpenAIGenerator";
  static override readonly aliases = ["OpenAIGenerator"];
  static override readonly initSchema = generatorInitSchema;

  protected inputSpecs(): Record<string, InputSocketSpec> {
    return {
      prompt: socket(v.string()),
      system_prompt: socket(v.nullable(v.string()), { default: null }),
      streaming_callback: socket(v.nullable(v.function()), { default: null }),
      generation_kwargs: socket(v.nullable(v.record(v.string(), v.unknown())), { default: null }),
    };
  }

  protected outputSpecs(): Record<string, OutputSocketSpec> {
    return { replies: output(v.array(v.string())), meta: output(v.array(v.record(v.string(), v.unknown()))) };
  }

  async run(inputs: OpenAIGeneratorInputs, ctx: ComponentContext): Promise<{ replies: string[]; meta: Record<string, unknown>[] }> {
    const init = this.initParameters;
    const systemPrompt = inputs.system_prompt ?? init.system_prompt;
    const messages = [...(systemPrompt ? [ChatMessage.fromSystem(systemPrompt)] : []), ChatMessage.fromUser(inputs.prompt)];
    const request: ChatRequest = {
      ...init.generation_kwargs,
      ...inputs.generation_kwargs,
      messages: messages.map((m) => m.toOpenAIDictFormat()) as unknown as ChatRequest["messages"],
    };
    const replies = await this.chat(request, ctx, selectStreamingCallback(init.streaming_callback, inputs.streaming_callback));
    return { replies: replies.map((r) => r.text ?? ""), meta: replies.map((r) => r.meta) };
  }
}
