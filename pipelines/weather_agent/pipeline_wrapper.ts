// An agent with a tool, streaming: the Agent asks an OpenAI-compatible model, calls `get_weather`
// when the model wants it, and streams text and tool progress as it goes. Needs OPENAI_API_KEY (and
// OPENAI_BASE_URL for a local server); the weather itself is made up, so no other service is needed.
import * as v from "valibot";
import { BasePipelineWrapper, type ChatMessage as ChatMessageDict, type RunContext, getLastUserMessage } from "svc";
import { Agent, ChatMessage, OpenAIChatGenerator, StreamingChunk, streamingGenerator, tool } from "svc/engine";

const CONDITIONS = ["sunny", "cloudy", "rainy", "windy", "snowy"];

/** A deterministic stand-in for a weather service: the same city always gets the same weather. */
const getWeather = tool(
  {
    name: "get_weather",
    description: "Get the current weather in a city.",
    parameters: { type: "object", properties: { city: { type: "string", description: "The city name" } }, required: ["city"] },
  },
  async ({ city }) => {
    const seed = [...String(city)].reduce((n, ch) => n + ch.charCodeAt(0), 0);
    return `${CONDITIONS[seed % CONDITIONS.length]}, ${5 + (seed % 25)}°C in ${city}`;
  },
);

export class PipelineWrapper extends BasePipelineWrapper {
  static description = "A weather agent: answers questions about the weather, calling a weather tool when needed.";
  static inputSchema = v.object({ question: v.pipe(v.string(), v.minLength(1), v.description("A question about the weather.")) });

  private agent!: Agent;

  setup(): void {
    this.agent = new Agent({
      chat_generator: new OpenAIChatGenerator({ model: process.env.WEATHER_AGENT_MODEL ?? "gpt-4o-mini" }),
      tools: [getWeather],
      system_prompt: "You are a helpful weather assistant. Use the get_weather tool for current conditions.",
    });
  }

  /** Streams the answer as plain text, with a line for each tool call. */
  async *runApi(input: { question: string }, ctx: RunContext) {
    yield* this.stream([ChatMessage.fromUser(input.question)], ctx.signal);
  }

  /** The chat endpoints (OpenAI-compatible) stream the same way. */
  async *runChatCompletion(_model: string, messages: ChatMessageDict[], _body: Record<string, unknown>, ctx: RunContext) {
    yield* this.stream([ChatMessage.fromUser(getLastUserMessage(messages) ?? "")], ctx.signal);
  }

  private async *stream(messages: ChatMessage[], signal: AbortSignal) {
    for await (const item of streamingGenerator({
      pipeline: this.agent,
      pipelineRunArgs: { messages },
      signal,
      onToolCallStart: (name) => `\n[calling ${name}…]\n`,
      onToolCallEnd: (name, _args, result, error) => (error ? `[${name} failed]\n` : `[${name}: ${result}]\n`),
    })) {
      if (typeof item === "string") yield item;
      else if (item instanceof StreamingChunk && item.content) yield item.content;
    }
  }
}
