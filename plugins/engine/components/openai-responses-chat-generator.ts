/**
 * @module OpenAIResponsesChatGenerator (haystack.components.generators.chat.openai_responses):
 * chat over OpenAI's Responses API (`POST /v1/responses`) with the `openai` client: tools as
 * function tools (strict unless `tools_strict` is off, additionalProperties false) or OpenAI/MCP
 * tool definitions as is, reasoning summaries, streaming of the Responses events, and the
 * Response itself (id, usage, status…) as the reply's meta. Client settings, time-outs and error
 * messages are the OpenAIChatGenerator's.
 */
import * as v from "valibot";
import { selectStreamingCallback, socket, warnerOf, type ComponentContext, type InputSocketSpec, type OutputSocketSpec } from "../component.js";
import { ChatMessage } from "../dataclasses/chat-message.js";
import { chatGeneratorInputs, chatGeneratorOutputs } from "./chat-generator-sockets.js";
import type { StreamingChunk } from "../dataclasses/streaming-chunk.js";
import { OpenAIBase, openAIBaseEntries } from "./openai-base.js";
import { isToolsType, Toolset, type ToolsType } from "../toolset.js";
import { openAITools } from "./openai-conversion.js";
import { chunkFromResponseEvent, messageFromResponse, messageFromResponseChunks, toResponsesInput } from "./openai-responses-conversion.js";

const Init = v.object({
  ...openAIBaseEntries,
  model: v.optional(v.string(), "gpt-5-mini"),
  /** Tools and Toolsets (kept as given, as Haystack keeps them), or OpenAI/MCP tool definitions. */
  tools: v.nullish(v.union([v.custom<ToolsType>(isToolsType), v.array(v.record(v.string(), v.unknown()))], "tools must be a list of Tool and/or Toolset objects, a Toolset, or a list of OpenAI/MCP tool definitions.")),
  tools_strict: v.optional(v.boolean(), false),
  /** httpx settings in Haystack; accepted for its YAML, not used by the Node client. */
  http_client_kwargs: v.nullish(v.record(v.string(), v.unknown())),
});

/** Haystack's shortcuts: reasoning_effort/summary/mode, include_reasoning_encrypted_content, verbosity. */
export function resolveResponsesKwargs(input: Record<string, unknown>): Record<string, any> {
  const kwargs: Record<string, any> = { ...input };
  const reasoning: Record<string, unknown> = {};
  for (const [key, field] of [["reasoning_effort", "effort"], ["reasoning_summary", "summary"], ["reasoning_mode", "mode"]] as const) {
    if (kwargs[key] !== undefined && kwargs[key] !== null) reasoning[field] = kwargs[key];
    delete kwargs[key];
  }
  if (Object.keys(reasoning).length) kwargs.reasoning = { ...(kwargs.reasoning ?? {}), ...reasoning };
  const encrypted = kwargs.include_reasoning_encrypted_content;
  delete kwargs.include_reasoning_encrypted_content;
  if (encrypted === true) {
    const include: string[] = kwargs.include ?? [];
    if (!include.includes("reasoning.encrypted_content")) kwargs.include = [...include, "reasoning.encrypted_content"];
  }
  if (kwargs.verbosity !== undefined && kwargs.verbosity !== null) kwargs.text = { ...(kwargs.text ?? {}), verbosity: kwargs.verbosity };
  delete kwargs.verbosity;
  return kwargs;
}

export class OpenAIResponsesChatGenerator extends OpenAIBase<v.InferOutput<typeof Init>> {
  static override readonly type = "haystack.components.generators.chat.openai_responses.OpenAIResponsesChatGenerator";
  static override readonly aliases = ["OpenAIResponsesChatGenerator"];
  static override readonly initSchema = Init;
  /** The YAML loader keeps a Toolset as a Toolset (Haystack's from_dict does), so it dumps back as one. */
  static readonly acceptsToolsets = true;
  /** A non-exhaustive list of models this component works with (Haystack's `SUPPORTED_MODELS`). */
  static readonly SUPPORTED_MODELS: readonly string[] = [
    "gpt-5-mini", "gpt-5-nano", "gpt-5", "gpt-5.1", "gpt-5.2", "gpt-5.2-pro", "gpt-5.4", "gpt-5-pro", "gpt-4.1", "gpt-4.1-mini",
    "gpt-4.1-nano", "gpt-4o", "gpt-4o-mini", "o1", "o1-mini", "o1-pro", "o3", "o3-mini", "o3-pro", "o4-mini",
  ];

