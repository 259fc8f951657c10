/**
 * @module AnthropicChatGenerator (haystack-core-integrations' anthropic chat generator): Claude
 * through Anthropic's Messages API with the official SDK — system messages as `system` blocks,
 * tools (engine tools, specs, or `anthropic_server_tools` given as is), extended thinking as
 * reasoning, streaming through the callback (`message_start`, `content_block_*`, `message_delta`
 * events as StreamingChunks), and usage in the reply's meta. `ANTHROPIC_BASE_URL` points the
 * client at another server, as the SDK does.
 */
import type Anthropic from "@anthropic-ai/sdk";

/** The SDK, loaded at the first request (it is large, and most servers never call Anthropic). */
type Sdk = typeof import("@anthropic-ai/sdk");
let sdk: Promise<Sdk> | undefined;
const loadSdk = () => {
  sdk ??= importOptional<Sdk>("@anthropic-ai/sdk", "AnthropicChatGenerator");
  // a failed import (package not installed yet) is tried again on the next call
  sdk.catch(() => (sdk = undefined));
  return sdk;
};
import * as v from "valibot";
import { traceHeaders } from "svc/plugin";
import { Component, selectStreamingCallback, warnerOf, type ComponentContext, type InputSocketSpec, type OutputSocketSpec } from "../component.js";
import { ChatMessage } from "../dataclasses/chat-message.js";
import { chatGeneratorInputs, chatGeneratorOutputs } from "./chat-generator-sockets.js";
import { Secret, secretParameter } from "../dataclasses/secret.js";
import type { StreamingCallback, StreamingChunk } from "../dataclasses/streaming-chunk.js";
import { chunkFromAnthropic, messageFromAnthropic, reasoningFromChunks, toAnthropicMessages } from "./anthropic-conversion.js";
import { messageFromChunks, openAITools } from "./openai-conversion.js";
import { importOptional } from "./optional-package.js";

const ALLOWED_PARAMS = ["system", "tools", "tool_choice", "max_tokens", "metadata", "stop_sequences", "temperature", "top_p", "top_k", "extra_headers", "thinking", "output_config"];

const Init = v.object({
  api_key: secretParameter("ANTHROPIC_API_KEY"),
  model: v.optional(v.string(), "claude-sonnet-4-5"),
  streaming_callback: v.nullish(v.function()),
  generation_kwargs: v.nullish(v.record(v.string(), v.unknown())),
  ignore_tools_thinking_messages: v.optional(v.boolean(), true),
  tools: v.nullish(v.array(v.unknown())),
  anthropic_server_tools: v.nullish(v.array(v.record(v.string(), v.unknown()))),
  /** Seconds; the SDK's default (10 minutes) when not set. */
  timeout: v.nullish(v.pipe(v.number(), v.minValue(0))),
  max_retries: v.nullish(v.pipe(v.number(), v.integer(), v.minValue(0))),
});

/** Haystack's shortcuts in generation kwargs (_resolve_flattened_generation_kwargs). */
export function resolveGenerationKwargs(input: Record<string, unknown>): Record<string, any> {
  const kwargs: Record<string, any> = structuredClone(input);
  const take = (key: string) => {
    const value = kwargs[key];
    delete kwargs[key];
    return value;
  };
  let disable = take("disable_parallel_tool_use");
  const parallel = take("parallel_tool_use");
  if (disable !== undefined && disable !== null && parallel !== undefined && parallel !== null) throw new Error("Cannot set both disable_parallel_tool_use and parallel_tool_use");
  if (parallel !== undefined && parallel !== null) disable = !parallel;
  if (disable !== undefined && disable !== null) kwargs.tool_choice = { type: "auto", ...(kwargs.tool_choice ?? {}), disable_parallel_tool_use: disable };
  const choiceType = take("tool_choice_type");
  if (choiceType !== undefined && choiceType !== null) kwargs.tool_choice = { ...(kwargs.tool_choice ?? {}), type: choiceType };
  const budget = take("thinking_budget_tokens");
  if (budget !== undefined && budget !== null) kwargs.thinking = { type: "enabled", ...(kwargs.thinking ?? {}), budget_tokens: budget };
  const effort = take("adaptive_thinking_effort");
  if (effort !== undefined && effort !== null) {
    if (effort === "disabled" || effort === "none") kwargs.thinking = { type: "disabled", ...(kwargs.thinking ?? {}) };
    else {
      kwargs.thinking = { type: "adaptive", ...(kwargs.thinking ?? {}) };
      kwargs.output_config = { ...(kwargs.output_config ?? {}), effort };
    }
  }
  return kwargs;
}

