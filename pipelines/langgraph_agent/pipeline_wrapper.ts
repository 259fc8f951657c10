// An agent built with LangGraph.js, served as it is: the wrappers return the graph's
// `.stream(…, { streamMode: "messages" })`, and svc streams its text, tool calls and usage to every
// client (chat completions, the chat UI and Open WebUI, `/run` and MCP). Needs `@langchain/core`,
// `@langchain/langgraph` and `@langchain/openai` (a checkout's `npm install` brings them) and
// OPENAI_API_KEY (OPENAI_BASE_URL for any OpenAI-compatible server). Without them it still deploys
// and answers with an error saying so.
import * as v from "valibot";
import { BasePipelineWrapper, HttpError, getLastUserMessage, type ChatMessage, type RunContext } from "svc";

const CONDITIONS = ["sunny", "cloudy", "rainy", "windy", "snowy"];

/** A deterministic stand-in for a weather service: the same city always gets the same weather. */
function weatherIn(city: string): string {
  const seed = [...city].reduce((n, ch) => n + ch.charCodeAt(0), 0);
  return `${CONDITIONS[seed % CONDITIONS.length]}, ${5 + (seed % 25)}°C in ${city}`;
}

/**
 * The packages, imported on first use rather than at the top: the example deploys quickly, and
 * without them it answers what to install.
 */
const importLangGraph = () =>
  Promise.all([import("@langchain/langgraph"), import("@langchain/langgraph/prebuilt"), import("@langchain/core/tools"), import("@langchain/openai")]);

type LangGraph = Awaited<ReturnType<typeof importLangGraph>>;

/** The graph: the model node, a tool node, and the prebuilt condition that routes between them. */
function buildGraph([{ StateGraph, MessagesAnnotation, START, END }, { ToolNode, toolsCondition }, { tool }, { ChatOpenAI }]: LangGraph) {
  const getWeather = tool(async ({ city }: { city: string }) => weatherIn(city), {
    name: "get_weather",
    description: "Get the current weather in a city.",
    schema: { type: "object", properties: { city: { type: "string", description: "The city name" } }, required: ["city"] },
  });
  const model = new ChatOpenAI({
    model: process.env.LANGGRAPH_AGENT_MODEL ?? "gpt-4o-mini",
    apiKey: process.env.OPENAI_API_KEY,
    configuration: { baseURL: process.env.OPENAI_BASE_URL },
    streamUsage: true,
  }).bindTools([getWeather]);
  const system = { role: "system", content: "You are a helpful weather assistant. Use the get_weather tool for current conditions." };
  return new StateGraph(MessagesAnnotation)
    .addNode("agent", async (state, config) => ({ messages: [await model.invoke([system, ...state.messages], config)] }))
    .addNode("tools", new ToolNode([getWeather]))
    .addEdge(START, "agent")
    .addConditionalEdges("agent", toolsCondition, ["tools", END])
    .addEdge("tools", "agent")
    .compile();
}


export class PipelineWrapper extends BasePipelineWrapper {
  static description = "A weather agent built with LangGraph.js: answers questions about the weather, calling a tool when needed.";
  static inputSchema = v.object({ question: v.pipe(v.string(), v.minLength(1), v.description("A question about the weather.")) });

  private packages?: Promise<LangGraph | undefined>;
  /** Built on first use, once a key is set. */
  private graph?: ReturnType<typeof buildGraph>;

  runApi(input: { question: string }, ctx: RunContext) {
    return this.stream(input.question, ctx.signal);
  }

  runChatCompletion(_model: string, messages: ChatMessage[], _body: Record<string, unknown>, ctx: RunContext) {
    return this.stream(getLastUserMessage(messages) ?? "", ctx.signal);
  }

  private async stream(question: string, signal: AbortSignal) {
    const packages = await (this.packages ??= importLangGraph().catch(() => undefined));
    if (!packages) {
      throw new HttpError(503, "The langgraph_agent example needs LangGraph.js: run `npm install @langchain/core @langchain/langgraph @langchain/openai` where svc runs.");
    }
    if (!process.env.OPENAI_API_KEY) {
      throw new HttpError(503, "The langgraph_agent example needs a model: set OPENAI_API_KEY (and OPENAI_BASE_URL for an OpenAI-compatible server).");
    }
    this.graph ??= buildGraph(packages);
    // `signal`: a client that goes away stops the graph and its model call.
    return this.graph.stream({ messages: [{ role: "user", content: question }] }, { streamMode: "messages", signal });
  }
}