  constructor(init: unknown = {}) {
    super(init);
    this.tools(this.initParameters.tools, this.initParameters.tools_strict);
  }

  protected inputSpecs(): Record<string, InputSocketSpec> {
    // Run-time tools may be a Toolset too (Haystack's `ToolsType | list[dict]`).
    return { ...chatGeneratorInputs({ stringMessages: true, toolsStrict: true }), tools: socket(v.nullable(v.union([v.array(v.unknown()), v.instance(Toolset)])), { default: null }) };
  }

  protected outputSpecs(): Record<string, OutputSocketSpec> {
    return chatGeneratorOutputs();
  }

  /** OpenAI/MCP tool definitions (plain objects with a `type`) go as is; engine tools become function tools. */
  private tools(tools: Iterable<unknown> & { length: number } | null | undefined, strict: boolean): Record<string, unknown>[] | undefined {
    if (!tools?.length) return undefined;
    const first = Array.isArray(tools) ? (tools[0] as Record<string, unknown>) : undefined;
    if (first && typeof first === "object" && Object.getPrototypeOf(first) === Object.prototype && typeof first.type === "string" && first.type !== "function") return tools as Record<string, unknown>[];
    return (openAITools(tools, false) ?? []).map(({ function: f }) => ({
      type: "function",
      name: f.name,
      ...(f.description !== undefined ? { description: f.description } : {}),
      parameters: { ...f.parameters, additionalProperties: false },
      ...(strict ? {} : { strict: false }),
    }));
  }

  async run(inputs: { messages: ChatMessage[] | string; streaming_callback?: unknown; generation_kwargs?: Record<string, unknown> | null; tools?: ToolsType | Record<string, unknown>[] | null; tools_strict?: boolean | null }, ctx: ComponentContext): Promise<{ replies: ChatMessage[] }> {
    const p = this.initParameters;
    const messages = typeof inputs.messages === "string" ? [ChatMessage.fromUser(inputs.messages)] : (inputs.messages ?? []);
    if (!messages.length) return { replies: [] };
    const warn = warnerOf(ctx);
    const kwargs = resolveResponsesKwargs({ ...p.generation_kwargs, ...inputs.generation_kwargs });
    const tools = this.tools(inputs.tools?.length ? inputs.tools : (p.tools as ToolsType | Record<string, unknown>[] | null | undefined), inputs.tools_strict ?? p.tools_strict);
    const body = { model: p.model, input: messages.flatMap(toResponsesInput), ...(tools ? { tools } : {}), ...kwargs };
    const callback = selectStreamingCallback(p.streaming_callback, inputs.streaming_callback);
    this.checkApiKey(ctx);
    const { client } = await this.connect();
    try {
      if (!callback) {
        const response = await client.responses.create({ ...body, stream: false } as any, this.requestOptions(ctx));
        return { replies: [messageFromResponse(response as any, warn)] };
      }
      const stream = await client.responses.create({ ...body, stream: true } as any, this.requestOptions(ctx));
      const chunks: StreamingChunk[] = [];
      const info = { type: this.type, name: ctx.name };
      for await (const event of stream as unknown as AsyncIterable<Record<string, any>>) {
        const chunk = chunkFromResponseEvent(event, chunks, info);
        chunks.push(chunk);
        await callback(chunk);
      }
      if (ctx.signal.aborted) throw ctx.signal.reason;
      return { replies: [messageFromResponseChunks(chunks, warn)] };
    } catch (error) {
      throw this.describe(error, ctx);
    }
  }
}
