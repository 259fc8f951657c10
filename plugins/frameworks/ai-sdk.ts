/**
 * @module The Vercel AI SDK's results, recognised by shape (AI SDK 5 and 6; `ai` is never
 * imported): `streamText()` (and an Agent's `.stream()`) by its `fullStream`, `generateText()` (and
 * `.generate()`) by its `steps`. Both become svc chunks through the same reading of the SDK's parts:
 * text and reasoning deltas, tool input streaming, whole tool calls, tool results and errors, and
 * the `finish` part's reason and total usage. An `error` part is thrown, so each transport reports
 * a mid-stream failure its own way. Cancelling the stream does not stop the model call (the SDK
 * tees its streams): the wrapper passes `abortSignal: ctx.signal` for that.
 */
import { ChunkWriter, finishReasonOf, type AgentItem, type ChunkWriterOptions, type Tokens } from "./chunk-writer.js";

type Obj = Record<string, any>;
const isObject = (value: unknown): value is Obj => value !== null && typeof value === "object";

/** A `streamText()` result: it has the `fullStream` and `textStream` getters (not read here). */
export function isAiSdkStreamResult(value: unknown): value is { fullStream: AsyncIterable<unknown> } {
  return isObject(value) && "fullStream" in value && "textStream" in value;
}

/** A `generateText()` result: its steps, finish reason and total usage. */
export function isAiSdkGenerateResult(value: unknown): value is { steps: Obj[]; finishReason: unknown; totalUsage?: unknown; usage?: unknown } {
  return isObject(value) && Array.isArray(value.steps) && "finishReason" in value && "usage" in value && typeof value.text === "string";
}

/** Token counts from AI SDK 5 (`reasoningTokens`, `cachedInputTokens`) or 6 (`…Details`) usage. */
function tokensOf(usage: unknown): Tokens | undefined {
  if (!isObject(usage)) return undefined;
  return {
    input: usage.inputTokens,
    output: usage.outputTokens,
    total: usage.totalTokens,
    cached: usage.cachedInputTokens ?? usage.inputTokenDetails?.cacheReadTokens,
    reasoning: usage.reasoningTokens ?? usage.outputTokenDetails?.reasoningTokens,
  };
}

function errorOf(error: unknown): Error {
  if (error instanceof Error) return error;
  if (isObject(error) && typeof error.message === "string") return Object.assign(new Error(error.message), { cause: error });
  return new Error(typeof error === "string" ? error : "The model stream failed");
}

/** Reads the SDK's stream parts (or a generated step's content parts) into svc chunks. */
export class PartReader {
  private readonly writer: ChunkWriter;
  private finished = false;

  constructor(options: ChunkWriterOptions) {
    this.writer = new ChunkWriter(options);
  }

  read(part: unknown): AgentItem[] {
    if (!isObject(part)) return [];
    const w = this.writer;
    switch (part.type) {
      case "text-delta":
        return w.text(part.text ?? part.delta ?? part.textDelta ?? "");
      case "text":
        return w.text(typeof part.text === "string" ? part.text : "");
      case "reasoning-delta":
        return w.reasoning(part.text ?? part.delta ?? "");
      case "reasoning":
        return w.reasoning(typeof part.text === "string" ? part.text : "");
      case "tool-input-start":
        return w.callStart(part.id, part.id, part.toolName);
      case "tool-input-delta":
        return w.callArguments(part.id, part.delta ?? "");
      case "tool-call":
        // After streamed input (tool-input-*), the whole call adds nothing: `call` skips known ids.
        return w.call(part.toolCallId, part.toolCallId, part.toolName, part.input ?? part.args);
      case "tool-result":
        return w.callResult(part.toolCallId, part.toolName, part.input, part.output ?? part.result, false);
      case "tool-error":
        return w.callResult(part.toolCallId, part.toolName, part.input, errorOf(part.error).message, true);
      case "finish":
        if (part.totalUsage ?? part.usage) w.setUsage(tokensOf(part.totalUsage ?? part.usage)!);
        this.finished = true;
        return [w.finish(finishReasonOf(part.finishReason))];
      case "error":
        throw errorOf(part.error);
      case "abort":
        // The run was stopped (its abortSignal fired): no finish to report.
        this.finished = true;
        return [];
      default:
        // start, start-step, finish-step, *-start/-end, sources, files, raw: nothing to show.
        return [];
    }
  }

  /** A stream that ended without a `finish` part (aborted, say) still closes. */
  end(): AgentItem[] {
    return this.finished ? [] : [this.writer.finish()];
  }
}

export function* aiSdkGenerateChunks(result: { steps: Obj[]; finishReason: unknown; totalUsage?: unknown; usage?: unknown }, options: ChunkWriterOptions): Generator<AgentItem> {
  const reader = new PartReader(options);
  for (const step of result.steps) {
    for (const part of Array.isArray(step?.content) ? step.content : []) yield* reader.read(part);
  }
  yield* reader.read({ type: "finish", finishReason: result.finishReason, totalUsage: result.totalUsage ?? result.usage });
}
