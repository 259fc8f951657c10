/**
 * @module LangChain.js and LangGraph.js under test. `ScriptedChatModel` is LangChain's own
 * FakeStreamingChatModel playing scripted turns of real AIMessageChunks (with
 * `tool_call_chunks`, `usage_metadata`, reasoning and a finish reason, which the stock fake drops)
 * through the real streaming path and callbacks; the graph is a LangGraph.js agent built on it with
 * a real ToolNode.
 */
import { AIMessageChunk, HumanMessage } from "@langchain/core/messages";
import { ChatGenerationChunk, type ChatResult } from "@langchain/core/outputs";
import { tool } from "@langchain/core/tools";
import { FakeStreamingChatModel } from "@langchain/core/utils/testing";
import { END, MessagesAnnotation, START, StateGraph } from "@langchain/langgraph";
import { ToolNode, toolsCondition } from "@langchain/langgraph/prebuilt";
import type { CallbackManagerForLLMRun } from "@langchain/core/callbacks/manager";
import type { BaseMessage } from "@langchain/core/messages";
import { z } from "zod";

/** The agent's two turns: reasoning and a streamed tool call, then the answer; each with usage. */
export const weatherTurns = (): AIMessageChunk[][] => [
  [
    new AIMessageChunk({ content: "", additional_kwargs: { reasoning_content: "The user wants the weather; I will ask the tool." } }),
    new AIMessageChunk({ content: "", tool_call_chunks: [{ name: "weather", args: '{"city":', id: "call_lc1", index: 0, type: "tool_call_chunk" }] }),
    new AIMessageChunk({ content: "", tool_call_chunks: [{ args: '"Paris"}', index: 0, type: "tool_call_chunk" }] }),
    new AIMessageChunk({
      content: "",
      usage_metadata: { input_tokens: 10, output_tokens: 5, total_tokens: 15, output_token_details: { reasoning: 3 } },
      response_metadata: { finish_reason: "tool_calls" },
    }),
  ],
  [
    new AIMessageChunk({ content: "It is " }),
    new AIMessageChunk({ content: "sunny in Paris." }),
    new AIMessageChunk({ content: "", usage_metadata: { input_tokens: 20, output_tokens: 7, total_tokens: 27 }, response_metadata: { finish_reason: "stop" } }),
  ],
];

export interface ModelLog {
  calls: number;
  aborted: boolean;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class ScriptedChatModel extends FakeStreamingChatModel {
  constructor(
    private readonly turns: AIMessageChunk[][],
    readonly log: ModelLog = { calls: 0, aborted: false },
    /** Fail with this message after the first chunk of the last turn. */
    private readonly failWith?: string,
    /** Stop after the first chunk and wait for the abort signal. */
    private readonly hang = false,
  ) {
    super({});
  }

  /** Without streaming callbacks (a graph's updates mode), the turn's chunks joined into one message. */
  override async _generate(messages: BaseMessage[], options: this["ParsedCallOptions"], runManager?: CallbackManagerForLLMRun): Promise<ChatResult> {
    let message: AIMessageChunk | undefined;
    for await (const chunk of this._streamResponseChunks(messages, options, runManager)) message = message ? message.concat(chunk.message as AIMessageChunk) : (chunk.message as AIMessageChunk);
    const text = typeof message?.content === "string" ? message.content : "";
    return { generations: [{ message: message ?? new AIMessageChunk({ content: "" }), text }] };
  }

  override async *_streamResponseChunks(_messages: BaseMessage[], options: this["ParsedCallOptions"], runManager?: CallbackManagerForLLMRun): AsyncGenerator<ChatGenerationChunk> {
    const turn = this.turns[Math.min(this.log.calls++, this.turns.length - 1)]!;
    for (const [i, message] of turn.entries()) {
      await sleep(1);
      const text = typeof message.content === "string" ? message.content : "";
      const chunk = new ChatGenerationChunk({ message, text });
      yield chunk;
      await runManager?.handleLLMNewToken(text, undefined, undefined, undefined, undefined, { chunk });
      if (i === 0 && this.failWith) throw new Error(this.failWith);
      if (i === 0 && this.hang) {
        await new Promise<void>((resolve) => {
          if (options.signal?.aborted) return resolve();
          options.signal?.addEventListener("abort", () => resolve(), { once: true });
        });
        this.log.aborted = true;
        return;
      }
    }
  }
}

export const weather = tool(async ({ city }: { city: string }) => `sunny, 21°C in ${city}`, {
  name: "weather",
  description: "The current weather in a city",
  schema: z.object({ city: z.string() }),
});

/** A LangGraph.js agent: the model node, a real ToolNode, and the prebuilt tools condition. */
export function weatherGraph(model = new ScriptedChatModel(weatherTurns())) {
  return new StateGraph(MessagesAnnotation)
    .addNode("agent", async (state, config) => ({ messages: [await model.invoke(state.messages, config)] }))
    .addNode("tools", new ToolNode([weather]))
    .addEdge(START, "agent")
    .addConditionalEdges("agent", toolsCondition, ["tools", END])
    .addEdge("tools", "agent")
    .compile();
}

export const question = (prompt: string) => ({ messages: [new HumanMessage(prompt)] });