export class AnthropicChatGenerator extends Component<v.InferOutput<typeof Init>> {
  static override readonly type = "haystack_integrations.components.generators.anthropic.chat.chat_generator.AnthropicChatGenerator";
  static override readonly aliases = ["haystack_integrations.components.generators.anthropic.AnthropicChatGenerator", "AnthropicChatGenerator"];
  static override readonly initSchema = Init;

  /** The client and the key it was made with: a rotated key gets a new client. */
  private client?: { client: Anthropic; key: string };

  constructor(init: unknown = {}) {
    super(init);
    this.anthropicTools(this.initParameters.tools); // duplicate or malformed tools fail here
  }

  protected inputSpecs(): Record<string, InputSocketSpec> {
    return chatGeneratorInputs({ stringMessages: true });
  }

  protected outputSpecs(): Record<string, OutputSocketSpec> {
    return chatGeneratorOutputs();
  }

  private get apiKey(): Secret {
    return this.initParameters.api_key ?? Secret.fromEnvVar("ANTHROPIC_API_KEY");
  }

  async warmUp(): Promise<void> {
    const key = this.readKey();
    if (key) await this.connect(key);
  }

  private readKey(): string | undefined {
    try {
      return this.apiKey.resolveValue();
    } catch {
      return undefined;
    }
  }

  /** The key is read at every run, never kept from construction; a new key gets a new client. */
  private async connect(key: string): Promise<Anthropic> {
    if (this.client?.key !== key) {
      const { default: Anthropic } = await loadSdk();
      const { timeout, max_retries } = this.initParameters;
      const client = new Anthropic({
        apiKey: key,
        ...(timeout !== null && timeout !== undefined ? { timeout: Math.round(timeout * 1000) } : {}),
        ...(max_retries !== null && max_retries !== undefined ? { maxRetries: max_retries } : {}),
        openTelemetry: false, // the engine traces the component itself
      });
      this.client = { client, key };
    }
    return this.client.client;
  }

  /** Engine tools or specs as Anthropic tools, then the server tools (names must not clash). */
  private anthropicTools(tools: readonly unknown[] | null | undefined): Record<string, unknown>[] {
    const own = (openAITools(tools ?? null, false) ?? []).map((t) => ({ name: t.function.name, description: t.function.description ?? "", input_schema: t.function.parameters }));
    const server = this.initParameters.anthropic_server_tools ?? [];
    const clash = server.map((s) => s.name).filter((n) => typeof n === "string" && own.some((t) => t.name === n));
    if (clash.length) throw new Error(`Duplicate tool names found: ${JSON.stringify([...new Set(clash)].sort())}. \`anthropic_server_tools\` cannot reuse a name from \`tools\`.`);
    return [...own, ...server];
  }

  async run(inputs: { messages: ChatMessage[] | string; streaming_callback?: unknown; generation_kwargs?: Record<string, unknown> | null; tools?: unknown[] | null }, ctx: ComponentContext): Promise<{ replies: ChatMessage[] }> {
    const p = this.initParameters;
    const messages = typeof inputs.messages === "string" ? [ChatMessage.fromUser(inputs.messages)] : inputs.messages;
    const warn = warnerOf(ctx);
    let kwargs = resolveGenerationKwargs({ ...p.generation_kwargs, ...inputs.generation_kwargs });
    const disallowed = Object.keys(kwargs).filter((k) => !ALLOWED_PARAMS.includes(k));
    if (disallowed.length) warn(`Model parameters ${JSON.stringify(disallowed)} are not allowed and will be ignored. Allowed parameters are ${JSON.stringify(ALLOWED_PARAMS)}.`);
    kwargs = Object.fromEntries(Object.entries(kwargs).filter(([k]) => ALLOWED_PARAMS.includes(k)));
    const [system, anthropicMessages] = toAnthropicMessages(messages);
    const tools = this.anthropicTools(inputs.tools?.length ? inputs.tools : p.tools);
    const { extra_headers: headers, max_tokens: maxTokens, ...rest } = kwargs;
    const body = { model: p.model, messages: anthropicMessages, system, tools, max_tokens: maxTokens ?? 1024, ...rest };
    const callback = selectStreamingCallback(p.streaming_callback, inputs.streaming_callback);
    const key = this.readKey();
    if (!key) throw new Error(`AnthropicChatGenerator '${ctx.name}' has no Anthropic API key: set the environment variable ${this.apiKey.envVars.join(" or ") || "ANTHROPIC_API_KEY"}, or pass api_key.`);
    // The W3C trace context of the component's span, unless extra_headers set their own.
    const trace = traceHeaders(ctx.span);
    const options = { signal: ctx.signal, ...(headers || trace ? { headers: { ...trace, ...(headers as Record<string, string> | undefined) } } : {}) };
    const client = await this.connect(key);
    const errors = await loadSdk();
    try {
      if (!callback) {
        const response = await client.messages.create({ ...body, stream: false } as any, options);
        return { replies: [messageFromAnthropic(response as any, p.ignore_tools_thinking_messages)] };
      }
      const stream = await client.messages.create({ ...body, stream: true } as any, options);
      return { replies: [await this.collect(stream as unknown as AsyncIterable<Record<string, any>>, callback, ctx, warn)] };
    } catch (error) {
      throw this.describe(error, ctx, client.baseURL, errors);
    }
  }

