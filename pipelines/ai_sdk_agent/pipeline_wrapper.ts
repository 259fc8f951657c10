// An agent built with the Vercel AI SDK, served as it is: `runChatCompletion` returns what
// `streamText()` returns, and svc streams its text, tool calls, reasoning and usage to every client
// (chat completions, the chat UI and Open WebUI, `/run` and MCP). Needs the `ai` and `@ai-sdk/openai`
// packages (a checkout's `npm install` brings them) and OPENAI_API_KEY (OPENAI_BASE_URL for any
// OpenAI-compatible server). Without them it still deploys and answers with an error saying so.
import * as v from "valibot";
import { BasePipelineWrapper, HttpError, getLastUserMessage, type ChatMessage, type RunContext } from "svc";

type AiSdk = typeof import("ai");
type OpenAIProvider = typeof import("@ai-sdk/openai");

const CONDITIONS = ["sunny", "cloudy", "rainy", "windy", "snowy"];

/** A deterministic stand-in for a weather service: the same city always gets the same weather. */
function weatherIn(city: string): string {
  const seed = [...city].reduce((n, ch) => n + ch.charCodeAt(0), 0);
  return `${CONDITIONS[seed % CONDITIONS.length]}, ${5 + (seed % 25)}°C in ${city}`;
}

export class PipelineWrapper extends BasePipelineWrapper {
  static description = "A weather agent built with the Vercel AI SDK: answers questions about the weather, calling a tool when needed.";
  static inputSchema = v.object({ question: v.pipe(v.string(), v.minLength(1), v.description("A question about the weather.")) });

  private sdk?: Promise<{ ai: AiSdk; openai: OpenAIProvider } | undefined>;

  /**
   * The packages, imported on first use rather than at the top: the example deploys quickly, and
   * without them it answers what to install.
   */
  private loadSdk() {
    return (this.sdk ??= Promise.all([import("ai"), import("@ai-sdk/openai")]).then(
      ([ai, openai]) => ({ ai, openai }),
      () => undefined,
    ));
  }

  runApi(input: { question: string }, ctx: RunContext) {
    return this.agent(input.question, ctx.signal);
  }

  runChatCompletion(_model: string, messages: ChatMessage[], _body: Record<string, unknown>, ctx: RunContext) {
    return this.agent(getLastUserMessage(messages) ?? "", ctx.signal);
  }

  private async agent(prompt: string, signal: AbortSignal) {
    const sdk = await this.loadSdk();
    if (!sdk) throw new HttpError(503, "The ai_sdk_agent example needs the AI SDK: run `npm install ai @ai-sdk/openai` where svc runs.");
    if (!process.env.OPENAI_API_KEY) {
      throw new HttpError(503, "The ai_sdk_agent example needs a model: set OPENAI_API_KEY (and OPENAI_BASE_URL for an OpenAI-compatible server).");
    }
    const { streamText, tool, jsonSchema, stepCountIs } = sdk.ai;
    const openai = sdk.openai.createOpenAI({ apiKey: process.env.OPENAI_API_KEY, baseURL: process.env.OPENAI_BASE_URL });
    return streamText({
      // `.chat`: the chat completions API, which OpenAI-compatible servers speak too.
      model: openai.chat(process.env.AI_SDK_AGENT_MODEL ?? "gpt-4o-mini"),
      system: "You are a helpful weather assistant. Use the get_weather tool for current conditions.",
      prompt,
      tools: {
        get_weather: tool({
          description: "Get the current weather in a city.",
          inputSchema: jsonSchema<{ city: string }>({ type: "object", properties: { city: { type: "string", description: "The city name" } }, required: ["city"] }),
          execute: async ({ city }) => weatherIn(city),
        }),
      },
      stopWhen: stepCountIs(5),
      // A client that goes away stops the model call.
      abortSignal: signal,
    });
  }
}
