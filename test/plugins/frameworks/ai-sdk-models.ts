/**
 * @module The AI SDK under test, in both majors svc supports: `ai` (6, LanguageModelV3 mocks) and
 * `ai-v5` (5, LanguageModelV2 mocks), behind one face. The scripted model first reasons and calls
 * the `weather` tool (streaming its input), then answers; each call reports its usage.
 */
import * as ai6 from "ai";
import * as ai5 from "ai-v5";
import { MockLanguageModelV3, simulateReadableStream as simulate6 } from "ai/test";
import { MockLanguageModelV2 } from "ai-v5/test";
import { z } from "zod";

export interface Turn {
  reasoning?: string;
  call?: { id: string; name: string; input: Record<string, unknown> };
  text?: string[];
  /** An error part after the text. */
  error?: string;
  usage: { input: number; output: number; reasoning?: number };
}

/** The agent's two model calls: a tool call, then the answer. */
export const WEATHER_TURNS: Turn[] = [
  { reasoning: "The user wants the weather; I will ask the tool.", call: { id: "call_w1", name: "weather", input: { city: "Paris" } }, usage: { input: 10, output: 5, reasoning: 3 } },
  { text: ["It is ", "sunny in Paris."], usage: { input: 20, output: 7 } },
];

function parts(turn: Turn, version: 5 | 6): unknown[] {
  const out: unknown[] = [{ type: "stream-start", warnings: [] }];
  if (turn.reasoning) out.push({ type: "reasoning-start", id: "r1" }, { type: "reasoning-delta", id: "r1", delta: turn.reasoning }, { type: "reasoning-end", id: "r1" });
  if (turn.call) {
    const json = JSON.stringify(turn.call.input);
    const half = Math.floor(json.length / 2);
    out.push(
      { type: "tool-input-start", id: turn.call.id, toolName: turn.call.name },
      { type: "tool-input-delta", id: turn.call.id, delta: json.slice(0, half) },
      { type: "tool-input-delta", id: turn.call.id, delta: json.slice(half) },
      { type: "tool-input-end", id: turn.call.id },
      { type: "tool-call", toolCallId: turn.call.id, toolName: turn.call.name, input: json },
    );
  }
  if (turn.text) {
    out.push({ type: "text-start", id: "t1" });
    for (const delta of turn.text) out.push({ type: "text-delta", id: "t1", delta });
    out.push({ type: "text-end", id: "t1" });
  }
  if (turn.error) {
    out.push({ type: "error", error: new Error(turn.error) });
    return out;
  }
  const { input, output, reasoning } = turn.usage;
  const unified = turn.call ? "tool-calls" : "stop";
  out.push(
    version === 6
      ? {
          type: "finish",
          finishReason: { unified, raw: unified },
          usage: { inputTokens: { total: input, noCache: input, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: output, text: output - (reasoning ?? 0), reasoning } },
        }
      : { type: "finish", finishReason: unified, usage: { inputTokens: input, outputTokens: output, totalTokens: input + output, reasoningTokens: reasoning } },
  );
  return out;
}

/** Records what the framework did with the model calls: the abort signals it passed, cancellations. */
export interface ModelLog {
  calls: number;
  signals: (AbortSignal | undefined)[];
  cancelled: boolean;
}

/**
 * A mock model of the given major playing `turns` in order. `hang` makes a turn's stream stop
 * after its first part and stay open until cancelled.
 */
export function scriptedModel(version: 5 | 6, turns: Turn[], log: ModelLog = { calls: 0, signals: [], cancelled: false }, hang = false) {
  const doStream = async (options: { abortSignal?: AbortSignal }) => {
    const turn = turns[Math.min(log.calls++, turns.length - 1)]!;
    log.signals.push(options.abortSignal);
    const chunks = parts(turn, version);
    const stream = hang
      ? new ReadableStream({
          start(controller) {
            controller.enqueue(chunks[0]);
            controller.enqueue({ type: "text-start", id: "t1" });
            controller.enqueue({ type: "text-delta", id: "t1", delta: "Thinking" });
            options.abortSignal?.addEventListener("abort", () => controller.error(options.abortSignal!.reason));
          },
          cancel() {
            log.cancelled = true;
          },
        })
      : simulate6({ chunks, chunkDelayInMs: 1 });
    return { stream } as any;
  };
  const generated = (turn: Turn) => {
    const content: unknown[] = [];
    if (turn.reasoning) content.push({ type: "reasoning", text: turn.reasoning });
    if (turn.call) content.push({ type: "tool-call", toolCallId: turn.call.id, toolName: turn.call.name, input: JSON.stringify(turn.call.input) });
    if (turn.text) content.push({ type: "text", text: turn.text.join("") });
    const finish = parts(turn, version).at(-1) as { finishReason: unknown; usage: unknown };
    return { content, finishReason: finish.finishReason, usage: finish.usage, warnings: [] };
  };
  const doGenerate = async () => generated(turns[Math.min(log.calls++, turns.length - 1)]!) as any;
  return version === 6 ? new MockLanguageModelV3({ doStream, doGenerate }) : new MockLanguageModelV2({ doStream, doGenerate });
}

/** `streamText`, `generateText`, `tool` and `stepCountIs` of the major under test. */
export function sdk(version: 5 | 6) {
  const m = (version === 6 ? ai6 : ai5) as typeof ai6;
  return { streamText: m.streamText, generateText: m.generateText, tool: m.tool, stepCountIs: m.stepCountIs };
}

/** The weather tool both majors accept (zod schema, deterministic answer). */
export function weatherTool(version: 5 | 6) {
  return sdk(version).tool({
    description: "The current weather in a city",
    inputSchema: z.object({ city: z.string() }),
    execute: async ({ city }: { city: string }) => `sunny, 21°C in ${city}`,
  });
}