  /** The streamed reply: every event the callback sees, then the message rebuilt from the chunks. */
  private async collect(stream: AsyncIterable<Record<string, any>>, callback: StreamingCallback, ctx: ComponentContext, warn: (m: string) => void): Promise<ChatMessage> {
    const chunks: StreamingChunk[] = [];
    const info = { type: this.type, name: ctx.name };
    let model: string | null = null;
    let inputTokens: number | null = null;
    let toolIndex = -1;
    let inServerTool = false;
    const blocks: Record<number, Record<string, any>> = {};
    for await (const event of stream) {
      if (!["message_start", "content_block_start", "content_block_delta", "message_delta"].includes(event.type)) continue;
      if (event.type === "message_start") {
        model = event.message?.model ?? null;
        inputTokens = event.message?.usage?.input_tokens ?? null;
      }
      if (event.type === "content_block_start") {
        if (event.content_block?.type === "tool_use") toolIndex++;
        inServerTool = event.content_block?.type === "server_tool_use";
        blocks[event.index] = structuredClone(event.content_block);
      }
      if (event.type === "content_block_delta" && event.delta?.type === "citations_delta") ((blocks[event.index] ??= {}).citations ??= []).push(event.delta.citation);
      const chunk = chunkFromAnthropic(event, info, toolIndex, inServerTool);
      chunks.push(chunk);
      await callback(chunk);
    }
    if (ctx.signal.aborted) throw ctx.signal.reason;
    const completion = messageFromChunks(chunks, warn);
    const meta: Record<string, any> = { ...completion.meta, received_at: new Date().toISOString(), model };
    if (inputTokens !== null) meta.usage = { ...(meta.usage ?? {}), input_tokens: inputTokens };
    const raw = Object.keys(blocks).sort((a, b) => Number(a) - Number(b)).map((k) => blocks[Number(k)]!);
    const citations = raw.flatMap((b) => (Array.isArray(b.citations) ? b.citations : []));
    if (this.initParameters.anthropic_server_tools?.length && citations.length) meta.citations = citations;
    return ChatMessage.fromAssistant(completion.text, { toolCalls: completion.toolCalls, meta, reasoning: reasoningFromChunks(chunks) ?? undefined });
  }

  private describe(err: unknown, ctx: ComponentContext, baseURL: string, { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError }: Sdk): unknown {
    const label = `AnthropicChatGenerator '${ctx.name}'`;
    if (ctx.signal.aborted) return ctx.signal.reason instanceof Error ? ctx.signal.reason : new Error(`${label}: the request was aborted.`, { cause: err });
    if (err instanceof APIConnectionTimeoutError) return new Error(`${label}: the Anthropic API at ${baseURL} timed out.`, { cause: err });
    if (err instanceof APIUserAbortError) return new Error(`${label}: the request was aborted.`, { cause: err });
    if (err instanceof APIConnectionError) return new Error(`${label}: could not reach the Anthropic API at ${baseURL}: ${(err.cause as Error | undefined)?.message ?? err.message}`, { cause: err });
    if (err instanceof APIError && err.status) {
      const detail = (err.error as { error?: { message?: unknown } } | undefined)?.error?.message;
      return Object.assign(new Error(`${label}: the Anthropic API answered ${err.status}: ${typeof detail === "string" ? detail : err.message}`, { cause: err }), { status: err.status });
    }
    return err;
  }
}
